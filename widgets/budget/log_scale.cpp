#include "budget/log_scale.h"

#include <algorithm>
#include <cmath>

namespace once::studio {

std::int64_t LogScale::valueAt(int position) const {
    if (maximum <= 1) {
        return 1;
    }
    position = std::clamp(position, 0, kSteps);
    const double v = std::exp(std::log(static_cast<double>(maximum)) * position / kSteps);
    return std::clamp<std::int64_t>(std::llround(v), 1, maximum);
}

int LogScale::positionOf(std::int64_t value) const {
    if (maximum <= 1) {
        return 0;
    }
    value = std::clamp<std::int64_t>(value, 1, maximum);
    const double p = std::log(static_cast<double>(value)) / std::log(static_cast<double>(maximum));
    return std::clamp(static_cast<int>(std::lround(p * kSteps)), 0, kSteps);
}

}  // namespace once::studio
