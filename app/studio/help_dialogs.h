#pragma once
// The Help menu's windows: the user guide (docs/gui.md, embedded, rendered as Markdown) and the
// keyboard shortcuts, listed from the window's own actions so the list never drifts from them.
#include <QList>
#include <QPair>
#include <QString>

class QDialog;
class QMenuBar;
class QWidget;

namespace once::studio {

/// The user guide in a non-modal dialog (object name "userGuide").
QDialog* createUserGuideDialog(QWidget* parent);
/// The guide's Markdown as embedded (empty if the resource is missing).
QString userGuideMarkdown();

/// (action, key sequence) for every menu action with a shortcut, then the keys the views handle
/// themselves (frame view, player).
QList<QPair<QString, QString>> shortcutList(const QMenuBar* menus);
/// The list in a non-modal dialog (object name "shortcutList").
QDialog* createShortcutsDialog(QWidget* parent, const QMenuBar* menus);

}  // namespace once::studio
