"""Contend in Python: Contend's C++ core as a module, with pandas DataFrames.

    import contend
    result = contend.analyze("trace.json.gz")          # what `contend-cli analyze` does
    result.anomalies                                   # a DataFrame, one row per flagged operator
    result.rethreshold(coefficient=2.0).anomalies      # the app's slider: no new analysis
    contend.compare("before.json.gz", "after.json.gz").verdict
    contend.cluster("run_dir/").ranks

Every number comes from core (the same code as contend-cli and the app); this package only
turns core's values into DataFrames. The GIL is released while core works, a progress callback
(or ``progress=True`` for a tqdm bar) is told the stage, and Ctrl+C (KeyboardInterrupt) cancels
at core's next check. Failures are :class:`contend.Error` subclasses carrying the kind, the file
and the place. See python/README.md.
"""
import json as _json

from . import _core
from ._errors import (CancelledError, Error, InternalError, InvalidError, MalformedError, NotATraceError,
                      OutOfMemoryError, UnreadableError, UnsupportedError)
from ._frames import frame as _frame
from ._frames import records as _records
from ._progress import callback as _callback
from ._torch import torch_handler

__all__ = ["load", "analyze", "read_report", "compare", "cluster", "torch_handler", "formats", "Trace", "Result", "Comparison",
           "Cluster", "Error", "UnreadableError", "MalformedError", "NotATraceError", "OutOfMemoryError",
           "CancelledError", "UnsupportedError", "InternalError", "InvalidError"]

__version__ = _core.version().split(" ")[0]

DEFAULT_COEFFICIENT = 3.0
DEFAULT_OVERLAP = 0.7


def _limit(memory_limit):
    # 0: core's default (CONTEND_MAX_MEMORY, else 3/4 of the memory available); None too.
    return 0 if memory_limit is None else int(memory_limit)


def formats():
    """The formats core reads, as (name, description) pairs (the format table)."""
    return [tuple(f) for f in _core.formats()]


class Trace:
    """A loaded trace (:func:`load`); pass it to :func:`analyze` to analyse it without reading it again."""

    def __init__(self, core_trace):
        self._trace = core_trace

    @property
    def path(self):
        return self._trace.path

    def info(self):
        """What the trace holds: format, events, operators, tracks, counters, span, warnings (a dict,
        the fields of ``contend-cli info --json``)."""
        return self._trace.info()

    def __repr__(self):
        i = self.info()
        return f"<contend.Trace {i['path']!r}: {i['format']}, {i['operators']} operators, {len(i['tracks'])} tracks>"


def load(path, *, memory_limit=None, progress=None):
    """Reads a trace (every format ``contend-cli`` reads: ``contend.formats()``).

    Raises a :class:`contend.Error` subclass naming the file and the place on bad input.
    """
    return Trace(_core.load(str(path), _limit(memory_limit), _callback(progress, "loading")))


class Result:
    """An analysis: the report's tables as DataFrames (built on first use), its summary, and
    :meth:`rethreshold` for other thresholds without analysing again."""

    _TABLES = ("anomalies", "anomaly_windows", "windows", "window_ops", "clusters", "patterns", "pattern_runs",
               "operators", "iterations", "threads", "types", "notes")

    def __init__(self, core_analysis):
        self._a = core_analysis
        self._header = core_analysis.header()
        self._frames = {}

    def table(self, name):
        """The report's table `name` (one of ``Result._TABLES``) as a DataFrame."""
        if name not in self._TABLES:
            raise KeyError(f"no table {name!r}; there are {', '.join(self._TABLES)}")
        if name not in self._frames:
            self._frames[name] = _frame(self._a.table(name))
        return self._frames[name]

    # One property per table, so result.anomalies reads as in HTA and pandas.
    anomalies = property(lambda self: self.table("anomalies"),
                         doc="Flagged operators, highest score first: times (ns and Timedelta), baseline, "
                             "excess, score, cause with provenance and evidence, breakdown, predicted gain.")
    anomaly_windows = property(lambda self: self.table("anomaly_windows"),
                               doc="Which contention windows each anomaly was in (anomaly id, window id).")
    windows = property(lambda self: self.table("windows"), doc="Contention windows, in start order.")
    window_ops = property(lambda self: self.table("window_ops"), doc="The operators of each window.")
    clusters = property(lambda self: self.table("clusters"), doc="Clusters of tiny operators.")
    patterns = property(lambda self: self.table("patterns"), doc="Contention patterns, by cost.")
    pattern_runs = property(lambda self: self.table("pattern_runs"), doc="The runs beside each pattern's partner.")
    operators = property(lambda self: self.table("operators"), doc="Per operator signature.")
    iterations = property(lambda self: self.table("iterations"), doc="Per profiler step.")
    threads = property(lambda self: self.table("threads"), doc="Per track with analysed operators.")
    types = property(lambda self: self.table("types"), doc="Per operator type.")
    notes = property(lambda self: self.table("notes"), doc="What the capture can and cannot support.")

    @property
    def summary(self):
        """Counts, extra wait (in all and per resource) and the bottleneck, as the report's JSON."""
        return self._header["summary"]

    @property
    def settings(self):
        return self._header["settings"]

    @property
    def trace_info(self):
        """The report's trace section: path, format, events, operators, tracks, span, scope."""
        return self._header["trace"]

    @property
    def what_if(self):
        """The what-if: the dependency graph's size, the critical track, the gain per resource."""
        return self._header["what_if"]

    @property
    def extra_wait_by_resource(self):
        """The extra wait per resource as a pandas Series of Timedelta (largest first)."""
        import pandas as pd
        s = pd.Series(self.summary["extra_wait_by_resource"], dtype="int64", name="extra_wait_ns")
        return pd.to_timedelta(s.sort_values(ascending=False), unit="ns")

    @property
    def times(self):
        """Milliseconds each stage of core's pipeline took (load, prepare, report, what-if)."""
        return self._a.times()

    @property
    def trace(self):
        return Trace(self._a.trace())

    def rethreshold(self, coefficient=None, overlap=None):
        """The report at other thresholds, from the analysis already prepared (what the app's
        sliders do: no pass over the trace; the what-if's replays are kept and reused). Equal to a
        fresh :func:`analyze` at those thresholds."""
        c = self.settings["coefficient"] if coefficient is None else float(coefficient)
        o = self.settings["overlap_ratio"] if overlap is None else float(overlap)
        return Result(self._a.rethreshold(c, o))

    def to_json(self, path=None, schema=4):
        """The contend.report/4 JSON, byte for byte what ``contend-cli analyze --json`` writes
        (`schema=3` or `2`: the contend.report/3 or /2 of ``--json-schema 3`` or ``2``; /2 has one
        object per finding). With
        `path`, written there (atomically: a temporary file renamed) and None returned."""
        text = self._a.to_json(int(schema))
        if path is None:
            return text
        _write_atomically(path, text)
        return None

    def to_dict(self, schema=4):
        """The JSON as Python values (`schema=2` for report/2's layout: a dict per finding, `3`
        for report/3's)."""
        return _json.loads(self._a.to_json(int(schema)))

    def to_markdown(self):
        """The Markdown report (``contend-cli analyze --markdown``)."""
        return self._a.to_markdown()

    def summary_text(self):
        """A few lines: counts, extra wait, bottleneck, the top anomalies."""
        s, t = self.summary, self.trace_info
        lines = [f"contend: {t['path']} ({t['format']}, {t['operators']} {t['scope']} operators)",
                 f"  {s['anomalies']} anomalies, {s['windows']} contention windows, {s['clusters']} clusters; "
                 f"extra wait {_ms(s['anomaly_wait_ns'])} in anomalies, {_ms(s['cluster_wait_ns'])} in clusters' gaps"]
        b = s["bottleneck"]
        lines.append(f"  bottleneck: {b['resource']} ({100 * b['share']:.0f}% of the explained extra wait)"
                     if b["resource"] != "none" else "  bottleneck: none shown by the evidence")
        a = self.anomalies.head(5) if s["anomalies"] else None
        for row in ([] if a is None else a.itertuples()):
            lines.append(f"  #{row.id} {str(row.name)[:50]} +{_ms(row.excess_ns)} (score {row.score:.1f}), "
                         f"cause {row.cause} ({row.provenance})")
        return "\n".join(lines)

    def __repr__(self):
        s = self.summary
        return (f"<contend.Result {self.trace_info['path']!r}: coefficient {self.settings['coefficient']:g}, "
                f"overlap {self.settings['overlap_ratio']:g}; {s['anomalies']} anomalies, {s['windows']} windows, "
                f"{s['clusters']} clusters>")


def _ms(ns):
    return f"{ns / 1e6:.3f} ms"


def _write_atomically(path, text):
    import os
    import tempfile
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".contend-", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def analyze(source, coefficient=DEFAULT_COEFFICIENT, overlap=DEFAULT_OVERLAP, *, config=None, what_if=True,
            memory_limit=None, progress=None):
    """Analyses a trace (a path, or a :class:`Trace` from :func:`load`) as ``contend-cli analyze``
    does, at the anomaly `coefficient` (0.1 to 50) and the window `overlap` ratio (0.05 to 1).

    `config`: a JSON file mapping counter names to resources (``--config``). `what_if`: predict
    the end-to-end gains (the dependency graph's replays). `memory_limit`: bytes (None: core's
    default). `progress`: None, True (a tqdm bar) or a callable ``(stage, fraction)``.
    Ctrl+C cancels (KeyboardInterrupt); bad input raises a :class:`contend.Error` subclass.
    """
    src = source._trace if isinstance(source, Trace) else str(source)
    return Result(_core.analyze(src, float(coefficient), float(overlap), "" if config is None else str(config),
                                bool(what_if), _limit(memory_limit), _callback(progress, "analysing")))


def read_report(path):
    """A report saved by ``contend-cli analyze --json`` (contend.report/4, or an older /3, /2 or /1),
    read as core reads it for compare and merge: the same :class:`Result` tables, summary and JSON
    whichever version the file is. It has no trace: :meth:`Result.rethreshold`,
    :meth:`Result.to_markdown` and :attr:`Result.trace` raise; :func:`compare` takes it as it is
    (at its own thresholds). A file that is not a report raises a :class:`contend.Error` naming the
    file and the place."""
    import os
    path = os.fspath(path)
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    result = Result(_core.read_report(text, path))
    result._from_file = True
    return result


def _result(run, coefficient, overlap, progress):
    if isinstance(run, Result) and getattr(run, "_from_file", False):
        return run  # a saved report: at the thresholds it was written at
    if isinstance(run, Result):
        if (run.settings["coefficient"], run.settings["overlap_ratio"]) == (coefficient, overlap):
            return run
        return run.rethreshold(coefficient, overlap)
    return analyze(run, coefficient, overlap, progress=progress)


def _thresholds(runs, coefficient, overlap):
    # Unset: those of the first result given, else the defaults; both runs are then judged alike.
    given = next((r.settings for r in runs if isinstance(r, Result)), None)
    if coefficient is None:
        coefficient = given["coefficient"] if given else DEFAULT_COEFFICIENT
    if overlap is None:
        overlap = given["overlap_ratio"] if given else DEFAULT_OVERLAP
    return float(coefficient), float(overlap)


class Comparison:
    """Two runs compared (:func:`compare`): the verdict and the diff tables, as ``contend-cli
    compare --json`` gives them. The finding tables have a ``status`` column (resolved, persisting,
    new) and ``base.*`` / ``now.*`` columns for each side."""

    def __init__(self, text, markdown):
        self._text = text
        self._markdown = markdown
        self.json = _json.loads(text)

    @property
    def verdict(self):
        return self.json["summary"]["verdict"]

    @property
    def summary(self):
        return self.json["summary"]

    def _partition(self, key):
        import pandas as pd
        parts = [_records(self.json[key][status], ("status", status)) for status in ("resolved", "persisting", "new")]
        parts = [p for p in parts if len(p)]
        return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=["status"])

    anomalies = property(lambda self: self._partition("anomalies"))
    windows = property(lambda self: self._partition("windows"))
    clusters = property(lambda self: self._partition("clusters"))
    patterns = property(lambda self: self._partition("patterns"))
    operators = property(lambda self: _records(self.json["operators"]), doc="Per signature: the change and both sides.")

    @property
    def extra_wait_by_resource(self):
        import pandas as pd
        rows = self.json["summary"]["extra_wait_by_resource"]
        return pd.DataFrame.from_dict(rows, orient="index", columns=["base", "new"]).rename_axis("resource")

    def to_json(self):
        """The contend.compare/1 JSON (``contend-cli compare --json``)."""
        return self._text

    def to_markdown(self):
        return self._markdown

    def __repr__(self):
        return f"<contend.Comparison: {self.verdict}>"


def compare(base, new, *, coefficient=None, overlap=None, tolerance=0.02, max_new_anomalies=0, max_new_windows=0,
            progress=None):
    """Compares two runs (paths, :class:`Trace` objects or :class:`Result` objects) as ``contend-cli
    compare`` does, both at `coefficient` and `overlap`: when None, those of the first result
    given, else the defaults. Paths and traces are analysed at them, results re-thresholded to
    them. `tolerance`: the end-to-end growth that counts as a regression (a share: 0.02 is
    ``--tolerance 2``)."""
    coefficient, overlap = _thresholds((base, new), coefficient, overlap)
    b = _result(base, coefficient, overlap, progress)
    n = _result(new, coefficient, overlap, progress)
    text, markdown = _core.compare(b._a, n._a, float(tolerance), int(max_new_anomalies), int(max_new_windows))
    return Comparison(text, markdown)


class Cluster:
    """A folder of rank traces analysed and merged (:func:`cluster`), as ``contend-cli cluster`` writes it."""

    def __init__(self, text, markdown):
        self._text = text
        self._markdown = markdown
        self.json = _json.loads(text)

    @property
    def summary(self):
        return self.json["summary"]

    @property
    def ranks(self):
        return _records(self.json["ranks"])

    @property
    def steps(self):
        """One row per (step, rank): step, wait and compute time, and the slow-rank test's marks."""
        rows = [dict(r, iteration=it["index"]) for it in self.json["iterations"] for r in it["ranks"]]
        return _records(rows)

    @property
    def iterations(self):
        return _records([{k: v for k, v in it.items() if k != "ranks"} for it in self.json["iterations"]])

    collectives = property(lambda self: _records(self.json["collectives"]))
    slow_ranks = property(lambda self: _records(self.json["slow_ranks"]))
    notes = property(lambda self: _records(self.json["notes"]))

    def to_json(self):
        """The contend.cluster/1 JSON (``contend-cli cluster --out``)."""
        return self._text

    def to_markdown(self):
        return self._markdown

    def __repr__(self):
        s = self.summary
        return f"<contend.Cluster: {s['ranks']} ranks, {s['iterations']} steps, {s['slow_ranks']} slow ranks>"


def cluster(folder, *, jobs=2, k=5.0, min_excess=0.01, memory_limit=None, progress=None):
    """Analyses every rank trace under `folder` (`jobs` at a time) and merges them as ``contend-cli
    cluster`` does: slow ranks, late collectives and why."""
    text, markdown = _core.cluster(str(folder), int(jobs), float(k), float(min_excess), _limit(memory_limit),
                                   _callback(progress, "cluster"))
    return Cluster(text, markdown)
