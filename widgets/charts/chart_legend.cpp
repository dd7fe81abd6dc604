#include "charts/chart_legend.h"

#include <qcustomplot.h>

#include <algorithm>

namespace once::studio {

void fitLegendColumns(QCustomPlot* plot) {
    QCPLegend* legend = plot->legend;
    int widest = 1;
    for (int i = 0; i < legend->itemCount(); ++i) {
        // Cells of a wrapped grid may be empty (the count includes them).
        if (const QCPAbstractLegendItem* item = legend->item(i)) {
            widest = std::max(widest, item->minimumOuterSizeHint().width());
        }
    }
    const int spacing = legend->columnSpacing();
    const int room = plot->viewport().width() - legend->margins().left() - legend->margins().right();
    const int columns = std::clamp((room + spacing) / (widest + spacing), 1, 3);
    if (legend->wrap() != columns) {
        legend->setWrap(columns);
        // setWrap() only sets the count for elements added later; rearranging the ones there
        // is setFillOrder's (QCPLayoutGrid: "rearrange" re-inserts every element in order).
        legend->setFillOrder(legend->fillOrder(), true);
    }
}

void placeLegendBelow(QCustomPlot* plot) {
    QCPLayoutGrid* layout = plot->plotLayout();
    if (layout->rowCount() > 1 && layout->element(1, 0) != nullptr &&
        plot->legend->layout() != nullptr &&
        plot->legend->layout() != plot->axisRect()->insetLayout()) {
        return;  // already below
    }
    // Out of the axis rect's inset layout into a row of its own below the axes.
    if (plot->axisRect()->insetLayout()->take(plot->legend)) {
        plot->axisRect()->insetLayout()->simplify();
    }
    auto* row = new QCPLayoutGrid;
    layout->addElement(1, 0, row);
    row->setMargins(QMargins(0, 0, 0, 4));
    // A grid's widest is the sum of its elements' widest, and an empty legend's is its margins:
    // before any entry the row capped the plot's only column, and the axes were ~50 px wide in
    // a 360 px dock (issue 30). A maximum set below QWIDGETSIZE_MAX replaces that hint
    // (QCPLayout::getFinalMaximumOuterSize); the height keeps the hint.
    row->setMaximumSize(QWIDGETSIZE_MAX - 1, QWIDGETSIZE_MAX);
    row->addElement(0, 0, plot->legend);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setWrap(3);  // at most three entries a line, fewer when they do not fit
    // Columns follow the plot's width: in a narrow dock three columns cut every entry
    // ("Prefill FLC", issue 30).
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] { fitLegendColumns(plot); });
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setBrush(Qt::NoBrush);
    layout->setRowStretchFactor(1, 0.001);  // as high as the legend needs, no more
}

void updateLegendVisibility(QCustomPlot* plot) {
    const bool any = plot->legend->itemCount() > 0;
    plot->legend->setVisible(any);
    // An empty row keeps no height: the layout element's visibility follows the legend.
    if (auto* row = qobject_cast<QCPLayoutGrid*>(plot->legend->layout())) {
        row->setVisible(any);
    }
}

}  // namespace once::studio
