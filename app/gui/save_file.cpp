#include "app/gui/save_file.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QMainWindow>
#include <QStatusBar>

#include "app/gui/message_bar.h"
#include "core/common/atomic_write.h"

namespace contend::gui {

bool saveFileAtomically(const QString& path, const std::string& bytes, QString* error) {
    const auto failed = writeFileAtomically(path.toStdString(), bytes);
    if (!failed) return true;
    if (error) *error = QString::fromStdString(failed->message());
    return false;
}

void chooseAndSaveReport(QMainWindow* window, MessageBar* bar, const QString& format, const QString& what,
                         const QString& baseName, const QString& failedTitle, const SaveReport& save) {
    const bool json = format == QStringLiteral("json");
    const auto tr = [](const char* s) { return QCoreApplication::translate("contend::gui::SaveReport", s); };
    const QString path =
        QFileDialog::getSaveFileName(window, (json ? tr("Save %1 as JSON") : tr("Save %1 as Markdown")).arg(what),
                                     baseName + (json ? QStringLiteral(".json") : QStringLiteral(".md")),
                                     json ? tr("JSON (*.json)") : tr("Markdown (*.md)"));
    if (path.isEmpty()) return;
    QString error;
    if (save(path, format, &error))
        window->statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    else
        bar->showMessage(MessageBar::Kind::Error, failedTitle, {error});
}

}  // namespace contend::gui
