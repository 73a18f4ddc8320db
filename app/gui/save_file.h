#pragma once
// Saving from the windows: core's one atomic write (core/common/atomic_write.h: a temporary
// next to the file, fsync'd and renamed into place), and the save-report dialog the main and
// cluster windows share. A save returns nullopt when saved, else its Failure (core's
// convention); the windows turn a Failure into words with failureText.
#include <functional>
#include <optional>
#include <string>

#include <QString>

#include "core/common/failure.h"

class QMainWindow;

namespace contend::gui {

class MessageBar;

// Writes `bytes` to `path` atomically; nullopt when written, else the Failure naming the file.
std::optional<Failure> saveFileAtomically(const QString& path, const std::string& bytes);
// A save that cannot start (nothing to save, an image that does not encode): kind Invalid,
// `why` in words.
Failure saveRefused(const QString& why);
// The Failure in words, for a message bar or the status bar.
QString failureText(const Failure& failure);

// Asks where to save a report as JSON (`format` "json") or Markdown ("md"), offering
// `baseName` + ".json" / ".md", then calls `save(path, format)` and says the outcome:
// "Saved PATH" in the window's status bar, or `failedTitle` with the failure in `bar`.
// `what` names the report in the dialog's title ("report": "Save report as JSON").
using SaveReport = std::function<std::optional<Failure>(const QString& path, const QString& format)>;
void chooseAndSaveReport(QMainWindow* window, MessageBar* bar, const QString& format, const QString& what,
                         const QString& baseName, const QString& failedTitle, const SaveReport& save);

}  // namespace contend::gui
