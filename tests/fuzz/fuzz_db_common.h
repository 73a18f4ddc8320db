#pragma once
// Shared by the SQLite fuzz targets: the fuzz input is an SQLite file image, opened in memory
// (sqlite3_deserialize) and read by one reader's table entry into a builder; whatever the bytes, the reader
// must return a located error or a trace that finalizes, never crash. Seeds: scripts/fuzz.sh
// makes small databases from tests/fuzz/seeds/*.sql (and copies the shared samples when they
// are there) into build-asan/seeds/; nothing binary is committed.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/io/db/sqlite_db.h"
#include "core/io/load.h"
#include "core/io/reader_entry.h"
#include "core/trace/trace_builder.h"

namespace contend::fuzz {

// The reader's own table entry (its sniff, then its read), as loadTrace would run it on a file.
inline int readDatabase(const std::uint8_t* data, std::size_t size, const ReaderEntry& entry, const char* name) {
    Probe p;
    p.path = name;
    p.sqlite = true;
    p.db = SqliteDb::deserialize(std::string_view(reinterpret_cast<const char*>(data), size), p.sqliteError);
    if (p.db && p.sqliteError.empty()) p.sqliteTables = p.db->tables(p.sqliteError);  // as probeDatabase does
    if (!p.db || !entry.sniff(p)) return 0;
    TraceBuilder b;
    LoadOptions o;
    o.memoryLimitBytes = 256u << 20;  // a crafted row count must stop at the budget, not run out
    auto err = entry.read(p, b, o);
    if (err) {
        (void)err->message();
        return 0;
    }
    TracePtr t = b.finalize();
    for (std::uint32_t i = 0; i < t->slices().size(); ++i) (void)t->str(t->slices()[i].name);
    return 0;
}

}  // namespace contend::fuzz
