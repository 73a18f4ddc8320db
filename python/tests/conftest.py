"""Shared fixtures: where the CLI, the samples and the real traces are.

The tests import the contend package from PYTHONPATH (the build's python/ folder, as the ctest
entries set it, or an installed one) and compare it with ``contend-cli`` (CONTEND_CLI, else
build/app/cli/contend-cli under the repository root).
"""
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = os.path.join(ROOT, "resources", "samples")
SHARED_TRACES = os.path.join(os.path.dirname(ROOT), "shared", "traces")


def cli_path():
    return os.environ.get("CONTEND_CLI") or os.path.join(ROOT, "build", "app", "cli", "contend-cli")


def run_cli(*args):
    """contend-cli with `args`: (exit code, stdout bytes, stderr text)."""
    p = subprocess.run([cli_path(), *args], capture_output=True, cwd=ROOT)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def sample_paths():
    return sorted(os.path.join(SAMPLES, f) for f in os.listdir(SAMPLES) if f.endswith((".json", ".json.gz"))
                  and not f.endswith(".truth.json"))


@pytest.fixture(scope="session")
def cli():
    path = cli_path()
    if not os.access(path, os.X_OK):
        pytest.fail(f"contend-cli not found at {path} (set CONTEND_CLI)")
    return path


@pytest.fixture(scope="session")
def before():
    return os.path.join(SAMPLES, "projectx-before.json.gz")


@pytest.fixture(scope="session")
def after():
    return os.path.join(SAMPLES, "projectx-after.json.gz")
