#pragma once
// The dialogs that pick what the studio opens or saves as its own (videos, feature files,
// codebooks, model folders, sessions): each starts in the folder used last and remembers the one
// chosen (AppSettings::lastFolder), so the next dialog — of any kind, in this run or the next —
// opens where the user was. Exports keep their own folder (widgets/common/export_folder.h).
#include <QString>

class QWidget;

namespace once::studio {

/// A file to open; "" when cancelled.
QString askOpenFile(QWidget* parent, const QString& title, const QString& filter);
/// A folder to open; "" when cancelled.
QString askOpenFolder(QWidget* parent, const QString& title);
/// A file to save as; "" when cancelled.
QString askSaveFile(QWidget* parent, const QString& title, const QString& filter);

}  // namespace once::studio
