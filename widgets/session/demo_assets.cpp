#include "session/demo_assets.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStringList>

namespace once::studio {

DemoAssets DemoAssets::locate() {
    QStringList candidates;
    const QString env = qEnvironmentVariable("ONCE_DEMO_DIR");
    if (!env.isEmpty()) {
        candidates << env;
    }
    if (QCoreApplication::instance()) {
        const QString appDir = QCoreApplication::applicationDirPath();
        candidates << appDir + QStringLiteral("/../share/once-studio/demo");
    }
    candidates << QStringLiteral(ONCE_SOURCE_DIR_FOR_DEMO "/resources/demo");

    DemoAssets assets;
    for (const QString& c : candidates) {
        const QDir dir(c);
        if (!dir.exists()) {
            continue;
        }
        assets.folder = QDir::cleanPath(dir.absolutePath());
        const QFileInfo video(dir.filePath(QStringLiteral("demo.mp4")));
        const QFileInfo codebook(dir.filePath(QStringLiteral("demo_codebook.safetensors")));
        assets.video = video.isFile() ? video.absoluteFilePath() : QString();
        assets.codebook = codebook.isFile() ? codebook.absoluteFilePath() : QString();
        if (assets.hasVideo()) {
            break;
        }
    }
    return assets;
}

}  // namespace once::studio
