// The main window's feedback after issue 16, driven on the real window: no stale start-up hint
// or hover text, Ctrl+Left/Right from a spin box or a tab bar, actions off while they can do
// nothing, the Help menu (user guide, shortcut list, versions), the Preferences error shown in
// full and translated, plural forms, the budget panel's wrapped notice over no other widget, and
// the note that explains English engine messages in a Chinese interface.
#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QTextDocument>
#include <QtTest>

#include "../widgets/studio_test_data.h"
#include "budget/budget_panel.h"
#include "charts/chart_widget.h"
#include "charts/charts_panel.h"
#include "help_dialogs.h"
#include "main_window.h"
#include "overlay/frame_overlay_view.h"
#include "overlay/group_overlay.h"
#include "question/question_panel.h"
#include "session/studio_session.h"
#include "settings_dialog.h"
#include "studio_app_test.h"
#include "studio_application.h"

using namespace once::studio;

namespace {
bool loadSynthetic(MainWindow& window, bool withCodebook) {
    const VideoData video = test::syntheticVideo(4, 6, 6, 16);
    window.session()->setVideo(video);
    if (withCodebook) {
        window.session()->setCodebook(test::codebookFrom(video, 12));
    }
    return test::waitIdle(*window.session(), 120000, withCodebook);
}

// Restores English after a test switched the catalogue.
struct EnglishAfterwards {
    ~EnglishAfterwards() { installTranslators(*qApp, QStringLiteral("en")); }
};
}  // namespace

class TestStudioFeedback : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        once::studio::test::initStudioTestApplication();
        installTranslators(*qApp, QStringLiteral("en"));
    }

    void noStaleStartHintOrHoverText() {
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.statusBar()->currentMessage(), MainWindow::readyMessage());
        QVERIFY(loadSynthetic(window, true));
        QVERIFY2(window.statusBar()->currentMessage() != MainWindow::readyMessage(),
                 qPrintable(window.statusBar()->currentMessage()));

        FrameOverlayView* view = window.frameView();
        QTest::mouseMove(view, view->patchCentre(2));
        QTRY_VERIFY(window.statusBar()->currentMessage().startsWith(QLatin1String("Frame 1,")));
        window.overlay()->setCurrentFrame(1);
        QVERIFY2(window.statusBar()->currentMessage().startsWith(QLatin1String("Frame 2,")),
                 qPrintable(window.statusBar()->currentMessage()));
        // Off the patches (into the header line) the hover text goes.
        QTest::mouseMove(view, QPoint(view->width() / 2, 4));
        QTRY_VERIFY(window.statusBar()->currentMessage().isEmpty());
    }

    void ctrlArrowsStepFramesFromSpinBoxesAndTabBars() {
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(loadSynthetic(window, true));
        QCOMPARE(window.overlay()->currentFrame(), 0);

        auto* spin = window.budgetPanel()->findChild<QSpinBox*>();
        QVERIFY(spin != nullptr && spin->isEnabled());
        spin->setFocus();
        QTRY_VERIFY(spin->hasFocus());
        const int budget = spin->value();
        QTest::keyClick(spin, Qt::Key_Right, Qt::ControlModifier);
        QTRY_COMPARE(window.overlay()->currentFrame(), 1);
        QCOMPARE(spin->value(), budget);

        QTabBar* tabs = window.chartsPanel()->tabs()->tabBar();
        tabs->setFocusPolicy(Qt::StrongFocus);
        tabs->setFocus();
        QTRY_VERIFY(tabs->hasFocus());
        const int tab = tabs->currentIndex();
        QTest::keyClick(tabs, Qt::Key_Right, Qt::ControlModifier);
        QTRY_COMPARE(window.overlay()->currentFrame(), 2);
        QTest::keyClick(tabs, Qt::Key_Left, Qt::ControlModifier);
        QTRY_COMPARE(window.overlay()->currentFrame(), 1);
        QCOMPARE(tabs->currentIndex(), tab);

        // A text field keeps its word moves.
        QLineEdit* question = window.questionPanel()->questionEdit();
        question->setEnabled(true);
        question->setText(QStringLiteral("two words"));
        question->setFocus();
        QTRY_VERIFY(question->hasFocus());
        question->setCursorPosition(0);
        QTest::keyClick(question, Qt::Key_Right, Qt::ControlModifier);
        QCOMPARE(window.overlay()->currentFrame(), 1);
        QVERIFY(question->cursorPosition() > 0);
    }

    void actionsAreOffWhileTheyCanDoNothing() {
        MainWindow window;
        QVERIFY(!window.measureSweepAction()->isEnabled());
        QVERIFY(!window.overlayExportMenu()->isEnabled());
        for (ChartWidget* chart : window.chartsPanel()->findChildren<ChartWidget*>()) {
            QVERIFY2(!chart->hasData() || chart->exportImageButton()->isEnabled(),
                     qPrintable(chart->title()));
            if (!chart->hasData()) {
                QVERIFY2(!chart->exportImageButton()->isEnabled(), qPrintable(chart->title()));
            }
        }
        QVERIFY(loadSynthetic(window, true));
        QTRY_VERIFY(window.measureSweepAction()->isEnabled());
        QVERIFY(window.overlayExportMenu()->isEnabled());
    }

    void helpMenuHasTheGuideTheShortcutsAndVersions() {
        MainWindow window;
        QStringList help;
        QMenu* helpMenu = window.menuBar()->actions().last()->menu();
        for (QAction* a : helpMenu->actions()) {
            help << a->text();
        }
        QVERIFY2(help.contains(QStringLiteral("&User Guide")) &&
                     help.contains(QStringLiteral("&Keyboard Shortcuts")),
                 qPrintable(help.join(QLatin1String(" | "))));

        window.showUserGuide();
        auto* guide = window.findChild<QDialog*>(QStringLiteral("userGuide"));
        QVERIFY(guide != nullptr && guide->isVisible());
        auto* text = guide->findChild<QTextBrowser*>(QStringLiteral("userGuideText"));
        QVERIFY2(
            text->toPlainText().contains(QStringLiteral("ONCE Studio — the desktop application")),
            qPrintable(text->toPlainText().left(200)));
        QVERIFY(text->toPlainText().contains(QLatin1String("Budget panel")));
        // Issue 30: the guide is for users (code layout and tests are in docs/), with pictures.
        QVERIFY(!text->toPlainText().contains(QLatin1String("Code layout")));
        QVERIFY(!text->toPlainText().contains(QLatin1String("app_studio_test_")));
        const QVariant picture = text->document()->resource(
            QTextDocument::ImageResource, QUrl(QStringLiteral("screenshots/main_window.png")));
        QVERIFY(picture.isValid());
        QVERIFY(!picture.value<QImage>().isNull() || !picture.value<QPixmap>().isNull());
        guide->close();

        const auto shortcuts = shortcutList(window.menuBar());
        bool next = false, guideKey = false;
        for (const auto& [action, keys] : shortcuts) {
            next =
                next ||
                (action == QLatin1String("Next Frame") &&
                 keys == QKeySequence(Qt::CTRL | Qt::Key_Right).toString(QKeySequence::NativeText));
            guideKey = guideKey || action == QLatin1String("User Guide");
        }
        QVERIFY(next);
        QVERIFY(guideKey);
        window.showShortcuts();
        auto* list = window.findChild<QDialog*>(QStringLiteral("shortcutList"));
        QVERIFY(list != nullptr && list->isVisible());
        list->close();

        const QString about = MainWindow::aboutText();
        for (const char* part : {"LibTorch", "Qt", "CUDA", "ONCE Studio"}) {
            QVERIFY2(about.contains(QLatin1String(part)), part);
        }
        QVERIFY(about.contains(QString::fromLatin1(qVersion())));
    }

    void preferencesShowTheWholeSamplingErrorTranslated() {
        EnglishAfterwards restore;
        for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
            QCOMPARE(installTranslators(*qApp, lang), lang);
            SettingsDialog dialog(PipelineSettings{}, QString());
            dialog.show();
            QVERIFY(QTest::qWaitForWindowExposed(&dialog));
            dialog.samplingEdit()->setText(
                QStringLiteral("uniform:0@9-3 and a rule far too long "
                               "to fit on one line of this dialog"));
            dialog.accept();
            QVERIFY(dialog.isVisible());  // refused
            QLabel* error = dialog.samplingErrorLabel();
            QVERIFY(error->isVisible());
            QTest::qWait(50);
            QVERIFY2(error->height() >= error->heightForWidth(error->width()),
                     qPrintable(QStringLiteral("%1 < %2")
                                    .arg(error->height())
                                    .arg(error->heightForWidth(error->width()))));
            QVERIFY(
                dialog.rect().contains(QRect(error->mapTo(&dialog, QPoint(0, 0)), error->size())));
            if (lang == QLatin1String("zh_CN")) {
                QVERIFY2(error->text().contains(QStringLiteral("无效")), qPrintable(error->text()));
            } else {
                QVERIFY(error->text().startsWith(
                    QLatin1String("This frame sampling rule is not valid")));
            }
            // Typing again clears the message.
            QTest::keyClick(dialog.samplingEdit(), Qt::Key_Backspace);
            QVERIFY(!error->isVisible());
        }
    }

    void pluralFormsAndTheEngineNote() {
        EnglishAfterwards restore;
        {
            MainWindow window;
            auto* maxTokens = window.questionPanel()->findChild<QSpinBox*>();
            QVERIFY(maxTokens != nullptr);
            maxTokens->setValue(1);
            QCOMPARE(maxTokens->suffix(), QStringLiteral(" token"));
            maxTokens->setValue(2);
            QCOMPARE(maxTokens->suffix(), QStringLiteral(" tokens"));
            window.showError(QStringLiteral("Cannot open file"), QStringLiteral("x.mp4: broken"));
            QVERIFY(window.errorDialog()->informativeText().isEmpty());  // English: no note
            window.errorDialog()->close();
        }
        QCOMPARE(installTranslators(*qApp, QStringLiteral("zh_CN")), QStringLiteral("zh_CN"));
        MainWindow window;
        window.showError(QStringLiteral("t"), QStringLiteral("x.mp4: broken"));
        QVERIFY(window.errorDialog()->text().contains(QLatin1String("x.mp4: broken")));
        QCOMPARE(window.errorDialog()->informativeText(), MainWindow::engineMessageNote());
        QVERIFY(MainWindow::engineMessageNote().contains(QStringLiteral("英文")));
        window.errorDialog()->close();
    }

    void budgetNoticeLiesOverNothing() {
        MainWindow window;
        window.resize(1366, 728);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(loadSynthetic(window, false));  // a video, no codebook: ONCE needs one
        BudgetPanel* panel = window.budgetPanel();
        QTRY_VERIFY(!panel->notice().isEmpty());
        // Narrow dock: the notice wraps onto several lines.
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("budgetDock"));
        window.resizeDocks({dock}, {200}, Qt::Horizontal);
        // Short, too: the panel is squeezed to its minimum height, which once ignored how many
        // lines the notice wraps onto.
        window.resizeDocks({dock}, {140}, Qt::Vertical);
        QTest::qWait(200);
        QLabel* notice = nullptr;
        for (QLabel* l : panel->findChildren<QLabel*>()) {
            if (l->isVisible() && l->text() == panel->notice()) {
                notice = l;
            }
        }
        QVERIFY(notice != nullptr);
        QVERIFY2(notice->height() >= notice->heightForWidth(notice->width()),
                 qPrintable(QStringLiteral("%1 < %2")
                                .arg(notice->height())
                                .arg(notice->heightForWidth(notice->width()))));
        for (QWidget* w : panel->findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
            if (w == notice || !w->isVisible() || w->isWindow()) {
                continue;
            }
            QVERIFY2(
                !w->geometry().intersects(notice->geometry()),
                qPrintable(w->metaObject()->className() + QStringLiteral(" ") + w->objectName()));
        }
    }
};

QTEST_MAIN(TestStudioFeedback)
#include "test_studio_feedback.moc"
