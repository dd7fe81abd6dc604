#pragma once
// Legends that never hide data (issue 16: legends inside the axis rect covered the lines, and an
// empty legend box showed before a sweep): the legend sits in its own row under the axis rect,
// laid out in columns, and shows only while it has entries.
class QCustomPlot;

namespace once::studio {

/// Moves the plot's legend under the axis rect (once; later calls only refresh it).
void placeLegendBelow(QCustomPlot* plot);
/// As many legend columns (1 to 3) as the plot's width holds without cutting an entry; run
/// before every replot once placeLegendBelow() was called.
void fitLegendColumns(QCustomPlot* plot);
/// Shows the legend only when it has at least one entry; call after adding or removing
/// plottables, before replot().
void updateLegendVisibility(QCustomPlot* plot);

}  // namespace once::studio
