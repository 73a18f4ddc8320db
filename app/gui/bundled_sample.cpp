#include "app/gui/bundled_sample.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace contend::gui {

QString bundledSample() {
    const QString rel = QStringLiteral("resources/samples/projectx-before.json.gz");
    const QString exeDir = QCoreApplication::applicationDirPath();
    const QStringList candidates = {
        QDir(exeDir).filePath(QStringLiteral("../share/contend/samples/projectx-before.json.gz")),
        QDir(exeDir).filePath(QStringLiteral("../../../") + rel),  // build-*/app/gui/contend
        QStringLiteral(CONTEND_SOURCE_DIR "/") + rel,
    };
    for (const QString& c : candidates)
        if (QFileInfo::exists(c)) return QFileInfo(c).absoluteFilePath();
    return {};
}

}  // namespace contend::gui
