"""Checks a Result's DataFrames against the report JSON of the same analysis, column by column.

Each JSON item is flattened to the DataFrame's column names (nested objects and lists as the
module lays them out: the breakdown's fields as columns, an anomaly's window list as a count
and the anomaly_windows table, a pattern's cause as cause/provenance/evidence); then every
row must equal, and every column of the DataFrame must have been compared (the Timedelta twins
of the *_ns columns are checked against their integers).
"""
import math

import pandas as pd


def _breakdown(b):
    return {"compute_ns": b["compute_ns"], "data_wait_ns": b["data_wait_ns"], "queue_ns": b["queue_ns"],
            "sync_ns": b["sync_ns"], "measured_data": b["measured"]["data"], "measured_queue": b["measured"]["queue"],
            "measured_sync": b["measured"]["sync"], "wait_before_ns": b["wait_before_ns"]}


def _anomaly(a):
    row = {k: v for k, v in a.items() if k not in ("breakdown", "windows")}
    row["window_count"] = len(a["windows"])
    row.update(_breakdown(a["breakdown"]))
    return row


def _window(w):
    row = {k: v for k, v in w.items() if k != "ops"}
    row["ops"] = len(w["ops"])
    return row


def _pattern(p):
    row = {k: v for k, v in p.items() if k not in ("runs", "cause", "slowdown_ci", "lost_share")}
    row["slowdown_low"], row["slowdown_high"] = p["slowdown_ci"]
    row["cause"] = p["cause"]["resource"]
    row["provenance"] = p["cause"]["provenance"]
    row["evidence"] = p["cause"]["evidence"]
    row["lost_share"] = p.get("lost_share", math.nan)
    return row


def _operator(o):
    row = {k: v for k, v in o.items() if k != "breakdown"}
    row.update(_breakdown(o["breakdown"]))
    return row


def expected_tables(doc):
    """The rows each table should hold, from the report JSON `doc`."""
    return {
        "anomalies": [_anomaly(a) for a in doc["anomalies"]],
        "anomaly_windows": [{"anomaly": a["id"], "window": w} for a in doc["anomalies"] for w in a["windows"]],
        "windows": [_window(w) for w in doc["windows"]],
        "window_ops": [dict(op, window=w["id"]) for w in doc["windows"] for op in w["ops"]],
        "clusters": list(doc["clusters"]),
        # The JSON leaves the signature index of a pattern out; the table has it.
        "patterns": [_pattern(p) for p in doc["patterns"]],
        "pattern_runs": [dict(r, pattern=p["id"]) for p in doc["patterns"] for r in p["runs"]],
        "operators": [_operator(o) for o in doc["operators"]],
        "iterations": list(doc["iterations"]),
        "threads": list(doc["threads"]),
        "types": list(doc["types"]),
        "notes": list(doc["notes"]),
    }


def _same(got, want):
    if want is None:
        return got is None or got is pd.NA or (isinstance(got, float) and math.isnan(got))
    if isinstance(want, float) and math.isnan(want):
        return isinstance(got, float) and math.isnan(got)
    if isinstance(want, bool):
        return bool(got) == want
    if isinstance(want, (int, float)) and not isinstance(got, str):
        return got == want
    # pid and tid: the JSON writes an integer id as a number, the table keeps the text.
    return str(got) == str(want)


def check_result(result, doc, tables=None):
    """Asserts every table of `result` equals the JSON `doc`, row by row and column by column."""
    expected = expected_tables(doc)
    for name in tables or expected:
        df = result.table(name)
        rows = expected[name]
        assert len(df) == len(rows), f"{name}: {len(df)} rows, the JSON has {len(rows)}"
        twins = {c[:-3] for c in df.columns if c.endswith("_ns") and c[:-3] in df.columns}
        compared = set()
        records = df.to_dict("records")
        for i, (got, want) in enumerate(zip(records, rows)):
            for key, value in want.items():
                if key == "signature" and name == "patterns":
                    continue
                assert key in got, f"{name}: the JSON's {key!r} has no column"
                assert _same(got[key], value), f"{name} row {i} {key}: {got[key]!r} != JSON {value!r}"
                compared.add(key)
        for twin in twins:
            ns = df[twin + "_ns"]
            td = df[twin]
            known = ns.notna()
            assert (td[known].astype("int64").to_numpy() == ns[known].astype("int64").to_numpy()).all(), twin
            assert td[~known].isna().all(), twin
            compared.add(twin)
        if rows:
            unchecked = set(df.columns) - compared - ({"signature"} if name == "patterns" else set())
            assert not unchecked, f"{name}: columns not in the JSON: {sorted(unchecked)}"
