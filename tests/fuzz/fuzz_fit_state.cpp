// fuzz-sources: core/train/fit_state.cpp core/io/safetensors.cpp core/io/dtype.cpp
// fuzz-sources: core/io/mapped_file.cpp core/util/json_file.cpp core/util/error.cpp
// fuzz-sources: core/util/atomic_file.cpp core/util/regular_file.cpp
// libFuzzer target for the Stage-B resume state (`.fit-state`): its safetensors header and the
// metadata the resuming fit reads (format, configuration, data hash, counters, tensor shapes).
// Any byte string must either pass with counters a fit could have written, or throw OnceError.
// The configuration and hash are fixed strings (the seeds carry them) so that the fuzzer reaches
// the counter checks; each input is checked against a Sinkhorn and a hard-Lloyd expectation.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "io/safetensors.h"
#include "train/fit_state.h"
#include "util/error.h"

namespace {

const std::string kConfig = "{\"K\":2,\"method\":\"sinkhorn\"}";
const std::string kSha = "0123456789abcdef";

void run(const once::SafetensorsHeader& h, const once::FitStateExpectation& e) {
    try {
        const auto c = once::parseFitStateHeader(h.metadata, h.tensors, "fuzz", kConfig, kSha, e);
        const int rounds = e.hardLloyd ? e.lloydIterations : e.epochs;
        if (c.roundsDone < 0 || c.roundsDone > rounds || c.bestEpoch < 0 ||
            std::size_t(c.bestEpoch) >= c.crit.size() || c.history.size() != c.crit.size() ||
            c.bad < 0 || c.bad > e.patience) {
            std::abort();
        }
        for (double v : c.crit) {
            if (!std::isfinite(v)) {
                std::abort();
            }
        }
    } catch (const once::OnceError&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    once::SafetensorsHeader h;
    try {
        h = once::parseSafetensors({data, size}, "fuzz");
    } catch (const once::OnceError&) {
        return 0;
    }
    once::FitStateExpectation sinkhorn;
    sinkhorn.epochs = 4;
    sinkhorn.patience = 2;
    sinkhorn.stepsPerEpoch = 3;
    sinkhorn.codewords = 2;
    sinkhorn.dim = 3;
    run(h, sinkhorn);
    once::FitStateExpectation lloyd = sinkhorn;
    lloyd.hardLloyd = true;
    lloyd.lloydIterations = 5;
    run(h, lloyd);
    return 0;
}
