// Catch2 main for the widget tests: a QApplication must exist before any widget, and the tests
// must not touch the user's settings (QStandardPaths test mode puts QSettings in a scratch place).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <QApplication>
#include <QStandardPaths>

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ContendTests"));
    QApplication::setApplicationName(QStringLiteral("contend-gui-tests"));
    return Catch::Session().run(argc, argv);
}
