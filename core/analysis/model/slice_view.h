#pragma once
// The per-slice indexes views read (the timeline's tooltips and critical path, the details, the
// breakdown's histogram, the occurrence table): each slice's score, signature and slack, and the
// slices of each signature. None of them depends on the thresholds, so they are built once per
// trace (the prepared analysis owns its view, engine.h: PreparedAnalysis::sliceView) and handed
// beside every report built from it; a re-threshold copies nothing of them. Report itself is the
// serialisable contract only (report.h). Made directly for synthetic data (app/gui's synthetic
// overlay) with makeSliceView.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "core/trace/trace.h"

namespace contend {

class SliceView {
  public:
    SliceView() = default;
    // The view with no slices (for a view handed a report without one): nothing analysed.
    static const SliceView& none();

    // Indexed like Trace::slices(); past the end a slice is not analysed.
    std::size_t slices() const { return m_signature.size(); }
    // kNone for slices that are not analysed operators.
    std::uint32_t signatureOf(std::uint32_t slice) const {
        return slice < m_signature.size() ? m_signature[slice] : kNone;
    }
    // NaN for slices that are not analysed operators.
    float scoreOf(std::uint32_t slice) const {
        return slice < m_score.size() ? m_score[slice] : std::numeric_limits<float>::quiet_NaN();
    }
    // The dependency graph's slack (depgraph.h), ns: 0 on the critical path, -1 for a slice that
    // is not in the graph (or with no graph at all).
    TimeNs slackOf(std::uint32_t slice) const { return slice < m_slackNs.size() ? m_slackNs[slice] : -1; }
    // Whether there is a dependency graph (the what-if can run): slackOf is -1 everywhere without.
    bool hasSlack() const { return !m_slackNs.empty(); }
    // The slices of signature `signature` (an index into the report's operators) in slice order
    // (by track, then start); empty for an unknown one. O(1): a range of the CSR.
    std::span<const std::uint32_t> occurrencesOf(std::uint32_t signature) const {
        if (signature + std::size_t{1} >= m_begin.size()) return {};
        return {m_occurrences.data() + m_begin[signature], m_begin[signature + 1] - m_begin[signature]};
    }
    std::size_t signatures() const { return m_begin.empty() ? 0 : m_begin.size() - 1; }

  private:
    friend SliceView makeSliceView(std::vector<float>, std::vector<std::uint32_t>, std::vector<TimeNs>, std::size_t);
    std::vector<float> m_score;
    std::vector<std::uint32_t> m_signature;
    std::vector<TimeNs> m_slackNs;             // empty without a dependency graph
    std::vector<std::uint32_t> m_begin;        // per signature + 1: where its slices start in m_occurrences
    std::vector<std::uint32_t> m_occurrences;  // the analysed slices, grouped by signature, in slice order
};

using SliceViewPtr = std::shared_ptr<const SliceView>;

// The view of per-slice `score` and `signature` (the same length: one per slice) and `slackNs`
// (one per slice, or empty without a dependency graph), with the occurrences of each of
// `signatures` signatures gathered by one counting pass over `signature` (a signature at or past
// `signatures` is left out of the occurrences). O(slices + signatures).
SliceView makeSliceView(std::vector<float> score, std::vector<std::uint32_t> signature, std::vector<TimeNs> slackNs,
                        std::size_t signatures);

}  // namespace contend
