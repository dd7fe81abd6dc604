// clang-format off
// fuzz-sources: core/train/training_history.cpp core/util/json_file.cpp core/util/regular_file.cpp core/util/error.cpp
// clang-format on
// libFuzzer target for the Stage-B history a codebook file carries in its metadata
// (train/training_history.h), which the studio's trainer draws for any codebook it opens. Any
// byte string is read without throwing; every epoch kept has a finite criterion, an epoch number
// in 0 … kMaxEpochs and a loss that is −1 (none) or finite and non-negative; the same bytes as
// metadata give the same epochs.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>

#include "fuzz_check.h"
#include "train/training_history.h"

using once::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const once::TrainingHistory h = once::TrainingHistory::fromJson(text);
    check(h.epochs.size() <= once::TrainingHistory::kMaxEpochs);
    for (const auto& e : h.epochs) {
        check(std::isfinite(e.criterion));
        check(e.epoch >= 0 && std::size_t(e.epoch) <= once::TrainingHistory::kMaxEpochs);
        check(e.meanLoss == -1 || (std::isfinite(e.meanLoss) && e.meanLoss >= 0));
    }
    const std::string selected = text.substr(0, text.size() % 12);
    const once::TrainingHistory m = once::TrainingHistory::fromMetadata(
        {{"training_history", text}, {"selected_epoch", selected}});
    check(m.epochs.size() == h.epochs.size());
    check(m.selectedEpoch >= -1);
    return 0;
}
