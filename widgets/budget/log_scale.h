#pragma once
// The budget slider's log scale: integer slider positions 0…kSteps map to budgets 1…K with
// equal ratios per step, so B = 1, 8, 64 and K are all reachable on a slider of fixed length.
#include <cstdint>

namespace once::studio {

struct LogScale {
    static constexpr int kSteps = 1000;
    std::int64_t maximum = 1;  ///< K

    std::int64_t valueAt(int position) const;
    /// The position whose value is closest to `value` (in log terms).
    int positionOf(std::int64_t value) const;
};

}  // namespace once::studio
