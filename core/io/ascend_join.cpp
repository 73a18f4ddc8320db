// PLACEHOLDER while the CSV join is being written: joins nothing.
#include "core/io/ascend_folder.h"

namespace contend {

std::optional<LoadError> joinAscendSideFiles(TraceBuilder&, const AscendFolder&) { return std::nullopt; }

}  // namespace contend
