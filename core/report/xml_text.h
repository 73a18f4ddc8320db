#pragma once
// Text made safe for XML 1.0 attribute values and character data. Names come from traces we
// did not write, so the text may hold any byte: bytes that are not well-formed UTF-8 become
// U+FFFD, characters XML 1.0 forbids (C0 controls other than tab, LF, CR; U+FFFE, U+FFFF) are
// dropped, and & < > " ' become entity references (quotes too, so one function serves both
// attributes and content).
#include <string>
#include <string_view>

namespace contend {

std::string xmlEscape(std::string_view text);

}  // namespace contend
