#include "codebook/codebook.h"

#include <ATen/ATen.h>

#include <filesystem>

#include "codebook/codebook_file.h"
#include "codebook/codebook_writer.h"
#include "io/npy.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "io/torch_pickle.h"
#include "util/error.h"
#include "util/sha256.h"
#include "util/work_counters.h"

namespace once {
namespace {

std::string lowerExtension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    for (char& c : ext) {
        c = char(std::tolower(static_cast<unsigned char>(c)));
    }
    return ext;
}

std::string dtypeLabel(const at::Tensor& t) {
    return std::string(c10::toString(t.scalar_type()));
}

std::string tensorSha(const at::Tensor& t) {
    at::Tensor c = t.contiguous();
    return Sha256::hex(c.data_ptr(), std::size_t(c.nbytes()));
}

}  // namespace

Codebook Codebook::fromTensor(const at::Tensor& codebook, const std::string& backbone,
                              const std::string& featureSource, const std::string& origin) {
    if (codebook.dim() != 2) {
        fail("codebook is not a matrix", origin, "codebook", "2-D [K, D]",
             std::to_string(codebook.dim()) + "-D " + shapeString(codebook.sizes()));
    }
    if (!at::isFloatingType(codebook.scalar_type())) {
        fail("codebook is not floating point", origin, "codebook", "F32, F16, BF16 or F64",
             dtypeLabel(codebook));
    }
    if (codebook.size(0) < 1 || codebook.size(1) < 1) {
        fail("codebook is empty", origin, "codebook", "K >= 1 and D >= 1",
             shapeString(codebook.sizes()));
    }
    Codebook cb;
    cb.vectors_ = codebook.to(at::kCPU).to(at::kFloat).contiguous().clone();
    at::Tensor finite = at::isfinite(cb.vectors_).all(1);
    if (!finite.all().item<bool>()) {
        const auto row = at::nonzero(finite.logical_not())[0][0].item<std::int64_t>();
        fail("codebook holds NaN or Inf", origin, "codebook row " + std::to_string(row),
             "finite values", "NaN/Inf");
    }
    cb.size_ = cb.vectors_.size(0);
    cb.dim_ = cb.vectors_.size(1);
    // ν(c) = c / max(‖c‖, δ): a zero codeword stays zero (cosine 0 with everything).
    cb.normalized_ = cb.vectors_ / cb.vectors_.norm(2, 1, true).clamp_min(1e-12);
    cb.backbone_ = backbone;
    cb.featureSource_ = featureSource;
    cb.origin_ = origin;
    cb.storedDtype_ = dtypeLabel(codebook);
    cb.sha256_ = tensorSha(codebook.to(at::kCPU));
    return cb;
}

Codebook Codebook::load(const std::string& path, const CodebookLoadOptions& options) {
    countWork(workCounters().codebookLoads);
    const std::string ext = lowerExtension(path);
    if (!std::filesystem::exists(path)) {
        fail("codebook file not found", path, {}, "an existing file", "missing");
    }
    if (ext == ".safetensors") {
        auto file = SafetensorsFile::open(path);
        // Key, shape, type, metadata counts and finite values, before the tensor is made.
        const TensorEntry& entry =
            checkCodebookFile(file.header(), file.image(), options.key, path);
        at::Tensor t = loadTensor(file, entry.name);
        Codebook cb = fromTensor(t, file.meta("backbone"), file.meta("feature_source"), path);
        cb.metadata_ = file.metadata();
        const std::string sha = file.meta("tensor_sha256");
        if (!sha.empty() && sha != cb.sha256_) {
            fail("codebook tensor does not match its recorded SHA-256 (corrupted?)", path,
                 "__metadata__.tensor_sha256", sha, cb.sha256_);
        }
        return cb;
    }
    if (ext == ".npy") {
        return fromTensor(readNpy(path), {}, {}, path);
    }
    if (ext == ".pt" || ext == ".pth" || ext == ".bin") {
        auto dict = readTorchStateDict(path);
        std::map<std::string, std::int64_t> ranks;
        for (const auto& [k, t] : dict) {
            ranks[k] = at::isFloatingType(t.scalar_type()) ? t.dim() : -1;
        }
        return fromTensor(dict.at(chooseCodebookKey(ranks, options.key, path)), {}, {}, path);
    }
    fail("unknown codebook file type", path, "extension", ".safetensors, .npy, .pt or .pth",
         ext.empty() ? "none" : ext);
}

void Codebook::checkCompatible(std::int64_t featureDim, const std::string& featureBackbone,
                               const std::string& featureOrigin) const {
    if (featureDim != dim_) {
        fail("codebook dimension does not match the features", origin_, "dim",
             std::to_string(featureDim) + " (features " + featureOrigin + ")",
             std::to_string(dim_) + " (codebook)");
    }
    if (!backbone_.empty() && !featureBackbone.empty() && backbone_ != featureBackbone) {
        fail("codebook was built for another backbone", origin_, "backbone",
             featureBackbone + " (features " + featureOrigin + ")", backbone_ + " (codebook)");
    }
}

void Codebook::save(const std::string& path, const std::string& dtype,
                    const std::map<std::string, std::string>& extraMetadata) const {
    saveCodebookFile(*this, path, dtype, extraMetadata, {});
}

void saveCodebookFile(const Codebook& codebook, const std::string& path, const std::string& dtype,
                      const std::map<std::string, std::string>& metadata,
                      const std::vector<std::pair<std::string, at::Tensor>>& extraTensors,
                      OutputReplace replace) {
    at::Tensor stored;
    if (dtype == "F32") {
        stored = codebook.vectors();
    } else if (dtype == "BF16") {
        stored = codebook.vectors().to(at::kBFloat16);
    } else if (dtype == "F16") {
        stored = codebook.vectors().to(at::kHalf);
    } else {
        fail("unsupported codebook dtype", path, "dtype", "F32, BF16 or F16", dtype);
    }
    SafetensorsWriter w;
    addFiniteTensor(w, "codebook", stored, path);  // finite in F32 may overflow in BF16/F16
    for (const auto& [name, tensor] : extraTensors) {
        addTensor(w, name, tensor.contiguous());
    }
    for (const auto& [k, v] : metadata) {
        w.setMetadata(k, v);
    }
    w.setMetadata("format", Codebook::kFormat);
    w.setMetadata("backbone", codebook.backbone());
    w.setMetadata("feature_source", codebook.featureSource());
    w.setMetadata("dim", std::to_string(codebook.dim()));
    w.setMetadata("size", std::to_string(codebook.size()));
    w.setMetadata("tensor_sha256", tensorSha(stored));
    w.write(path, replace);
}

}  // namespace once
