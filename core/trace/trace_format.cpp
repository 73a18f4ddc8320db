#include "core/trace/trace_format.h"

namespace contend {

const FormatInfo kChromeFormat{.name = "chrome",
                               .description = "Chrome/Perfetto trace-event JSON (.json, .json.gz)",
                               .patterns = "*.json *.json.gz *.gz",
                               .dialogEntry = "PyTorch/Kineto, Ascend or Chrome JSON"};

}  // namespace contend
