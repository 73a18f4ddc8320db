"""contend.torch_handler with a stand-in for torch.profiler.profile (torch is not needed): it
writes the trace where and as tensorboard_trace_handler does, then analyses it."""
import gzip
import logging
import re
import shutil

import pytest

import contend


class StandInProfiler:
    """Has what the handler uses of torch.profiler.profile: export_chrome_trace(path), which
    writes gzip when the path ends in .gz (as the profiler does)."""

    def __init__(self, source):
        self.source = source
        self.exported = []

    def export_chrome_trace(self, path):
        self.exported.append(path)
        with gzip.open(self.source, "rb") as src:
            data = src.read()
        if path.endswith(".gz"):
            with gzip.open(path, "wb") as f:
                f.write(data)
        else:
            with open(path, "wb") as f:
                f.write(data)


@pytest.mark.parametrize("use_gzip", [False, True])
def test_writes_like_tensorboard_handler_and_analyses(before, tmp_path, capsys, use_gzip):
    handler = contend.torch_handler(str(tmp_path / "log"), worker_name="worker0", use_gzip=use_gzip)
    prof = StandInProfiler(before)
    result = handler(prof)
    (path,) = prof.exported
    name = path.rsplit("/", 1)[1]
    assert re.fullmatch(r"worker0\.\d{13}\.pt\.trace\.json" + (r"\.gz" if use_gzip else ""), name), name
    assert handler.paths == [path]
    expected = contend.analyze(before)
    assert result.summary == expected.summary
    assert result.anomalies.drop(columns=[]).shape == expected.anomalies.shape
    printed = capsys.readouterr().out
    assert f"{expected.summary['anomalies']} anomalies" in printed
    assert path in printed


def test_default_worker_name_and_logger(before, tmp_path, caplog):
    import os
    import socket
    handler = contend.torch_handler(tmp_path, logger=logging.getLogger("contend-test"))
    with caplog.at_level(logging.INFO, logger="contend-test"):
        handler(StandInProfiler(before))
    assert os.path.basename(handler.paths[0]).startswith(f"{socket.gethostname()}_{os.getpid()}.")
    assert any("anomalies" in r.message for r in caplog.records)


class BrokenProfiler:
    def export_chrome_trace(self, path):
        with open(path, "w") as f:
            f.write('{"traceEvents": [')


def test_a_trace_that_cannot_be_analysed_is_logged_not_raised(tmp_path, caplog):
    handler = contend.torch_handler(tmp_path, worker_name="w", logger=logging.getLogger("contend-test"))
    with caplog.at_level(logging.WARNING, logger="contend-test"):
        handler(BrokenProfiler())
    if handler.results[0] is None:
        assert any(r.levelno == logging.WARNING and "contend:" in r.message for r in caplog.records)
        strict = contend.torch_handler(tmp_path, worker_name="w", raise_errors=True, logger=logging.getLogger("x"))
        with pytest.raises(contend.Error):
            strict(BrokenProfiler())


def test_analyze_false_only_writes(before, tmp_path):
    handler = contend.torch_handler(tmp_path, worker_name="w", analyze=False)
    assert handler(StandInProfiler(before)) is None
    assert handler.results == [] and len(handler.paths) == 1
