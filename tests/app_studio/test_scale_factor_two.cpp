// Every panel of the real main window at QT_SCALE_FACTOR=2 on a 1366 × 768 laptop screen
// (issue 30, item 10: the opacity slider collapsed to a square and most panels scrolled out of
// view). Qt sees 683 × 384 logical pixels there. Each dock, raised in turn, must lie in the
// window, and each of its controls must be reachable (in view, or brought into view by its
// dock's scroll area) and keep the room it needs to be used: a button or box its minimum size,
// a slider room to slide. The demo is loaded so the panels show what they show in use.
#include <QAbstractButton>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabBar>
#include <QtTest>

#include "../widgets/studio_test_data.h"
#include "main_window.h"
#include "session/demo_assets.h"
#include "studio_app_test.h"
#include "studio_fixture.h"
#include "tasks/background_task.h"

using namespace once::studio;

namespace {
constexpr int kScale = 2;
// 1366 × 768 less a title bar (20 px at scale 1, so 40 device pixels at scale 2), in logical
// pixels.
const QSize kWindow(1366 / kScale, (768 - 2 * 20) / kScale);

QString describe(const QSize& s) {
    return QStringLiteral("%1 × %2").arg(s.width()).arg(s.height());
}

QString nameOf(const QWidget* w) {
    QString text;
    if (auto* b = qobject_cast<const QAbstractButton*>(w)) {
        text = b->text().isEmpty() ? b->toolTip() : b->text();
    }
    return QStringLiteral("%1 \"%2\" (%3)")
        .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName(), text);
}

bool isControl(const QWidget* w) {
    return qobject_cast<const QAbstractButton*>(w) != nullptr ||
           qobject_cast<const QAbstractSlider*>(w) != nullptr ||
           qobject_cast<const QComboBox*>(w) != nullptr ||
           qobject_cast<const QAbstractSpinBox*>(w) != nullptr ||
           qobject_cast<const QLineEdit*>(w) != nullptr;
}

/// A control's own parts (a spin box's line edit, a tab bar's scroll arrows) are Qt's.
bool isPartOfAControl(const QWidget* w, const QWidget* top) {
    for (const QWidget* p = w->parentWidget(); p != nullptr && p != top; p = p->parentWidget()) {
        if (isControl(p) || qobject_cast<const QTabBar*>(p) != nullptr) {
            return true;
        }
    }
    return false;
}

/// The scroll areas that scroll `w`, innermost first.
QList<QScrollArea*> scrollersOf(QWidget* w) {
    QList<QScrollArea*> out;
    for (QWidget* p = w->parentWidget(); p != nullptr; p = p->parentWidget()) {
        if (auto* s = qobject_cast<QScrollArea*>(p);
            s != nullptr && s->widget() != nullptr && s->widget()->isAncestorOf(w)) {
            out << s;
        }
    }
    return out;
}

/// Scrolls `scroll` so that `r` (in its widget's coordinates) is in view, or as much of it as
/// fits from its start. (Not ensureWidgetVisible: for a text field it shows only the cursor.)
void bringIntoView(QScrollArea* scroll, const QRect& r) {
    const auto axis = [](QScrollBar* bar, int start, int length, int view) {
        int v = bar->value();
        if (length >= view || start < v) {
            v = start;
        } else if (start + length > v + view) {
            v = start + length - view;
        }
        bar->setValue(v);
    };
    axis(scroll->horizontalScrollBar(), r.x(), r.width(), scroll->viewport()->width());
    axis(scroll->verticalScrollBar(), r.y(), r.height(), scroll->viewport()->height());
}

/// Why `control` cannot be used in `window` (empty: it can).
QString problemWith(QWidget* control, QWidget* window) {
    if (auto* slider = qobject_cast<QAbstractSlider*>(control)) {
        // A scroll bar is a scroll area's own; the others must keep room to slide.
        if (slider->parentWidget() != nullptr &&
            qobject_cast<QAbstractScrollArea*>(slider->parentWidget()->parentWidget()) != nullptr) {
            return {};
        }
        const bool horizontal = slider->orientation() == Qt::Horizontal;
        const int along = horizontal ? slider->width() : slider->height();
        const int across = horizontal ? slider->height() : slider->width();
        if (along < 2 * across || along < 60) {
            return QStringLiteral("a slider with no room to slide: ") + describe(slider->size());
        }
    } else {
        const QSize min = control->minimumSizeHint();
        if (control->width() < min.width() || control->height() < min.height()) {
            return QStringLiteral("squeezed to %1 below its minimum %2")
                .arg(describe(control->size()), describe(min));
        }
    }
    // As a person scrolls: the inner area to the control, then each outer one to the inner.
    const QList<QScrollArea*> scrollers = scrollersOf(control);
    QWidget* target = control;
    for (QScrollArea* scroll : scrollers) {
        bringIntoView(scroll, QRect(target->mapTo(scroll->widget(), QPoint(0, 0)), target->size()));
        target = scroll;
    }
    QTest::qWait(20);
    for (QScrollArea* scroll : scrollers) {
        // A control wider than the view shows as much of itself as fits; all of its height.
        const QRect inView(control->mapTo(scroll->viewport(), QPoint(0, 0)), control->size());
        const QRect seen = inView & scroll->viewport()->rect();
        if (seen.height() < inView.height() ||
            seen.width() < std::min(inView.width(), scroll->viewport()->width())) {
            return QStringLiteral("not brought into view by the scroll area %1 (%2 in %3)")
                .arg(scroll->objectName(), describe(control->size()),
                     describe(scroll->viewport()->size()));
        }
    }
    const QRect inWindow(control->mapTo(window, QPoint(0, 0)), control->size());
    if ((inWindow & window->rect()).height() < inWindow.height()) {
        return QStringLiteral("outside the window");
    }
    return {};
}
}  // namespace

class TestScaleFactorTwo : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        once::studio::test::initStudioTestApplication();
        QCOMPARE(qApp->devicePixelRatio(), qreal(kScale));
        QCOMPARE(QGuiApplication::primaryScreen()->geometry().size(),
                 QSize(1366 / kScale, 768 / kScale));
    }

    void everyPanelIsUsable() {
        auto window = test::shownWindow(kWindow);
        QVERIFY(window);
        QVERIFY2(window->minimumSizeHint().width() <= kWindow.width() &&
                     window->minimumSizeHint().height() <= kWindow.height(),
                 qPrintable(describe(window->minimumSizeHint())));
        window->resize(kWindow);
        QVERIFY(test::loadDemo(*window));
        QTest::qWait(200);
        // The window (its frame included: the window fits itself to the screen) is on screen.
        const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
        QVERIFY2(available.contains(window->frameGeometry()),
                 qPrintable(describe(window->frameGeometry().size())));
        QStringList problems;
        const auto checkControls = [&](QWidget* panel, const QString& name) {
            for (QWidget* control : panel->findChildren<QWidget*>()) {
                if (!isControl(control) || !control->isVisibleTo(panel) ||
                    isPartOfAControl(control, panel)) {
                    continue;
                }
                const QString why = problemWith(control, window.get());
                if (!why.isEmpty()) {
                    problems << name + QStringLiteral(": ") + nameOf(control) +
                                    QStringLiteral(": ") + why;
                }
            }
        };
        // The frame view's own controls (opacity, colour mode, frame) first, then each dock.
        checkControls(window->centralWidget(), QStringLiteral("main view"));
        for (QDockWidget* dock : window->findChildren<QDockWidget*>()) {
            dock->raise();
            QTest::qWait(50);
            // A view that starts work when shown (the projector's map) has its final layout
            // once that work is done.
            for (BackgroundTask* task : window->findChildren<BackgroundTask*>()) {
                QVERIFY(task->wait(120000));
            }
            QTest::qWait(50);
            const QRect g(dock->mapTo(window.get(), QPoint(0, 0)), dock->size());
            if (!dock->isVisible() || !window->rect().contains(g) || dock->width() < 80 ||
                dock->height() < 60) {
                problems << dock->objectName() + QStringLiteral(": the dock ") + describe(g.size());
                continue;
            }
            checkControls(dock->widget(), dock->objectName());
        }
        for (const QString& p : problems) {
            qWarning().noquote() << p;
        }
        QVERIFY2(problems.isEmpty(), qPrintable(QString::number(problems.size()) +
                                                QStringLiteral(" controls cannot be used")));
    }
};

int main(int argc, char** argv) {
    // Set before the application exists, as a user's environment would.
    qputenv("QT_SCALE_FACTOR", QByteArray::number(kScale));
    qputenv("QT_QPA_PLATFORM",
            "offscreen:configfile=" ONCE_SOURCE_DIR "/tests/support/offscreen_1366x768.json");
    QApplication app(argc, argv);
    TestScaleFactorTwo test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "test_scale_factor_two.moc"
