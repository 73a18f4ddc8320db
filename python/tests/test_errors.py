"""Bad input, bad requests, cancels and interrupts: Python exceptions carrying core's kind,
file and place, with the CLI's message."""
import gzip
import os
import shutil
import _thread

import pytest

import contend
from conftest import run_cli


def _cli_message(path):
    code, _, err = run_cli("analyze", path)
    assert code != 0
    return err


def test_missing_file_is_unreadable(tmp_path):
    path = str(tmp_path / "nope.json")
    with pytest.raises(contend.UnreadableError) as e:
        contend.analyze(path)
    assert e.value.kind == "unreadable"
    assert e.value.file == path
    assert isinstance(e.value, OSError)
    assert str(e.value) in _cli_message(path)


@pytest.mark.parametrize("text, reason_word", [
    ('{"traceEvents": [{"name": "k", "ph": "X", "ts": 1, "dur": 2,, }]}', None),
    ('{"traceEvents": [{"name": "k", "ph": "X", "ts": 1, "dur": 2, "pid": 1, "tid": 1}', None),
    ('[{"name": "k" "ph": "X"}]', None),
])
def test_broken_json_names_the_place(tmp_path, text, reason_word):
    path = tmp_path / "broken.json"
    path.write_text(text)
    try:
        result = contend.analyze(str(path))
    except contend.Error as e:
        # Refused: the CLI's words, the file, and the place when the reader knows it.
        assert e.file == str(path)
        assert str(e) in _cli_message(str(path))
        if isinstance(e, contend.MalformedError):
            assert e.offset is not None or e.line is not None
        return
    # Kept going past a bad event or a cut end (the readers' rule): the CLI agrees.
    code, _, err = run_cli("analyze", str(path))
    assert code == 0, err
    assert result.trace_info["path"] == str(path)


def test_garbage_after_events_in_gzip_does_what_the_cli_does(tmp_path):
    path = tmp_path / "cut.json.gz"
    with gzip.open(path, "wb") as f:
        f.write(b'{"traceEvents": [{"name": "k", "ph": "X", "ts": 1, "dur": 2, "pid": 1, "tid": 1}, ' + b"@" * 64)
    code, _, err = run_cli("analyze", str(path))
    if code == 0:
        assert contend.analyze(str(path)).trace_info["operators"] == 1
    else:
        with pytest.raises(contend.Error) as e:
            contend.analyze(str(path))
        assert str(e.value) in err


def test_not_a_trace(tmp_path):
    import sqlite3
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("create table a(b)")
    db.commit()
    db.close()
    with pytest.raises(contend.NotATraceError) as e:
        contend.load(str(path))
    assert e.value.kind == "not_a_trace"
    assert e.value.file == str(path)
    assert str(e.value) in _cli_message(str(path))


def test_binary_file_is_refused_at_byte_0(tmp_path):
    path = tmp_path / "image.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + b"0" * 16)
    with pytest.raises(contend.Error) as e:
        contend.load(str(path))
    assert e.value.offset == 0 and e.value.line == 1
    assert str(e.value) in _cli_message(str(path))


@pytest.mark.parametrize("options", [{"coefficient": 0.01}, {"coefficient": 60}, {"overlap": 0.0},
                                     {"overlap": 1.5}])
def test_thresholds_out_of_range_are_invalid(before, options):
    with pytest.raises(contend.InvalidError) as e:
        contend.analyze(before, **options)
    assert ("coefficient" if "coefficient" in options else "overlap") in str(e.value)
    with pytest.raises(contend.InvalidError):
        contend.analyze(before).rethreshold(**options)


def test_missing_config_names_the_file(before, tmp_path):
    config = str(tmp_path / "missing-config.json")
    with pytest.raises(contend.Error) as e:
        contend.analyze(before, config=config)
    assert config in str(e.value)


def test_progress_returning_false_cancels(before):
    with pytest.raises(contend.CancelledError) as e:
        contend.analyze(before, progress=lambda stage, fraction: False)
    assert e.value.kind == "cancelled"


def test_progress_error_stops_and_is_raised(before):
    def fails(stage, fraction):
        raise RuntimeError("from the callback")

    with pytest.raises(RuntimeError, match="from the callback"):
        contend.analyze(before, progress=fails)


def test_ctrl_c_cancels_with_keyboard_interrupt(before):
    # interrupt_main() is what Ctrl+C does to the main thread: the pending SIGINT is seen at the
    # module's next check, core's cancel flag is set, and KeyboardInterrupt comes out.
    told = []

    def interrupt(stage, fraction):
        if not told:
            _thread.interrupt_main()
        told.append(stage)

    with pytest.raises(KeyboardInterrupt):
        contend.analyze(before, progress=interrupt)
    # The module is usable again afterwards.
    assert contend.analyze(before).summary["anomalies"] >= 0


def test_cluster_folder_without_ranks(tmp_path):
    with pytest.raises(contend.NotATraceError) as e:
        contend.cluster(str(tmp_path))
    assert e.value.file == str(tmp_path)
