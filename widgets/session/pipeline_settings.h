#pragma once
// The user's choices for turning a video into tokens (settings dialog, remembered by the app):
// plain values, copied into each worker job so a change never races with running work.
#include <QString>

namespace once::studio {

struct PipelineSettings {
    QString backbone = QStringLiteral("demo");        ///< a registered visual encoder
    QString device = QStringLiteral("cpu");           ///< "cpu", "cuda" or "auto"
    QString dtype = QStringLiteral("float32");        ///< "float32", "float16", "bfloat16"
    int threads = 0;                                  ///< 0: library default
    QString sampling = QStringLiteral("uniform:32");  ///< SamplingRule text
    int poolStride = 1;  ///< 1: all 27×27 patches (the paper), 2: 14×14

    bool operator==(const PipelineSettings&) const = default;
};

}  // namespace once::studio
