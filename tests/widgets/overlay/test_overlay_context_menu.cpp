// Issue 30, crash 2: the frame view's context menu driven with the mouse as a person does. Its
// "Export Frames as an Image Sequence…" crashed the studio after writing the frames (SIGSEGV in
// QWidget::event on the next mouse event: the menu deleted itself on close while its own mouse
// release was still running the export's dialogs).
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>
#include <QtTest>
#include <functional>

#include "overlay_fixture.h"
#include "support/test_support.h"

using namespace once::studio;
using once::studio::test::OverlayFixture;

namespace {
/// Answers the modal dialogs an export opens, one after another, as a user would: a folder
/// dialog gets `folder` and OK, a message box its OK. Returns the titles it answered.
class DialogAnswerer : public QObject {
  public:
    explicit DialogAnswerer(QString folder) : folder_(std::move(folder)) {
        timer_.setInterval(50);
        connect(&timer_, &QTimer::timeout, this, &DialogAnswerer::poll);
        timer_.start();
    }
    QStringList answered;

  private:
    void poll() {
        QWidget* modal = QApplication::activeModalWidget();
        if (modal == nullptr || modal == last_) {
            return;
        }
        if (auto* dialog = qobject_cast<QFileDialog*>(modal)) {
            last_ = modal;
            answered << dialog->windowTitle();
            // Into the folder, the name field emptied, and OK: the folder dialog returns the
            // folder it shows. (A name left in the field that is not a folder there makes
            // accept() warn in a nested message box.) OK is pressed from the event loop, not
            // inside this timer's slot: a box accept() opens would wait on a timer that cannot
            // fire again until its slot returns.
            dialog->setDirectory(folder_);
            if (auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"))) {
                name->clear();
            }
            QTimer::singleShot(0, dialog, [dialog] {
                static_cast<QDialog*>(dialog)->accept();  // QFileDialog's own is protected
            });
        } else if (auto* box = qobject_cast<QMessageBox*>(modal)) {
            last_ = modal;
            answered << box->windowTitle();
            QTimer::singleShot(
                0, box, [box] { QTest::mouseClick(box->button(QMessageBox::Ok), Qt::LeftButton); });
        }
    }
    QString folder_;
    QTimer timer_;
    QPointer<QWidget> last_;
};

/// Clicks `button` at `at` of a top-level widget through its window, as the window system
/// delivers a user's click (so a right click becomes a context-menu event, and the popup's
/// own mouse handling runs as it does for a person).
void click(QWidget* widget, Qt::MouseButton button, QPoint at) {
    QTest::mouseMove(widget->windowHandle(), at);
    QTest::mouseClick(widget->windowHandle(), button, {}, at);
}

/// Right-clicks `at` in the view and returns the context menu that pops up (null when none
/// did within five seconds).
QMenu* openContextMenu(FrameOverlayView& view, QPoint at) {
    click(&view, Qt::RightButton, at);
    for (int waited = 0; waited < 5000; waited += 20) {
        if (auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget())) {
            return menu;
        }
        QTest::qWait(20);
    }
    return nullptr;
}

QAction* actionNamed(QMenu* menu, const QString& text) {
    for (QAction* a : menu->actions()) {
        if (a->text().remove(QLatin1Char('&')) == text) {
            return a;
        }
    }
    return nullptr;
}
}  // namespace

class TestOverlayContextMenu : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void exportSequenceFromTheMenuThenKeepUsingTheView() {
        OverlayFixture f(4);
        QVERIFY(f.shown());
        const QPoint patch = f.view.rect().center();
        // Select a group first (the report's steps: click a patch, then the menu).
        click(&f.view, Qt::LeftButton, patch);
        QTRY_VERIFY(f.overlay.selectedCodeword() >= 0);

        const QString folder =
            QString::fromStdString(once::test::tempDir()) + QStringLiteral("/seq");
        QVERIFY(QDir().mkpath(folder));
        for (int run = 0; run < 3; ++run) {  // the crash came 3 times of 3
            const QString out = folder + QStringLiteral("/run%1").arg(run);
            QVERIFY(QDir().mkpath(out));
            DialogAnswerer answers(out);
            QMenu* menu = openContextMenu(f.view, patch);
            QVERIFY(menu);
            QAction* action =
                actionNamed(menu, QStringLiteral("Export Frames as an Image Sequence…"));
            QVERIFY(action);
            QVERIFY(action->isEnabled());
            click(menu, Qt::LeftButton, menu->actionGeometry(action).center());
            QTRY_COMPARE_WITH_TIMEOUT(answers.answered.size(), 2, 20000);  // folder, "exported"
            QVERIFY2(answers.answered.last() == QLatin1String("Frames exported"),
                     qPrintable(answers.answered.join(QLatin1String(" | "))));
            QCOMPARE(QDir(out).entryList({QStringLiteral("overlay_*.png")}, QDir::Files).size(),
                     f.overlay.frameCount());
            // The mouse goes on over the view: hover, click, another menu closed with Escape.
            click(&f.view, Qt::LeftButton, patch + QPoint(5, 5));
            QTest::qWait(100);
            QMenu* again = openContextMenu(f.view, patch);
            QVERIFY(again);
            QTest::keyClick(again, Qt::Key_Escape);
            QTRY_VERIFY(QApplication::activePopupWidget() == nullptr);
            click(&f.view, Qt::LeftButton, patch);
            QTest::qWait(100);
        }
        QVERIFY(f.view.isVisible());
    }
};

QTEST_MAIN(TestOverlayContextMenu)
#include "test_overlay_context_menu.moc"
