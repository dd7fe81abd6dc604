// once compress: one feature file through ONCE (with a codebook) or any registered peer method
// (core/compress/baselines), via the TokenCompressor registry.
#include <iostream>
#include <memory>
#include <optional>

#include "cli/command.h"
#include "codebook/codebook.h"
#include "compress/result_file.h"
#include "compress/token_compressor.h"
#include "features/feature_file.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace once::cli {
namespace {

void declare(ArgParser& p) {
    std::string variants, methods;
    for (const auto& v : variantNames()) {
        variants += (variants.empty() ? "" : "|") + v;
    }
    for (const auto& info : compressorInfos()) {
        methods += (methods.empty() ? "" : "|") + info.method;
    }
    p.option("features", "FILE", "feature file (once encode output) with features [T, P, D]")
        .option("method", methods, "compression method (ONCE or a peer baseline)",
                std::string("once"))
        .option("param", "KEY=VALUE", "method parameter, repeatable (see docs/baselines.md)")
        .option("codebook", "FILE", "codebook (.safetensors, .npy or .pt); needed by once")
        .option("key", "NAME", "tensor name of the codebook inside a .pt/.safetensors file", "")
        .option("budget", "B", "at most B output tokens", std::string("512"), "-B")
        .integerIn(1, kMaxIntOption)
        .option("variant", variants, "ONCE rule variant (ablations of the paper)",
                std::string("full"))
        .option("seed", "S", "seed of the random variants and methods", std::string("42"))
        .integerIn(0, kMaxSeedOption)
        .option("rounds", "Q", "ONCE selection rounds (1 = the paper's rule)", std::string("1"))
        .integerIn(1, kMaxIntOption)
        .option("top-l", "L", "codeword list length kept per token", std::string("8"))
        .integerIn(1, kMaxIntOption)
        .option("device", "cpu|cuda|auto", "where the assignment runs", std::string("auto"))
        .option("precision", "float32|bfloat16",
                "similarity GEMM: exact F32, or the paper's BF16 production order",
                std::string("float32"))
        .option("float32-kernel", "auto|sgemm|bf16-certified",
                "how float32 is computed: the F32 product, or the BF16 product with each list's "
                "exact prefix certified (docs/algorithm.md); auto: certified where the CPU has "
                "AVX512-BF16",
                std::string("auto"))
        .option("output", "FILE", "compression result (.safetensors)", std::nullopt, "-o")
        .flag("overwrite",
              "replace an output that is a symbolic link or a special file (a regular file is "
              "always replaced)")
        .flag("json", "print a one-object JSON summary on stdout");
}

CompressorParams parseParams(const std::vector<std::string>& items) {
    CompressorParams params;
    for (const auto& item : items) {
        const auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0) {
            throw UsageError("--param takes KEY=VALUE, got '" + item + "'");
        }
        params[item.substr(0, eq)] = item.substr(eq + 1);
    }
    return params;
}

int run(const ArgParser& a) {
    const std::string featurePath = a.get("features");
    const std::string out = a.get("output");
    const OutputReplace replace = outputReplace(a.flagSet("overwrite"));
    checkOutputPath(out, replace);
    const std::int64_t budget = a.getInt("budget");
    CompressorSpec spec;
    spec.method = a.get("method");
    spec.params = parseParams(a.has("param") ? a.getAll("param") : std::vector<std::string>{});
    const CompressorInfo& info = compressorInfo(spec.method);  // unknown method: clear error
    if (info.hasVariants) {
        // ONCE's options (--variant, --rounds) are parameters of the registered method.
        spec.params.emplace("variant", a.get("variant"));
        spec.params.emplace("rounds", a.get("rounds"));
    }
    spec.assign.topL = int(a.getInt("top-l"));
    spec.assign.device = a.get("device");
    spec.assign.precision = a.get("precision");
    spec.assign.float32Kernel = a.get("float32-kernel");

    const EncodedVideo video = loadFeatureFile(featurePath);
    std::optional<Codebook> codebook;
    if (info.needsCodebook || a.has("codebook")) {
        if (!a.has("codebook")) {
            throw UsageError("--method " + spec.method + " needs --codebook");
        }
        CodebookLoadOptions lo;
        lo.key = a.get("key");
        codebook = Codebook::load(a.get("codebook"), lo);
        codebook->checkCompatible(video.dim(), video.backbone, featurePath);
        spec.codebook = &*codebook;
    }
    std::unique_ptr<TokenCompressor> compressor = makeCompressor(spec);

    Progress progress = terminalProgress(a.flagSet("json"));
    compressor->prepare(video, &progress);
    CompressionResult r = compressor->compress(budget, std::uint64_t(a.getInt("seed")));
    r.method = compressor->method();
    saveCompressionResult(r, out, codebook ? codebook->sha256() : std::string(), featurePath,
                          replace);
    if (a.flagSet("json")) {
        std::cout << compressionSummaryJson(r) << "\n";
    } else {
        std::string rule = r.method;
        if (compressorInfo(r.method).hasVariants) {
            rule.append(" ").append(variantName(r.variant));
        }
        std::cout << "compressed " << r.numTokens << " tokens to " << r.numOutputs << " (budget "
                  << r.budget << ", " << rule << ", coverage " << r.coverage * 100 << "%) in "
                  << r.seconds.total() * 1000 << " ms -> " << out << "\n";
    }
    return 0;
}

const CommandRegistrar reg{{"compress",
                            "compress a feature file (ONCE with a codebook, or a peer baseline)",
                            declare, run}};

}  // namespace
}  // namespace once::cli
