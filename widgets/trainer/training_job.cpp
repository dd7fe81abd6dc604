#include "trainer/training_job.h"

#include <ATen/ATen.h>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <limits>
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
    if (!f.isFile()) {
        return false;
    }
    if (once::hasVideoExtension(f.fileName().toStdString())) {
        return true;
    }
    // Feature files only: a codebook (the trainer's own output saved into the corpus) is not
    // a video's features (issue 30).
    return f.suffix().toLower() == QLatin1String("safetensors") &&
           once::classifyPath(QFile::encodeName(f.absoluteFilePath()).toStdString()) ==
               once::FileKind::FeatureFile;
}

/// A Stage-A cache folder (its manifest beside shard or pending files): the trainer's own
/// output, never corpus input (issue 30: a cache inside the corpus was scanned as features).
bool isStageACache(const QDir& dir) {
    return QFileInfo(dir.filePath(QStringLiteral("manifest.json"))).isFile() &&
           !dir.entryList({QStringLiteral("shard-*.safetensors"),
                           QStringLiteral("pending-*.safetensors")},
                          QDir::Files)
                .isEmpty();
}
}  // namespace

std::int64_t maxStageARepresentatives(std::int64_t videos, const once::SketchCacheOptions& o) {
    // Each video gives at most m_max representatives (fewer when it has fewer tokens), and the
    // global cap bounds the total.
    std::int64_t bound = videos > 0 && o.sketch.mMax > 0 &&
                                 videos > std::numeric_limits<std::int64_t>::max() / o.sketch.mMax
                             ? std::numeric_limits<std::int64_t>::max()
                             : videos * o.sketch.mMax;
    if (o.cap > 0) {
        bound = std::min(bound, o.cap);
    }
    return bound;
}

std::int64_t suggestedCodewords(std::int64_t representatives) {
    std::int64_t k = 1;
    while (k * 2 <= representatives) {
        k *= 2;
    }
    return k;
}

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
    QStringList folders{root.absolutePath()};
    while (!folders.isEmpty()) {
        const QDir dir(folders.takeFirst());
        if (isStageACache(dir)) {
            continue;
        }
        for (const QFileInfo& f :
             dir.entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot)) {
            if (f.isDir()) {
                if (!f.isSymLink()) {  // a linked folder could lead back up: not followed
                    folders << f.absoluteFilePath();
                }
            } else if (isCorpusFile(f)) {
                files << f.absoluteFilePath();
            }
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
    // K must fit the representatives Stage A can give: said now, not after all of Stage A
    // (issue 30: K = 8192 on four clips failed only at the end).
    const std::int64_t most = maxStageARepresentatives(std::int64_t(corpus.size()), r.sketch);
    if (r.fit.codewords > most) {
        once::fail("more codewords than Stage A can give this corpus", r.corpus.toStdString(),
                   "codewords",
                   "at most " + std::to_string(most) + " (" + std::to_string(corpus.size()) +
                       " videos × m-max " + std::to_string(r.sketch.sketch.mMax) +
                       "); try K = " + std::to_string(suggestedCodewords(most)) +
                       ", or more videos or a larger m-max",
                   std::to_string(r.fit.codewords));
    }
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
