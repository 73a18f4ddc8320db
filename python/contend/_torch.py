"""The PyTorch profiler hook: ``torch.profiler.profile(on_trace_ready=contend.torch_handler("log/"))``.

Writes each trace as ``torch.profiler.tensorboard_trace_handler`` does (the profiler's own
``export_chrome_trace``, into ``{dir}/{worker_name}.{timestamp_ms}.pt.trace.json[.gz]``, the
worker name defaulting to ``{hostname}_{pid}``), so TensorBoard and HTA read the folder as before,
then analyses the file with Contend and prints (or logs) the summary.
"""
import os
import socket
import time


class TorchHandler:
    """The callable ``on_trace_ready`` calls with the profiler. ``paths`` and ``results`` hold what
    it wrote and what it found, one entry per trace (a result is None where the analysis failed)."""

    def __init__(self, dir_name, worker_name=None, use_gzip=False, *, coefficient=3.0, overlap=0.7, what_if=True,
                 analyze=True, logger=None, raise_errors=False):
        self.dir_name = os.fspath(dir_name)
        self.worker_name = worker_name
        self.use_gzip = use_gzip
        self.coefficient = coefficient
        self.overlap = overlap
        self.what_if = what_if
        self.analyze = analyze
        self.logger = logger
        self.raise_errors = raise_errors
        self.paths = []
        self.results = []

    def __call__(self, prof):
        from . import Error, analyze

        try:
            os.makedirs(self.dir_name, exist_ok=True)
        except OSError as e:
            raise RuntimeError("Can't create directory: " + self.dir_name) from e
        if not self.worker_name:
            self.worker_name = f"{socket.gethostname()}_{os.getpid()}"
        file_name = f"{self.worker_name}.{int(time.time() * 1000)}.pt.trace.json"
        if self.use_gzip:
            file_name += ".gz"
        path = os.path.join(self.dir_name, file_name)
        prof.export_chrome_trace(path)
        self.paths.append(path)
        if not self.analyze:
            return None
        try:
            result = analyze(path, self.coefficient, self.overlap, what_if=self.what_if)
        except Error as e:
            # A training loop should not stop because a trace could not be analysed: say why.
            self.results.append(None)
            self._say(f"contend: {e}", warning=True)
            if self.raise_errors:
                raise
            return None
        self.results.append(result)
        self._say(result.summary_text())
        return result

    def _say(self, text, warning=False):
        if self.logger is None:
            print(text, flush=True)
        elif warning:
            self.logger.warning(text)
        else:
            self.logger.info(text)


def torch_handler(dir_name, worker_name=None, use_gzip=False, **options):
    """A ``on_trace_ready`` callable for ``torch.profiler.profile``: writes the trace as
    ``tensorboard_trace_handler(dir_name, worker_name, use_gzip)`` does, then analyses it with
    Contend and prints the summary (or logs it with ``logger=``: info, failures as warnings).

    Options: ``coefficient``, ``overlap``, ``what_if`` (as :func:`contend.analyze`), ``analyze``
    (False: write only), ``logger``, ``raise_errors`` (True: an analysis failure raises instead
    of being logged).
    """
    return TorchHandler(dir_name, worker_name, use_gzip, **options)
