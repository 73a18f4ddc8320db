#include "widgets/timeline/slice_search.h"

#include <algorithm>

#include <QRegularExpression>

namespace contend::widgets {

SliceSearch searchSlices(const Trace& trace, const QString& pattern, bool regex) {
    SliceSearch out;
    if (pattern.isEmpty()) return out;
    QRegularExpression re;
    if (regex) {
        re = QRegularExpression(pattern, QRegularExpression::CaseInsensitiveOption);
        if (!re.isValid()) {
            out.error =
                QObject::tr("not a regular expression: %1 (at %2)").arg(re.errorString()).arg(re.patternErrorOffset());
            return out;
        }
    }
    // One verdict per interned name.
    const std::size_t names = trace.strings().size();
    std::vector<signed char> verdict(names, -1);
    auto matches = [&](StringId id) {
        if (id >= names) return false;
        if (verdict[id] < 0) {
            const std::string_view v = trace.str(id);
            const QString name = QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size()));
            verdict[id] = regex ? re.match(name).hasMatch() : name.contains(pattern, Qt::CaseInsensitive);
        }
        return verdict[id] > 0;
    };
    const auto& sl = trace.slices();
    for (std::uint32_t i = 0; i < sl.size(); ++i)
        if (matches(sl[i].name)) out.slices.push_back(i);
    std::stable_sort(out.slices.begin(), out.slices.end(), [&](std::uint32_t a, std::uint32_t b) {
        return sl[a].start != sl[b].start ? sl[a].start < sl[b].start : sl[a].track < sl[b].track;
    });
    return out;
}

}  // namespace contend::widgets
