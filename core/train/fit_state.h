#pragma once
// The Stage-B resume state (`.fit-state`, a safetensors file) read back without LibTorch: its
// metadata (format, the training configuration and data hash it belongs to, the counters of the
// last finished epoch) and its tensor headers are checked against what the resuming fit expects
// before anything is indexed with them. Separate from the file's reading and writing with its
// tensors (train/fit_state_file.h) so it can be fuzzed on its own (tests/fuzz/fuzz_fit_state.cpp).
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/safetensors.h"

namespace once {

constexpr const char* kFitStateFormat = "once-fit-state/1";
/// Tensors of a state, each F32 [K, D]: the parameter, AdamW's moments and the best codebook.
inline const std::vector<std::string> kFitStateTensors = {"param", "m1", "m2", "best"};

/// Counters of a saved fit (the rest of a FitState: train/fit_state_file.h).
struct FitStateCounters {
    int roundsDone = 0;  ///< Sinkhorn epochs or hard-Lloyd rounds finished
    std::int64_t step = 0;
    int bad = 0, bestEpoch = 0;
    std::vector<double> crit;
    nlohmann::json history = nlohmann::json::array();
};

/// What the resuming fit's options and data make possible.
struct FitStateExpectation {
    bool hardLloyd = false;
    int epochs = 0, patience = 1, lloydIterations = 0;
    std::int64_t stepsPerEpoch = 0;  ///< Sinkhorn: ⌈U / batch⌉
    std::int64_t codewords = 0, dim = 0;
};

/// Checks a state's header (`path` names it in errors): format; the configuration and data hash
/// equal `config` and `dataSha256` (a differing option is named, e.g. `training_config.lr`); the
/// counters possible for `expect` (rounds within the epochs, step = rounds × steps per epoch, one
/// criterion and history entry per evaluated epoch, finite criteria, best epoch among them,
/// patience counter = rounds − best epoch); every tensor of kFitStateTensors present as
/// F32 [K, D]. Throws OnceError naming the file and the field.
FitStateCounters parseFitStateHeader(const std::map<std::string, std::string>& metadata,
                                     const std::vector<TensorEntry>& tensors,
                                     const std::string& path, const std::string& config,
                                     const std::string& dataSha256,
                                     const FitStateExpectation& expect);

}  // namespace once
