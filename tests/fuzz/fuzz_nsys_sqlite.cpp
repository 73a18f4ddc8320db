// libFuzzer target: the Nsight Systems SQLite reader on an in-memory SQLite image.
#include "core/io/db/nsys_sqlite_reader.h"
#include "fuzz_db_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return contend::fuzz::readDatabase(data, size, contend::kNsysSqliteReader, "fuzz.sqlite");
}
