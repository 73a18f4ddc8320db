#include "app/gui/session_file.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace contend::gui {

namespace {

using nlohmann::json;

constexpr const char* kFormatName = "contend-session";

// A failure about a key: "session.contend-session: \"thresholds.coefficient\": expected a number".
Failure keyFailure(const std::string& file, const std::string& key, const std::string& why) {
    return Failure::of(Failure::Kind::Malformed, "\"" + key + "\": " + why, file);
}

// Reads a session's parts one key at a time and remembers the first failure.
struct Reader {
    std::string file;
    std::optional<Failure> failed;

    void fail(const std::string& key, const std::string& why) {
        if (!failed) failed = keyFailure(file, key, why);
    }
    const json* child(const json& j, const char* name, const std::string& key, bool required) {
        if (!j.is_object()) return nullptr;
        const auto it = j.find(name);
        if (it == j.end()) {
            if (required) fail(key, "missing");
            return nullptr;
        }
        return &*it;
    }
    std::string string(const json& j, const char* name, const std::string& key, bool required = true) {
        const json* v = child(j, name, key, required);
        if (!v) return {};
        if (!v->is_string()) {
            fail(key, "expected a string");
            return {};
        }
        return v->get<std::string>();
    }
    double number(const json& j, const char* name, const std::string& key) {
        const json* v = child(j, name, key, true);
        if (!v) return 0;
        if (!v->is_number()) {
            fail(key, "expected a number");
            return 0;
        }
        return v->get<double>();
    }
    TimeNs time(const json& j, const char* name, const std::string& key) {
        const json* v = child(j, name, key, true);
        if (!v) return 0;
        if (!v->is_number_integer()) {
            fail(key, "expected whole nanoseconds");
            return 0;
        }
        return v->get<TimeNs>();
    }
    SessionTrackRef track(const json& j, const std::string& key) {
        if (!j.is_object()) {
            fail(key, "expected {\"pid\": …, \"tid\": …}");
            return {};
        }
        return {string(j, "pid", key + ".pid"), string(j, "tid", key + ".tid")};
    }
    std::vector<SessionTrackRef> tracks(const json& j, const char* name, const std::string& key) {
        std::vector<SessionTrackRef> out;
        const json* v = child(j, name, key, false);
        if (!v) return out;
        if (!v->is_array()) {
            fail(key, "expected a list of tracks");
            return out;
        }
        for (std::size_t i = 0; i < v->size(); ++i) out.push_back(track((*v)[i], key + "[" + std::to_string(i) + "]"));
        return out;
    }
    std::vector<std::string> strings(const json& j, const char* name, const std::string& key) {
        std::vector<std::string> out;
        const json* v = child(j, name, key, false);
        if (!v) return out;
        if (!v->is_array()) {
            fail(key, "expected a list of names");
            return out;
        }
        for (std::size_t i = 0; i < v->size(); ++i) {
            if (!(*v)[i].is_string()) {
                fail(key + "[" + std::to_string(i) + "]", "expected a string");
                return out;
            }
            out.push_back((*v)[i].get<std::string>());
        }
        return out;
    }
};

json trackJson(const SessionTrackRef& r) { return json{{"pid", r.pid}, {"tid", r.tid}}; }

json tracksJson(const std::vector<SessionTrackRef>& refs) {
    json a = json::array();
    for (const SessionTrackRef& r : refs) a.push_back(trackJson(r));
    return a;
}

// 1-based line and column of a byte offset.
void locate(const std::string& bytes, std::size_t offset, Failure& f) {
    offset = std::min(offset, bytes.size());
    f.offset = static_cast<std::int64_t>(offset);
    f.line = 1 + std::count(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(offset), '\n');
    const std::size_t lineStart = offset == 0 ? std::string::npos : bytes.rfind('\n', offset - 1);
    f.column = static_cast<std::int64_t>(lineStart == std::string::npos ? offset + 1 : offset - lineStart);
}

}  // namespace

QString sessionFileFilter() { return QObject::tr("Contend sessions (*.contend-session);;All files (*)"); }

std::string sessionToJson(const SessionState& s) {
    json j;
    j["format"] = kFormatName;
    j["version"] = kSessionFormatVersion;
    j["trace"] = s.tracePath;
    if (!s.traceRelative.empty()) j["traceRelative"] = s.traceRelative;
    j["thresholds"] = {{"coefficient", s.thresholds.coefficient}, {"overlap", s.thresholds.overlapRatio}};
    if (!s.windowState.empty()) j["window"] = {{"state", s.windowState}};
    if (s.hasRange) j["range"] = {{"start", s.rangeStart}, {"end", s.rangeEnd}};
    if (s.selection)
        j["selection"] = {{"pid", s.selection->track.pid},
                          {"tid", s.selection->track.tid},
                          {"start", s.selection->start},
                          {"name", s.selection->name}};
    j["tracks"] = {{"order", tracksJson(s.order)},
                   {"pinned", tracksJson(s.pinned)},
                   {"hidden", tracksJson(s.hidden)},
                   {"filter", {{"text", s.filter.text}, {"deviceOnly", s.filter.deviceOnly}}},
                   {"pinnedCounters", s.pinnedCounters},
                   {"hiddenCounters", s.hiddenCounters}};
    return j.dump(2) + "\n";
}

Result<SessionState> sessionFromJson(const std::string& bytes, const std::string& file) {
    json j;
    try {
        j = json::parse(bytes);
    } catch (const json::parse_error& e) {
        // nlohmann's byte is 1-based, at the character it could not take.
        Failure f = Failure::of(Failure::Kind::Malformed, "not valid JSON", file);
        locate(bytes, e.byte > 0 ? e.byte - 1 : 0, f);
        return f;
    }
    if (!j.is_object() || !j.contains("format") || j["format"] != kFormatName)
        return Failure::of(Failure::Kind::NotATrace, "not a Contend session (no \"format\": \"contend-session\")",
                           file);
    Reader in{file, std::nullopt};
    SessionState s;
    const json* version = in.child(j, "version", "version", true);
    if (version && (!version->is_number_integer() || version->get<std::int64_t>() < 1))
        in.fail("version", "expected a whole number from 1");
    else if (version && version->get<std::int64_t>() > kSessionFormatVersion)
        return keyFailure(file, "version",
                          "written by a newer Contend (format " + std::to_string(version->get<std::int64_t>()) +
                              "; this one reads up to " + std::to_string(kSessionFormatVersion) + ")");
    s.tracePath = in.string(j, "trace", "trace");
    if (!in.failed && s.tracePath.empty()) in.fail("trace", "empty");
    s.traceRelative = in.string(j, "traceRelative", "traceRelative", false);
    if (const json* th = in.child(j, "thresholds", "thresholds", true)) {
        s.thresholds.coefficient = in.number(*th, "coefficient", "thresholds.coefficient");
        s.thresholds.overlapRatio = in.number(*th, "overlap", "thresholds.overlap");
        if (!in.failed && !Thresholds::coefficientInRange(s.thresholds.coefficient))
            in.fail("thresholds.coefficient", coefficientRangeText("the coefficient"));
        if (!in.failed && !Thresholds::overlapRatioInRange(s.thresholds.overlapRatio))
            in.fail("thresholds.overlap", overlapRatioRangeText("the overlap"));
    }
    if (const json* w = in.child(j, "window", "window", false)) s.windowState = in.string(*w, "state", "window.state");
    if (const json* r = in.child(j, "range", "range", false)) {
        s.hasRange = true;
        s.rangeStart = in.time(*r, "start", "range.start");
        s.rangeEnd = in.time(*r, "end", "range.end");
        if (!in.failed && s.rangeEnd <= s.rangeStart) in.fail("range", "the end is not after the start");
    }
    if (const json* sel = in.child(j, "selection", "selection", false); sel && !sel->is_null()) {
        SessionSelection x;
        x.track = in.track(*sel, "selection");
        x.start = in.time(*sel, "start", "selection.start");
        x.name = in.string(*sel, "name", "selection.name");
        s.selection = x;
    }
    if (const json* t = in.child(j, "tracks", "tracks", false)) {
        s.order = in.tracks(*t, "order", "tracks.order");
        s.pinned = in.tracks(*t, "pinned", "tracks.pinned");
        s.hidden = in.tracks(*t, "hidden", "tracks.hidden");
        s.pinnedCounters = in.strings(*t, "pinnedCounters", "tracks.pinnedCounters");
        s.hiddenCounters = in.strings(*t, "hiddenCounters", "tracks.hiddenCounters");
        if (const json* f = in.child(*t, "filter", "tracks.filter", false)) {
            s.filter.text = in.string(*f, "text", "tracks.filter.text", false);
            if (const json* d = in.child(*f, "deviceOnly", "tracks.filter.deviceOnly", false)) {
                if (d->is_boolean())
                    s.filter.deviceOnly = d->get<bool>();
                else
                    in.fail("tracks.filter.deviceOnly", "expected true or false");
            }
        }
    }
    if (in.failed) return *in.failed;
    return s;
}

Result<SessionState> readSessionFile(const QString& path) {
    const std::string name = path.toStdString();
    QFile f(path);
    if (!f.exists()) return Failure::of(Failure::Kind::Unreadable, "no such file", name);
    if (!f.open(QIODevice::ReadOnly))
        return Failure::of(Failure::Kind::Unreadable, f.errorString().toStdString(), name);
    // A session is a few kilobytes; anything far bigger is not one.
    if (f.size() > 16 * 1024 * 1024)
        return Failure::of(Failure::Kind::NotATrace, "too big for a session file (over 16 MB)", name);
    const QByteArray bytes = f.readAll();
    return sessionFromJson(bytes.toStdString(), name);
}

QString sessionTracePath(const SessionState& state, const QString& sessionPath) {
    const QString absolute = QString::fromStdString(state.tracePath);
    if (QFileInfo::exists(absolute)) return absolute;
    if (!state.traceRelative.empty()) {
        const QString relative =
            QFileInfo(sessionPath).absoluteDir().filePath(QString::fromStdString(state.traceRelative));
        if (QFileInfo::exists(relative)) return QFileInfo(relative).absoluteFilePath();
    }
    return absolute;
}

SessionTrackRef trackRef(const Trace& trace, std::uint32_t track) {
    if (track >= trace.tracks().size()) return {};
    return {trace.tracks()[track].pid, trace.tracks()[track].tid};
}

std::uint32_t findTrack(const Trace& trace, const SessionTrackRef& ref) {
    for (std::uint32_t t = 0; t < trace.tracks().size(); ++t)
        if (trace.tracks()[t].pid == ref.pid && trace.tracks()[t].tid == ref.tid) return t;
    return kNone;
}

void storeTracks(const Trace& trace, const widgets::TrackArrangement& a, SessionState& s) {
    s.order.clear();
    s.pinned.clear();
    s.hidden.clear();
    for (std::uint32_t t : a.order()) {
        s.order.push_back(trackRef(trace, t));
        if (a.isPinned(t)) s.pinned.push_back(trackRef(trace, t));
        if (a.isHidden(t)) s.hidden.push_back(trackRef(trace, t));
    }
    s.filter = a.filter();
    s.pinnedCounters.clear();
    s.hiddenCounters.clear();
    for (std::uint32_t c : a.pinnedCounters())
        if (c < trace.counters().size()) s.pinnedCounters.push_back(trace.counters()[c].label());
    for (std::uint32_t c : a.hiddenCounters())
        if (c < trace.counters().size()) s.hiddenCounters.push_back(trace.counters()[c].label());
}

widgets::TrackArrangement restoreTracks(const Trace& trace, const SessionState& s, int* missing) {
    widgets::TrackArrangement a(trace);
    int lost = 0;
    auto resolve = [&](const SessionTrackRef& r) {
        const std::uint32_t t = findTrack(trace, r);
        if (t == kNone) ++lost;
        return t;
    };
    std::vector<std::uint32_t> order;
    for (const SessionTrackRef& r : s.order)
        if (const std::uint32_t t = resolve(r); t != kNone) order.push_back(t);
    a.setOrder(order);
    for (const SessionTrackRef& r : s.pinned)
        if (const std::uint32_t t = findTrack(trace, r); t != kNone) a.setPinned(t, true);
    for (const SessionTrackRef& r : s.hidden)
        if (const std::uint32_t t = findTrack(trace, r); t != kNone) a.setHidden(t, true);
    a.setFilter(s.filter);
    auto counter = [&](const std::string& label) {
        for (std::uint32_t c = 0; c < trace.counters().size(); ++c)
            if (trace.counters()[c].label() == label) return c;
        ++lost;
        return kNone;
    };
    for (const std::string& label : s.pinnedCounters)
        if (const std::uint32_t c = counter(label); c != kNone) a.setCounterPinned(c, true);
    for (const std::string& label : s.hiddenCounters)
        if (const std::uint32_t c = counter(label); c != kNone) a.setCounterHidden(c, true);
    if (missing) *missing = lost;
    return a;
}

SessionSelection selectionRef(const Trace& trace, std::uint32_t slice) {
    SessionSelection out;
    if (slice >= trace.slices().size()) return out;
    const Slice& s = trace.slices()[slice];
    out.track = trackRef(trace, s.track);
    out.start = s.start;
    out.name = std::string(trace.str(s.name));
    return out;
}

std::uint32_t findSelection(const Trace& trace, const SessionSelection& sel) {
    const std::uint32_t t = findTrack(trace, sel.track);
    if (t == kNone) return kNone;
    const Track& track = trace.tracks()[t];
    const auto& slices = trace.slices();
    // A track's slices are sorted by start: the ones at this start, then the one of this name.
    auto first = slices.begin() + track.sliceBegin, last = slices.begin() + track.sliceEnd;
    auto it = std::lower_bound(first, last, sel.start, [](const Slice& s, TimeNs v) { return s.start < v; });
    for (; it != last && it->start == sel.start; ++it)
        if (trace.str(it->name) == sel.name) return static_cast<std::uint32_t>(it - slices.begin());
    return kNone;
}

}  // namespace contend::gui
