#include "question/answer_statistics.h"

#include <QCoreApplication>
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "pipeline/answer_session.h"
#include "session/pipeline_settings.h"
#include "util/dtype_choice.h"
#include "util/error.h"

namespace once::studio {

// The translation context of the statistics rows.
class AnswerStatistics {
    Q_DECLARE_TR_FUNCTIONS(AnswerStatistics)
};

namespace {
const QString kNotRun = QStringLiteral("—");

QString milliseconds(double seconds) {
    return AnswerStatistics::tr("%1 ms").arg(seconds * 1e3, 0, 'f', 1);
}

// The stages a column ran for this question; Dense compresses nothing (its "compress" is the
// concatenation of all tokens, not a compression).
bool ranStage(const once::AskReport& r, const std::string& stage) {
    return !(r.dense && stage == "compress");
}
/// Appends a row whose cells `cell` computes from each report present.
struct RowAdder {
    QList<StatisticRow>& rows;
    const once::AskReport* dense;
    const once::AskReport* compressed;
    void operator()(const QString& name, const QString& tooltip,
                    const std::function<QString(const once::AskReport&)>& cell) const {
        rows << StatisticRow{name, tooltip, dense ? cell(*dense) : QString(),
                             compressed ? cell(*compressed) : QString()};
    }
};
}  // namespace

QString stageTooltip(const QString& stage) {
    if (stage == QLatin1String("decode")) {
        return AnswerStatistics::tr("Reading and sampling the video's frames");
    }
    if (stage == QLatin1String("encode")) {
        return AnswerStatistics::tr(
            "The vision encoder and projector turning frames into visual "
            "tokens");
    }
    if (stage == QLatin1String("compress")) {
        return AnswerStatistics::tr(
            "Reducing the visual tokens to the budget with the selected "
            "method (Dense keeps them all and compresses nothing)");
    }
    if (stage == QLatin1String("prefill")) {
        return AnswerStatistics::tr(
            "The language model reading the whole input (prompt and "
            "visual tokens) once");
    }
    if (stage == QLatin1String("generate")) {
        return AnswerStatistics::tr("Producing the answer token by token");
    }
    if (stage == QLatin1String("load")) {
        return AnswerStatistics::tr("Loading the features from a file");
    }
    return AnswerStatistics::tr("Time of the pipeline stage “%1”").arg(stage);
}

QString formatFlops(double flops) {
    if (!std::isfinite(flops) || flops <= 0) {
        return kNotRun;
    }
    struct Unit {
        double scale;
        const char* name;
    };
    static const Unit units[] = {{1e15, "PFLOPs"}, {1e12, "TFLOPs"}, {1e9, "GFLOPs"},
                                 {1e6, "MFLOPs"},  {1e3, "kFLOPs"},  {1, "FLOPs"}};
    for (const Unit& u : units) {
        if (flops >= u.scale || u.scale == 1) {
            const double v = flops / u.scale;
            // Three significant digits.
            const int decimals = v >= 100 ? 0 : (v >= 10 ? 1 : 2);
            return QStringLiteral("%1 %2").arg(v, 0, 'f', decimals).arg(QLatin1String(u.name));
        }
    }
    return kNotRun;
}

QList<StatisticRow> latencyStatistics(const once::AskReport* dense,
                                      const once::AskReport* compressed) {
    QList<StatisticRow> rows;
    const RowAdder add{rows, dense, compressed};
    // One row per pipeline stage, in the order the pipeline ran them.
    std::vector<std::string> stages;
    for (const once::AskReport* r : {dense, compressed}) {
        for (const auto& s : r ? r->stages : std::vector<once::StageReport>{}) {
            if (std::find(stages.begin(), stages.end(), s.name) == stages.end()) {
                stages.push_back(s.name);
            }
        }
    }
    if (stages.empty()) {
        stages = {"decode", "encode", "compress", "prefill", "generate"};
    }
    for (const std::string& stage : stages) {
        const QString name = QString::fromStdString(stage);
        add(AnswerStatistics::tr("%1 time").arg(name), stageTooltip(name),
            [stage](const once::AskReport& r) {
                if (!ranStage(r, stage)) {
                    return kNotRun;
                }
                for (const auto& s : r.stages) {
                    if (s.name == stage) {
                        return s.cached ? AnswerStatistics::tr("%1 ms (cached)")
                                              .arg(s.seconds * 1e3, 0, 'f', 1)
                                        : milliseconds(s.seconds);
                    }
                }
                return kNotRun;
            });
    }
    add(AnswerStatistics::tr("Total time"),
        AnswerStatistics::tr("The stages run for this question; stages marked cached were paid "
                             "by an earlier question and are not counted"),
        [](const once::AskReport& r) {
            double total = 0;
            for (const auto& s : r.stages) {
                if (!s.cached && ranStage(r, s.name)) {
                    total += s.seconds;
                }
            }
            return milliseconds(total);
        });
    return rows;
}

QList<StatisticRow> answerStatistics(const once::AskReport* dense,
                                     const once::AskReport* compressed,
                                     const PipelineSettings* settings) {
    QList<StatisticRow> rows = latencyStatistics(dense, compressed);
    const RowAdder add{rows, dense, compressed};
    add(AnswerStatistics::tr("Visual tokens (content + layout)"),
        AnswerStatistics::tr("Visual tokens entering the language model: the compressed content "
                             "tokens plus the backbone's layout tokens (LLaVA's image_newline)"),
        [](const once::AskReport& r) {
            return QStringLiteral("%1 + %2").arg(r.contentTokens).arg(r.layoutTokens);
        });
    add(AnswerStatistics::tr("Source tokens N"),
        AnswerStatistics::tr("Visual tokens of the video before compression"),
        [](const once::AskReport& r) { return QString::number(r.sourceTokens); });
    add(AnswerStatistics::tr("LLM input length"),
        AnswerStatistics::tr("Every token the language model reads: prompt, question and visual "
                             "tokens"),
        [](const once::AskReport& r) { return QString::number(r.promptTokens); });
    add(AnswerStatistics::tr("Generated tokens"), AnswerStatistics::tr("Tokens of the answer"),
        [](const once::AskReport& r) { return QString::number(r.tokenIds.size()); });
    add(AnswerStatistics::tr("Prefill FLOPs"),
        AnswerStatistics::tr("Floating-point operations of the prefill over the LLM input length "
                             "(2 per multiply-add, all layers)"),
        [](const once::AskReport& r) { return formatFlops(r.prefillFlops); });
    if (settings) {
        // The settings come from a file the user may have edited: an unknown name is shown,
        // with the error, rather than thrown (the pipeline refuses it when it loads).
        QString resolved = settings->dtype, reason;
        try {
            const once::DtypeChoice c = once::chooseComputeDtype(settings->dtype.toStdString(),
                                                                 settings->device.toStdString());
            resolved = QString::fromStdString(c.resolved);
            reason = QString::fromStdString(c.reason);
        } catch (const once::OnceError& e) {
            reason = QString::fromUtf8(e.what());
        }
        add(AnswerStatistics::tr("Compute dtype"),
            AnswerStatistics::tr("The precision the vision encoder and the language model "
                                 "compute in (%1)")
                .arg(reason),
            [resolved](const once::AskReport&) { return resolved; });
    }
    return rows;
}

}  // namespace once::studio
