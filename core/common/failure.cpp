#include "core/common/failure.h"

namespace contend {

std::string Failure::message() const {
    if (file.empty() && offset < 0) return reason;
    std::string m = file.empty() ? std::string("<input>") : file;
    m += ": ";
    if (offset >= 0) {
        m += "byte " + std::to_string(offset);
        if (line > 0) m += " (line " + std::to_string(line) + ", column " + std::to_string(column) + ")";
        m += ": ";
    }
    m += reason;
    return m;
}

}  // namespace contend
