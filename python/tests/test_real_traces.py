"""contend.analyze against contend-cli analyze on every real trace under ../shared/traces: the
traces the CLI analyses give the same bytes of JSON and DataFrames that hold what it holds; the
ones it refuses are refused with its message. Reported as skipped (ctest too) without the
folder."""
import json
import os

import pytest

import contend
from conftest import SHARED_TRACES, run_cli
from report_check import check_result


def _real_traces():
    if not os.path.isdir(SHARED_TRACES):
        return []
    found = []
    for folder, dirs, files in os.walk(SHARED_TRACES):
        found += [os.path.join(folder, d) for d in dirs if d.endswith("_ascend_pt")]
        found += [os.path.join(folder, f) for f in files if f.endswith((".json", ".json.gz", ".sqlite", ".db"))]
    return sorted(found)


def _name(path):
    return os.path.relpath(path, SHARED_TRACES) if isinstance(path, str) else "none"


@pytest.mark.skipif(not os.path.isdir(SHARED_TRACES),
                    reason=f"contend-test-skipped: {SHARED_TRACES} not found: real-trace tests skipped")
@pytest.mark.parametrize("path", _real_traces(), ids=_name)
def test_real_trace_matches_cli(cli, path, tmp_path):
    out = tmp_path / "report.json"
    code, _, err = run_cli("analyze", path, "--json", str(out))
    if code != 0:
        # Not something the CLI analyses: the module refuses it with the CLI's message.
        with pytest.raises(contend.Error) as refused:
            contend.analyze(path)
        assert str(refused.value) in err
        return
    result = contend.analyze(path)
    cli_bytes = out.read_bytes()
    assert result.to_json().encode() == cli_bytes
    check_result(result, json.loads(result.to_json(schema=2)))
