// libFuzzer target: the Ascend profiler database reader on an in-memory SQLite image.
#include "core/io/ascend_db_reader.h"
#include "fuzz_db_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return contend::fuzz::readDatabase(
        data, size, contend::TraceFormat::AscendDb,
        [](const contend::SqliteDb& db, contend::TraceBuilder& b, const contend::LoadOptions& o) {
            std::string error;
            if (!contend::isAscendDatabase(db, error)) return std::optional<contend::Failure>(contend::Failure{});
            return contend::readAscendDb(db, "fuzz.db", b, o);
        });
}
