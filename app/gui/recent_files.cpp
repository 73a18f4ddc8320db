#include "app/gui/recent_files.h"

#include <QFileInfo>
#include <QSettings>

namespace contend::gui {

QStringList RecentFiles::load() {
    QStringList out;
    for (const QString& p : QSettings().value(QStringLiteral("recentFiles")).toStringList())
        if (QFileInfo::exists(p) && !out.contains(p)) out << p;
    return out.mid(0, kMax);
}

void RecentFiles::add(const QString& path) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    QStringList list = load();
    list.removeAll(abs);
    list.prepend(abs);
    QSettings().setValue(QStringLiteral("recentFiles"), list.mid(0, kMax));
}

void RecentFiles::remove(const QString& path) {
    QStringList list = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    list.removeAll(QFileInfo(path).absoluteFilePath());
    QSettings().setValue(QStringLiteral("recentFiles"), list);
}

void RecentFiles::clear() { QSettings().remove(QStringLiteral("recentFiles")); }

}  // namespace contend::gui
