// The app as the user drives it, under QT_QPA_PLATFORM=offscreen: opening (and failing to open)
// traces, table rows moving the timeline, the sliders re-thresholding the way the core predicts,
// persistence, drag and drop, export.
#include <catch2/catch.hpp>
#include <set>
#include <vector>

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QMimeData>
#include <QSet>
#include <QSettings>
#include <QSlider>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include "app/gui/analysis_session.h"
#include "app/gui/main_window.h"
#include "app/gui/message_bar.h"
#include "app/gui/recent_files.h"
#include "app/gui/save_file.h"
#include "app/gui/settings_panel.h"
#include "core/analysis/engine.h"
#include "core/io/reader_table.h"
#include "core/report/single/report_json.h"
#include "gui_support.h"
#include "test_paths.h"
#include "widgets/breakdown/breakdown_view.h"
#include "widgets/details/operator_details.h"
#include "widgets/heatmap/heatmap_view.h"
#include "widgets/tables/column_model.h"
#include "widgets/tables/operator_browser.h"
#include "widgets/tables/table_panel.h"
#include "widgets/timeline/timeline_view.h"

using namespace contend;
using namespace contend::gui;
using contend::test::openAndWait;
using contend::test::Outcome;
using contend::test::pump;
using contend::test::SampleWindow;
using contend::test::waitFor;
using Fresh = contend::test::FreshSettings;

namespace {

// Waits until the session's report was built with these thresholds and nothing is pending.
bool waitForThresholds(MainWindow& w, double coefficient, double overlap) {
    return waitFor([&] {
        const ReportPtr r = w.session()->report();
        return r && std::abs(r->settings.coefficient - coefficient) < 1e-9 &&
               std::abs(r->settings.overlapRatio - overlap) < 1e-9 && !w.session()->rethresholding();
    });
}

}  // namespace

TEST_CASE("opening the sample fills every view", "[app][open]") {
    SampleWindow sample({1400, 900});
    MainWindow& w = sample.window;
    const OpenedTrace* cur = w.session()->current();
    REQUIRE(cur);
    CHECK(w.windowTitle().contains(QStringLiteral("projectx-before.json.gz")));
    CHECK(w.timeline()->data()->trace == cur->trace);
    REQUIRE(w.session()->report());
    const Report& r = *w.session()->report();
    CHECK(w.timeline()->report() == &r);
    CHECK(w.anomalyPanel()->model()->rowCount() == static_cast<int>(r.anomalies.size()));
    CHECK(w.windowPanel()->model()->rowCount() == static_cast<int>(r.windows.size()));
    CHECK(w.clusterPanel()->model()->rowCount() == static_cast<int>(r.clusters.size()));
    w.heatmap()->refreshNow();
    CHECK(w.heatmap()->grid().rowCount() >= 5);
    CHECK(w.heatmap()->grid().maxValue > 0);
    CHECK(RecentFiles::load().value(0) == QFileInfo(contend::test::samplePath()).absoluteFilePath());
    CHECK(w.messageBar()->isHidden());
}

TEST_CASE("selecting a flagged operator's row zooms the timeline to it", "[app][selection]") {
    SampleWindow sample({1400, 900});
    MainWindow& w = sample.window;
    const Trace& t = *w.session()->current()->trace;
    widgets::TablePanel* panel = w.anomalyPanel();
    REQUIRE(panel->proxy()->rowCount() > 3);
    const auto before = w.timeline()->axis();
    const QModelIndex row = panel->proxy()->index(3, 0);
    const int sourceRow = panel->proxy()->mapToSource(row).row();  // the table is ranked by gain
    const quint32 slice = row.data(widgets::SliceRole).toUInt();
    panel->view()->selectionModel()->setCurrentIndex(row,
                                                     QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    pump();
    const Slice& s = t.slices()[slice];
    const auto after = w.timeline()->axis();
    CHECK(w.timeline()->selectedSlice() == slice);
    CHECK(after.t0 <= s.start);
    CHECK(after.t1 >= s.end());
    CHECK(after.span() < before.span());
    CHECK(after.span() <= 4 * std::max<TimeNs>(s.dur, 50));
    // The other views follow.
    CHECK(w.details()->slice() == slice);
    CHECK(w.breakdown()->slice() == slice);
    // A click on the timeline selects the operator under the cursor and the table follows.
    w.timeline()->selectSlice(kNone);
    pump();
    const auto& list = w.timeline()->drawList();
    const widgets::DrawItem* target = nullptr;
    for (const auto& it : list.items)
        if (!it.is(widgets::kDrawFolded) && it.slice == slice) target = &it;
    REQUIRE(target);
    const QPoint at(w.timeline()->timeArea().left() + static_cast<int>(target->x + target->w / 2),
                    w.timeline()->timeArea().top() + static_cast<int>(target->y + target->h / 2));
    QTest::mouseClick(w.timeline(), Qt::LeftButton, {}, at);
    pump();
    CHECK(w.timeline()->selectedSlice() == slice);
    CHECK(panel->currentSourceRow() == sourceRow);
}

TEST_CASE("moving the sliders changes windows and flags the way the core predicts", "[app][sliders]") {
    SampleWindow sample;
    MainWindow& w = sample.window;
    const auto* prepared = w.session()->current()->prepared.get();
    REQUIRE(prepared);
    SettingsPanel* s = w.settingsPanel();
    const double coef = s->coefficient();
    std::size_t previous = std::numeric_limits<std::size_t>::max();
    std::set<std::size_t> distinct;
    for (int v : {10, 30, 50, 70, 85, 100}) {
        s->overlapSlider()->setValue(v);
        const double overlap = v / 100.0;
        REQUIRE(waitForThresholds(w, coef, overlap));
        pump();
        const Report predicted = buildReport(*prepared, coef, overlap);
        INFO("overlap " << overlap);
        CHECK(s->overlapSpin()->value() == Approx(overlap));
        CHECK(w.windowPanel()->model()->rowCount() == static_cast<int>(predicted.windows.size()));
        CHECK(w.timeline()->report()->windows.size() == predicted.windows.size());
        CHECK(w.anomalyPanel()->model()->rowCount() == static_cast<int>(predicted.anomalies.size()));
        CHECK(predicted.windows.size() <= previous);  // a stricter ratio never adds windows
        previous = predicted.windows.size();
        distinct.insert(predicted.windows.size());
    }
    CHECK(distinct.size() >= 2);  // the slider really changed what is shown
    // The coefficient spin box drives the flags the same way. Until the report for it is in,
    // the session says its report is not current (it counts requests, the worker is queued).
    CHECK(w.session()->reportCurrent());
    s->coefficientSpin()->setValue(5.5);
    CHECK_FALSE(w.session()->reportCurrent());
    CHECK(w.session()->thresholds() == Thresholds{5.5, 1.0});
    REQUIRE(waitForThresholds(w, 5.5, 1.0));
    CHECK(w.session()->reportCurrent());
    CHECK(w.anomalyPanel()->model()->rowCount() == static_cast<int>(buildReport(*prepared, 5.5, 1.0).anomalies.size()));
    CHECK(s->coefficientSlider()->value() == 55);
    // Dragging fast: many moves, the last one wins.
    for (int v = 20; v <= 80; ++v) s->overlapSlider()->setValue(v);
    REQUIRE(waitForThresholds(w, 5.5, 0.8));
    CHECK(w.windowPanel()->model()->rowCount() == static_cast<int>(buildReport(*prepared, 5.5, 0.8).windows.size()));
}

TEST_CASE("the settings panel edits the thresholds over Thresholds' ranges and keeps them in range",
          "[app][sliders][thresholds]") {
    Fresh fresh;
    SettingsPanel s;
    CHECK(s.thresholds() == Thresholds{});
    CHECK(s.coefficientSpin()->minimum() == Approx(Thresholds::kMinCoefficient));
    CHECK(s.coefficientSpin()->maximum() == Approx(Thresholds::kMaxCoefficient));
    CHECK(s.overlapSpin()->minimum() == Approx(Thresholds::kMinOverlapRatio));
    CHECK(s.overlapSpin()->maximum() == Approx(Thresholds::kMaxOverlapRatio));
    // The sliders cover the same ranges as the spin boxes: their ends are the spins' ends.
    std::vector<Thresholds> emitted;
    QObject::connect(&s, &SettingsPanel::thresholdsChanged, [&](const Thresholds& t) { emitted.push_back(t); });
    s.coefficientSlider()->setValue(s.coefficientSlider()->minimum());
    CHECK(s.coefficient() == Approx(Thresholds::kMinCoefficient));
    s.coefficientSlider()->setValue(s.coefficientSlider()->maximum());
    CHECK(s.coefficient() == Approx(Thresholds::kMaxCoefficient));
    s.overlapSlider()->setValue(s.overlapSlider()->minimum());
    CHECK(s.overlap() == Approx(Thresholds::kMinOverlapRatio));
    REQUIRE(emitted.size() == 3);
    CHECK(emitted.back() == s.thresholds());
    // Values from elsewhere (saved settings of an older version) are brought into range.
    s.setValues({0.01, 3.0}, SettingsPanel::WholeNetwork);
    CHECK(s.thresholds() == Thresholds{Thresholds::kMinCoefficient, Thresholds::kMaxOverlapRatio});
    CHECK(s.coefficientSlider()->value() == s.coefficientSlider()->minimum());
    saveThresholds({0.2, 0.01});
    CHECK(savedThresholds() == Thresholds{0.2, Thresholds::kMinOverlapRatio});
    QSettings().clear();
}

TEST_CASE("File > Quit closes every window of the app, not just the one it was chosen in", "[app][menus]") {
    Fresh fresh;
    MainWindow w;
    w.show();
    QWidget other;  // stands for a compare or cluster window beside the main one
    other.setWindowTitle(QStringLiteral("another window"));
    other.show();
    REQUIRE(w.isVisible());
    REQUIRE(other.isVisible());
    auto* quit = w.findChild<QAction*>(QStringLiteral("actionQuit"));
    REQUIRE(quit);
    CHECK(quit->shortcut() == QKeySequence(QKeySequence::Quit));
    quit->trigger();
    CHECK_FALSE(w.isVisible());
    CHECK_FALSE(other.isVisible());
}

TEST_CASE("a broken file shows the error in plain words and keeps the previous trace", "[app][errors]") {
    SampleWindow sample;
    MainWindow& w = sample.window;
    const TracePtr before = w.session()->current()->trace;
    const int rows = w.anomalyPanel()->model()->rowCount();
    QTemporaryDir dir;
    SECTION("a syntax error names the file and the place") {
        const QString broken = dir.filePath(QStringLiteral("broken.json"));
        QFile f(broken);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write(
            "{\"traceEvents\": [\n{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": "
            "2},\n{\"ph\": \"X\", \"ts\": ]}");
        f.close();
        REQUIRE(openAndWait(w, broken) == Outcome::Failed);
        const QString text = w.messageBar()->text();
        CHECK(text.contains(QStringLiteral("broken.json")));
        CHECK((text.contains(QStringLiteral("line")) || text.contains(QStringLiteral("byte"))));
        CHECK(text.contains(QStringLiteral("Still showing projectx-before.json.gz")));
        CHECK(w.messageBar()->kind() == MessageBar::Kind::Error);
    }
    SECTION("a file that is not a trace") {
        const QString junk = dir.filePath(QStringLiteral("notes.json"));
        QFile f(junk);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write("hello, this is not JSON");
        f.close();
        REQUIRE(openAndWait(w, junk) == Outcome::Failed);
        CHECK(w.messageBar()->text().contains(QStringLiteral("notes.json")));
    }
    SECTION("a missing file") {
        REQUIRE(openAndWait(w, dir.filePath(QStringLiteral("gone.json"))) == Outcome::Failed);
        CHECK(w.messageBar()->text().contains(QStringLiteral("gone.json: no such file")));
    }
    // Whatever went wrong, the previous trace and its analysis are still on screen.
    CHECK(w.session()->current()->trace == before);
    CHECK(w.timeline()->data()->trace == before);
    CHECK(w.anomalyPanel()->model()->rowCount() == rows);
    CHECK(w.windowTitle().contains(QStringLiteral("projectx-before")));
}

TEST_CASE("cancelling an open keeps the previous trace", "[app][cancel]") {
    REQUIRE(contend::test::haveSample());
    Fresh fresh;
    MainWindow w;
    REQUIRE(openAndWait(w, contend::test::samplePath()) == Outcome::Opened);
    const TracePtr before = w.session()->current()->trace;
    bool cancelled = false;
    QObject::connect(w.session(), &AnalysisSession::cancelled, [&] { cancelled = true; });
    w.openPath((QString::fromStdString(contend::test::sourceDir()) +
                QStringLiteral("/resources/samples/projectx-after.json.gz")));
    CHECK(w.session()->busy());
    w.session()->cancel();
    CHECK(cancelled);
    CHECK_FALSE(w.session()->busy());
    pump(500);  // a late result of the abandoned load must not land
    CHECK(w.session()->current()->trace == before);
}

TEST_CASE("settings, layout and recent files persist", "[app][settings]") {
    REQUIRE(contend::test::haveSample());
    Fresh fresh;
    {
        MainWindow w;
        w.show();
        REQUIRE(openAndWait(w, contend::test::samplePath()) == Outcome::Opened);
        w.settingsPanel()->coefficientSpin()->setValue(4.2);
        w.settingsPanel()->overlapSpin()->setValue(0.55);
        w.dock(QStringLiteral("dock.heatmap"))->hide();
        w.close();
    }
    MainWindow again;
    CHECK(again.settingsPanel()->coefficient() == Approx(4.2));
    CHECK(again.settingsPanel()->overlap() == Approx(0.55));
    CHECK(again.dock(QStringLiteral("dock.heatmap"))->isHidden());
    CHECK(RecentFiles::load().contains(QFileInfo(contend::test::samplePath()).absoluteFilePath()));
    RecentFiles::add((QString::fromStdString(contend::test::sourceDir()) +
                      QStringLiteral("/resources/samples/projectx-after.json.gz")));
    RecentFiles::add(contend::test::samplePath());
    CHECK(RecentFiles::load().size() == 2);  // no duplicates, newest first
    CHECK(RecentFiles::load().front().endsWith(QStringLiteral("projectx-before.json.gz")));
}

TEST_CASE("granularity switches the network view", "[app][granularity]") {
    REQUIRE(contend::test::haveSample());
    Fresh fresh;
    MainWindow w;
    REQUIRE(openAndWait(w, contend::test::samplePath()) == Outcome::Opened);
    auto* combo = w.settingsPanel()->findChild<QComboBox*>();
    REQUIRE(combo);
    combo->setCurrentIndex(SettingsPanel::PerOperatorType);
    CHECK(w.browser()->grouping() == widgets::OperatorBrowser::Grouping::Type);
    combo->setCurrentIndex(SettingsPanel::PerOccurrence);
    CHECK(w.browser()->level() == widgets::OperatorBrowser::LevelKind::Occurrences);
    combo->setCurrentIndex(SettingsPanel::WholeNetwork);
    CHECK(w.browser()->grouping() == widgets::OperatorBrowser::Grouping::Signature);
    CHECK(w.browser()->level() == widgets::OperatorBrowser::LevelKind::Root);
}

TEST_CASE("dropping a file opens it", "[app][dnd]") {
    REQUIRE(contend::test::haveSample());
    Fresh fresh;
    MainWindow w;
    w.show();
    bool opened = false;
    QObject::connect(w.session(), &AnalysisSession::opened, [&] { opened = true; });
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(contend::test::samplePath())});
    // As the platform does it: the drag enters (and is accepted), then drops.
    QDragEnterEvent enter(QPoint(200, 200), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &enter);
    CHECK(enter.isAccepted());
    QDropEvent drop(QPointF(200, 200), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &drop);
    CHECK(drop.isAccepted());
    REQUIRE(waitFor([&] { return opened; }));
    CHECK(w.session()->current()->path.endsWith(QStringLiteral("projectx-before.json.gz")));
}

TEST_CASE("the Open dialog takes the databases", "[app][dnd][db]") {
    const QString filter = MainWindow::traceFileFilter();
    const QString first = filter.section(QStringLiteral(";;"), 0, 0);
    CHECK(first.contains(QStringLiteral("*.sqlite")));
    CHECK(first.contains(QStringLiteral("*.db")));
    CHECK(first.contains(QStringLiteral("*.json.gz")));
    // The format table's filter, one entry per kind of file.
    CHECK(filter == QString::fromStdString(contend::openDialogFilter()));
    CHECK(filter.contains(QStringLiteral(";;Nsight Systems SQLite export (*.sqlite);;")));
    CHECK(filter.endsWith(QStringLiteral(";;All files (*)")));
}

TEST_CASE("a real Ascend database dropped on the main window opens", "[app][dnd][db][real]") {
    contend::test::skipWithoutSharedTraces();
    const std::string db = contend::test::sharedTracesDir() +
                           "/ascend-msinsight/test/data/pytorch/db/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/"
                           "ascend_pytorch_profiler_0.db";
    REQUIRE(std::filesystem::exists(db));
    Fresh fresh;
    MainWindow w;
    w.show();
    bool opened = false;
    QObject::connect(w.session(), &AnalysisSession::opened, [&] { opened = true; });
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(QString::fromStdString(db))});
    QDragEnterEvent enter(QPoint(200, 200), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &enter);
    CHECK(enter.isAccepted());
    QDropEvent drop(QPointF(200, 200), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &drop);
    CHECK(drop.isAccepted());
    REQUIRE(waitFor([&] { return opened; }, 60000));
    REQUIRE(w.session()->current()->trace);
    CHECK(formatName(w.session()->current()->trace->traceFormat()) == "ascend-db");
}

TEST_CASE("export writes the report as contend-cli does and the view as a PNG, atomically", "[app][export]") {
    REQUIRE(contend::test::haveSample());
    Fresh fresh;
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    QTemporaryDir dir;
    const std::optional<Failure> nothing =
        w.saveReport(dir.filePath(QStringLiteral("none.json")), QStringLiteral("json"));
    REQUIRE(nothing);
    CHECK(failureText(*nothing).contains(QStringLiteral("no report")));
    REQUIRE(openAndWait(w, contend::test::samplePath()) == Outcome::Opened);
    const QString json = dir.filePath(QStringLiteral("r.json"));
    const QString md = dir.filePath(QStringLiteral("r.md"));
    const QString png = dir.filePath(QStringLiteral("view.png"));
    REQUIRE_FALSE(w.saveReport(json, QStringLiteral("json")));  // nullopt: saved
    REQUIRE_FALSE(w.saveReport(md, QStringLiteral("markdown")));
    REQUIRE_FALSE(w.exportViewPng(png));
    QFile jf(json);
    REQUIRE(jf.open(QIODevice::ReadOnly));
    const Trace& t = *w.session()->current()->trace;
    CHECK(jf.readAll().toStdString() == reportJsonText(*w.session()->report(), &t));
    CHECK(QFileInfo(md).size() > 100);
    QImage image(png);
    CHECK(image.width() == w.timeline()->width());
    // Nothing is left behind but the three files (the writes go through a temporary + rename).
    CHECK(QDir(dir.path()).entryList(QDir::Files).size() == 3);
    // A folder that does not exist: an error in words, no crash.
    const QString missing = dir.filePath(QStringLiteral("missing/dir/r.json"));
    const std::optional<Failure> failed = w.saveReport(missing, QStringLiteral("json"));
    REQUIRE(failed);
    CHECK(failed->kind == Failure::Kind::Unreadable);
    CHECK(failureText(*failed).contains(missing));
}

TEST_CASE("every broken and hostile input in turn: no crash, and a failed open keeps the trace",
          "[app][errors][hostile]") {
    SampleWindow sample;
    MainWindow& w = sample.window;
    QTemporaryDir dir;
    auto file = [&](const char* name, const QByteArray& bytes) {
        const QString path = dir.filePath(QString::fromLatin1(name));
        QFile f(path);
        if (f.open(QIODevice::WriteOnly)) f.write(bytes);
        return path;
    };
    auto events = [](const QByteArray& body) { return QByteArray("{\"traceEvents\": [") + body + "]}"; };
    const QByteArray ok = R"({"ph": "X", "pid": 1, "tid": 1, "name": "ok", "ts": 1, "dur": 2})";
    QDir().mkpath(dir.filePath(QStringLiteral("folder")));
    struct Row {
        QString path;
        bool opens;
        const char* says;  // in the message bar: the error, or the import warning
    };
    const QByteArray bigName(3 << 20, 'n');
    const std::vector<Row> rows = {
        {file("empty.json", ""), false, "empty"},
        {file("blank.json", " \n\t "), false, "white space"},
        {file("hello.json", "hello"), false, "not a JSON trace"},
        {file("object.json", "{\"a\": 1}"), false, "traceEvents"},
        {file("broken.json", events(ok + ",\n{\"ph\": \"X\",,}")), false, "line 2"},
        {file("unbalanced.json", events("{\"ph\": \"X\", \"args\": {\"a\": " + QByteArray(10000, '[') + "}}")), false,
         "unbalanced"},
        {file("noops.json", events(R"({"ph": "M", "pid": 1, "name": "process_name", "args": {"name": "x"}})")), false,
         "no operators"},
        {file("junk.json.gz", QByteArray("\x1f\x8b\x08\x00", 4) + QByteArray(300, '\x55')), false, "junk.json.gz"},
        {dir.filePath(QStringLiteral("folder")), false, "no trace in this folder"},
        {dir.filePath(QStringLiteral("missing.json")), false, "no such file"},
        {QStringLiteral("/dev/zero"), false, "/dev/zero"},
        {file("cut.json", events(ok + ",\n{\"ph\": \"X\", \"na").chopped(2)), true, "truncated"},
        {file("latin1.json", events(R"({"ph": "X", "pid": 1, "tid": 1, "name": "caf)" + QByteArray("\xe9", 1) +
                                    R"(", "ts": 1, "dur": 2})")),
         true, "UTF-8"},
        {file("nan.json", events(ok + R"(, {"ph": "X", "pid": 1, "tid": 1, "name": "n", "ts": NaN, "dur": 1})")), true,
         "NaN"},
        {file("far.json", events(ok + R"(, {"ph": "X", "pid": 1, "tid": 1, "name": "f", "ts": 1e30, "dur": 1e18})")),
         true, "out of range"},
        {file("bigname.json",
              events(R"({"ph": "X", "pid": 1, "tid": 1, "name": ")" + bigName + R"(", "ts": 1, "dur": 2})")),
         true, "64 KiB"},
        {file("deep.json", events(R"({"ph": "X", "pid": 1, "tid": 1, "name": "d", "ts": 1, "dur": 2, "args": {"a": )" +
                                  QByteArray(10000, '[') + QByteArray(10000, ']') + "}}")),
         true, nullptr},
    };
    for (const Row& row : rows) {
        INFO(row.path.toStdString());
        const TracePtr before = w.session()->current()->trace;
        const Outcome out = openAndWait(w, row.path);
        const QString text = w.messageBar()->text();
        INFO(text.toStdString());
        if (!row.opens) {
            REQUIRE(out == Outcome::Failed);
            CHECK(w.messageBar()->kind() == MessageBar::Kind::Error);
            CHECK(w.session()->current()->trace == before);
            CHECK(w.timeline()->data()->trace == before);
            CHECK(text.contains(QStringLiteral("Still showing")));
        } else {
            REQUIRE(out == Outcome::Opened);
            CHECK(w.session()->current()->trace != before);
            CHECK(w.windowTitle().contains(QFileInfo(row.path).fileName()));
        }
        if (row.says) CHECK(text.contains(QString::fromUtf8(row.says), Qt::CaseInsensitive));
        // Still drivable: the views paint and the sliders re-threshold.
        // Filled with a colour the app never uses, so pixels left in it are pixels nothing painted.
        const QRgb unpainted = qRgb(255, 0, 255);
        QImage img(w.size(), QImage::Format_ARGB32);
        img.fill(unpainted);
        w.render(&img);
        std::size_t left = 0;
        QSet<QRgb> colours;
        for (int y = 0; y < img.height(); y += 3)
            for (int x = 0; x < img.width(); x += 3) {
                const QRgb c = img.pixel(x, y);
                if (c == unpainted) ++left;
                colours.insert(c);
            }
        CHECK(left == 0);
        CHECK(colours.size() > 8);  // more than a blank background: the views drew their content
    }
}

TEST_CASE("a trace over the memory budget (CONTEND_MAX_MEMORY) fails in words and keeps the trace",
          "[app][errors][memory]") {
    SampleWindow sample;
    MainWindow& w = sample.window;
    const TracePtr before = w.session()->current()->trace;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.json"));
    {
        QFile f(path);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write("{\"traceEvents\": [");
        for (int i = 0; i < 100000; ++i)
            f.write(
                QStringLiteral("%1{\"ph\": \"X\", \"pid\": 1, \"tid\": %2, \"name\": \"op%3\", \"ts\": %4, \"dur\": 5}")
                    .arg(i ? QStringLiteral(",") : QString())
                    .arg(i % 4)
                    .arg(i % 50)
                    .arg(i * 10)
                    .toUtf8());
        f.write("]}");
    }
    qputenv("CONTEND_MAX_MEMORY", "2M");
    const Outcome out = openAndWait(w, path);
    qunsetenv("CONTEND_MAX_MEMORY");
    REQUIRE(out == Outcome::Failed);
    const QString text = w.messageBar()->text();
    INFO(text.toStdString());
    CHECK(text.contains(QStringLiteral("big.json")));
    CHECK(text.contains(QStringLiteral("not enough memory")));
    CHECK(text.contains(QStringLiteral("CONTEND_MAX_MEMORY")));
    CHECK(w.session()->current()->trace == before);
    // Without the limit the same file opens.
    REQUIRE(openAndWait(w, path) == Outcome::Opened);
    CHECK(w.session()->current()->trace != before);
}
