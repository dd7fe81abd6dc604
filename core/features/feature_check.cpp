#include "features/feature_check.h"

#include <algorithm>

#include "io/finite_values.h"
#include "util/error.h"

namespace once {
namespace {

// Largest grid side read from metadata: any real patch grid is far smaller, and H x W then
// cannot overflow (callers also turn the sides into int).
constexpr std::int64_t kMaxGridSide = 1 << 20;

/// Decimal digits only, 1..kMaxGridSide; -1 otherwise (no sign, space or exponent accepted).
std::int64_t gridSide(const std::string& text) {
    if (text.empty() || text.size() > 7 ||
        text.find_first_not_of("0123456789") != std::string::npos) {
        return -1;
    }
    std::int64_t v = 0;
    for (char c : text) {
        v = v * 10 + (c - '0');
    }
    return v >= 1 && v <= kMaxGridSide ? v : -1;
}

std::string shapeText(const std::vector<std::int64_t>& shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        s += (i ? ", " : "") + std::to_string(shape[i]);
    }
    return s + "]";
}

std::string describe(const TensorEntry& e) {
    return shapeText(e.shape) + " " + std::string(dtypeName(e.dtype));
}

const TensorEntry* find(const SafetensorsHeader& h, const std::string& name) {
    for (const TensorEntry& e : h.tensors) {
        if (e.name == name) {
            return &e;
        }
    }
    return nullptr;
}

std::string meta(const SafetensorsHeader& h, const std::string& key) {
    auto it = h.metadata.find(key);
    return it == h.metadata.end() ? std::string() : it->second;
}

// NaN or Inf anywhere in a floating tensor is refused, naming the element, so that it cannot
// silently turn every similarity of a compression into NaN.
void requireFinite(const SafetensorsHeader& h, std::span<const std::uint8_t> image,
                   const TensorEntry& e, const std::string& path) {
    const auto at = firstNonFinite(
        e.dtype, image.subspan(std::size_t(h.dataOffset + e.begin), std::size_t(e.end - e.begin)));
    if (!at) {
        return;
    }
    std::string where;  // the multi-index of the flat position, e.g. "features[3, 17, 250]"
    std::uint64_t rest = *at;
    for (std::size_t d = e.shape.size(); d-- > 0;) {
        const auto n = std::uint64_t(std::max<std::int64_t>(e.shape[d], 1));
        where = std::to_string(rest % n) + (where.empty() ? "" : ", ") + where;
        rest /= n;
    }
    fail(e.name + " holds NaN or Inf", path, e.name + "[" + where + "]", "finite values",
         "NaN or Inf");
}

}  // namespace

std::int64_t featureGridCells(const std::string& grid) {
    const auto x = grid.find('x');
    if (x == std::string::npos) {
        return -1;
    }
    const std::int64_t h = gridSide(grid.substr(0, x)), w = gridSide(grid.substr(x + 1));
    return h < 0 || w < 0 ? -1 : h * w;
}

void checkFeatureFile(const SafetensorsHeader& h, std::span<const std::uint8_t> image,
                      const std::string& path) {
    const std::string format = meta(h, "format");
    if (!format.empty() && format != kFeatureFileFormat) {
        fail("not a feature file", path, "__metadata__.format", kFeatureFileFormat, format);
    }
    const TensorEntry* features = find(h, "features");
    const TensorEntry* times = find(h, "frame_times");
    if (!features) {
        fail("the file has no features tensor", path, "features", "a tensor [T, P, D]", "absent");
    }
    if (!times) {
        fail("the file has no frame_times tensor", path, "frame_times", "a tensor [T]", "absent");
    }
    if (features->shape.size() != 3 || !dtypeIsFloat(features->dtype)) {
        fail("features must be a 3-D floating tensor [T, P, D]", path, "features",
             "[T, P, D] F32, BF16 or F16", describe(*features));
    }
    const std::int64_t T = features->shape[0], P = features->shape[1], D = features->shape[2];
    if (T == 0 || P == 0 || D == 0) {
        fail("the features hold no tokens", path, T == 0 ? "features (T, frames)"
                                                   : P == 0 ? "features (P, patches per frame)"
                                                            : "features (D, dimension)",
             "[T, P, D] with T, P, D >= 1", describe(*features));
    }
    if (times->shape != std::vector<std::int64_t>{T} || !dtypeIsFloat(times->dtype)) {
        fail("frame_times must hold one time per frame", path, "frame_times",
             "[" + std::to_string(T) + "] F64", describe(*times));
    }
    const std::string grid = meta(h, "grid");
    if (!grid.empty()) {
        const std::int64_t cells = featureGridCells(grid);
        if (cells < 0) {
            fail("grid must read HxW", path, "grid", "HxW, e.g. 27x27",
                 grid.size() > 40 ? grid.substr(0, 37) + "..." : grid);
        }
        if (cells != P) {
            fail("grid does not match the patches per frame", path, "grid",
                 std::to_string(P) + " patches", grid + " = " + std::to_string(cells));
        }
    }
    requireFinite(h, image, *features, path);
    requireFinite(h, image, *times, path);
    if (const TensorEntry* layout = find(h, "layout_tokens")) {
        if (layout->shape.size() != 2 || layout->shape[1] != D || !dtypeIsFloat(layout->dtype)) {
            fail("layout_tokens must be [n, D] with the features' D", path, "layout_tokens",
                 "[n, " + std::to_string(D) + "] floating point", describe(*layout));
        }
        requireFinite(h, image, *layout, path);
    }
    if (const TensorEntry* attention = find(h, "attention")) {
        if (attention->shape != std::vector<std::int64_t>{T, P} ||
            !dtypeIsFloat(attention->dtype)) {
            fail("attention must hold one value per content token", path, "attention",
                 "[" + std::to_string(T) + ", " + std::to_string(P) + "] floating point",
                 describe(*attention));
        }
        requireFinite(h, image, *attention, path);
    }
}

}  // namespace once
