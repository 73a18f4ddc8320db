// libFuzzer target: the Nsight Systems SQLite reader on an in-memory SQLite image.
#include "core/io/nsys_sqlite_reader.h"
#include "fuzz_db_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return contend::fuzz::readDatabase(
        data, size, contend::TraceFormat::NsysSqlite,
        [](const contend::SqliteDb& db, contend::TraceBuilder& b, const contend::LoadOptions& o) {
            std::string error;
            if (!contend::isNsysDatabase(db, error)) return std::optional<contend::Failure>(contend::Failure{});
            return contend::readNsysSqlite(db, "fuzz.sqlite", b, o);
        });
}
