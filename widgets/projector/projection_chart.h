#pragma once
// The projector's plot: every codeword of the codebook and this video's tokens on the codebook's
// PCA map (core/analysis/codebook_projection.h). Layers, bottom to top: this video's tokens, all
// codewords, the codewords the current result selected, the tokens assigned to the chosen
// codeword (k̂ = k), its most similar codewords, the chosen codeword itself and the inspected
// patch's token. A click picks the nearest codeword on screen. Exports as every chart does, the
// data as one row per point.
#include <vector>

#include "charts/chart_widget.h"

class QCustomPlot;
class QCPGraph;
class QMouseEvent;

namespace once::studio {

class ProjectionChart : public ChartWidget {
    Q_OBJECT
  public:
    explicit ProjectionChart(QWidget* parent = nullptr);

    struct Map {
        std::vector<QPointF> codewords;       ///< [K] on the map
        std::vector<QPointF> tokens;          ///< [N] this video's tokens (may be empty)
        std::vector<std::int64_t> nearestOf;  ///< [N] k̂ of each token (empty: unknown)
        double explained[2] = {0, 0};         ///< variance share of each axis
    };
    /// A new map (empty codewords: nothing to show, `why` says why).
    void setMap(Map map, const QString& why = {});
    /// Codewords the result on screen selected (empty: none / a peer method).
    void setSelectedCodewords(std::vector<std::int64_t> ids);
    /// The chosen codeword (−1: none) and its most similar codewords.
    void setChosen(std::int64_t codeword, std::vector<std::int64_t> similar);
    /// The inspected patch's token (−1: none).
    void setInspectedToken(int token);
    void setTokensShown(bool shown);

    const Map& map() const { return map_; }
    std::int64_t chosen() const { return chosen_; }
    /// The codeword drawn nearest to a widget position of the plot (−1: none within reach).
    std::int64_t codewordAt(const QPoint& plotPos) const;
    /// Widget position (in the plot) of a codeword's point.
    QPoint codewordPosition(std::int64_t codeword) const;
    QCustomPlot* plot() const { return plot_; }

    bool exportImage(const QString& path, QString* error = nullptr) override;
    CsvTable table() const override;

  signals:
    /// A codeword was clicked on the map.
    void codewordClicked(std::int64_t codeword);

  private:
    void replot();

    QCustomPlot* plot_;
    Map map_;
    QString why_;
    std::vector<std::int64_t> selected_, similar_;
    std::int64_t chosen_ = -1;
    int inspected_ = -1;
    bool tokensShown_ = true;
};

}  // namespace once::studio
