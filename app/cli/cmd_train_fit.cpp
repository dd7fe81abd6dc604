// once train fit: Stage B — Stage-A cache -> codebook file.

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/output_options.h"
#include "cli/statistics_options.h"
#include "codebook/codebook_exemplars.h"
#include "eval/report.h"  // kMaxBootstrapResamples
#include "train/cache_reader.h"
#include "train/codebook_fit_file.h"
#include "train/codebook_metadata.h"
#include "train/exemplar_pixels.h"
#include "train/exemplar_selection.h"
#include "train/stage_b.h"
#include "util/error.h"

namespace once::cli {
namespace {

// Numeric options read into the FitConfig field of the same meaning (validate() checks them).
template <class T>
struct FitField {
    const char* option;
    T FitConfig::*field;
};
const FitField<std::int64_t> kCountOptions[] = {{"K", &FitConfig::codewords},
                                                {"candidates", &FitConfig::candidates},
                                                {"batch", &FitConfig::batch}};
const FitField<int> kIntOptions[] = {{"init-iters", &FitConfig::initIterations},
                                     {"sinkhorn-iters", &FitConfig::sinkhornIterations},
                                     {"epochs", &FitConfig::epochs},
                                     {"patience", &FitConfig::patience},
                                     {"lloyd-iters", &FitConfig::lloydIterations}};
const FitField<double> kRealOptions[] = {{"alpha", &FitConfig::alpha},
                                         {"epsilon", &FitConfig::epsilon},
                                         {"lr", &FitConfig::lr},
                                         {"weight-decay", &FitConfig::weightDecay},
                                         {"beta1", &FitConfig::beta1},
                                         {"beta2", &FitConfig::beta2},
                                         {"adam-eps", &FitConfig::adamEps},
                                         {"grad-clip", &FitConfig::gradClip},
                                         {"commitment", &FitConfig::commitment},
                                         {"usage", &FitConfig::usage},
                                         {"tau-start", &FitConfig::tauStart},
                                         {"tau-min", &FitConfig::tauMin},
                                         {"tau-decay", &FitConfig::tauDecay}};

void declare(ArgParser& p) {
    FitConfig d;
    auto s = [](double v) {
        std::ostringstream o;
        o << v;
        return o.str();
    };
    p.option("cache", "DIR", "Stage-A cache (once train sketch)")
        .option("K", "K", "codebook size", std::to_string(d.codewords), "-K")
        .option("output", "FILE", "codebook to write (.safetensors)", std::nullopt, "-o")
        .option("method", "sinkhorn|hard-lloyd", "balanced fitting or the hard-Lloyd control",
                d.method)
        .option("weights", "source-count|uniform", "representative weights", d.weights)
        .option("alpha", "A", "long-tail exponent (0: off)", s(d.alpha))
        .option("init", "refined|sampled", "initialiser", d.init)
        .option("candidates", "N", "weighted candidate sample", std::to_string(d.candidates))
        .option("init-iters", "N", "weighted spherical-Lloyd refinements",
                std::to_string(d.initIterations))
        .option("batch", "N", "mini-batch rows", std::to_string(d.batch))
        .option("epsilon", "E", "Sinkhorn entropy", s(d.epsilon))
        .option("sinkhorn-iters", "N", "Sinkhorn normalisation steps",
                std::to_string(d.sinkhornIterations))
        .option("lr", "LR", "AdamW learning rate", s(d.lr))
        .option("weight-decay", "WD", "AdamW weight decay", s(d.weightDecay))
        .option("beta1", "B", "AdamW beta1", s(d.beta1))
        .option("beta2", "B", "AdamW beta2", s(d.beta2))
        .option("adam-eps", "E", "AdamW epsilon", s(d.adamEps))
        .option("grad-clip", "G", "gradient-norm clip (0: off)", s(d.gradClip))
        .option("commitment", "W", "commitment weight", s(d.commitment))
        .option("usage", "W", "code-usage weight", s(d.usage))
        .option("tau-start", "T", "Gumbel temperature start", s(d.tauStart))
        .option("tau-min", "T", "Gumbel temperature floor", s(d.tauMin))
        .option("tau-decay", "D", "temperature decay per step", s(d.tauDecay))
        .option("epochs", "N", "most epochs", std::to_string(d.epochs))
        .option("patience", "N", "epochs without improvement before stopping",
                std::to_string(d.patience))
        .option("lloyd-iters", "N", "hard-lloyd rounds", std::to_string(d.lloydIterations))
        .option("seed", "S", "seed of sampling, batches and Gumbel noise", std::to_string(d.seed))
        .option("store-dtype", "F32|BF16", "codebook dtype", std::string("F32"))
        .option("diagnostics-bootstrap", "N",
                "bootstrap resamples of the corpus diagnostics stored in the codebook (0: none)",
                std::to_string(CodebookMetadataOptions{}.bootstrap))
        .option("diagnostics-random", "N",
                "random-exemplar codebooks compared in the stored diagnostics (0: none)",
                std::to_string(CodebookMetadataOptions{}.randomCodebooks))
        .option("exemplars", "E",
                "exemplar patches kept per codeword for the studio's codebook explorer (where "
                "each lies in the corpus; 0: corpus usage only)",
                std::to_string(ExemplarOptions{}.perCodeword))
        .flag("exemplar-thumbnails",
              "also store each exemplar's pixels as a " +
                  std::to_string(kDefaultExemplarThumbnailSide) + "x" +
                  std::to_string(kDefaultExemplarThumbnailSide) +
                  " RGB thumbnail cut from the corpus videos (K*E*3 KiB; by default the codebook "
                  "names where the pixels are and holds none of the corpus)")
        .option("state", "FILE",
                "resume state, written after every epoch (default: OUTPUT.fit-state); after "
                "Ctrl-C a rerun with the same options continues from it; removed when the "
                "codebook is saved, and when a run that created it fails",
                std::string(""))
        .flag("json", "print a JSON summary (no progress bar)");
    declareOverwrite(p, " (the codebook; the resume state must be a regular file or new)");
    // Types here (exit 2); ranges in FitConfig::validate (exit 1, as in the studio's trainer).
    for (const auto& o : kCountOptions) {
        p.select(o.option).anyInteger();
    }
    for (const auto& o : kIntOptions) {
        p.select(o.option).integerIn(kMinIntOption, kMaxIntOption);
    }
    for (const auto& o : kRealOptions) {
        p.select(o.option).finiteNumber();
    }
    p.select("seed").integerIn(0, kMaxSeedOption);
    p.select("diagnostics-bootstrap").integerIn(0, kMaxBootstrapResamples);
    p.select("diagnostics-random").integerIn(0, kMaxRandomCodebooks);
    p.select("exemplars").integerIn(0, kMaxExemplarsPerCodeword);
}

// Refuses an output the fit could not write before hours of fitting, not after.
void checkOutputs(const std::string& output, const std::string& state) {
    namespace fs = std::filesystem;
    std::error_code ec;
    for (const auto& [path, field] : {std::pair{output, "output"}, std::pair{state, "state"}}) {
        if (fs::is_directory(fs::status(path, ec))) {
            fail("the output path is a folder", path, field, "a file path", "a folder");
        }
        const fs::path parent = fs::absolute(fs::path(path), ec).parent_path();
        if (!fs::is_directory(fs::status(parent, ec))) {
            fail("the output's folder does not exist", path, field, "an existing folder",
                 parent.string());
        }
    }
    if (fs::weakly_canonical(fs::absolute(output), ec) ==
        fs::weakly_canonical(fs::absolute(state), ec)) {
        fail("the resume state and the codebook would be the same file", state, "state",
             "a path other than --output", state);
    }
}

int run(const ArgParser& a) {
    FitConfig c;
    c.method = a.get("method");
    c.weights = a.get("weights");
    c.init = a.get("init");
    for (const auto& o : kCountOptions) {
        c.*o.field = a.getInt(o.option);
    }
    for (const auto& o : kIntOptions) {
        c.*o.field = a.getInt32(o.option, "Stage-B");
    }
    for (const auto& o : kRealOptions) {
        c.*o.field = a.getDouble(o.option);
    }
    c.seed = std::uint64_t(a.getInt("seed"));
    c.validate();
    const std::string output = a.get("output");
    const std::string state = a.get("state").empty() ? output + ".fit-state" : a.get("state");
    CodebookFileRequest request;
    request.output = output;
    request.state = state;
    request.storeDtype = a.get("store-dtype");
    request.replace = replaceFrom(a);
    CodebookMetadataOptions& mo = request.metadata;  // ranges: checked by parse()
    mo.bootstrap = a.getInt("diagnostics-bootstrap");
    mo.randomCodebooks = a.getInt32("diagnostics-random", "Stage-B");
    ExemplarOptions& eo = request.exemplars;
    eo.perCodeword = a.getInt32("exemplars", "Stage-B");
    eo.thumbnailSide = a.flagSet("exemplar-thumbnails") ? kDefaultExemplarThumbnailSide : 0;
    checkOutputs(output, state);
    // The fit streams its mini-batches from the mapped shard files (memory bounded by the
    // mini-batch); every check of the cache is made here, before the fit.
    const CacheReader reader = CacheReader::open(a.get("cache"));
    Progress progress = terminalProgress(a.flagSet("json"));
    const CodebookFileResult result = fitCodebookFile(reader, c, request, &progress);
    const FitResult& r = result.fit;
    const CodebookExemplarTables& exemplars = result.exemplars;
    nlohmann::json j = {{"codebook", output},
                        {"K", r.codebook.size(0)},
                        {"D", r.codebook.size(1)},
                        {"selected_epoch", r.selectedEpoch},
                        {"criterion", r.criterion},
                        {"selection", c.selection},
                        {"resumed", r.resumed},
                        {"training_data_sha256", r.dataSha256},
                        {"exemplars_per_codeword", exemplars.perCodeword},
                        {"exemplar_videos", exemplars.videos.size()},
                        {"exemplar_thumbnails_missing", exemplars.thumbnailsMissing},
                        {"diagnostics", nlohmann::json::parse(r.metadata.at("diagnostics"))}};
    if (a.flagSet("json")) {
        printJson(j);
    } else {
        std::cout << "fitted " << r.codebook.size(0) << " x " << r.codebook.size(1) << " codebook ("
                  << c.method << "), selected epoch " << r.selectedEpoch << " by " << c.selection
                  << (r.resumed ? " (resumed)" : "") << " -> " << output << "\n";
    }
    return 0;
}

const CommandRegistrar reg{
    {"train fit", "Stage B: fit a balanced codebook to a Stage-A cache", declare, run}};

}  // namespace
}  // namespace once::cli
