#pragma once
// Options for a training run small enough for a widget test (header-only, shared by the trainer
// suites): a handful of representatives per video, small shards, an 8-word codebook fitted in
// a few epochs.
#include <optional>

#include "trainer/trainer_options_form.h"
#include "trainer/trainer_panel.h"

namespace once::studio::test {

/// Sets the trainer's Stage-A and Stage-B options to a tiny run of `epochs` epochs (and
/// `patience`, when given).
inline void useTinyTraining(TrainerPanel& panel, int epochs,
                            std::optional<int> patience = std::nullopt) {
    auto sketch = panel.options()->sketchOptions();
    sketch.sketch.mMin = 4;
    sketch.sketch.mMax = 16;
    sketch.sketch.tokensPerRep = 32;
    sketch.shardRows = 16;
    panel.options()->setSketchOptions(sketch);
    auto fit = panel.options()->fitConfig();
    fit.codewords = 8;
    fit.candidates = 64;
    fit.batch = 32;
    fit.epochs = epochs;
    if (patience) {
        fit.patience = *patience;
    }
    panel.options()->setFitConfig(fit);
}

}  // namespace once::studio::test
