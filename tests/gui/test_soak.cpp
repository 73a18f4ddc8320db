// The app under long use: a hundred traces opened one after the other in one main window (each
// replacing the last), with a compare window opened and closed every tenth, keep the heap flat.
// Measured as the bytes malloc has handed out and not got back (mallinfo2), which sees a leak of
// any size where the resident set would hide it behind the allocator's caching.
#include <catch2/catch.hpp>
#include <malloc.h>

#include <QApplication>

#include "app/gui/analysis_session.h"
#include "app/gui/compare_window.h"
#include "app/gui/main_window.h"
#include "gui_support.h"

using namespace contend;
using contend::gui::CompareWindow;
using contend::gui::MainWindow;
using contend::test::pump;
using contend::test::waitFor;

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CONTEND_SOAK_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define CONTEND_SOAK_ASAN 1
#endif

namespace {

#ifdef CONTEND_SOAK_ASAN
// Under ASan malloc is the sanitizer's (mallinfo2 says nothing) and leaks are LeakSanitizer's to
// report at exit: the soak runs shorter, for the use-after-free and leaks it may find.
constexpr int kOpens = 20;
#else
constexpr int kOpens = 100;
#endif

QString afterSample() {
    return QString::fromStdString(contend::test::sourceDir()) +
           QStringLiteral("/resources/samples/projectx-after.json.gz");
}

std::size_t heapInUse() {
    malloc_trim(0);
    return mallinfo2().uordblks;
}

// Deleted windows (deleteLater) and finished load threads go before measuring.
void settle() {
    for (int i = 0; i < 5; ++i) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        pump(20);
    }
}

}  // namespace

TEST_CASE("a hundred traces opened and closed in one run of the app keep the heap flat", "[soak][app]") {
    contend::test::FreshSettings fresh;
    REQUIRE(contend::test::haveSample());
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    const QString paths[] = {contend::test::samplePath(), afterSample()};
    std::size_t first = 0, last = 0;
    for (int i = 0; i < kOpens; ++i) {
        REQUIRE(contend::test::openAndWait(w, paths[i % 2]) == contend::test::Outcome::Opened);
        if (i % 10 == 9) {
            CompareWindow* c = w.compareWith(paths[(i + 1) % 2]);
            REQUIRE(c);
            bool done = false;
            QObject::connect(c, &CompareWindow::compared, [&] { done = true; });
            QObject::connect(c, &CompareWindow::failed, [&] { done = true; });
            REQUIRE(waitFor([&] { return done; }, 180000));
            c->close();  // deletes itself
        }
        settle();
        // The baseline is after the first compare window closed: what the app fills once (fonts,
        // glyphs, a compare window's styles, the recent-files menu at its length) is in by then.
        if (i == 9) first = heapInUse();
        if (i == kOpens - 1) last = heapInUse();
    }
#ifndef CONTEND_SOAK_ASAN
    REQUIRE(first > 0);
    const double growth = static_cast<double>(last) / static_cast<double>(first) - 1.0;
    INFO("heap in use after open 10 and the first compare closed: " << first << " bytes; after open " << kOpens << ": "
                                                                    << last << " bytes (" << growth * 100 << "%)");
    CHECK(growth < 0.10);
#endif
}
