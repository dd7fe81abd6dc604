#include "compress/compression.h"

#include <ATen/ATen.h>

#include <chrono>
#include <numeric>
#include <tuple>

#include "codebook/codebook.h"
#include "compress/device_compress.h"
#include "compress/pooling.h"
#include "compress/reassign.h"
#include "compress/seeded_random.h"
#include "compress/selection.h"
#include "util/error.h"

namespace once {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

const std::vector<std::pair<Variant, std::string>>& variantTable() {
    static const std::vector<std::pair<Variant, std::string>> t = {
        {Variant::Full, "full"},
        {Variant::NoReassign, "no-reassign"},
        {Variant::FixedRandom, "fixed-random"},
        {Variant::FrameWise, "frame-wise"},
        {Variant::RandomGrouping, "random-grouping"},
        {Variant::CodewordOutput, "codeword-output"},
        {Variant::MedoidOutput, "medoid-output"},
    };
    return t;
}

at::Tensor toTensor(const std::vector<std::int64_t>& v) {
    return at::from_blob(const_cast<std::int64_t*>(v.data()), {std::int64_t(v.size())}, at::kLong)
        .clone();
}

// Groups of the selection + reassignment steps, before pooling.
struct Grouping {
    std::vector<std::int64_t> codeword;  ///< per group
    Reassignment tokens;                 ///< group and cosine per token
    double selectSeconds = 0;            ///< time spent choosing codewords (step 2)
};

// selectCodewords, timed into g.selectSeconds.
std::vector<std::int32_t> timedSelect(Grouping& g, const Assignment& a, std::int64_t budget,
                                      int rounds, const std::vector<std::int64_t>& tokens = {}) {
    auto t = Clock::now();
    auto codes = selectCodewords(a, budget, rounds, tokens);
    g.selectSeconds += since(t);
    return codes;
}

// Drops groups that received no token and renumbers the rest in order.
void dropEmptyGroups(Grouping& g) {
    std::vector<std::int64_t> size(g.codeword.size(), 0);
    for (auto grp : g.tokens.groupOfToken) {
        if (grp >= 0) {
            ++size[std::size_t(grp)];
        }
    }
    std::vector<std::int64_t> remap(g.codeword.size(), -1);
    std::vector<std::int64_t> kept;
    for (std::size_t i = 0; i < size.size(); ++i) {
        if (size[i] > 0) {
            remap[i] = std::int64_t(kept.size());
            kept.push_back(g.codeword[i]);
        }
    }
    for (auto& grp : g.tokens.groupOfToken) {
        grp = grp >= 0 ? remap[std::size_t(grp)] : -1;
    }
    g.codeword = std::move(kept);
}

Grouping groupTokens(const at::Tensor& x, const Assignment& a, const Codebook& cb,
                     const CompressOptions& o) {
    Grouping g;
    const std::int64_t n = a.numTokens;
    g.tokens.groupOfToken.assign(std::size_t(n), -1);
    g.tokens.cosine.assign(std::size_t(n), 0.f);
    const at::Tensor& cn = cb.normalized();
    // Q > 1 rounds ask which tokens a selection already serves, which needs whole top-L lists;
    // a certified assignment may hold only their certified prefixes (certified_topl.h).
    Assignment whole;
    const Assignment* forSelection = &a;
    if (o.rounds > 1 && !a.listsComplete) {
        whole = a;
        std::tie(whole.topIds, whole.topScores) = completeTopLists(a, x, cn);
        whole.listsComplete = true;
        forSelection = &whole;
    }
    auto append = [&](const std::vector<std::int32_t>& codes) {
        for (auto c : codes) {
            g.codeword.push_back(c);
        }
    };

    if (o.variant == Variant::FixedRandom) {
        // One permutation of the whole codebook from the seed alone, so every video shares it.
        auto perm = seededPermutation(a.codebookSize, o.seed);
        std::vector<std::int32_t> codes;
        for (std::int64_t p = 0; p < std::min(o.budget, a.codebookSize); ++p) {
            codes.push_back(std::int32_t(perm[std::size_t(p)]));
        }
        append(codes);
        reassignTokens(x, cn, a, codes, 0, {}, g.tokens);
        dropEmptyGroups(g);
        return g;
    }
    if (o.variant == Variant::FrameWise) {
        // Budget split across min(T, B) contiguous frame segments (one frame each when B >= T),
        // evenly, the remainder to the earliest segments.
        const std::int64_t t = a.numFrames, p = a.tokensPerFrame;
        const std::int64_t segments = std::min(t, o.budget);
        for (std::int64_t s = 0; s < segments; ++s) {
            const std::int64_t f0 = s * t / segments, f1 = (s + 1) * t / segments;
            const std::int64_t b = o.budget / segments + (s < o.budget % segments ? 1 : 0);
            std::vector<std::int64_t> tokens(std::size_t((f1 - f0) * p));
            std::iota(tokens.begin(), tokens.end(), f0 * p);
            auto codes = timedSelect(g, *forSelection, b, o.rounds, tokens);
            reassignTokens(x, cn, a, codes, std::int64_t(g.codeword.size()), tokens, g.tokens);
            append(codes);
        }
        return g;
    }

    auto codes = timedSelect(g, *forSelection, o.budget, o.rounds);
    append(codes);
    if (o.variant == Variant::NoReassign) {
        std::vector<std::int32_t> position(std::size_t(a.codebookSize), -1);
        for (std::size_t q = 0; q < codes.size(); ++q) {
            position[std::size_t(codes[q])] = std::int32_t(q);
        }
        const std::int32_t* ids = a.topIds.data_ptr<std::int32_t>();
        const float* sc = a.topScores.data_ptr<float>();
        const std::int64_t l = a.listSize();
        for (std::int64_t i = 0; i < n; ++i) {
            g.tokens.groupOfToken[std::size_t(i)] = position[std::size_t(ids[i * l])];
            g.tokens.cosine[std::size_t(i)] = sc[i * l];
        }
        return g;
    }
    reassignTokens(x, cn, a, codes, 0, {}, g.tokens);
    if (o.variant == Variant::RandomGrouping) {
        // Keep Full's group sizes; fill them with a seeded random order of the tokens.
        std::vector<std::int64_t> size(g.codeword.size(), 0);
        for (auto grp : g.tokens.groupOfToken) {
            ++size[std::size_t(grp)];
        }
        auto perm = seededPermutation(n, o.seed);
        std::size_t cursor = 0;
        for (std::size_t grp = 0; grp < size.size(); ++grp) {
            for (std::int64_t j = 0; j < size[grp]; ++j) {
                g.tokens.groupOfToken[std::size_t(perm[cursor++])] = std::int64_t(grp);
            }
        }
        // Residuals are now to each token's new group codeword.
        at::Tensor codeOfToken =
            toTensor(g.codeword).index_select(0, toTensor(g.tokens.groupOfToken));
        at::Tensor cos = rowCosine(x, cn.index_select(0, codeOfToken));
        std::copy(cos.data_ptr<float>(), cos.data_ptr<float>() + n, g.tokens.cosine.begin());
    }
    return g;
}

// The assignment with its tensors in host memory (for the variants only the host implements).
Assignment hostAssignment(const Assignment& a) {
    Assignment h = a;
    h.normalizedRows = at::Tensor();  // the host steps read the features themselves
    for (at::Tensor* t : {&h.topIds, &h.topScores, &h.counts, &h.codewordSums}) {
        if (t->defined()) {
            *t = t->cpu();
        }
    }
    return h;
}

// The device path; its results live where the caller's features live (a CPU caller that asked
// for a GPU assignment gets host tensors back, M rows, not N).
CompressionResult compressOnDeviceFor(const at::Tensor& features, const at::Tensor& x,
                                      const Assignment& a, const Codebook& cb,
                                      const CompressOptions& o) {
    CompressionResult r = compressOnDevice(x, a, cb, o);
    if (features.device() != r.tokens.device()) {
        for (at::Tensor* t : {&r.tokens, &r.codewordIds, &r.groupSizes, &r.groupOfToken,
                              &r.residual, &r.outputCosine}) {
            *t = t->to(features.device());
        }
    }
    return r;
}

}  // namespace

std::string variantName(Variant v) {
    for (const auto& [var, name] : variantTable()) {
        if (var == v) {
            return name;
        }
    }
    return "?";
}

std::vector<std::string> variantNames() {
    std::vector<std::string> out;
    for (const auto& [_, name] : variantTable()) {
        out.push_back(name);
    }
    return out;
}

Variant parseVariant(const std::string& name) {
    for (const auto& [var, n] : variantTable()) {
        if (n == name) {
            return var;
        }
    }
    std::string all;
    for (const auto& n : variantNames()) {
        all += (all.empty() ? "" : ", ") + n;
    }
    fail("unknown variant", {}, "variant", "one of: " + all, name);
}

CompressionResult compressAssigned(const at::Tensor& features, const Assignment& assignment,
                                   const Codebook& codebook, const CompressOptions& options) {
    if (options.budget < 1) {
        fail("budget must be at least 1", {}, "budget", ">= 1", std::to_string(options.budget));
    }
    if (options.rounds < 1) {
        fail("selection rounds must be at least 1", {}, "rounds", ">= 1",
             std::to_string(options.rounds));
    }
    at::Tensor x = flattenFeatures(features, codebook.dim());
    if (x.size(0) != assignment.numTokens || assignment.codebookSize != codebook.size()) {
        fail("features or codebook differ from those of the cached assignment", {}, "assignment",
             std::to_string(assignment.numTokens) +
                 " tokens, K = " + std::to_string(assignment.codebookSize),
             std::to_string(x.size(0)) + " tokens, K = " + std::to_string(codebook.size()));
    }
    if (assignment.topIds.defined() && !assignment.topIds.device().is_cpu()) {
        // Lists on a device (assign_backend.h): steps 2–5 stay there, or, for the variants only
        // the host implements, the lists come to the host.
        if (deviceCompressSupports(options)) {
            return compressOnDeviceFor(features, x, assignment, codebook, options);
        }
        return compressAssigned(x.cpu(), hostAssignment(assignment), codebook, options);
    }
    if (!x.device().is_cpu()) {
        x = x.cpu();
    }
    CompressionResult r;
    r.variant = options.variant;
    r.budget = options.budget;
    r.numTokens = assignment.numTokens;
    r.usedCodewords = countUsedCodewords(assignment);

    auto t0 = Clock::now();
    Grouping g = groupTokens(x, assignment, codebook, options);
    r.seconds.select = g.selectSeconds;
    r.seconds.reassign = since(t0) - g.selectSeconds;
    r.fallbackTokens = g.tokens.fallbackTokens;
    r.rescoredScores = g.tokens.rescoredScores;

    auto t1 = Clock::now();
    const std::int64_t m = std::int64_t(g.codeword.size());
    at::Tensor means, sizes;
    if (!poolFromCodewordSums(x, assignment, g.codeword, g.tokens.groupOfToken, means, sizes)) {
        poolGroups(x, g.tokens.groupOfToken, m, means, sizes);
    }
    r.codewordIds = toTensor(g.codeword);
    r.groupSizes = sizes;
    r.groupOfToken = toTensor(g.tokens.groupOfToken);
    r.numOutputs = m;
    const std::int64_t covered = sizes.sum().item<std::int64_t>();
    r.coverage = double(covered) / double(r.numTokens);

    if (options.variant == Variant::CodewordOutput) {
        r.tokens = codebook.vectors().index_select(0, r.codewordIds).contiguous();
    } else if (options.variant == Variant::MedoidOutput) {
        // The member with the highest cosine to its group mean (ties: lower token index).
        at::Tensor cos = rowCosine(x, means.index_select(0, r.groupOfToken.clamp_min(0)));
        const float* c = cos.data_ptr<float>();
        std::vector<std::int64_t> best(std::size_t(m), -1);
        for (std::int64_t i = 0; i < r.numTokens; ++i) {
            const std::int64_t grp = g.tokens.groupOfToken[std::size_t(i)];
            if (grp >= 0 && (best[std::size_t(grp)] < 0 || c[i] > c[best[std::size_t(grp)]])) {
                best[std::size_t(grp)] = i;
            }
        }
        r.tokens = x.index_select(0, toTensor(best)).to(at::kFloat).contiguous();
    } else {
        r.tokens = means;
    }
    r.outputCosine = m > 0 ? rowCosine(r.tokens, means) : at::empty({0}, at::kFloat);
    at::Tensor cosine = at::from_blob(g.tokens.cosine.data(), {r.numTokens}, at::kFloat);
    r.residual = (1 - cosine).contiguous();
    r.seconds.pool = since(t1);
    return r;
}

CompressionResult compressOnce(const at::Tensor& features, const Codebook& codebook,
                               const CompressOptions& options, const AssignOptions& assignOptions) {
    if (options.budget < 1) {
        fail("budget must be at least 1", {}, "budget", ">= 1", std::to_string(options.budget));
    }
    Assignment a = assignTokens(features, codebook, assignOptions);
    CompressionResult r = compressAssigned(features, a, codebook, options);
    r.seconds.assign = a.seconds;
    return r;
}

}  // namespace once
