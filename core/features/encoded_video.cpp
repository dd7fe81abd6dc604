#include "features/encoded_video.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace once {

std::pair<int, int> mostSquareGrid(std::int64_t patches) {
    if (patches <= 0) {
        return {0, 0};
    }
    auto h = static_cast<std::int64_t>(std::sqrt(static_cast<double>(patches)));
    while (h > 1 && patches % h != 0) {
        --h;
    }
    h = std::max<std::int64_t>(1, h);
    return {static_cast<int>(h), static_cast<int>(patches / h)};
}

at::Tensor EncodedVideo::frameTimesTensor() const {
    if (frameTimes.empty()) {
        return {};
    }
    return at::tensor(at::ArrayRef<double>(frameTimes), at::kDouble);
}

std::string EncodedVideo::gridText() const {
    if (gridH <= 0 || gridW <= 0) {
        return {};
    }
    return std::to_string(gridH) + "x" + std::to_string(gridW);
}

void EncodedVideo::fillUnknownGrid() {
    if (gridH > 0 && gridW > 0) {
        return;
    }
    std::tie(gridH, gridW) = mostSquareGrid(patchesPerFrame());
}

}  // namespace once
