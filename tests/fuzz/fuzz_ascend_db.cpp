// libFuzzer target: the Ascend profiler database reader on an in-memory SQLite image.
#include "core/io/db/ascend_db_reader.h"
#include "fuzz_db_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return contend::fuzz::readDatabase(data, size, contend::kAscendDbReader, "fuzz.db");
}
