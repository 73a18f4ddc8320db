#pragma once
// Which Contend this is: the version (project(VERSION) in the top CMakeLists.txt, the one place
// it is written) and the git commit the build was made from. Both are defined in one generated
// source (cmake/build_info.cmake writes it at every build, and rewrites it only when its text
// changes), never in a header: a new commit then recompiles that one file, and every other file
// compiles the same from commit to commit (the compiler cache hits on them).
#include <string>
#include <string_view>

namespace contend {

// "0.7.0".
std::string_view version();

// The commit this binary was built from: `git rev-parse --short=12 HEAD` (12 hex digits), with
// "-dirty" appended when tracked files differed from it; "unknown" when the sources were not a
// git checkout (a tarball, a copy without .git) or git was not installed.
std::string_view commit();

// "0.7.0 (commit 1a2b3c4d5e6f)": what `contend-cli --version` and `contend --version` print after
// the program's name, and what the app's About box shows.
std::string versionLine();

// Who wrote a document: the "producer" member of every report, comparison and cluster report
// (docs/report-schema.md). Empty fields when a document does not say (written before 0.7.0).
struct Producer {
    std::string name;     // "contend"
    std::string version;  // version() of the build that wrote it
    std::string commit;   // commit() of that build

    bool known() const { return !name.empty(); }
    // "contend 0.7.0 (commit 1a2b3c4d5e6f)", or "" when not known.
    std::string text() const;
};

// This build: {"contend", version(), commit()}.
Producer thisProducer();

}  // namespace contend
