#include "app/gui/save_file.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QMainWindow>
#include <QStatusBar>

#include "app/gui/message_bar.h"
#include "core/common/atomic_write.h"

namespace contend::gui {

std::optional<Failure> saveFileAtomically(const QString& path, const std::string& bytes) {
    return writeFileAtomically(path.toStdString(), bytes);
}

Failure saveRefused(const QString& why) { return Failure::of(Failure::Kind::Invalid, why.toStdString()); }

QString failureText(const Failure& failure) { return QString::fromStdString(failure.message()); }

void chooseAndSaveReport(QMainWindow* window, MessageBar* bar, const QString& format, const QString& what,
                         const QString& baseName, const QString& failedTitle, const SaveReport& save) {
    const bool json = format == QStringLiteral("json");
    const auto tr = [](const char* s) { return QCoreApplication::translate("contend::gui::SaveReport", s); };
    const QString path =
        QFileDialog::getSaveFileName(window, (json ? tr("Save %1 as JSON") : tr("Save %1 as Markdown")).arg(what),
                                     baseName + (json ? QStringLiteral(".json") : QStringLiteral(".md")),
                                     json ? tr("JSON (*.json)") : tr("Markdown (*.md)"));
    if (path.isEmpty()) return;
    if (const std::optional<Failure> failed = save(path, format))
        bar->showMessage(MessageBar::Kind::Error, failedTitle, {failureText(*failed)});
    else
        window->statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
}

}  // namespace contend::gui
