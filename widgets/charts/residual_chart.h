#pragma once
// Cosine residual distribution (paper appendix, "residual R95"): 1 − cos(x, nearest codeword)
// for every token of this video, with R50/R90/R95/R99 marked; the residual after reassignment
// at the current budget; and the codebook corpus's percentiles when the codebook records them.
#include <map>
#include <vector>

#include "charts/chart_widget.h"

class QCustomPlot;

namespace once::studio {

class ResidualChart : public ChartWidget {
    Q_OBJECT
  public:
    explicit ResidualChart(QWidget* parent = nullptr);

    /// Residuals to the nearest of all K codewords (budget-independent); empty clears.
    void setNearestResiduals(std::vector<float> residuals);
    /// Residuals to the codeword each token ends in at the current budget.
    void setBudgetResiduals(std::vector<float> residuals, std::int64_t budget);
    /// The corpus's percentiles by name ("R50", "R90", "R95", "R99"); empty: unknown.
    void setCorpusPercentiles(const std::map<QString, double>& percentiles);

    /// This video's R50/R90/R95/R99 (nearest codeword), empty before data.
    const std::map<QString, double>& videoPercentiles() const { return videoPercentiles_; }
    bool exportImage(const QString& path, QString* error = nullptr) override;
    CsvTable table() const override;
    QCustomPlot* plot() const { return plot_; }
    /// Pixel rectangles of the percentile labels as last drawn (tests: none overlap).
    QList<QRectF> percentileLabelRects() const;

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    void replot();

    QCustomPlot* plot_;
    std::vector<float> nearest_, atBudget_;
    std::int64_t budget_ = 0;
    std::map<QString, double> videoPercentiles_, budgetPercentiles_, corpusPercentiles_;
    Histogram nearestHist_, budgetHist_;
};

}  // namespace once::studio
