// versionLine() and the producer; version() and commit() themselves are in the source
// cmake/build_info.cmake generates at build time (see version.h).
#include "core/common/version.h"

namespace contend {

std::string versionLine() { return std::string(version()) + " (commit " + std::string(commit()) + ")"; }

std::string Producer::text() const {
    if (!known()) return {};
    return name + " " + version + " (commit " + (commit.empty() ? std::string("unknown") : commit) + ")";
}

Producer thisProducer() { return {"contend", std::string(version()), std::string(commit())}; }

}  // namespace contend
