// The build's paths, handed to this file alone (tests/CMakeLists.txt, tests/gui/CMakeLists.txt).
#include "test_paths.h"

namespace contend::test {
std::string sourceDir() { return CONTEND_SOURCE_DIR; }
std::string sharedTracesDir() { return CONTEND_SHARED_TRACES; }
std::string cliPath() { return CONTEND_CLI; }
std::string labPath() { return CONTEND_LAB; }
}  // namespace contend::test
