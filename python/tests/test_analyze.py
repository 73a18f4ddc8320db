"""contend.analyze against contend-cli analyze on the bundled samples: the same bytes of JSON,
and DataFrames that hold what the JSON holds (the real traces: test_real_traces.py)."""
import json
import os

import pytest

import contend
from conftest import run_cli, sample_paths
from report_check import check_result


@pytest.mark.parametrize("path", sample_paths(), ids=os.path.basename)
def test_sample_matches_cli(cli, path, tmp_path):
    out = tmp_path / "report.json"
    code, _, err = run_cli("analyze", path, "--json", str(out))
    assert code == 0, err
    cli_bytes = out.read_bytes()
    result = contend.analyze(path)
    assert result.to_json().encode() == cli_bytes
    doc = json.loads(result.to_json(schema=2))  # a dict per finding, as the tables have them
    check_result(result, doc)
    assert result.anomalies.shape[0] == doc["summary"]["anomalies"]
    assert result.summary == doc["summary"]
    assert result.what_if == doc["what_if"]
    assert result.trace_info == doc["trace"]


def test_shape_is_the_cli_count(before):
    # The README's check: the anomaly count contend-cli prints.
    code, out, err = run_cli("analyze", before)
    assert code == 0, err
    line = next(l for l in out.decode().splitlines() if l.startswith("summary:"))
    count = int(line.split()[1])
    assert contend.analyze(before).anomalies.shape[0] == count


def test_to_json_writes_the_file(before, tmp_path):
    result = contend.analyze(before)
    target = tmp_path / "out.json"
    assert result.to_json(target) is None
    assert target.read_text() == result.to_json()
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_options_reach_core(before, tmp_path):
    out = tmp_path / "r.json"
    code, _, err = run_cli("analyze", before, "--coefficient", "1.5", "--overlap", "0.4", "--json", str(out))
    assert code == 0, err
    assert contend.analyze(before, coefficient=1.5, overlap=0.4).to_json().encode() == out.read_bytes()
    no_whatif = contend.analyze(before, what_if=False)
    assert not no_whatif.what_if["computed"]
    assert no_whatif.anomalies.gain_ns.isna().all()


def test_trace_loads_once_and_analyses_the_same(before):
    trace = contend.load(before)
    info = trace.info()
    code, out, err = run_cli("info", before, "--json")
    assert code == 0, err
    cli_info = json.loads(out)
    for key in ("format", "events", "operators", "device_operators", "span_ns", "flows", "truncated"):
        assert info[key] == cli_info[key], key
    assert len(info["tracks"]) == len(cli_info["tracks"])
    assert contend.analyze(trace).to_json() == contend.analyze(before).to_json()


def test_progress_is_told_in_order(before):
    seen = []
    contend.analyze(before, progress=lambda stage, fraction: seen.append((stage, fraction)))
    assert seen and seen[-1] == ("done", 1.0)
    fractions = [f for _, f in seen]
    assert fractions == sorted(fractions)
    assert all(0.0 <= f <= 1.0 for f in fractions)


def test_progress_true_without_tqdm_prints_the_stages(before, capsys, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    contend.analyze(before, progress=True)
    err = capsys.readouterr().err
    assert "analysing: done (100%)" in err


def test_progress_must_be_callable(before):
    with pytest.raises(TypeError):
        contend.analyze(before, progress="yes")


@pytest.mark.parametrize("schema", ["4", "3", "2"])
def test_read_report_gives_the_tables_of_the_analysis(cli, before, tmp_path, schema):
    # A saved report, /4, /3 or /2, reads back into the tables the analysis has.
    out = tmp_path / "report.json"
    code, _, err = run_cli("analyze", before, "--json", str(out), "--json-schema", schema)
    assert code == 0, err
    read = contend.read_report(out)
    result = contend.analyze(before)
    check_result(read, json.loads(result.to_json(schema=2)))
    assert read.summary == result.summary
    assert read.to_json() == result.to_json()
    assert contend.compare(read, result).summary["counts"]["anomalies"]["new"] == 0
    with pytest.raises(ValueError):
        read.rethreshold(coefficient=1.0)


def test_read_report_names_the_file_and_place(tmp_path, before):
    doc = contend.analyze(before).to_dict()
    doc["anomalies"]["score_f32"][0] = "high"  # report/4: the scores as 32-bit floats
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(contend.Error) as e:
        contend.read_report(bad)
    assert "bad.json" in str(e.value)
    assert "anomalies.score_f32[0]" in str(e.value)
