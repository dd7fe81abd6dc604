#pragma once
// One codebook training run as the trainer panel starts it: corpus (a JSONL manifest or a folder
// of videos) → Stage A cache (resumable: a rerun on the same cache folder continues after the
// last committed shard) → Stage B fit → codebook file with its corpus diagnostics. Runs on a
// worker thread; each stage reports through its own once::Progress and is cancellable.
#include <QString>
#include <cstdint>
#include <string>
#include <vector>

#include "session/pipeline_settings.h"
#include "train/sketch_cache.h"
#include "train/stage_b.h"
#include "util/progress.h"

namespace once::studio {

struct TrainingRequest {
    QString corpus;    ///< .jsonl manifest, or a folder searched for videos / feature files
    QString cacheDir;  ///< Stage-A cache (reused and resumed when it exists)
    QString output;    ///< codebook file (.safetensors)
    QString modelDir;  ///< model folder for a non-demo backbone
    PipelineSettings pipeline;
    once::SketchCacheOptions sketch;
    once::FitConfig fit;
    QString storeDtype = QStringLiteral("F32");
};

struct TrainingOutcome {
    QString codebook;  ///< path written
    once::SketchCacheSummary stageA;
    int selectedEpoch = 0;
    std::int64_t codewords = 0, dim = 0;
    bool resumedStageB = false;  ///< Stage B continued from the state a cancel or crash left
    std::string historyJson;     ///< Stage B's per-epoch history, as the file's metadata holds it
};

/// Where Stage B keeps its resume state for `output` (the same file `once train fit` uses).
QString fitStatePath(const QString& output);

/// The corpus entries of a manifest, or of every video / feature file under a folder (sorted;
/// the category of a file is its sub-folder name relative to the root, "" at the root). The
/// trainer's own outputs found there are not input: Stage-A cache folders and codebooks are
/// skipped. Throws OnceError when the corpus is missing or holds no entry.
std::vector<once::CorpusEntry> collectCorpus(const QString& corpus);

/// Most representatives Stage A can give `videos` videos with `options` (m-max per video,
/// bounded by the global cap): the largest K Stage B can fit.
std::int64_t maxStageARepresentatives(std::int64_t videos, const once::SketchCacheOptions& options);
/// The K to suggest when the chosen one does not fit: the largest power of two within
/// `representatives`.
std::int64_t suggestedCodewords(std::int64_t representatives);

/// Runs both stages. Refuses, before Stage A, more codewords than maxStageARepresentatives. Throws OnceError on bad input, once::Cancelled when cancelled.
TrainingOutcome runTraining(const TrainingRequest& request, once::Progress& stageA,
                            once::Progress& stageB);

/// Whether `cacheDir` holds a Stage-A manifest of an earlier (possibly interrupted) run.
bool hasResumableCache(const QString& cacheDir);

}  // namespace once::studio
