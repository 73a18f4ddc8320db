#pragma once
// The recent-files list, kept in QSettings ("recentFiles"), newest first, at most 10, without
// duplicates; files that no longer exist are dropped when the list is read.
#include <QStringList>

namespace contend::gui {

class RecentFiles {
  public:
    static constexpr int kMax = 10;
    static QStringList load();
    static void add(const QString& path);
    static void remove(const QString& path);
    static void clear();
};

}  // namespace contend::gui
