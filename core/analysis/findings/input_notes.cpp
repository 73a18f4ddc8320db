#include "core/analysis/findings/input_notes.h"

#include <algorithm>
#include <string>

#include "core/trace/time_format.h"

namespace contend {

namespace {

std::string plural(std::uint64_t n, const char* one, const char* many) {
    return formatCount(static_cast<std::size_t>(n)) + " " + (n == 1 ? one : many);
}

// The reader's words for where the file was cut, or a plain sentence when it gave none (an
// object left open after a complete events array).
std::string whereCut(const ImportStats& stats) {
    for (const ImportWarning& w : stats.warnings)
        if (w.id == ImportProblem::FileTruncated || w.id == ImportProblem::GzipCutShort)
            return w.kind + (w.example.empty() ? std::string() : ": " + w.example);
    return "the file ends before its closing brackets";
}

ReportNote truncatedNote(const InputNoteInputs& in) {
    const Trace& t = in.trace;
    std::string text = "The trace file was cut before its end (" + whereCut(t.stats()) +
                       "): this report rests on what was kept, " + plural(t.stats().events, "event", "events") + " (" +
                       plural(in.ops.size(), "operator", "operators") + " analysed";
    if (!in.iterations.empty()) text += ", " + plural(in.iterations.size(), "step", "steps");
    text += ") over " + formatDuration(t.span()) + ". Likely missing: whatever ran after the last event kept";
    const bool lastCut =
        !in.iterations.empty() &&
        std::find(in.cut.begin(), in.cut.end(), static_cast<std::uint32_t>(in.iterations.size() - 1)) != in.cut.end();
    if (lastCut)
        text += "; the last step kept (#" + std::to_string(in.iterations.back().index) +
                ") holds fewer operators than the others, so it was cut too (kept out of the baselines)";
    if (in.collectives > 0)
        text += "; it holds " + plural(in.collectives, "collective", "collectives") +
                " (cluster and merge set that against the other ranks)";
    text += ". Verdicts on the end of the run, and any comparison with a whole capture, rest on a partial trace.";
    return {kTruncatedInputNote, text};
}

// Dropped events and rows kept without names, when they reach kDamagedShare of what was read.
std::vector<ReportNote> damagedNote(const Trace& t) {
    std::uint64_t dropped = 0, unnamed = 0;
    std::string kinds;
    for (const ImportWarning& w : t.stats().warnings) {
        const bool drops = problemDropsEvent(w.id);
        if (!drops && w.id != ImportProblem::DbNameMissing) continue;
        (drops ? dropped : unnamed) += w.count;
        kinds += (kinds.empty() ? "" : "; ") + w.kind + " " + formatCount(static_cast<std::size_t>(w.count)) +
                 (w.example.empty() ? std::string() : " (first at " + w.example + ")");
    }
    // Both kinds of reader count an event they drop among the events read (ImportStats::events).
    const double read = static_cast<double>(std::max(t.stats().events, dropped));
    if (dropped + unnamed == 0 || static_cast<double>(dropped + unnamed) < kDamagedShare * read) return {};
    std::string text = "The reader ";
    if (dropped)
        text += "dropped " + plural(dropped, "event", "events") + " of " + formatCount(static_cast<std::size_t>(read));
    if (dropped && unnamed) text += " and ";
    if (unnamed) text += "kept " + plural(unnamed, "row", "rows") + " without their names";
    text += ": " + kinds + ". The verdicts rest on what was kept; `contend-cli info` lists every import problem.";
    return {{kDamagedInputNote, text}};
}

std::vector<ReportNote> overlapNote(const InputNoteInputs& in) {
    const Trace& t = in.trace;
    std::uint64_t flagged = 0;
    for (std::uint32_t sl : in.ops.slices) flagged += t.slices()[sl].is(kSliceOverlap);
    if (flagged == 0) return {};
    std::string counted;
    for (const ImportWarning& w : t.stats().warnings)
        if (w.id == ImportProblem::DuplicateEvent || w.id == ImportProblem::StreamOverlap)
            counted += (counted.empty() ? "" : "; ") + w.kind + " " + formatCount(static_cast<std::size_t>(w.count)) +
                       " (first at " + w.example + ")";
    return {{kStreamOverlapNote,
             plural(flagged, "device operator overlaps another on its own stream",
                    "device operators overlap another on their own stream") +
                 " (" + counted +
                 "): a stream runs one operator at a time, so these are duplicated events or clock trouble. They "
                 "are kept out of the baselines; their own scores are shown but rest on times that cannot be "
                 "right."}};
}

}  // namespace

std::vector<ReportNote> inputNotes(const InputNoteInputs& in) {
    std::vector<ReportNote> out;
    if (in.trace.stats().truncated) out.push_back(truncatedNote(in));
    for (ReportNote& n : damagedNote(in.trace)) out.push_back(std::move(n));
    for (ReportNote& n : overlapNote(in)) out.push_back(std::move(n));
    return out;
}

}  // namespace contend
