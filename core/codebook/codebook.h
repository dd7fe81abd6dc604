#pragma once
// A global codebook C [K, D]: loaded from safetensors (native format), .npy or a PyTorch .pt
// state dict; validated (2-D, finite); kept as F32 plus an L2-normalised copy for cosine
// assignment; with its metadata and the SHA-256 of the tensor bytes as stored.
#include <ATen/core/Tensor.h>

#include <map>
#include <memory>
#include <string>

namespace once {

struct CodebookLoadOptions {
    /// Tensor name inside a .pt state dict or a safetensors file. Empty: "codebook", else the
    /// only 2-D floating tensor of the file.
    std::string key;
};

class Codebook {
public:
    /// Format tag written into and expected from codebook files.
    static constexpr const char* kFormat = "once-codebook/1";

    /// Loads by extension: .safetensors, .npy, .pt/.pth/.bin. Throws OnceError naming the file,
    /// the field and what was found (wrong rank, NaN/Inf at row r, unknown format, …).
    static Codebook load(const std::string& path, const CodebookLoadOptions& options = {});
    /// Wraps an in-memory [K, D] floating tensor (validated like a file).
    static Codebook fromTensor(const at::Tensor& codebook, const std::string& backbone = {},
                               const std::string& featureSource = {},
                               const std::string& origin = "<memory>");

    std::int64_t size() const noexcept { return size_; }  ///< K
    std::int64_t dim() const noexcept { return dim_; }    ///< D
    const at::Tensor& vectors() const noexcept { return vectors_; }        ///< [K, D] F32
    const at::Tensor& normalized() const noexcept { return normalized_; }  ///< ν(c_k), F32
    const std::string& backbone() const noexcept { return backbone_; }
    const std::string& featureSource() const noexcept { return featureSource_; }
    const std::string& origin() const noexcept { return origin_; }  ///< file it came from
    const std::string& sha256() const noexcept { return sha256_; }  ///< of the stored bytes
    std::string storedDtype() const { return storedDtype_; }
    const std::map<std::string, std::string>& metadata() const noexcept { return metadata_; }

    /// Refuses use with features of another dimension or backbone, naming both sides.
    /// An empty backbone on either side is not checked.
    void checkCompatible(std::int64_t featureDim, const std::string& featureBackbone,
                         const std::string& featureOrigin) const;

    /// Writes a codebook file (safetensors, `codebook` tensor in `dtype` F32 or BF16, format
    /// metadata, `extraMetadata` such as the training configuration). Atomic.
    void save(const std::string& path, const std::string& dtype = "F32",
              const std::map<std::string, std::string>& extraMetadata = {}) const;

private:
    std::int64_t size_ = 0, dim_ = 0;
    at::Tensor vectors_, normalized_;
    std::string backbone_, featureSource_, origin_, sha256_, storedDtype_;
    std::map<std::string, std::string> metadata_;
};

}  // namespace once
