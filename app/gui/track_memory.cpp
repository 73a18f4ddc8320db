#include "app/gui/track_memory.h"

#include <map>
#include <string>
#include <utility>

#include <QFileInfo>
#include <QSettings>
#include <QVariantList>
#include <QVariantMap>

namespace contend::gui {

using widgets::TrackArrangement;

namespace {

const QString kKey = QStringLiteral("tracks/perTrace");

QString absolute(const QString& path) { return QFileInfo(path).absoluteFilePath(); }

// A track as "pid<US>tid" (the unit separator is in no pid or tid a reader makes).
QString trackName(const Trace& trace, std::uint32_t t) {
    const Track& track = trace.tracks()[t];
    return QString::fromStdString(track.pid) + QChar(0x1f) + QString::fromStdString(track.tid);
}

QStringList trackNames(const Trace& trace, const auto& tracks) {
    QStringList out;
    for (std::uint32_t t : tracks)
        if (t < trace.tracks().size()) out << trackName(trace, t);
    return out;
}

QStringList counterNames(const Trace& trace, const std::set<std::uint32_t>& counters) {
    QStringList out;
    for (std::uint32_t c : counters)
        if (c < trace.counters().size()) out << QString::fromStdString(trace.counters()[c].label());
    return out;
}

QVariantList entries() { return QSettings().value(kKey).toList(); }

void store(const QVariantList& list) {
    QSettings s;
    if (list.isEmpty())
        s.remove(kKey);
    else
        s.setValue(kKey, list);
}

// The list without the entry of `path`.
QVariantList without(const QString& path) {
    QVariantList out;
    for (const QVariant& v : entries())
        if (v.toMap().value(QStringLiteral("path")).toString() != path) out << v;
    return out;
}

}  // namespace

void TrackMemory::remember(const QString& path, const Trace& trace, const TrackArrangement& a) {
    const QString key = absolute(path);
    QVariantList list = without(key);
    if (a.order().size() != trace.tracks().size() || a == TrackArrangement(trace)) {
        store(list);
        return;
    }
    QVariantMap e;
    e[QStringLiteral("path")] = key;
    e[QStringLiteral("order")] = trackNames(trace, a.order());
    e[QStringLiteral("pinned")] = trackNames(trace, a.pinned());
    e[QStringLiteral("hidden")] = trackNames(trace, a.hidden());
    e[QStringLiteral("filter")] = QString::fromStdString(a.filter().text);
    e[QStringLiteral("deviceOnly")] = a.filter().deviceOnly;
    e[QStringLiteral("pinnedCounters")] = counterNames(trace, a.pinnedCounters());
    e[QStringLiteral("hiddenCounters")] = counterNames(trace, a.hiddenCounters());
    list.prepend(e);
    while (list.size() > kKeep) list.removeLast();
    store(list);
}

std::optional<TrackArrangement> TrackMemory::recall(const QString& path, const Trace& trace) {
    const QString key = absolute(path);
    for (const QVariant& v : entries()) {
        const QVariantMap e = v.toMap();
        if (e.value(QStringLiteral("path")).toString() != key) continue;
        std::map<QString, std::uint32_t> tracks, counters;
        for (std::uint32_t t = 0; t < trace.tracks().size(); ++t) tracks.emplace(trackName(trace, t), t);
        for (std::uint32_t c = 0; c < trace.counters().size(); ++c)
            counters.emplace(QString::fromStdString(trace.counters()[c].label()), c);
        auto ids = [&](const char* name, const std::map<QString, std::uint32_t>& known) {
            std::vector<std::uint32_t> out;
            for (const QString& n : e.value(QLatin1String(name)).toStringList())
                if (auto it = known.find(n); it != known.end()) out.push_back(it->second);
            return out;
        };
        TrackArrangement a(trace);
        a.setOrder(ids("order", tracks));
        for (std::uint32_t t : ids("pinned", tracks)) a.setPinned(t, true);
        for (std::uint32_t t : ids("hidden", tracks)) a.setHidden(t, true);
        for (std::uint32_t c : ids("pinnedCounters", counters)) a.setCounterPinned(c, true);
        for (std::uint32_t c : ids("hiddenCounters", counters)) a.setCounterHidden(c, true);
        a.setFilter({e.value(QStringLiteral("filter")).toString().toStdString(),
                     e.value(QStringLiteral("deviceOnly")).toBool()});
        return a;
    }
    return std::nullopt;
}

void TrackMemory::forget(const QString& path) { store(without(absolute(path))); }

QStringList TrackMemory::paths() {
    QStringList out;
    for (const QVariant& v : entries()) out << v.toMap().value(QStringLiteral("path")).toString();
    return out;
}

}  // namespace contend::gui
