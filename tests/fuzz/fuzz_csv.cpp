// libFuzzer target: the Ascend CSV reader. Any bytes must parse or fail with a located message,
// and every cell of a parsed table must be readable.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/io/text/csv.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    contend::CsvTable table;
    auto err = contend::parseCsv(std::string(reinterpret_cast<const char*>(data), size), "fuzz.csv", table);
    if (err) {
        (void)err->message();
        return 0;
    }
    for (std::size_t r = 0; r < table.rows(); ++r) {
        for (int c = 0; c < static_cast<int>(table.columns()) + 1; ++c) (void)table.cell(r, c);
        (void)table.line(r);
        (void)table.width(r);
    }
    (void)table.column({"Stream ID", "Task ID", "Start Time(us)"});
    return 0;
}
