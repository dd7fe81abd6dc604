#pragma once
// Code usage by equal-count deciles (paper, "Training-corpus codebook utilization"): codewords
// ordered by assigned tokens and cut into ten equal-count groups; bar height is each decile's
// share of the assignments, the dashed line the uniform 10 %, the leading fifth emphasised.
// This video's usage beside the codebook corpus's, when the codebook file records it.
#include <vector>

#include "charts/chart_widget.h"

class QCustomPlot;

namespace once::studio {

class UsageDecileChart : public ChartWidget {
    Q_OBJECT
  public:
    explicit UsageDecileChart(QWidget* parent = nullptr);

    /// Per-codeword token counts of this video (assignment counts n_k); empty clears.
    void setVideoCounts(const std::vector<std::int64_t>& counts);
    /// The codebook corpus's ten decile shares (from the codebook metadata); empty: unknown.
    void setCorpusDeciles(const std::vector<double>& deciles);

    const std::vector<double>& videoDeciles() const { return video_; }
    bool exportImage(const QString& path, QString* error = nullptr) override;
    CsvTable table() const override;
    QCustomPlot* plot() const { return plot_; }

  private:
    void replot();

    QCustomPlot* plot_;
    std::vector<double> video_, corpus_;
};

}  // namespace once::studio
