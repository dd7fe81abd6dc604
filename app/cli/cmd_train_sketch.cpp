// once train sketch: Stage A — corpus manifest -> resumable cache of weighted sketches.
#include <ATen/ATen.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/output_options.h"
#include "cli/video_options.h"
#include "cluster/shard.h"
#include "encode/decode_encode.h"
#include "models/backbone.h"
#include "models/visual_encoder.h"
#include "train/sketch_cache.h"
#include "util/error.h"
#include "video/video_reader.h"

namespace once::cli {
namespace {

void declare(ArgParser& p) {
    declareSampling(p);
    declareVideoLimits(p);
    declareBackbone(p, true);
    p.option("manifest", "FILE",
             "corpus JSONL: {\"video\": path, \"category\": name} a line; "
             "a .safetensors entry is an existing feature file")
        .option("output", "DIR",
                "cache folder: new, empty, or a cache of an earlier run with the same options, "
                "which the run resumes (a stopped run keeps every finished video)",
                std::nullopt, "-o")
        .option("model", "DIR|ORG/NAME",
                "Hugging Face model folder of the backbone, or its repository in the hub cache",
                std::string(""))
        .option("device", "cpu|cuda", "where the encoder runs", std::string("cpu"))
        // Types here (exit 2); ranges in SketchCacheOptions::validate (exit 1, as in the studio).
        .option("bins", "L", "timeline bins (1: single-bin ablation)", std::string("4"))
        .integerIn(kMinIntOption, kMaxIntOption)
        .option("R", "R", "source tokens per representative", std::string("256"))
        .finiteNumber()
        .option("m-min", "N", "smallest sketch per video", std::string("16"))
        .anyInteger()
        .option("m-max", "N", "largest sketch per video (before the cap)", std::string("128"))
        .anyInteger()
        .option("cap", "N", "global representative cap (0: none)", std::string("5000000"))
        .anyInteger()
        .option("iters", "N", "spherical-Lloyd rounds per bin", std::string("10"))
        .integerIn(kMinIntOption, kMaxIntOption)
        .option("seed", "S", "seed of the per-bin Lloyd seeds", std::string("42"))
        .integerIn(0, kMaxSeedOption)
        .option("shard-rows", "N", "representatives per shard", std::string("65536"))
        .anyInteger()
        .option("shard", "I/N|none",
                "sketch only the videos of task I of N (0-based; video v is in shard v mod N) "
                "into a shard cache for `once train merge`; default: SLURM_ARRAY_TASK_ID/COUNT "
                "or JOB_COMPLETION_INDEX/ONCE_SHARD_COUNT when set (docs/cluster.md), 'none' "
                "ignores them",
                std::string(""))
        .flag("skip-errors", "record unreadable videos as failed and go on")
        .flag("force",
              "write a new cache into a non-empty folder that is not a cache (its files are left "
              "untouched; without --force such a folder is refused)")
        .flag("json", "print a JSON summary (no progress bar)");
}

int run(const ArgParser& a) {
    // Values that parse but mean nothing (bins 0, R nan, ...) are errors of core's validate()
    // (exit 1, naming the option); an int option beyond int's range must not wrap around first.
    SketchCacheOptions o;
    o.sketch.bins = a.getInt32("bins", "Stage-A");
    o.sketch.tokensPerRep = a.getDouble("R");
    o.sketch.mMin = a.getInt("m-min");
    o.sketch.mMax = a.getInt("m-max");
    o.sketch.iterations = a.getInt32("iters", "Stage-A");
    o.sketch.seed = std::uint64_t(a.getInt("seed"));
    o.cap = a.getInt("cap");
    o.shardRows = a.getInt("shard-rows");
    o.skipErrors = a.flagSet("skip-errors");
    o.force = a.flagSet("force");
    o.shard = resolveShard(a.get("shard"));
    if (o.shard.sharded()) {
        std::cerr << "Stage A shard " << o.shard.text() << " (from " << o.shard.origin << ")\n";
    }
    o.validate();  // before a video is decoded
    const std::string backbone = backboneFrom(a, true);
    EncoderOptions eo;
    eo.modelDir = modelFrom(a);
    eo.device = a.get("device");
    DecodeEncodeOptions de;
    const SamplingChoice sampling = samplingFrom(a, backbone, eo.modelDir);
    de.sampling = SamplingRule::parse(sampling.rule);
    printNotices({sampling.notice});
    de.limits = videoLimitsFrom(a);
    const VideoEncodeFn encode = lazyDecodeEncode(backbone, eo, de);
    auto corpus = readCorpusManifest(a.get("manifest"));
    Progress progress = terminalProgress(a.flagSet("json"));
    SketchCacheSummary s = buildSketchCache(corpus, a.get("output"), o, encode, &progress);
    nlohmann::json j = {
        {"cache", a.get("output")},
        {"shard", o.shard.sharded() ? nlohmann::json(o.shard.text()) : nlohmann::json(nullptr)},
        {"videos", s.videos},
        {"done", s.done},
        {"failed", s.failed},
        {"resumed", s.resumed},
        {"reps", s.reps},
        {"source_tokens", s.tokens},
        {"m_max", s.mMax},
        {"seconds", s.seconds},
        {"tokens_per_second", s.seconds > 0 ? double(s.tokensThisRun) / s.seconds : 0.0}};
    if (a.flagSet("json")) {
        printJson(j);
    } else {
        std::cout << "sketched " << s.done << " of " << s.videos << " video(s) (" << s.resumed
                  << " from an earlier run, " << s.failed << " failed): " << s.reps
                  << " representatives of " << s.tokens << " tokens, m_max " << s.mMax << " -> "
                  << a.get("output") << "\n";
    }
    return s.failed == 0 ? 0 : 1;
}

const CommandRegistrar reg{{"train sketch",
                            "Stage A: temporally stratified sketches of a corpus (resumable cache)",
                            declare, run}};

}  // namespace
}  // namespace once::cli
