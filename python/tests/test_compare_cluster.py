"""contend.compare and contend.cluster against contend-cli compare and cluster."""
import json
import os

import contend
from conftest import run_cli


def test_compare_matches_cli(before, after, tmp_path):
    out = tmp_path / "cmp.json"
    code, _, err = run_cli("compare", before, after, "--json", str(out))
    assert code == 0, err
    c = contend.compare(before, after)
    assert c.to_json().encode() == out.read_bytes()
    doc = json.loads(out.read_bytes())
    assert c.verdict == doc["summary"]["verdict"]
    counts = doc["summary"]["counts"]
    for table in ("anomalies", "windows", "clusters"):
        df = getattr(c, table)
        for status in ("resolved", "persisting", "new"):
            assert (df.status == status).sum() == counts[table][status], (table, status)
    assert len(c.operators) == len(doc["operators"])
    assert set(c.extra_wait_by_resource.index) == set(doc["summary"]["extra_wait_by_resource"])


def test_compare_takes_results_and_rethresholds_them(before, after, tmp_path):
    out = tmp_path / "cmp.json"
    code, _, err = run_cli("compare", before, after, "--coefficient", "2", "--json", str(out))
    assert code == 0, err
    base, new = contend.analyze(before), contend.analyze(after)
    assert contend.compare(base, new, coefficient=2).to_json().encode() == out.read_bytes()


def test_cluster_matches_cli(tmp_path):
    ranks = tmp_path / "ranks"
    code, _, err = run_cli("simulate", "bandwidth", "--ranks", "4", "--slow-rank", "2", "--iterations", "6",
                           "--out", str(ranks))
    assert code == 0, err
    out = tmp_path / "cluster.json"
    code, _, err = run_cli("cluster", str(ranks), "--out", str(out))
    assert code == 0, err
    seen = []
    c = contend.cluster(str(ranks), progress=lambda stage, fraction: seen.append(stage))
    assert c.to_json().encode() == out.read_bytes()
    doc = json.loads(out.read_bytes())
    assert list(c.slow_ranks["rank"]) == [s["rank"] for s in doc["slow_ranks"]]
    assert len(c.ranks) == 4
    assert len(c.steps) == sum(len(it["ranks"]) for it in doc["iterations"])
    assert len(c.collectives) == len(doc["collectives"])
    assert seen[-1] == "done"
    assert os.path.isdir(ranks)


def test_compare_judges_both_runs_at_the_result_thresholds(before, after, tmp_path):
    out = tmp_path / "cmp.json"
    code, _, err = run_cli("compare", before, after, "--coefficient", "1.5", "--json", str(out))
    assert code == 0, err
    base = contend.analyze(before, coefficient=1.5)
    assert contend.compare(base, after).to_json().encode() == out.read_bytes()
