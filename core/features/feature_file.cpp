// Feature file I/O (DESIGN §2). Validation names the file and the field so a wrong file given to
// `once compress` (a codebook, a truncated cache) is refused with a useful message.
#include "features/feature_file.h"

#include <ATen/ATen.h>

#include "features/feature_check.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "util/error.h"

namespace once {
namespace {

const char* const kKnownKeys[] = {"format", "backbone",      "grid",          "sampling",
                                  "source", "source_sha256", "feature_source"};

bool isKnownKey(const std::string& key) {
    for (const char* k : kKnownKeys) {
        if (key == k) {
            return true;
        }
    }
    return false;
}

void validateLayout(const at::Tensor& layout, const at::Tensor& features, const std::string& path) {
    if (!layout.defined()) {
        return;
    }
    const std::string expected = "[n, " + std::to_string(features.size(2)) + "] floating point";
    if (layout.dim() != 2 || layout.size(1) != features.size(2) ||
        !at::isFloatingType(layout.scalar_type())) {
        fail("layout_tokens must be [n, D] with the features' D", path, "layout_tokens", expected,
             shapeString(layout.sizes()) + " " + std::string(c10::toString(layout.scalar_type())));
    }
}

void validateAttention(const at::Tensor& attention, const at::Tensor& features,
                       const std::string& path) {
    if (!attention.defined()) {
        return;
    }
    if (attention.dim() != 2 || attention.size(0) != features.size(0) ||
        attention.size(1) != features.size(1) || !at::isFloatingType(attention.scalar_type())) {
        fail("attention must hold one value per content token", path, "attention",
             "[" + std::to_string(features.size(0)) + ", " + std::to_string(features.size(1)) +
                 "] floating point",
             shapeString(attention.sizes()) + " " +
                 std::string(c10::toString(attention.scalar_type())));
    }
}

void validate(const at::Tensor& features, const at::Tensor& times, const std::string& grid,
              const std::string& path) {
    if (!features.defined() || features.dim() != 3) {
        fail("features must be a 3-D tensor [T, P, D]", path, "features", "[T, P, D]",
             features.defined() ? shapeString(features.sizes()) : "none");
    }
    if (!at::isFloatingType(features.scalar_type())) {
        fail("features must be floating point", path, "features", "F32, BF16 or F16",
             std::string(c10::toString(features.scalar_type())));
    }
    if (!times.defined() || times.dim() != 1 || times.size(0) != features.size(0)) {
        fail("frame_times must hold one time per frame", path, "frame_times",
             "[" + std::to_string(features.size(0)) + "]",
             times.defined() ? shapeString(times.sizes()) : "none");
    }
    if (!at::isFloatingType(times.scalar_type())) {
        fail("frame_times must be floating point (seconds)", path, "frame_times", "F64",
             std::string(c10::toString(times.scalar_type())));
    }
    if (times.numel() > 0 && !at::isfinite(times).all().item<bool>()) {
        fail("frame_times hold NaN or Inf", path, "frame_times", "finite seconds", "NaN or Inf");
    }
    if (!grid.empty()) {
        std::int64_t cells = featureGridCells(grid);
        if (cells < 0) {
            fail("grid must read HxW", path, "grid", "HxW, e.g. 27x27", grid);
        }
        if (cells != features.size(1)) {
            fail("grid does not match the patches per frame", path, "grid",
                 std::to_string(features.size(1)) + " patches",
                 grid + " = " + std::to_string(cells));
        }
    }
}

}  // namespace

FeatureFile FeatureFile::load(const std::string& path) {
    SafetensorsFile file = SafetensorsFile::open(path);
    // Shapes, types, grid and finiteness from the header and bytes, before any tensor is made.
    checkFeatureFile(file.header(), file.image(), path);
    FeatureFile f;
    f.features = loadTensor(file, "features");
    at::Tensor times = loadTensor(file, "frame_times");
    f.grid = file.meta("grid");
    validate(f.features, times, f.grid, path);
    if (file.contains("layout_tokens")) {
        f.layoutTokens = loadTensor(file, "layout_tokens");
        validateLayout(f.layoutTokens, f.features, path);
    }
    if (file.contains("attention")) {
        f.attention = loadTensor(file, "attention");
        validateAttention(f.attention, f.features, path);
        f.attention = f.attention.to(at::kFloat);
    }
    f.frameTimes = times.to(at::kDouble);
    f.backbone = file.meta("backbone");
    f.sampling = file.meta("sampling");
    f.source = file.meta("source");
    f.sourceSha256 = file.meta("source_sha256");
    f.featureSource = file.meta("feature_source");
    for (const auto& [k, v] : file.metadata()) {
        if (!isKnownKey(k)) {
            f.extra[k] = v;
        }
    }
    return f;
}

void FeatureFile::save(const std::string& path) const {
    validate(features, frameTimes, grid, path);
    validateLayout(layoutTokens, features, path);
    validateAttention(attention, features, path);
    SafetensorsWriter w;
    addTensor(w, "features", features);
    addTensor(w, "frame_times", frameTimes.to(at::kDouble));
    if (layoutTokens.defined() && layoutTokens.size(0) > 0) {
        addTensor(w, "layout_tokens", layoutTokens.to(features.scalar_type()).contiguous());
    }
    if (attention.defined()) {
        addTensor(w, "attention", attention.to(at::kFloat).contiguous());
    }
    for (const auto& [k, v] : extra) {
        w.setMetadata(k, v);
    }
    w.setMetadata("format", kFormat);
    w.setMetadata("backbone", backbone);
    w.setMetadata("grid", grid);
    w.setMetadata("sampling", sampling);
    w.setMetadata("source", source);
    w.setMetadata("source_sha256", sourceSha256);
    w.setMetadata("feature_source", featureSource);
    w.write(path);
}

}  // namespace once
