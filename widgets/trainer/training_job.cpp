#include "trainer/training_job.h"

#include <ATen/ATen.h>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <filesystem>
#include <memory>

#include "analysis/diagnostics.h"
#include "codebook/codebook.h"
#include "codebook/codebook_writer.h"
#include "encode/decode_encode.h"
#include "io/file_kind.h"
#include "models/visual_encoder.h"
#include "train/exemplar_selection.h"
#include "util/error.h"
#include "video/video_reader.h"

namespace once::studio {
namespace {
bool isCorpusFile(const QFileInfo& f) {
    return f.isFile() && (once::hasVideoExtension(f.fileName().toStdString()) ||
                          f.suffix().toLower() == QLatin1String("safetensors"));
}
}  // namespace

std::vector<once::CorpusEntry> collectCorpus(const QString& corpus) {
    const QFileInfo info(corpus);
    if (!info.exists()) {
        once::fail("corpus not found", corpus.toStdString(), {},
                   "a .jsonl manifest or a folder of videos", "nothing");
    }
    if (info.isFile()) {
        return once::readCorpusManifest(corpus.toStdString());
    }
    const QDir root(info.absoluteFilePath());
    QStringList files;
    QDirIterator it(root.absolutePath(), QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        if (isCorpusFile(QFileInfo(f))) {
            files << f;
        }
    }
    files.sort();
    std::vector<once::CorpusEntry> entries;
    for (const QString& f : files) {
        const QString relativeDir = QFileInfo(root.relativeFilePath(f)).path();
        entries.push_back({f.toStdString(), relativeDir == QLatin1String(".")
                                                ? std::string()
                                                : relativeDir.toStdString()});
    }
    if (entries.empty()) {
        once::fail("the corpus folder holds no videos or feature files", corpus.toStdString(), {},
                   "*.mp4, *.mkv, … or *.safetensors", "none");
    }
    return entries;
}

QString fitStatePath(const QString& output) {
    return output + QStringLiteral(".fit-state");
}

bool hasResumableCache(const QString& cacheDir) {
    return !cacheDir.isEmpty() &&
           QFileInfo(QDir(cacheDir).filePath(QStringLiteral("manifest.json"))).isFile();
}

// Stage B, diagnostics and the codebook file, after the cache is loaded.
static TrainingOutcome finishFit(const TrainingRequest& r, const once::SketchCache& cache,
                                 once::Progress& stageB, const std::string& state,
                                 TrainingOutcome out);

TrainingOutcome runTraining(const TrainingRequest& r, once::Progress& stageA,
                            once::Progress& stageB) {
    if (r.cacheDir.isEmpty()) {
        once::fail("no Stage-A cache folder given", {}, "cache folder", "a folder", "empty");
    }
    if (r.output.isEmpty()) {
        once::fail("no output codebook file given", {}, "output", "a .safetensors path", "empty");
    }
    r.fit.validate();
    const auto corpus = collectCorpus(r.corpus);
    QDir().mkpath(r.cacheDir);

    // Stage A: video entries go through the chosen encoder, created on first use.
    once::EncoderOptions eo;
    eo.modelDir = r.modelDir.toStdString();
    eo.device = r.pipeline.device.toStdString();  // "auto" resolves in core (util/device.h)
    eo.dtype = r.pipeline.dtype.toStdString();
    eo.poolStride = r.pipeline.poolStride;
    eo.threads = r.pipeline.threads;
    once::DecodeEncodeOptions de;
    de.sampling = once::SamplingRule::parse(r.pipeline.sampling.toStdString());
    const once::VideoEncodeFn encode =
        once::lazyDecodeEncode(r.pipeline.backbone.toStdString(), eo, de);
    TrainingOutcome out;
    out.stageA =
        once::buildSketchCache(corpus, r.cacheDir.toStdString(), r.sketch, encode, &stageA);
    stageA.throwIfCancelled();

    // Stage B.
    const once::SketchCache cache = once::SketchCache::load(r.cacheDir.toStdString());
    if (r.fit.codewords > cache.reps.size(0)) {
        once::fail("more codewords than Stage-A representatives", r.cacheDir.toStdString(),
                   "codewords", "at most " + std::to_string(cache.reps.size(0)),
                   std::to_string(r.fit.codewords));
    }
    // The optimiser state is saved after every epoch, so a cancel or a crash in Stage B resumes
    // at the last finished epoch with the bits of an uninterrupted run.
    const std::string state = fitStatePath(r.output).toStdString();
    // As `once train fit`: a state this run creates goes when the run fails after the fit, so no
    // `.fit-state` stays beside a codebook that was never written; a state of an earlier stopped
    // run, and any state on cancel, stays for resuming.
    std::error_code ec;
    const bool stateExisted = std::filesystem::exists(std::filesystem::symlink_status(state, ec));
    try {
        return finishFit(r, cache, stageB, state, out);
    } catch (const once::OnceError&) {
        if (!stateExisted) {
            std::filesystem::remove(state, ec);
        }
        throw;
    }
}

static TrainingOutcome finishFit(const TrainingRequest& r, const once::SketchCache& cache,
                                 once::Progress& stageB, const std::string& state,
                                 TrainingOutcome out) {
    const once::FitResult fit = once::fitCodebook(cache, r.fit, &stageB, state);
    stageB.throwIfCancelled();

    // Corpus diagnostics in the file: the studio's charts compare each video against them.
    auto meta = fit.metadata;
    meta["stage_a_cache"] = r.cacheDir.toStdString();
    meta["stage_a_manifest"] = cache.manifestJson.substr(0, 4096);
    once::TokenSet tokens;
    tokens.x = cache.reps;
    tokens.weights = cache.weights.to(at::kDouble);
    tokens.video = cache.video.to(at::kLong);
    tokens.numVideos = static_cast<std::int64_t>(cache.sources.size());
    once::DiagnosticsOptions d;
    d.bootstrap = 0;  // intervals are for reports (once diagnose); the charts need the values
    d.randomCodebooks = 0;
    meta["diagnostics"] = once::diagnoseCodebook(fit.codebook, tokens, d, &stageB).toJson(0);

    const once::Codebook codebook = once::Codebook::fromTensor(
        fit.codebook, cache.backbone, cache.featureSource, r.output.toStdString());
    // Corpus usage and exemplar locations for the codebook explorer (no corpus pixels).
    std::vector<std::pair<std::string, at::Tensor>> tensors;
    once::selectCodebookExemplars(cache, fit.codebook, {}, &stageB).addTo(meta, tensors);
    once::saveCodebookFile(codebook, r.output.toStdString(), r.storeDtype.toStdString(), meta,
                           tensors);
    QFile::remove(QString::fromStdString(state));
    out.codebook = r.output;
    out.resumedStageB = fit.resumed;
    out.selectedEpoch = fit.selectedEpoch;
    out.historyJson = fit.historyJson;
    out.codewords = codebook.size();
    out.dim = codebook.dim();
    return out;
}

}  // namespace once::studio
