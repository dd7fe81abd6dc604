#include "compress/result_file.h"

#include <ATen/ATen.h>

#include <nlohmann/json.hpp>

#include "io/safetensors.h"
#include "io/tensor_io.h"

namespace once {

void saveCompressionResult(const CompressionResult& r, const std::string& path,
                           const std::string& codebookSha, const std::string& source,
                           OutputReplace replace) {
    SafetensorsWriter w;
    addFiniteTensor(w, "tokens", r.tokens.to(at::kFloat), path);
    addTensor(w, "codeword_ids", r.codewordIds);
    addTensor(w, "group_sizes", r.groupSizes);
    addTensor(w, "group_of_token", r.groupOfToken);
    w.setMetadata("format", "once-compression/1");
    w.setMetadata("N", std::to_string(r.numTokens));
    w.setMetadata("M", std::to_string(r.numOutputs));
    w.setMetadata("budget", std::to_string(r.budget));
    w.setMetadata("coverage", std::to_string(r.coverage));
    w.setMetadata("method", r.method);
    if (r.method == "once") {
        w.setMetadata("variant", variantName(r.variant));
    }
    if (!codebookSha.empty()) {
        w.setMetadata("codebook_sha256", codebookSha);
    }
    w.setMetadata("source", source);
    w.write(path, replace);
}

std::string compressionSummaryJson(const CompressionResult& r) {
    nlohmann::json j;
    j["N"] = r.numTokens;
    j["M"] = r.numOutputs;
    j["budget"] = r.budget;
    j["method"] = r.method;
    if (r.method == "once") {
        j["variant"] = variantName(r.variant);
    }
    j["coverage"] = r.coverage;
    j["used_codewords"] = r.usedCodewords;
    j["fallback_tokens"] = r.fallbackTokens;
    if (r.numOutputs > 0) {
        j["group_size"] = {{"min", r.groupSizes.min().item<std::int64_t>()},
                           {"max", r.groupSizes.max().item<std::int64_t>()},
                           {"mean", r.groupSizes.to(at::kDouble).mean().item<double>()}};
    }
    if (r.residual.defined() && r.residual.numel() > 0) {
        at::Tensor res = r.residual.to(at::kDouble);
        j["residual"] = {{"mean", res.mean().item<double>()},
                         {"p50", at::quantile(res, 0.5).item<double>()},
                         {"p95", at::quantile(res, 0.95).item<double>()}};
    }
    j["output_cosine_mean"] =
        r.numOutputs > 0 ? r.outputCosine.to(at::kDouble).mean().item<double>() : 0.0;
    j["seconds"] = {{"assign", r.seconds.assign},
                    {"select", r.seconds.select},
                    {"reassign", r.seconds.reassign},
                    {"pool", r.seconds.pool},
                    {"total", r.seconds.total()}};
    return j.dump();
}

}  // namespace once
