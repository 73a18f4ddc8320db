#include "core/report/compare/compare_summary_md.h"

#include <cmath>
#include <cstdio>

#include "core/report/compare/compare_checks.h"
#include "core/trace/time_format.h"

namespace contend {

namespace {

constexpr std::size_t kBiggestChanges = 5;
constexpr std::size_t kMaxNameChars = 80;  // bytes; a longer signature is cut with "..."

std::string signedPct(double change) {
    char b[32];
    std::snprintf(b, sizeof b, "%+.1f%%", change * 100.0);
    return b;
}

// One line of plain text inside a code span in a table cell.
std::string codeCell(const std::string& text) {
    std::string s;
    for (char c : text) {
        if (c == '`')
            s += '\'';
        else if (c == '|')
            s += '/';
        else if (c == '\n' || c == '\r' || c == '\t')
            s += ' ';
        else
            s += c;
    }
    if (s.size() > kMaxNameChars) {
        std::size_t cut = kMaxNameChars;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 sequence
        s = s.substr(0, cut) + "...";
    }
    return "`" + s + "`";
}

// Plain text in a table cell or a line: no '|' that would split the cell, no line breaks.
std::string plainCell(const std::string& text) {
    std::string s;
    for (char c : text) {
        if (c == '|')
            s += "\\|";
        else if (c == '\n' || c == '\r')
            s += ' ';
        else
            s += c;
    }
    return s;
}

std::string row(const char* what, const std::string& before, const std::string& after, const std::string& change) {
    return std::string("| ") + what + " | " + before + " | " + after + " | " + change + " |\n";
}

std::string countChange(std::size_t before, std::size_t after) {
    const long long d = static_cast<long long>(after) - static_cast<long long>(before);
    return d == 0 ? "=" : (d > 0 ? "+" : "") + std::to_string(d);
}

TimeNs totalOf(const OperatorDiff& d, bool now) {
    if (now) return d.inNew ? d.now.totalNs : 0;
    return d.inBase ? d.base.totalNs : 0;
}

}  // namespace

std::string compareSummaryMarkdown(const CompareResult& r, const CompareSettings& settings) {
    const auto checks = compareChecks(r, settings);
    const std::size_t failed = countChecks(checks, CheckOutcome::Failed);
    std::string m = "### Contend: ";
    m += failed == 0 ? "no regression" : std::to_string(failed) + (failed == 1 ? " check failed" : " checks failed");
    m += "\n\n**Verdict:** " + plainCell(r.verdict) + "\n\n";
    m += "| | before | after | change |\n|---|---|---|---|\n";
    m += row("end-to-end", formatDuration(r.baseEndToEnd), formatDuration(r.newEndToEnd), signedPct(r.endToEndChange));
    auto counts = [&](const char* what, std::size_t resolved, std::size_t persisting, std::size_t added) {
        const std::size_t before = resolved + persisting, after = persisting + added;
        m += row(what, std::to_string(before), std::to_string(after),
                 countChange(before, after) + " (" + std::to_string(resolved) + " resolved, " + std::to_string(added) +
                     " new)");
    };
    counts("anomalies", r.anomalies.resolved.size(), r.anomalies.persisting.size(), r.anomalies.added.size());
    counts("contention windows", r.windows.resolved.size(), r.windows.persisting.size(), r.windows.added.size());
    counts("clusters", r.clusters.resolved.size(), r.clusters.persisting.size(), r.clusters.added.size());
    m += row("extra wait", formatDuration(r.baseExtraWait), formatDuration(r.newExtraWait), "");
    if (failed > 0) {
        m += "\n**Failed checks:**\n\n";
        for (const auto& c : checks)
            if (c.outcome == CheckOutcome::Failed) m += "- " + plainCell(c.name) + ": " + plainCell(c.message) + "\n";
    }
    if (!r.operators.empty()) {
        m += "\n**Biggest changes** (operators by change in total time):\n\n";
        m += "| operator | total before | total after | mean |\n|---|---|---|---|\n";
        // r.operators is sorted by |change in total time|, largest first.
        for (std::size_t k = 0; k < r.operators.size() && k < kBiggestChanges; ++k) {
            const OperatorDiff& d = r.operators[k];
            const std::string mean = d.inBase && d.inNew ? signedPct(d.meanChange) : opChangeSymbol(d.change);
            m += "| " + codeCell(d.signature) + " | " + (d.inBase ? formatDuration(totalOf(d, false)) : "-") + " | " +
                 (d.inNew ? formatDuration(totalOf(d, true)) : "-") + " | " + mean + " |\n";
        }
    }
    return m;
}

}  // namespace contend
