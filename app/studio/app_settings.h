#pragma once
// Everything ONCE Studio remembers between runs (QSettings, organisation "ONCE", application
// "ONCE Studio"): pipeline settings, language, recent files, the last folders, window layout.
#include <QByteArray>
#include <QString>
#include <QStringList>

#include "session/pipeline_settings.h"

namespace once::studio {

class AppSettings {
  public:
    static constexpr int kMaxRecentFiles = 10;

    PipelineSettings pipeline() const;
    void setPipeline(const PipelineSettings& settings);

    /// "" (follow the system), "en" or "zh_CN".
    QString language() const;
    void setLanguage(const QString& language);
    /// The language actually used: the setting, or the system's when it is translated.
    static QString effectiveLanguage(const QString& setting);

    QStringList recentFiles() const;
    /// Moves `path` to the front (dropping duplicates and the oldest past the limit).
    void addRecentFile(const QString& path);
    void clearRecentFiles();

    QString lastFolder() const;
    void setLastFolder(const QString& folder);

    QByteArray windowGeometry() const;
    QByteArray windowState() const;
    void setWindowLayout(const QByteArray& geometry, const QByteArray& state);
};

}  // namespace once::studio
