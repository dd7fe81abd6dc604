#include "trainer/training_job.h"

#include <ATen/ATen.h>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <memory>

#include "encode/decode_encode.h"
#include "io/file_kind.h"
#include "models/visual_encoder.h"
#include "train/cache_reader.h"
#include "train/codebook_fit_file.h"
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

    // Stage B, diagnostics, corpus usage and exemplars, as `once train fit` runs them: read from
    // the mapped cache a tile at a time, so a corpus larger than memory trains here too. The
    // optimiser state is saved after every epoch, so a cancel or a crash resumes at the last
    // finished epoch with the bits of an uninterrupted run.
    const once::CacheReader cache = once::CacheReader::open(r.cacheDir.toStdString());
    if (r.fit.codewords > cache.rows()) {
        once::fail("more codewords than Stage-A representatives", r.cacheDir.toStdString(),
                   "codewords", "at most " + std::to_string(cache.rows()),
                   std::to_string(r.fit.codewords));
    }
    once::CodebookFileRequest request;
    request.output = r.output.toStdString();
    request.state = fitStatePath(r.output).toStdString();
    request.storeDtype = r.storeDtype.toStdString();
    // Intervals are for reports (once diagnose); the studio's charts need the values only.
    request.metadata.bootstrap = 0;
    request.metadata.randomCodebooks = 0;
    const once::CodebookFileResult result = once::fitCodebookFile(cache, r.fit, request, &stageB);
    out.codebook = r.output;
    out.resumedStageB = result.fit.resumed;
    out.selectedEpoch = result.fit.selectedEpoch;
    out.historyJson = result.fit.historyJson;
    out.codewords = result.fit.codebook.size(0);
    out.dim = result.fit.codebook.size(1);
    return out;
}

}  // namespace once::studio
