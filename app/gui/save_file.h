#pragma once
// Saving from the windows: one atomic write (core/report/atomic_write.h) with the error as
// QString, and the save-report dialog the main and cluster windows share.
#include <functional>
#include <string>

#include <QString>

class QMainWindow;

namespace contend::gui {

class MessageBar;

// Writes `bytes` to `path` atomically (temp file + rename); false with *error in words.
bool saveFileAtomically(const QString& path, const std::string& bytes, QString* error);

// Asks where to save a report as JSON (`format` "json") or Markdown ("md"), offering
// `baseName` + ".json" / ".md", then calls `save(path, format, &error)` and says the outcome:
// "Saved PATH" in the window's status bar, or `failedTitle` with the error in `bar`.
// `what` names the report in the dialog's title ("report": "Save report as JSON").
using SaveReport = std::function<bool(const QString& path, const QString& format, QString* error)>;
void chooseAndSaveReport(QMainWindow* window, MessageBar* bar, const QString& format, const QString& what,
                         const QString& baseName, const QString& failedTitle, const SaveReport& save);

}  // namespace contend::gui
