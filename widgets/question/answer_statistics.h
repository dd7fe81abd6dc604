#pragma once
// The statistics table of the question panel as rows of text: one row per pipeline stage, the
// total of what this question ran, token counts and the prefill compute, for Dense and the
// compressed method. Plain functions, so the tests check the numbers without a model.
#include <QList>
#include <QString>

namespace once {
struct AskReport;
}

namespace once::studio {

struct PipelineSettings;

struct StatisticRow {
    QString name;     ///< the row's label ("prefill time", "Total time", …)
    QString tooltip;  ///< what the row means
    QString dense, compressed;
};

/// Rows for two reports (either may be null: its column stays empty). A stage a column did not
/// run (Dense compresses nothing) shows "—"; Total sums only the stages run for this question
/// (cached stages were paid by an earlier question). Without reports: the rows with empty cells.
/// With `settings`, a last row "Compute dtype" shows the dtype the models compute in
/// (once::chooseComputeDtype of the settings' dtype and device, "auto" resolved) in each column
/// that has a report, and why it was chosen in its tooltip.
QList<StatisticRow> answerStatistics(const once::AskReport* dense,
                                     const once::AskReport* compressed,
                                     const PipelineSettings* settings = nullptr);

/// The latency rows of answerStatistics (its first rows): one per stage, then Total time — what
/// the A/B view shows under each side.
QList<StatisticRow> latencyStatistics(const once::AskReport* dense,
                                      const once::AskReport* compressed);

/// FLOPs in the largest unit that keeps a leading digit: "845 MFLOPs", "1.27 GFLOPs",
/// "3.42 TFLOPs" (a small model's prefill is far below one TFLOP: "0.0000 TFLOPs" said nothing).
QString formatFlops(double flops);

/// The tooltip of a stage row (decode, encode, compress, prefill, generate, or another name).
QString stageTooltip(const QString& stage);

}  // namespace once::studio
