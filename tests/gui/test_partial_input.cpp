// A trace cut short opens with a banner that says so first, with core's note on what was kept,
// so the verdict never looks surer than the capture behind it.
#include <catch2/catch.hpp>

#include <QFile>
#include <QTemporaryDir>

#include "app/gui/analysis_session.h"
#include "app/gui/main_window.h"
#include "app/gui/message_bar.h"
#include "gui_support.h"

using namespace contend;
using contend::gui::MainWindow;
using contend::gui::MessageBar;

TEST_CASE("a trace cut short opens with a banner saying what the analysis rests on", "[app][partial]") {
    contend::test::FreshSettings fresh;
    REQUIRE(contend::test::haveSample());
    QFile in(contend::test::samplePath());
    REQUIRE(in.open(QIODevice::ReadOnly));
    const QByteArray bytes = in.readAll();
    QTemporaryDir dir;
    const QString cut = dir.filePath(QStringLiteral("cut.json.gz"));
    QFile out(cut);
    REQUIRE(out.open(QIODevice::WriteOnly));
    out.write(bytes.left(bytes.size() * 6 / 10));
    out.close();

    MainWindow w;
    w.resize(1400, 900);
    w.show();
    REQUIRE(contend::test::openAndWait(w, cut) == contend::test::Outcome::Opened);
    REQUIRE(w.session()->report());
    const ReportNote* note = partialInputNote(w.session()->report()->notes);
    REQUIRE(note);
    CHECK(note->kind == kTruncatedInputNote);
    CHECK(w.messageBar()->isVisible());
    CHECK(w.messageBar()->kind() == MessageBar::Kind::Warning);
    INFO(w.messageBar()->text().toStdString());
    CHECK(w.messageBar()->text().contains(QStringLiteral("cut short")));
    CHECK(w.messageBar()->text().contains(QString::fromStdString(note->text).left(40)));

    // The whole sample again: no banner.
    REQUIRE(contend::test::openSample(w));
    CHECK(w.messageBar()->isHidden());
}

TEST_CASE("an Ascend trace_view.json opened alone says in a banner to open the whole folder", "[app][partial]") {
    contend::test::skipWithoutSharedTraces();
    const QString path =
        QString::fromStdString(contend::test::sharedTracesDir()) +
        QStringLiteral("/ascend-mstt/profiler/msprof_analyze/test/ut/advisor/timeline_advice/trace_view.json");
    contend::test::FreshSettings fresh;
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    REQUIRE(contend::test::openAndWait(w, path) == contend::test::Outcome::Opened);
    REQUIRE(w.session()->report());
    REQUIRE(gui::noteOfKind(w.session()->report()->notes, "no-shapes"));
    CHECK(w.messageBar()->isVisible());
    INFO(w.messageBar()->text().toStdString());
    CHECK(w.messageBar()->text().contains(QStringLiteral("no input shapes")));
    CHECK(w.messageBar()->text().contains(QStringLiteral("Open the whole profiler folder")));
}
