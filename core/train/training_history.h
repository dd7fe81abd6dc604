#pragma once
// The Stage-B history a trained codebook records in its metadata (`training_history`, written by
// train/stage_b.cpp: one entry per epoch with the selection criterion and, for Sinkhorn epochs,
// the mean loss; `selected_epoch`), read back for the studio's loss chart and any tool. The
// metadata is the file's, so untrusted: read with limits, bad entries skipped.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace once {

struct TrainingHistory {
    struct Epoch {
        int epoch = 0;
        std::string kind;      ///< "initialiser", "hard-lloyd", "sinkhorn"
        double criterion = 0;  ///< weighted cosine error of the codebook after this epoch
        double meanLoss = -1;  ///< mean Stage-B loss over the epoch's steps; < 0 when none
    };
    std::vector<Epoch> epochs;
    int selectedEpoch = -1;  ///< −1 when the metadata does not say

    /// More entries than any real fit writes are refused as a damaged file.
    static constexpr std::size_t kMaxEpochs = 100000;

    bool empty() const { return epochs.empty(); }
    bool hasLoss() const;
    /// Parses `training_history` (and `selected_epoch`) of a codebook's metadata. Entries that
    /// are not objects, lack a finite criterion or an epoch in 0 … kMaxEpochs, or carry
    /// non-finite numbers are skipped; an unparsable or oversized history gives no epochs.
    static TrainingHistory fromMetadata(const std::map<std::string, std::string>& metadata);
    static TrainingHistory fromJson(const std::string& historyJson, int selectedEpoch = -1);
};

}  // namespace once
