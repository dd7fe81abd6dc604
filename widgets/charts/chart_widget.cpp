#include "charts/chart_widget.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QStandardPaths>
#include <QToolButton>
#include <QVBoxLayout>

#include "charts/chart_export.h"
#include "common/export_folder.h"

namespace once::studio {

ChartWidget::ChartWidget(const QString& title, QWidget* parent) : QWidget(parent), title_(title) {
    setWindowTitle(title);
    auto* titleLabel = new QLabel(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()), this);
    imageButton_ = new QToolButton(this);
    imageButton_->setText(tr("Export &Image…"));
    imageButton_->setToolTip(tr("Save the chart as PNG, SVG or PDF"));
    csvButton_ = new QToolButton(this);
    csvButton_->setText(tr("Export &Data…"));
    csvButton_->setToolTip(tr("Save the chart's data as CSV"));
    connect(imageButton_, &QToolButton::clicked, this, &ChartWidget::exportImageInteractive);
    connect(csvButton_, &QToolButton::clicked, this, &ChartWidget::exportCsvInteractive);

    auto* bar = new QHBoxLayout;
    bar->addWidget(titleLabel, 1);
    bar->addWidget(imageButton_);
    bar->addWidget(csvButton_);
    note_ = new QLabel(this);
    note_->setWordWrap(true);
    note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout_ = new QVBoxLayout(this);
    layout_->setContentsMargins(4, 4, 4, 4);
    layout_->addLayout(bar);
    layout_->addWidget(note_);
}

void ChartWidget::setPlotWidget(QWidget* plot) {
    layout_->insertWidget(1, plot, 1);
}

void ChartWidget::setNote(const QString& note) {
    note_->setText(note);
    updateExportButtons();
}

void ChartWidget::updateExportButtons() {
    // Nothing to export before data (issue 16: Export was enabled with nothing loaded). Every
    // chart sets its note when its data change, which lands here.
    const bool data = hasData();
    imageButton_->setEnabled(data);
    csvButton_->setEnabled(data);
    const QString why = tr("Nothing to export yet");
    imageButton_->setToolTip(data ? tr("Save the chart as PNG, SVG or PDF") : why);
    csvButton_->setToolTip(data ? tr("Save the chart's data as CSV") : why);
}

QString ChartWidget::suggestedFileName() const {
    QString name = title_.toLower();
    for (QChar& c : name) {
        if (!c.isLetterOrNumber()) {
            c = QLatin1Char('_');
        }
    }
    return exportPath(name, QStandardPaths::DocumentsLocation);
}

bool ChartWidget::exportCsv(const QString& path, QString* error) const {
    return writeTextFile(path, table().toCsv(), error);
}

void ChartWidget::exportImageInteractive() {
    if (!hasData()) {
        return;  // the menu's Export Chart Image acts on an empty chart too
    }
    QString filter;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Chart Image"), suggestedFileName() + QStringLiteral(".png"),
        tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"), &filter);
    if (path.isEmpty()) {
        return;
    }
    rememberExportFile(path);
    QString error;
    if (!exportImage(path, &error)) {
        QMessageBox::warning(this, tr("Export failed"), error);
    }
}

void ChartWidget::exportCsvInteractive() {
    if (!hasData()) {
        return;
    }
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Chart Data"),
                                                      suggestedFileName() + QStringLiteral(".csv"),
                                                      tr("CSV table (*.csv)"));
    if (path.isEmpty()) {
        return;
    }
    rememberExportFile(path);
    QString error;
    if (!exportCsv(path, &error)) {
        QMessageBox::warning(this, tr("Export failed"), error);
    }
}

}  // namespace once::studio
