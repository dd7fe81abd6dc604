// once compress: ONCE on one feature file with one codebook.
#include <iostream>

#include "cli/command.h"
#include "codebook/codebook.h"
#include "compress/compression.h"
#include "compress/result_file.h"
#include "features/feature_file.h"
#include "util/error.h"

namespace once::cli {
namespace {

void declare(ArgParser& p) {
    std::string variants;
    for (const auto& v : variantNames()) {
        variants += (variants.empty() ? "" : "|") + v;
    }
    p.option("features", "FILE", "feature file (once encode output) with features [T, P, D]")
        .option("codebook", "FILE", "codebook (.safetensors, .npy or .pt)")
        .option("key", "NAME", "tensor name of the codebook inside a .pt/.safetensors file", "")
        .option("budget", "B", "at most B output tokens", std::string("512"), "-B")
        .option("variant", variants, "compression rule (ablations of the paper)",
                std::string("full"))
        .option("seed", "S", "seed of the random variants", std::string("42"))
        .option("rounds", "Q", "selection rounds (1 = the paper's rule)", std::string("1"))
        .option("top-l", "L", "codeword list length kept per token", std::string("8"))
        .option("device", "cpu|cuda|auto", "where the assignment runs", std::string("auto"))
        .option("output", "FILE", "compression result (.safetensors)", std::nullopt, "-o")
        .flag("json", "print a one-object JSON summary on stdout");
}

int run(const ArgParser& a) {
    const std::string featurePath = a.get("features");
    const std::string codebookPath = a.get("codebook");
    const std::string out = a.get("output");
    CompressOptions o;
    o.budget = a.getInt("budget");
    o.variant = parseVariant(a.get("variant"));
    o.seed = std::uint64_t(a.getInt("seed"));
    o.rounds = int(a.getInt("rounds"));
    if (o.budget < 1) {
        fail("budget must be at least 1", {}, "--budget", ">= 1", std::to_string(o.budget));
    }
    AssignOptions ao;
    ao.topL = int(a.getInt("top-l"));
    ao.device = a.get("device");

    FeatureFile features = FeatureFile::load(featurePath);
    CodebookLoadOptions lo;
    lo.key = a.get("key");
    Codebook codebook = Codebook::load(codebookPath, lo);
    codebook.checkCompatible(features.features.size(-1), features.backbone, featurePath);

    Progress progress = terminalProgress(a.flagSet("json"));
    Assignment assignment = assignTokens(features.features, codebook, ao, &progress);
    CompressionResult r = compressAssigned(features.features, assignment, codebook, o);
    r.seconds.assign = assignment.seconds;
    saveCompressionResult(r, out, codebook.sha256(), featurePath);
    if (a.flagSet("json")) {
        std::cout << compressionSummaryJson(r) << "\n";
    } else {
        std::cout << "compressed " << r.numTokens << " tokens to " << r.numOutputs << " (budget "
                  << r.budget << ", " << variantName(r.variant) << ", coverage " << r.coverage * 100
                  << "%) in " << r.seconds.total() * 1000 << " ms -> " << out << "\n";
    }
    return 0;
}

const CommandRegistrar reg{
    {"compress", "compress a feature file with a codebook (ONCE)", declare, run}};

}  // namespace
}  // namespace once::cli
