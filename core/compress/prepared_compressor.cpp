#include "compress/prepared_compressor.h"

#include <chrono>

#include "codebook/codebook.h"
#include "util/work_counters.h"

namespace once {

std::shared_ptr<PreparedCompressor> PreparedCompressor::prepare(
    CompressorSpec spec, std::shared_ptr<const Codebook> codebook, const EncodedVideo& video,
    Progress* progress) {
    spec.codebook = codebook.get();
    auto made = std::make_shared<PreparedCompressor>();
    made->method_ = spec.method;
    made->params_ = spec.params;
    made->key_ = preparedKey(spec.method, spec.params);
    made->video_ = video;
    made->codebook_ = std::move(codebook);
    made->compressor_ = makeCompressor(spec);
    made->maxUseful_ =
        budgetRange(spec.method,
                    BudgetShape::of(video, made->codebook_ ? made->codebook_->size() : 0),
                    spec.params)
            .max;
    const auto start = std::chrono::steady_clock::now();
    made->compressor_->prepare(video, progress);
    made->prepareMs_ =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (progress) {
        progress->throwIfCancelled();
    }
    if (!spec.assignment) {
        countWork(workCounters().prepares);
    }
    return made;
}

std::shared_ptr<PreparedCompressor> PreparedCompressor::adopt(const PreparedCompressor& from,
                                                              const CompressorParams& params) {
    auto assignment = from.assignment();
    if (!assignment) {
        return nullptr;
    }
    CompressorSpec spec;
    spec.method = from.method_;
    spec.params = params;
    spec.assignment = std::move(assignment);
    auto made = prepare(spec, from.codebook_, from.video_);
    made->prepareMs_ = from.prepareMs_;  // the assignment's time, paid once per video
    return made;
}

CompressionResult PreparedCompressor::measure(std::int64_t budget, std::uint64_t seed) {
    std::lock_guard lock(mutex_);
    ++compressions_;
    CompressionResult result = compressor_->compress(budget, seed);
    result.method = method_;
    return result;
}

std::shared_ptr<const CompressionResult> PreparedCompressor::compress(std::int64_t budget,
                                                                      std::uint64_t seed) {
    if (maxUseful_ <= 0 || budget <= maxUseful_ || seed != kSeed) {
        return std::make_shared<const CompressionResult>(measure(budget, seed));
    }
    std::shared_ptr<const CompressionResult> atMax;
    {
        std::lock_guard lock(mutex_);
        atMax = atMax_;
    }
    if (!atMax) {
        atMax = std::make_shared<const CompressionResult>(measure(maxUseful_, seed));
        std::lock_guard lock(mutex_);
        atMax_ = atMax;
    }
    auto result = std::make_shared<CompressionResult>(*atMax);  // shares the tensors
    result->budget = budget;
    return result;
}

int PreparedCompressor::compressions() const {
    std::lock_guard lock(mutex_);
    return compressions_;
}

std::string preparedKey(const std::string& method, const CompressorParams& params) {
    CompressorParams all = compressorInfo(method).defaults;
    for (const auto& [k, v] : params) {
        all[k] = v;
    }
    std::string key = method;
    for (const auto& [k, v] : all) {
        key += "\n" + k + "=" + v;
    }
    return key;
}

std::shared_ptr<PreparedCompressor> PreparedCompressors::find(const std::string& method,
                                                              const CompressorParams& params) {
    const std::string key = preparedKey(method, params);
    if (const auto it = byKey_.find(key); it != byKey_.end()) {
        return it->second;
    }
    for (const auto& [k, kept] : byKey_) {
        if (kept->method() == method && kept->assignment()) {
            auto adopted = PreparedCompressor::adopt(*kept, params);
            put(adopted);
            return adopted;
        }
    }
    return nullptr;
}

std::shared_ptr<PreparedCompressor> PreparedCompressors::get(
    const CompressorSpec& spec, std::shared_ptr<const Codebook> codebook, const EncodedVideo& video,
    Progress* progress) {
    if (auto kept = find(spec.method, spec.params)) {
        return kept;
    }
    auto made = PreparedCompressor::prepare(spec, std::move(codebook), video, progress);
    put(made);
    return made;
}

void PreparedCompressors::put(std::shared_ptr<PreparedCompressor> compressor) {
    const std::string key = compressor->key();
    byKey_[key] = std::move(compressor);
}

bool PreparedCompressors::has(const std::string& method) const {
    for (const auto& [k, kept] : byKey_) {
        if (kept->method() == method) {
            return true;
        }
    }
    return false;
}

void PreparedCompressors::clear() {
    byKey_.clear();
}

void PreparedCompressors::forgetCodebook() {
    std::erase_if(byKey_, [](const auto& entry) { return entry.second->codebook() != nullptr; });
}

std::shared_ptr<const Assignment> PreparedCompressors::assignment() const {
    for (const auto& [k, kept] : byKey_) {
        if (auto a = kept->assignment()) {
            return a;
        }
    }
    return nullptr;
}

std::vector<std::shared_ptr<PreparedCompressor>> PreparedCompressors::all() const {
    std::vector<std::shared_ptr<PreparedCompressor>> out;
    for (const auto& [k, kept] : byKey_) {
        out.push_back(kept);
    }
    return out;
}

}  // namespace once
