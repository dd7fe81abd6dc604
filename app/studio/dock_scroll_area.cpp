#include "dock_scroll_area.h"

#include <QEvent>
#include <QLayout>
#include <QScrollBar>
#include <QTimer>

namespace once::studio {

DockScrollArea::DockScrollArea(QWidget* panel, bool fitHeightForWidth, QWidget* parent)
    : QScrollArea(parent), fit_(fitHeightForWidth) {
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setWidget(panel);
    // A label that wraps or a widget shown or hidden inside the panel changes the height it needs.
    panel->installEventFilter(this);
}

void DockScrollArea::resizeEvent(QResizeEvent* event) {
    QScrollArea::resizeEvent(event);
    fitPanelHeight();
}

bool DockScrollArea::eventFilter(QObject* watched, QEvent* event) {
    if (watched == widget() && event->type() == QEvent::LayoutRequest && !fitting_) {
        // After the panel's layout has handled the request.
        QTimer::singleShot(0, this, &DockScrollArea::fitPanelHeight);
    }
    return QScrollArea::eventFilter(watched, event);
}

void DockScrollArea::fitPanelHeight() {
    QWidget* panel = widget();
    if (!fit_ || panel == nullptr || panel->layout() == nullptr || !panel->hasHeightForWidth()) {
        return;
    }
    fitting_ = true;
    const int width = std::max(viewport()->width(), panel->minimumSizeHint().width());
    const int needed = std::max(panel->layout()->totalMinimumSize().height(),
                                panel->heightForWidth(width));
    if (panel->minimumHeight() != needed) {
        panel->setMinimumHeight(needed);
    }
    fitting_ = false;
}

}  // namespace once::studio
