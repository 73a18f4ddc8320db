#pragma once
// Writes a whole file so that readers see either the old content or the new, never half of it:
// the bytes go to PATH.tmp-XXXXXX in the same folder, are flushed to disk (fsync), and the
// temporary is renamed over PATH. On any failure the temporary is removed and PATH is untouched.
// Returns nullopt when written, else a Failure of kind Unreadable naming PATH (its message():
// "PATH: cannot create a temporary file next to it: No such file or directory").
#include <functional>
#include <optional>
#include <ostream>
#include <string>

#include "core/common/failure.h"

namespace contend {

std::optional<Failure> writeFileAtomically(const std::string& path, const std::string& content);

// The same, for content too big to hold as one string: `produce` writes it to a stream whose
// bytes go to the temporary file through a 1 MiB buffer. When the stream fails (disk full),
// PATH is left untouched.
std::optional<Failure> writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& produce);

}  // namespace contend
