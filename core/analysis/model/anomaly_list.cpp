#include "core/analysis/model/anomaly_list.h"

#include <algorithm>

namespace contend {

AnomalyList::Cache::Cache(std::size_t n)
    : once(new std::once_flag[n]), chunks(new std::unique_ptr<Anomaly[]>[n]), count(n) {}

AnomalyList::AnomalyList(std::shared_ptr<const AnomalySource> source, const AnomalyRow* rows, std::size_t count,
                         std::vector<std::pair<std::uint32_t, std::uint32_t>> windowsOf)
    : m_source(std::move(source)), m_rows(count ? rows : nullptr), m_count(count), m_windowsOf(std::move(windowsOf)) {
    if (m_rows) m_cache = std::make_unique<Cache>((m_count + kChunk - 1) / kChunk);
}

AnomalyList::AnomalyList(std::shared_ptr<const AnomalySource> source, const AnomalyRow* rows, std::size_t count,
                         std::shared_ptr<const WindowMembership> membership)
    : m_source(std::move(source)), m_rows(count ? rows : nullptr), m_count(count), m_membership(std::move(membership)) {
    if (m_rows) m_cache = std::make_unique<Cache>((m_count + kChunk - 1) / kChunk);
}

// A copy shares the rows but not the built blocks: the copy's what-if results may differ.
AnomalyList::AnomalyList(const AnomalyList& o)
    : m_owned(o.m_owned),
      m_source(o.m_source),
      m_rows(o.m_rows),
      m_count(o.m_count),
      m_windowsOf(o.m_windowsOf),
      m_membership(o.m_membership),
      m_gain(o.m_gain),
      m_slack(o.m_slack) {
    if (m_rows) m_cache = std::make_unique<Cache>((m_count + kChunk - 1) / kChunk);
}

AnomalyList& AnomalyList::operator=(const AnomalyList& o) {
    if (this != &o) {
        AnomalyList copy(o);
        *this = std::move(copy);
    }
    return *this;
}

AnomalyText AnomalyList::text(std::size_t k) const {
    if (m_rows) return m_source->text(k);
    const Anomaly& a = m_owned[k];
    return {a.name, a.pid, a.tid, a.trackLabel, a.evidence};
}

std::vector<std::pair<std::uint32_t, std::uint32_t>>::const_iterator AnomalyList::firstWindow(std::size_t k) const {
    const auto key = static_cast<std::uint32_t>(k);
    const auto& of = windowsOf();
    return std::lower_bound(
        of.begin(), of.end(), key,
        [](const std::pair<std::uint32_t, std::uint32_t>& m, std::uint32_t v) { return m.first < v; });
}

std::size_t AnomalyList::windowCount(std::size_t k) const {
    if (!m_rows) return m_owned[k].windows.size();
    std::size_t n = 0;
    forEachWindow(k, [&](std::uint32_t) { ++n; });
    return n;
}

void AnomalyList::build(std::size_t k, Anomaly& out) const {
    m_source->fill(k, out);
    out.windows.clear();
    forEachWindow(k, [&](std::uint32_t id) { out.windows.push_back(id); });
    out.gainNs = m_gain.empty() ? -1 : m_gain[k];
    out.slackNs = m_slack.empty() ? -1 : m_slack[k];
}

const Anomaly& AnomalyList::materialised(std::size_t k) const {
    const std::size_t c = k / kChunk;
    std::call_once(m_cache->once[c], [&] {
        const std::size_t first = c * kChunk, n = std::min(kChunk, m_count - first);
        std::unique_ptr<Anomaly[]> block(new Anomaly[n]);
        for (std::size_t i = 0; i < n; ++i) build(first + i, block[i]);
        m_cache->chunks[c] = std::move(block);
    });
    return m_cache->chunks[c][k % kChunk];
}

void AnomalyList::setGain(std::size_t k, TimeNs ns) {
    if (!m_rows) {
        m_owned[k].gainNs = ns;
        return;
    }
    if (m_gain.empty()) m_gain.assign(m_count, -1);
    m_gain[k] = ns;
    // A block already built is the anomaly the caller will read: keep it in step. (Writes are
    // not concurrent with reads, as for any container.)
    if (const auto& block = m_cache->chunks[k / kChunk]) block[k % kChunk].gainNs = ns;
}

void AnomalyList::setSlack(std::size_t k, TimeNs ns) {
    if (!m_rows) {
        m_owned[k].slackNs = ns;
        return;
    }
    if (m_slack.empty()) m_slack.assign(m_count, -1);
    m_slack[k] = ns;
    if (const auto& block = m_cache->chunks[k / kChunk]) block[k % kChunk].slackNs = ns;
}

std::vector<Anomaly>& AnomalyList::edit() {
    if (m_rows) {
        std::vector<Anomaly> all;
        all.reserve(m_count);
        for (std::size_t k = 0; k < m_count; ++k) all.push_back((*this)[k]);
        *this = AnomalyList(std::move(all));
    }
    return m_owned;
}

std::size_t AnomalyList::materialisedCount() const {
    if (!m_rows) return m_owned.size();
    std::size_t n = 0;
    for (std::size_t c = 0; c < m_cache->count; ++c)
        if (m_cache->chunks[c]) n += std::min(kChunk, m_count - c * kChunk);
    return n;
}

}  // namespace contend
