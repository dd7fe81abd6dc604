#pragma once
// The paper's efficiency panel from a `once bench` table (core/eval/efficiency_bench_file.h),
// drawn into the "Budget vs latency" chart: end-to-end speed-up over Dense against the budget,
// one line per method (prefill speed-up dotted), Dense at 1, and each method's accuracy on the
// right axis where the table carries it (`once bench --accuracy`).
#include <QString>

#include "charts/chart_data.h"
#include "eval/efficiency_bench_file.h"

class QCustomPlot;

namespace once::studio {

/// Replaces the plot's content with the panel; returns the note to show under it.
QString drawEfficiencyPanel(QCustomPlot* plot, const once::EfficiencyBench& bench);
/// The rows shown, for "Export data…".
CsvTable efficiencyPanelTable(const once::EfficiencyBench& bench);

}  // namespace once::studio
