#pragma once
// Base of every chart in the studio: a title, the plot, an explanatory note, and the two export
// actions (image as PNG/SVG/PDF, data as CSV). Subclasses provide the plot and its table.
#include <QWidget>

#include "charts/chart_data.h"

class QLabel;
class QToolButton;
class QVBoxLayout;

namespace once::studio {

class ChartWidget : public QWidget {
    Q_OBJECT
  public:
    explicit ChartWidget(const QString& title, QWidget* parent = nullptr);

    QString title() const { return title_; }
    /// Writes the chart to `path` (.png, .svg or .pdf). False with `error` set on failure.
    virtual bool exportImage(const QString& path, QString* error = nullptr) = 0;
    /// The data shown, as a table (empty rows when there is nothing to show).
    virtual CsvTable table() const = 0;
    bool exportCsv(const QString& path, QString* error = nullptr) const;
    /// Whether there is data to export.
    bool hasData() const { return !table().rows.isEmpty(); }
    /// Enables the export buttons only while there is data (also called by setNote()).
    void updateExportButtons();
    QToolButton* exportImageButton() const { return imageButton_; }
    QToolButton* exportDataButton() const { return csvButton_; }

  public slots:
    /// File dialogs: ask for a path, export, report failures in a message box.
    void exportImageInteractive();
    void exportCsvInteractive();

  protected:
    /// Adds the plot widget under the title bar.
    void setPlotWidget(QWidget* plot);
    /// A line under the plot saying what is shown (or why nothing is).
    void setNote(const QString& note);
    QString suggestedFileName() const;

  private:
    QString title_;
    QVBoxLayout* layout_;
    QLabel* note_;
    QToolButton* imageButton_;
    QToolButton* csvButton_;
};

}  // namespace once::studio
