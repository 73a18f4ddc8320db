#!/usr/bin/env python3
"""A contend.report/4 or /3 in report/2's layout: each finding an object again, its names, tracks
and evidence written out (docs/report-schema.md, "Reading a report/3 without Contend"). It is also
a reference for reading /4 and /3 in plain Python: every rule the writer uses to leave a column out
is undone here, from the document alone.

    scripts/report-as-v2.py REPORT.json [OUT.json]     # OUT: the /2 document (stdout without)
    scripts/report-as-v2.py --v3 REPORT.json [OUT.json] # a /4 as the /3 Contend writes of it
    scripts/report-as-v2.py --same A.json B.json       # exit 0 when the two say the same

A report/2 (or /1) is passed through, and so is a /3 by --v3. A /4 becomes its /3 first (every
slice's times put back in each table, scores as doubles, compute_ns written out); --v3 stops
there, and that /3 equals, field for field, the one `analyze --json-schema 3` writes. --same compares the two as /2 documents without their
producer (which names the build) and without patterns[].signature (report/2 before 0.9.0 did not
write it): a report/3 from this build against a report/2 from an older one must come out equal."""
import json
import math
import re
import struct
import sys


def id_json(text):
    """A pid or tid as report/2 writes it: an integer when the text is one (no leading zero, at
    most 18 characters), else the text."""
    if re.fullmatch(r"-?(0|[1-9][0-9]*)", text) and len(text) <= 18 and text != "-":
        return int(text)
    return text


def evidence(code, strings):
    if code is None:
        return ""
    templ, args = strings[code[0]], code[1:]
    out, i, k = [], 0, 0
    while i < len(templ):
        c = templ[i]
        if c in "{}" and templ[i + 1:i + 2] == c:
            out.append(c)
            i += 2
            continue
        if c == "{":
            close = templ.index("}", i)
            spec = templ[i + 1:close]
            value = args[k]
            k += 1
            out.append(str(int(value)) if spec == "" else f"{value:.{int(spec[1:])}f}")
            i = close + 1
            continue
        out.append(c)
        i += 1
    if k != len(args):
        raise ValueError(f"evidence {code}: {len(args) - k} numbers left over")
    return "".join(out)


def columns(table, keys):
    """The table's rows as dicts of the keys it has (a left-out column is absent)."""
    present = [k for k in keys if k in table]
    return [{k: table[k][i] for k in present} for i in range(table["rows"])]


def optional(row, key):
    return row.get(key)  # left out: null in every row


def as_float32(x):
    """report/4's score_f32: the number read as a double, rounded to a 32-bit float."""
    return struct.unpack("f", struct.pack("f", x))[0]


def share_excess(dur, slowdown):
    """A pattern run's share of the slowdown s, dur x s / (1 + s) rounded half away from 0, as
    core/analysis/model/pattern_excess.h computes it."""
    if not slowdown > 0 or dur <= 0:
        return 0
    return int(math.floor(dur * slowdown / (1.0 + slowdown) + 0.5))


def to_v3(doc):
    """A report/4 as report/3: its `slices` put back as each table's start_ns and dur_ns, score_f32
    as score, a left-out breakdown compute_ns as the duration less the other parts."""
    if doc.get("schema") != "contend.report/4":
        return doc
    out = {k: v for k, v in doc.items() if k != "slices"}
    out["schema"] = "contend.report/3"
    origin, st = doc["time_origin_ns"], doc["slices"]
    times, slice_, start = {}, 0, origin
    for i in range(st["rows"]):
        slice_ += st["slice"][i]
        start += st["start_ns"][i]
        times[slice_] = (start, st["dur_ns"][i])

    def put_times(table, slices, starts_from):
        """start_ns and dur_ns from `slices` (the rows' slices) where the table left them out;
        starts_from(i, start) gives the value written for row i."""
        if "start_ns" in table:
            return table
        t = dict(table)
        t["start_ns"] = [starts_from(i, times[sl][0]) for i, sl in enumerate(slices)]
        t["dur_ns"] = [times[sl][1] for sl in slices]
        return t

    at = put_times(doc["anomalies"], doc["anomalies"]["slice"], lambda i, s: s - origin)
    if "score_f32" in at:
        at = {k: v for k, v in at.items() if k != "score_f32"}
        at["score"] = [as_float32(x) for x in doc["anomalies"]["score_f32"]]
    parts = dict(at.get("breakdown", {}))
    if "compute_ns" not in parts:
        zero = [0] * at["rows"]
        compute = [d - a - b - c for d, a, b, c in zip(at["dur_ns"], parts.get("data_wait_ns", zero),
                                                       parts.get("queue_ns", zero), parts.get("sync_ns", zero))]
        if any(compute):  # /3 leaves out a part that is 0 in every row
            parts["compute_ns"] = compute
    if parts:
        at["breakdown"] = {k: parts[k] for k in ("compute_ns", "data_wait_ns", "queue_ns", "sync_ns", "measured_data",
                                                 "measured_queue", "measured_sync", "wait_before_ns") if k in parts}
    out["anomalies"] = at
    w = dict(doc["windows"])
    w["ops"] = put_times(w["ops"], w["ops"]["slice"], lambda i, s: s - origin)
    out["windows"] = w
    patterns = []
    for p in doc["patterns"]:
        r, slices, sl = p["runs"], [], 0
        for step in r["slice"]:
            sl += step
            slices.append(sl)
        starts = [times[x][0] for x in slices] if "start_ns" not in r else None
        q = {k: v for k, v in p.items() if k != "run_excess"}
        q["runs"] = put_times(r, slices, lambda i, s: s - (starts[i - 1] if i else origin))
        if p.get("run_excess") == "share" and "excess_ns" not in r:
            # Each run's share of the slowdown (core/analysis/model/pattern_excess.h); /3 writes
            # the column unless it is duration - baseline clipped at 0.
            share = [share_excess(d, p["slowdown"]) for d in q["runs"]["dur_ns"]]
            base = doc["operators"][p["signature"]]["baseline_ns"]
            if share != [max(0, d - base) for d in q["runs"]["dur_ns"]]:
                q["runs"] = dict(q["runs"], excess_ns=share)
        patterns.append(q)
    out["patterns"] = patterns
    return out


def to_v2(doc):
    doc = to_v3(doc)
    if doc.get("schema") != "contend.report/3":
        return doc
    s, origin = doc["strings"], doc["time_origin_ns"]
    ops = {o["id"]: o for o in doc["operators"]}
    threads = {t["track_index"]: t for t in doc["threads"]}
    out = {k: v for k, v in doc.items() if k not in ("strings", "time_origin_ns")}
    out["schema"] = "contend.report/2"

    # Windows first: an anomaly's windows may come from their operators.
    wt = doc["windows"]
    op_rows = columns(wt["ops"], ["slice", "name", "pid", "tid", "start_ns", "dur_ns", "extra_wait_ns", "slack_ns"])
    windows, at, windows_of = [], 0, {}
    for w in columns(wt, ["id", "resource", "start_ns", "end_ns", "overlap_ratio", "peak_utilization", "from_counters",
                          "provenance", "evidence", "gain_ns", "op_count"]):
        mine = op_rows[at:at + w["op_count"]]
        at += w["op_count"]
        for o in mine:
            ids = windows_of.setdefault(o["slice"], [])
            if not ids or ids[-1] != w["id"]:
                ids.append(w["id"])
        windows.append({
            "end_ns": origin + w["end_ns"], "evidence": evidence(w.get("evidence"), s),
            "from_counters": bool(w.get("from_counters", 0)), "gain_ns": optional(w, "gain_ns"), "id": w["id"],
            "ops": [{"dur_ns": o["dur_ns"], "extra_wait_ns": o["extra_wait_ns"], "name": s[o["name"]],
                     "pid": id_json(s[o["pid"]]), "slack_ns": optional(o, "slack_ns"), "slice": o["slice"],
                     "start_ns": origin + o["start_ns"], "tid": id_json(s[o["tid"]])} for o in mine],
            "overlap_ratio": w["overlap_ratio"], "peak_utilization": w.get("peak_utilization", 0.0),
            "provenance": s[w["provenance"]], "resource": s[w["resource"]], "start_ns": origin + w["start_ns"]})
    out["windows"] = windows

    at = doc["anomalies"]
    parts = at.get("breakdown", {})
    anomalies = []
    for k, a in enumerate(columns(at, ["id", "slice", "signature", "track_index", "name", "pid", "tid", "track",
                                       "start_ns", "dur_ns", "baseline_ns", "excess_ns", "score", "cause",
                                       "provenance", "evidence", "windows", "gain_ns", "slack_ns"])):
        sig, th = ops.get(a["signature"]), threads.get(a["track_index"])
        baseline = a["baseline_ns"] if "baseline_ns" in a else sig["baseline_ns"]

        def part(key, default=0):
            return parts[key][k] if key in parts else default
        anomalies.append({
            "baseline_ns": baseline,
            "breakdown": {"compute_ns": part("compute_ns"), "data_wait_ns": part("data_wait_ns"),
                          "measured": {"data": bool(part("measured_data")), "queue": bool(part("measured_queue")),
                                       "sync": bool(part("measured_sync"))},
                          "queue_ns": part("queue_ns"), "sync_ns": part("sync_ns"),
                          "wait_before_ns": part("wait_before_ns", None)},
            "cause": s[a["cause"]], "dur_ns": a["dur_ns"], "evidence": evidence(a.get("evidence"), s),
            "excess_ns": a["excess_ns"] if "excess_ns" in a else a["dur_ns"] - baseline,
            "gain_ns": optional(a, "gain_ns"), "id": a.get("id", k),
            "name": s[a["name"]] if "name" in a else sig["name"],
            "pid": id_json(s[a["pid"]] if "pid" in a else th["pid"] if isinstance(th["pid"], str) else str(th["pid"])),
            "provenance": s[a["provenance"]], "score": a["score"], "signature": a["signature"],
            "slack_ns": optional(a, "slack_ns"), "slice": a["slice"], "start_ns": origin + a["start_ns"],
            "tid": id_json(s[a["tid"]] if "tid" in a else th["tid"] if isinstance(th["tid"], str) else str(th["tid"])),
            "track": s[a["track"]] if "track" in a else th["track"], "track_index": a["track_index"],
            "windows": a["windows"] if "windows" in a else windows_of.get(a["slice"], [])})
    out["anomalies"] = anomalies

    clusters = []
    for k, c in enumerate(columns(doc["clusters"], [
            "id", "track_index", "pid", "tid", "track", "first_slice", "last_slice", "start_ns", "end_ns", "ops",
            "busy_ns", "wait_ns", "estimated_saving_ns", "provenance", "sync_gaps", "evidence", "gain_ns"])):
        th = threads.get(c["track_index"])
        clusters.append({
            "busy_ns": c["busy_ns"], "end_ns": origin + c["end_ns"], "estimated_saving_ns": c["estimated_saving_ns"],
            "evidence": evidence(c.get("evidence"), s), "first_slice": c["first_slice"],
            "gain_ns": optional(c, "gain_ns"), "id": c.get("id", k), "last_slice": c["last_slice"], "ops": c["ops"],
            "pid": id_json(s[c["pid"]]) if "pid" in c else th["pid"], "provenance": s[c["provenance"]],
            "start_ns": origin + c["start_ns"], "sync_gaps": c["sync_gaps"],
            "tid": id_json(s[c["tid"]]) if "tid" in c else th["tid"],
            "track": s[c["track"]] if "track" in c else th["track"], "track_index": c["track_index"],
            "wait_ns": c["wait_ns"]})
    out["clusters"] = clusters

    patterns = []
    for p in doc["patterns"]:
        q = {k: v for k, v in p.items() if k != "runs"}
        q["cause"] = dict(p["cause"], evidence=evidence(p["cause"]["evidence"], s))
        r, runs, slice_, start = p["runs"], [], 0, origin
        baseline = ops[p["signature"]]["baseline_ns"] if "excess_ns" not in r else None
        for i in range(r["rows"]):
            slice_ += r["slice"][i]
            start += r["start_ns"][i]
            dur = r["dur_ns"][i]
            runs.append({"counted": bool(r["counted"][i]), "dur_ns": dur,
                         "excess_ns": r["excess_ns"][i] if baseline is None else max(0, dur - baseline),
                         "slice": slice_, "start_ns": start})
        q["runs"] = runs
        patterns.append(q)
    out["patterns"] = patterns
    return out


def comparable(doc):
    d = to_v2(doc)
    d.pop("producer", None)
    for p in d.get("patterns", []):
        p.pop("signature", None)
    return d


def main():
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "--same":
        a, b = (comparable(json.load(open(f, encoding="utf-8"))) for f in args[1:])
        if a == b:
            return 0
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                print(f"{args[1]} and {args[2]} differ in {key}", file=sys.stderr)
        return 1
    convert = to_v2
    if args[:1] == ["--v3"]:
        convert, args = to_v3, args[1:]
    if len(args) not in (1, 2):
        sys.exit(__doc__)
    text = json.dumps(convert(json.load(open(args[0], encoding="utf-8"))), indent=2, sort_keys=True, ensure_ascii=False)
    if len(args) == 2:
        with open(args[1], "w", encoding="utf-8") as f:
            f.write(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
