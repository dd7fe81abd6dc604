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

EncodedVideo loadFeatureFile(const std::string& path) {
    SafetensorsFile file = SafetensorsFile::open(path);
    // Shapes, types, grid and finiteness from the header and bytes, before any tensor is made.
    checkFeatureFile(file.header(), file.image(), path);
    EncodedVideo v;
    v.features = loadTensor(file, "features");
    at::Tensor times = loadTensor(file, "frame_times");
    const std::string grid = file.meta("grid");
    validate(v.features, times, grid, path);
    if (!grid.empty()) {
        const auto x = grid.find('x');
        v.gridH = std::stoi(grid.substr(0, x));  // checked by validate: HxW = P
        v.gridW = std::stoi(grid.substr(x + 1));
    }
    if (file.contains("layout_tokens")) {
        v.layoutTokens = loadTensor(file, "layout_tokens");
        validateLayout(v.layoutTokens, v.features, path);
    }
    if (file.contains("attention")) {
        v.attention = loadTensor(file, "attention");
        validateAttention(v.attention, v.features, path);
        v.attention = v.attention.to(at::kFloat);
    }
    const at::Tensor t = times.to(at::kDouble).contiguous();
    v.frameTimes.assign(t.data_ptr<double>(), t.data_ptr<double>() + t.numel());
    v.backbone = file.meta("backbone");
    v.sampling = file.meta("sampling");
    v.source = file.meta("source");
    v.sourceSha256 = file.meta("source_sha256");
    v.featureSource = file.meta("feature_source");
    for (const auto& [k, value] : file.metadata()) {
        if (!isKnownKey(k)) {
            v.extra[k] = value;
        }
    }
    return v;
}

void saveFeatureFile(const EncodedVideo& v, const std::string& path, OutputReplace replace) {
    const at::Tensor features =
        v.features.defined() ? v.features.to(at::kCPU).contiguous() : v.features;
    std::vector<double> timesCopy = v.frameTimes;
    if (timesCopy.empty() && features.defined() && features.dim() == 3) {
        for (std::int64_t i = 0; i < features.size(0); ++i) {
            timesCopy.push_back(double(i));  // unknown times: the frame index, as readers assume
        }
    }
    const at::Tensor times =
        at::from_blob(timesCopy.data(), {std::int64_t(timesCopy.size())}, at::kDouble).clone();
    const std::string grid = v.gridText();
    validate(features, times, grid, path);
    validateLayout(v.layoutTokens, features, path);
    validateAttention(v.attention, features, path);
    SafetensorsWriter w;
    addFiniteTensor(w, "features", features, path);
    addTensor(w, "frame_times", times);  // finite: checked by validate
    if (v.layoutTokenCount() > 0) {
        addFiniteTensor(w, "layout_tokens",
                        v.layoutTokens.to(at::kCPU).to(features.scalar_type()), path);
    }
    if (v.attention.defined()) {
        addFiniteTensor(w, "attention", v.attention.to(at::kCPU).to(at::kFloat), path);
    }
    for (const auto& [k, value] : v.extra) {
        w.setMetadata(k, value);
    }
    w.setMetadata("format", kFeatureFileFormat);
    w.setMetadata("backbone", v.backbone);
    w.setMetadata("grid", grid);
    w.setMetadata("sampling", v.sampling);
    w.setMetadata("source", v.source);
    w.setMetadata("source_sha256", v.sourceSha256);
    w.setMetadata("feature_source", v.featureSource);
    w.write(path, replace);
}

}  // namespace once
