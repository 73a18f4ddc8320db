// Catch2 main for the widget tests: a QApplication must exist before any widget, and the tests
// must not touch the user's settings (QStandardPaths test mode puts QSettings in a scratch place).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <QApplication>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ContendTests"));
    // One settings file per process: ctest runs test cases in parallel processes, and a shared
    // file let one test's recent-files list land in another's assertions.
    QApplication::setApplicationName(QStringLiteral("contend-gui-tests-%1").arg(QCoreApplication::applicationPid()));
    const int rc = Catch::Session().run(argc, argv);
    const QString file = QSettings().fileName();
    QFile::remove(file);
    return rc;
}
