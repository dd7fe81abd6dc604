#include "overlay/overlay_controls.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLinearGradient>
#include <QPainter>
#include <QSlider>
#include <QStandardItemModel>

#include "overlay/group_overlay.h"

namespace once::studio {

OverlayControls::OverlayControls(GroupOverlay* overlay, QWidget* parent)
    : QWidget(parent), overlay_(overlay) {
    opacity_ = new QSlider(Qt::Horizontal, this);
    opacity_->setRange(0, 100);
    opacity_->setValue(static_cast<int>(overlay->opacity() * 100 + 0.5));
    opacity_->setMaximumWidth(160);
    // In a row that scrolls sideways a slider may be squeezed to its handle (issue 30: a square
    // at QT_SCALE_FACTOR=2): it keeps room to slide.
    opacity_->setMinimumWidth(80);
    opacity_->setAccessibleName(tr("Overlay opacity"));
    mode_ = new QComboBox(this);
    mode_->addItem(tr("Group colour"), static_cast<int>(GroupOverlay::ColourMode::GroupColour));
    mode_->addItem(tr("Group mean colour"), static_cast<int>(GroupOverlay::ColourMode::GroupMean));
    mode_->addItem(tr("Residual heat-map"), static_cast<int>(GroupOverlay::ColourMode::Residual));
    mode_->setAccessibleName(tr("Overlay colours"));
    outlines_ = new QCheckBox(tr("O&utlines"), this);
    outlines_->setChecked(overlay->showOutlines());

    auto* label = new QLabel(tr("&Opacity:"), this);
    label->setBuddy(opacity_);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(4, 2, 4, 2);
    row->addWidget(label);
    row->addWidget(opacity_);
    row->addSpacing(12);
    row->addWidget(mode_);
    scale_ = new QLabel(this);
    scale_->setAccessibleName(tr("Residual colour scale"));
    row->addWidget(scale_);
    row->addWidget(outlines_);
    row->addStretch(1);
    row->addWidget(new QLabel(tr("Click a patch to highlight its group in all frames and inspect "
                                 "it; hatched patches were dropped."),
                              this));
    connect(overlay_, &GroupOverlay::changed, this, &OverlayControls::refresh);
    refresh();

    connect(opacity_, &QSlider::valueChanged, overlay_,
            [this](int v) { overlay_->setOpacity(v / 100.0); });
    connect(mode_, &QComboBox::currentIndexChanged, overlay_, [this] {
        overlay_->setColourMode(
            static_cast<GroupOverlay::ColourMode>(mode_->currentData().toInt()));
    });
    connect(outlines_, &QCheckBox::toggled, overlay_, &GroupOverlay::setShowOutlines);
}

void OverlayControls::refresh() {
    // The heat-map needs residuals: peers have none (their result would draw group colours).
    if (auto* model = qobject_cast<QStandardItemModel*>(mode_->model())) {
        const int i = mode_->findData(static_cast<int>(GroupOverlay::ColourMode::Residual));
        model->item(i)->setEnabled(overlay_->hasResiduals() || !overlay_->hasResult());
    }
    const bool heat =
        overlay_->colourMode() == GroupOverlay::ColourMode::Residual && overlay_->hasResiduals();
    scale_->setVisible(heat);
    if (!heat) {
        return;
    }
    // A colour bar from 0 (on the codeword) to the result's largest residual, numbers beside it.
    const QFontMetrics fm = fontMetrics();
    const QString low = QStringLiteral("0"),
                  high = QString::number(overlay_->residualScaleMax(), 'f', 3);
    const int h = fm.height(), gap = fm.horizontalAdvance(QLatin1Char(' '));
    const int barLeft = fm.horizontalAdvance(low) + gap, barWidth = 5 * h;
    const qreal dpr = devicePixelRatioF();
    QImage image(QSize(barLeft + barWidth + gap + fm.horizontalAdvance(high), h) * dpr,
                 QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(dpr);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setFont(font());
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(QRect(0, 0, barLeft, h), Qt::AlignLeft | Qt::AlignVCenter, low);
    QLinearGradient gradient(barLeft, 0, barLeft + barWidth, 0);
    for (int i = 0; i <= 8; ++i) {
        gradient.setColorAt(i / 8.0, GroupOverlay::residualColour(i / 8.0));
    }
    painter.fillRect(QRect(barLeft, 2, barWidth, h - 4), gradient);
    painter.drawText(QRect(barLeft + barWidth + gap, 0, image.width(), h),
                     Qt::AlignLeft | Qt::AlignVCenter, high);
    painter.end();
    scale_->setPixmap(QPixmap::fromImage(image));
    scale_->setToolTip(tr("Residual 1 − cos(token, its codeword): 0 … %1 (the largest in this "
                          "result)")
                           .arg(overlay_->residualScaleMax(), 0, 'f', 3));
}

}  // namespace once::studio
