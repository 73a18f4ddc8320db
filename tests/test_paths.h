#pragma once
// Where the tests find the source tree, the shared traces and contend-cli. Defined in
// test_paths.cpp, the only file compiled with these paths, so every other test file compiles the
// same in any clone (and a compiler cache shared between clones hits on it).
#include <string>

namespace contend::test {
std::string sourceDir();        // the repository root
std::string sharedTracesDir();  // ../shared/traces beside the repository (may be absent)
std::string cliPath();          // the contend-cli this build made
std::string labPath();          // the contend-lab this build made (lab/)
}  // namespace contend::test
