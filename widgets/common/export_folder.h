#pragma once
// Where the export dialogs open (issue 30: every export started in Pictures or Documents again):
// in the folder the user last exported to, from any view and across runs (QSettings), else the
// standard folder for the kind of file.
#include <QStandardPaths>
#include <QString>

namespace once::studio {

/// The last export folder when it still exists, else `fallback`'s writable location.
QString exportFolder(QStandardPaths::StandardLocation fallback);
/// `name` in exportFolder(fallback): the suggestion for a save dialog.
QString exportPath(const QString& name, QStandardPaths::StandardLocation fallback);
/// Remembers the folder of the file `path` was saved as (an empty path is ignored).
void rememberExportFile(const QString& path);
/// Remembers `folder` itself (an image sequence written into it).
void rememberExportFolder(const QString& folder);

}  // namespace once::studio
