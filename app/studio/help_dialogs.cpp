#include "help_dialogs.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

// Q_INIT_RESOURCE must be used outside any namespace (the resource is in a static library).
static void initHelpResources() {
    Q_INIT_RESOURCE(help);
}

namespace once::studio {

// The translation context of the help windows.
class HelpDialogs {
    Q_DECLARE_TR_FUNCTIONS(HelpDialogs)
};

namespace {
QDialog* makeDialog(QWidget* parent, const QString& name, const QString& title, QWidget** body,
                    QWidget* content) {
    auto* dialog = new QDialog(parent);
    dialog->setObjectName(name);
    dialog->setWindowTitle(title);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    auto* layout = new QVBoxLayout(dialog);
    content->setParent(dialog);
    layout->addWidget(content, 1);
    layout->addWidget(buttons);
    *body = content;
    return dialog;
}

void collect(const QMenu* menu, QList<QPair<QString, QString>>& out) {
    for (QAction* a : menu->actions()) {
        if (a->menu() != nullptr) {
            collect(a->menu(), out);
            continue;
        }
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts()) {
            keys << k.toString(QKeySequence::NativeText);
        }
        if (!keys.isEmpty()) {
            QString text = a->text();
            text.remove(QRegularExpression(QStringLiteral("&(?!&)")));  // mnemonics
            text.remove(QStringLiteral("…"));
            out << qMakePair(text, keys.join(QStringLiteral(", ")));
        }
    }
}
}  // namespace

QString userGuideMarkdown() {
    initHelpResources();
    QFile f(QStringLiteral(":/help/gui.md"));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QDialog* createUserGuideDialog(QWidget* parent) {
    auto* browser = new QTextBrowser;
    browser->setObjectName(QStringLiteral("userGuideText"));
    browser->setOpenExternalLinks(true);
    const QString markdown = userGuideMarkdown();
    if (markdown.isEmpty()) {
        browser->setPlainText(HelpDialogs::tr("The user guide is not part of this build."));
    } else {
        // The pictures are embedded beside the guide (help.qrc), at the paths the guide names.
        browser->setSearchPaths({QStringLiteral(":/help")});
        browser->setMarkdown(markdown);
    }
    QWidget* body = nullptr;
    QDialog* d = makeDialog(parent, QStringLiteral("userGuide"),
                            HelpDialogs::tr("ONCE Studio User Guide"), &body, browser);
    d->resize(820, 640);
    return d;
}

QList<QPair<QString, QString>> shortcutList(const QMenuBar* menus) {
    QList<QPair<QString, QString>> out;
    if (menus != nullptr) {
        for (QAction* a : menus->actions()) {
            if (a->menu() != nullptr) {
                collect(a->menu(), out);
            }
        }
    }
    // Keys the views handle themselves (no action carries them).
    out << qMakePair(HelpDialogs::tr("Previous / next frame (frame view)"),
                     HelpDialogs::tr("Left / Right"))
        << qMakePair(HelpDialogs::tr("First / last frame (frame view)"),
                     HelpDialogs::tr("Home / End"))
        << qMakePair(HelpDialogs::tr("Clear the group selection (frame view)"),
                     HelpDialogs::tr("Escape"))
        << qMakePair(HelpDialogs::tr("Zoom in / out / fit (frame view; or the wheel)"),
                     HelpDialogs::tr("+ / − / 0"))
        << qMakePair(HelpDialogs::tr("Play or pause (Playback)"), HelpDialogs::tr("Space"));
    return out;
}

QDialog* createShortcutsDialog(QWidget* parent, const QMenuBar* menus) {
    const auto rows = shortcutList(menus);
    auto* table = new QTableWidget(static_cast<int>(rows.size()), 2);
    table->setObjectName(QStringLiteral("shortcutTable"));
    table->setHorizontalHeaderLabels({HelpDialogs::tr("Action"), HelpDialogs::tr("Keys")});
    table->verticalHeader()->setVisible(false);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    for (int i = 0; i < rows.size(); ++i) {
        table->setItem(i, 0, new QTableWidgetItem(rows[i].first));
        table->setItem(i, 1, new QTableWidgetItem(rows[i].second));
    }
    QWidget* body = nullptr;
    QDialog* d = makeDialog(parent, QStringLiteral("shortcutList"),
                            HelpDialogs::tr("Keyboard Shortcuts"), &body, table);
    d->resize(520, 560);
    return d;
}

}  // namespace once::studio
