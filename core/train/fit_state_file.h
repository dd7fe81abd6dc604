#pragma once
// The Stage-B resume state as a file (`.fit-state`, safetensors): what a stopped fit needs to go
// on exactly where its last finished epoch (Sinkhorn) or round (hard-lloyd) left it — the
// counters (train/fit_state.h, whose header checks are fuzzed without LibTorch) and the
// optimiser's tensors. Optimiser steps, noise and batches are functions of (seed, epoch, step),
// so continuing from this state gives the bits of an uninterrupted run.
#include <ATen/core/Tensor.h>

#include <string>

#include "train/fit_state.h"

namespace once {

struct FitState : FitStateCounters {
    at::Tensor param, m1, m2, best;
};

/// Writes `st` to `path` atomically (a kill leaves the previous state or this one), with the
/// training configuration and data hash it belongs to; nothing when `path` is empty. Throws
/// OnceError naming the tensor when one holds non-finite values.
void saveFitState(const std::string& path, const FitState& st, const std::string& config,
                  const std::string& dataSha);

/// Reads the state at `path` into `st`; false when `path` is empty or names no file. Refuses
/// one of another configuration or data, or one whose counters or tensors this fit could not
/// have written (parseFitStateHeader), non-finite tensors and negative second moments.
bool loadFitState(const std::string& path, FitState& st, const std::string& config,
                  const std::string& dataSha, const FitStateExpectation& expect);

}  // namespace once
