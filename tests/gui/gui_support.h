#pragma once
// Helpers for the widget tests: tiny traces built in code, inline JSON traces, waiting on the
// event loop, and the setup the window tests share (fresh settings, a main window with the
// bundled sample open, skipping without ../shared/traces).
#include <string>
#include <vector>

#include "core/io/json/chrome_json_reader.h"
#include "core/io/load.h"
#include "core/trace/conventions.h"
#include "core/trace/trace_builder.h"

namespace contend::test {

// Builds a trace with device streams ("GPU 0 / stream N") and host threads, slice by slice.
class TinyTrace {
  public:
    TinyTrace() : m_b(kKinetoFormat) {}
    std::uint32_t stream(int n) {
        const std::string tid = std::to_string(n);
        const std::uint32_t t = m_b.track("0", tid);
        m_b.setProcessName("0", "GPU 0");
        m_b.setThreadName("0", tid, "stream " + tid);
        return t;
    }
    std::uint32_t thread(int n) {
        const std::string tid = std::to_string(n);
        const std::uint32_t t = m_b.track("100", tid);
        m_b.setProcessName("100", "python3");
        return t;
    }
    // A device kernel (or, with device=false, a host op) on a track.
    void op(std::uint32_t track, const std::string& name, TimeNs start, TimeNs dur, bool device = true) {
        Slice s;
        s.start = start;
        s.dur = dur;
        s.name = m_b.intern(name);
        s.category = m_b.intern(device ? "kernel" : "cpu_op");
        s.track = track;
        s.flags = device ? kSliceDevice : 0;
        m_b.addSlice(s);
    }
    void counter(const std::string& name, const std::string& key, TimeNs t, double v) {
        m_b.addCounter("0", name, "", key, t, v);
    }
    TracePtr finish() { return m_b.finalize(); }

  private:
    TraceBuilder m_b;
};

inline TracePtr loadJson(const std::string& json, const std::string& name = "inline.json") {
    return loadTraceFromMemory(json, name).value();
}

// Index of the slice with this name and start, or kNone.
inline std::uint32_t findSlice(const Trace& t, std::string_view name, TimeNs start) {
    for (std::uint32_t i = 0; i < t.slices().size(); ++i)
        if (t.str(t.slices()[i].name) == name && t.slices()[i].start == start) return i;
    return kNone;
}

}  // namespace contend::test

#include <catch2/catch.hpp>
#include <filesystem>
#include <functional>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSettings>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QtGlobal>

#include "app/gui/analysis_session.h"
#include "app/gui/main_window.h"
#include "test_paths.h"
#include "test_support.h"
#include "widgets/timeline/timeline_view.h"

namespace contend::test {

// Runs the event loop until `done()` or the timeout; returns done().
inline bool waitFor(const std::function<bool()>& done, int timeoutMs = 60000) {
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < timeoutMs) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return done();
}

// Lets queued events and short timers run.
inline void pump(int ms = 50) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
}

inline QString samplePath() {
    return (QString::fromStdString(contend::test::sourceDir()) +
            QStringLiteral("/resources/samples/projectx-before.json.gz"));
}
inline bool haveSample() { return std::filesystem::exists(samplePath().toStdString()); }

// A test that needs ../shared/traces: reported skipped without it (test::skipTest), never passed
// silently. Call it first: a skip ends the test (and its process) where it is called.
inline void skipWithoutSharedTraces() {
    if (haveSharedTraces()) return;
    std::fprintf(stderr, "%s not found: skipped\n", sharedTracesDir().c_str());
    skipTest();
}

// The app's settings (QSettings) cleared when made and when gone: each test starts from the
// defaults and leaves none behind.
struct FreshSettings {
    FreshSettings() { QSettings().clear(); }
    ~FreshSettings() { QSettings().clear(); }
    FreshSettings(const FreshSettings&) = delete;
    FreshSettings& operator=(const FreshSettings&) = delete;
};

enum class Outcome { Opened, Failed, Cancelled, Timeout };

// Opens `path` in `w` and runs the event loop until the session says it opened, failed or was
// cancelled (Timeout after `timeoutMs`), then lets the views catch up.
inline Outcome openAndWait(gui::MainWindow& w, const QString& path, int timeoutMs = 120000) {
    Outcome out = Outcome::Timeout;
    bool done = false;
    auto a = QObject::connect(w.session(), &gui::AnalysisSession::opened, [&] { out = Outcome::Opened, done = true; });
    auto b = QObject::connect(w.session(), &gui::AnalysisSession::failed, [&] { out = Outcome::Failed, done = true; });
    auto c =
        QObject::connect(w.session(), &gui::AnalysisSession::cancelled, [&] { out = Outcome::Cancelled, done = true; });
    w.openPath(path);
    waitFor([&] { return done; }, timeoutMs);
    QObject::disconnect(a);
    QObject::disconnect(b);
    QObject::disconnect(c);
    pump(30);
    return out;
}

// Opens the bundled sample in `w`; true once it is open and analysed.
inline bool openSample(gui::MainWindow& w, int timeoutMs = 120000) {
    return openAndWait(w, samplePath(), timeoutMs) == Outcome::Opened;
}

// The window's device streams the timeline shows (in the trace's order): what the track tests pin,
// hide and move.
inline std::vector<std::uint32_t> shownDeviceStreams(gui::MainWindow& w) {
    const Trace& trace = *w.session()->current()->trace;
    std::vector<std::uint32_t> streams;
    for (std::uint32_t t : trace.trackOrder())
        if (trace.tracks()[t].kind == TrackKind::DeviceStream && w.timeline()->layout().trackSpan(t).first >= 0)
            streams.push_back(t);
    return streams;
}

// The setup most window tests share: fresh settings, a main window resized to `size` (its
// default size when `size` is empty) and shown, the bundled sample opened in it. The sample is
// bundled with the project: a missing one, or a failed open, fails the test.
struct SampleWindow {
    FreshSettings fresh;
    gui::MainWindow window;
    explicit SampleWindow(QSize size = {}) {
        REQUIRE(haveSample());
        if (size.isValid()) window.resize(size);
        window.show();
        REQUIRE(openSample(window));
    }
};

// Collects Qt warnings (QAbstractItemModelTester reports through qWarning).
class WarningCapture {
  public:
    WarningCapture() {
        s_self = this;
        m_prev = qInstallMessageHandler(&handler);
    }
    ~WarningCapture() {
        qInstallMessageHandler(m_prev);
        s_self = nullptr;
    }
    const QStringList& warnings() const { return m_warnings; }

  private:
    static void handler(QtMsgType type, const QMessageLogContext&, const QString& msg) {
        if (s_self && (type == QtWarningMsg || type == QtCriticalMsg) &&
            !msg.contains(QStringLiteral("propagateSizeHints")) && !msg.contains(QStringLiteral("XDG_RUNTIME_DIR")))
            s_self->m_warnings << msg;
    }
    static inline WarningCapture* s_self = nullptr;
    QtMessageHandler m_prev = nullptr;
    QStringList m_warnings;
};

}  // namespace contend::test
