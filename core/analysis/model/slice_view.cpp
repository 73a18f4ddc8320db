#include "core/analysis/model/slice_view.h"

#include <utility>

namespace contend {

const SliceView& SliceView::none() {
    static const SliceView empty;
    return empty;
}

SliceView makeSliceView(std::vector<float> score, std::vector<std::uint32_t> signature, std::vector<TimeNs> slackNs,
                        std::size_t signatures) {
    SliceView v;
    v.m_begin.assign(signatures + 1, 0);
    for (const std::uint32_t s : signature)
        if (s < signatures) ++v.m_begin[s + 1];
    for (std::size_t k = 1; k < v.m_begin.size(); ++k) v.m_begin[k] += v.m_begin[k - 1];
    v.m_occurrences.resize(v.m_begin.back());
    std::vector<std::uint32_t> next(v.m_begin.begin(), v.m_begin.end() - 1);
    for (std::uint32_t i = 0; i < signature.size(); ++i)
        if (signature[i] < signatures) v.m_occurrences[next[signature[i]]++] = i;
    v.m_score = std::move(score);
    v.m_signature = std::move(signature);
    v.m_slackNs = std::move(slackNs);
    return v;
}

}  // namespace contend
