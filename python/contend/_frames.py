"""Columns from the C++ module as pandas DataFrames.

The module hands each table as a list of columns, each a numpy array filled in C++ (no Python
loop over rows): ``int`` and ``float`` arrays become columns as they are;
``bool`` (bytes) becomes bool, ``optional_int`` (the report's -1 for "not computed", JSON null) becomes a nullable ``Int64``
column with ``<NA>``; ``text`` (int32 codes and the distinct values) becomes a ``category``
column. Every ``*_ns`` column gets a twin without the suffix holding the same time as a pandas
Timedelta (``dur_ns`` -> ``dur``; NaT where the integer is <NA>).
"""
import numpy as np


def frame(columns):
    """A DataFrame from the module's columns (python/src/table.h)."""
    import pandas as pd

    data = {}
    for column in columns:
        name, kind = column[0], column[1]
        if kind == "text":
            codes, values = column[2], column[3]
            data[name] = pd.Categorical.from_codes(codes, categories=pd.Index(values, dtype=object)) \
                if _unique(values) else pd.Categorical(np.asarray(values, dtype=object)[codes])
        elif kind == "optional_int":
            values = column[2]
            data[name] = pd.arrays.IntegerArray(values, values < 0)
        elif kind == "bool":
            data[name] = column[2].view(np.bool_)
        else:
            data[name] = column[2]
        if name.endswith("_ns") and kind in ("int", "optional_int"):
            values = column[2]
            times = values.view("m8[ns]")
            if kind == "optional_int":
                times = np.where(values < 0, np.timedelta64("NaT", "ns"), times)
            data[name[:-3]] = times
    return pd.DataFrame(data, copy=False)


def _unique(values):
    # Categories must be distinct; the module's are (one code per distinct text), but a text
    # that is not UTF-8 becomes U+FFFD and may then equal another.
    return len(set(values)) == len(values)


def records(rows, prefix=None):
    """A DataFrame from a list of JSON objects (the small tables of compare and cluster), nested
    objects flattened to ``a.b`` columns."""
    import pandas as pd

    df = pd.json_normalize(rows) if rows else pd.DataFrame()
    if prefix is not None:
        df.insert(0, prefix[0], prefix[1])
    return df
