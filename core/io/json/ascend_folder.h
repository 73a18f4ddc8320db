#pragma once
// Ascend PyTorch Profiler output folders: where the trace and its side files are, and the join of
// per-task hardware metrics from the CSVs onto the NPU tasks of the trace.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/load_options.h"
#include "core/io/reader_entry.h"
#include "core/trace/trace_builder.h"

namespace contend {

struct AscendFolder {
    std::string root;                        // the folder the user opened
    std::string traceView;                   // .../ASCEND_PROFILER_OUTPUT/trace_view.json; empty without a text export
    std::vector<std::string> kernelDetails;  // kernel_details.csv and/or op_summary_*.csv
    std::string l2Cache;                     // l2_cache.csv, may be empty
    // The database export (export_type=db): ascend_pytorch_profiler_{rank}.db beside
    // trace_view.json, or msprof_*.db in an msprof output folder; empty without one. When both
    // exports are there, the loader reads the database (it holds the PMU metrics per task).
    std::string database;
    std::string analysisDb;  // analysis.db beside it (summary tables), may be empty
};

// Recognises an Ascend output folder: the rank folder (holding ASCEND_PROFILER_OUTPUT/), the
// ASCEND_PROFILER_OUTPUT folder itself, any folder holding trace_view.json, or one holding an
// Ascend profiler database (ascend_pytorch_profiler*.db, msprof_*.db).
std::optional<AscendFolder> findAscendFolder(const std::string& dir);

// Joins the CSV metrics onto the device slices already added to `builder` (before finalize):
// by (stream, task id) where the CSV has them, else by name and start time. Adds metrics with
// the CSV column names as keys (e.g. "aic_mte2_ratio", "l2_hit_rate"), sets SliceInfo::waitNs
// from "Wait Time(us)"/"Task Wait Time(us)", and records joined files in the builder's source.
// Unmatched rows and unreadable cells are counted as import warnings. A CSV that cannot be
// read at all is an error naming the file and line; loadTrace turns it into a warning and keeps
// the trace.
// A side file is read whole (its text, then a record per cell: about twice its size); one that
// would not fit `memoryBudget` (bytes; ~0 for none) is an error naming it, and the trace loads
// without it.
std::optional<Failure> joinAscendSideFiles(TraceBuilder& builder, const AscendFolder& folder,
                                           std::uint64_t memoryBudget = ~std::uint64_t{0});

// A counter value of the Ascend text export (trace_view.json) in the unit its key names. The
// LLC series ("LLC 0 Read/Hit Rate") are written as a fraction (0.875) under the key "Hit
// Rate(%)", where the database (table LLC, column hitRate) writes the percentage (87.5): read
// as a percent, as the key says. Every other value is returned as it is.
double ascendTextCounterValue(std::string_view name, std::string_view key, double value);

// The reader table's entry (core/io/reader_entry.h): a folder findAscendFolder recognises, or a
// trace_view.json opened inside ASCEND_PROFILER_OUTPUT with side files beside it. A folder with
// a database export reads the database (kAscendDbFormat or whatever the SQLite entries
// make of it; Source::folder and a "read" detail say what was read); a database that cannot be
// read falls back to the text export beside it, with the DatabaseExportNotRead warning. The
// text export is read as JSON (kAscendFolderFormat, its row of the format table) with the rank of profiler_info_N.json
// and, unless LoadOptions::joinSideFiles is off, the side CSVs joined (a broken one costs its
// metrics, as the SideFileNotJoined warning, not the load).
extern const FormatInfo kAscendFolderFormat;
extern const ReaderEntry kAscendFolderReader;

}  // namespace contend
