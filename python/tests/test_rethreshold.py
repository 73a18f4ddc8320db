"""result.rethreshold is the app's slider: the prepared analysis is reused (no load, no
preparation) and the report equals a fresh analysis at those thresholds."""
import pytest

import contend
from conftest import run_cli


@pytest.fixture(scope="module")
def prepared(before):
    return contend.analyze(before)


@pytest.mark.parametrize("coefficient, overlap", [(1.0, 0.7), (2.0, 0.5), (5.0, 0.9), (0.5, 0.05), (3.0, 1.0)])
def test_rethreshold_equals_a_fresh_analysis(before, prepared, coefficient, overlap):
    moved = prepared.rethreshold(coefficient=coefficient, overlap=overlap)
    fresh = contend.analyze(before, coefficient=coefficient, overlap=overlap)
    assert moved.to_json() == fresh.to_json()
    for name in ("anomalies", "windows", "clusters", "operators", "iterations", "patterns"):
        assert moved.table(name).equals(fresh.table(name)), name
    assert moved.settings["coefficient"] == coefficient
    assert moved.settings["overlap_ratio"] == overlap
    # Nothing was loaded or prepared again.
    assert moved.times["load_ms"] == 0 and moved.times["prepare_ms"] == 0


def test_rethreshold_equals_the_cli(before, prepared, tmp_path):
    out = tmp_path / "r.json"
    code, _, err = run_cli("analyze", before, "--coefficient", "1.2", "--json", str(out))
    assert code == 0, err
    assert prepared.rethreshold(coefficient=1.2).to_json().encode() == out.read_bytes()


def test_lower_coefficient_flags_more(prepared):
    low = prepared.rethreshold(coefficient=0.5)
    high = prepared.rethreshold(coefficient=10)
    assert len(low.anomalies) >= len(prepared.anomalies) >= len(high.anomalies)
    assert (high.anomalies.score > 10).all()
    # The original is untouched.
    assert prepared.settings["coefficient"] == 3.0


def test_rethreshold_keeps_what_if_off(before):
    plain = contend.analyze(before, what_if=False)
    moved = plain.rethreshold(coefficient=2.0)
    assert not moved.what_if["computed"]
    assert moved.to_json() == contend.analyze(before, coefficient=2.0, what_if=False).to_json()


def test_rethresholds_from_several_threads_agree_with_one_at_a_time(prepared):
    # The GIL is released during a re-threshold: threads share the prepared analysis and take
    # turns on its what-if cache.
    from concurrent.futures import ThreadPoolExecutor
    coefficients = [0.5, 1.0, 2.0, 4.0, 8.0, 16.0] * 2
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda c: prepared.rethreshold(coefficient=c).to_json(), coefficients))
    one_at_a_time = [prepared.rethreshold(coefficient=c).to_json() for c in coefficients]
    assert together == one_at_a_time
