#pragma once
// An evidence sentence as contend.report/3 writes it: its wording as a template shared by every
// finding that says the same thing, the numbers apart. "estimated: ...; overlapped 87% by other
// tracks; 1.42x its baseline" is the template "estimated: ...; overlapped {}% by other tracks;
// {.2}x its baseline" (an index into the report's `strings`) and the numbers [87, 1.42]:
//
//   code     = null (no evidence) | [template, arg...]
//   template = text with "{}" for an integer argument, "{.N}" for a number written with N
//              decimals (printf's "%.Nf"), "{{" and "}}" for a literal brace
//
// The encoding is exact: a number is taken out of the text only when writing it back gives the
// same characters (no leading zero, at most 18 digits, at most 15 significant ones for a
// decimal), else it stays in the template; a digit glued to a word ("sm_80", "128x64") stays
// too. So decode(encode(s)) == s for every string, which the tests check on every report.
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace contend {

struct EvidenceParts {
    std::string templ;                 // the wording, placeholders for the numbers
    std::vector<nlohmann::json> args;  // integers and doubles, in order
};

// The template and numbers of `text` (empty text: empty template, no numbers).
EvidenceParts splitEvidence(std::string_view text);

// The text back from a template and its numbers; false (and `error` saying why) when they do not
// fit: a placeholder without a number, a number left over, a non-number, an unknown placeholder.
bool joinEvidence(std::string_view templ, const nlohmann::json* args, std::size_t count, std::string& out,
                  std::string& error);

}  // namespace contend
