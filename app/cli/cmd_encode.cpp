// once encode: video(s) -> feature file(s) (DESIGN §2).
#include <iostream>

#include "cli/command.h"
#include "cli/dtype_option.h"
#include "cli/output_options.h"
#include "cli/video_options.h"
#include "cluster/shard_encode.h"
#include "encode/batch_encode.h"
#include "encode/encode_job.h"
#include "models/backbone.h"
#include "models/visual_encoder.h"
#include "util/error.h"

namespace once::cli {
namespace {

void declare(ArgParser& p) {
    p.positional("VIDEO",
                 "a video file or a frame folder (with -o); with --out-dir, a folder of videos "
                 "or a JSONL manifest ({\"video\": path, \"category\": name} a line)",
                 false)
        .option("model", "DIR|ORG/NAME",
                "Hugging Face model folder, or its repository in the hub cache (HF_HUB_CACHE); "
                "not used by demo",
                std::string(""))
        .option("device", "cpu|cuda", "where the encoder runs", std::string("cpu"))
        .option("store-dtype", "float32|bfloat16", "dtype of the stored features",
                std::string("float32"))
        .option("output", "FILE", "feature file to write (one video)", std::nullopt, "-o")
        .option("manifest", "FILE", "JSONL manifest of videos (batch; same as VIDEO)")
        .option("out-dir", "DIR",
                "batch mode: one feature file per video plus encoded.jsonl; a rerun skips the "
                "videos already finished")
        .option("shard", "I/N|none",
                "batch mode: encode only the videos of task I of N (0-based; video v of the "
                "folder's sorted list or the manifest is in shard v mod N) into the shared "
                "--out-dir; default: SLURM_ARRAY_TASK_ID/COUNT or "
                "JOB_COMPLETION_INDEX/ONCE_SHARD_COUNT when set (docs/cluster.md), 'none' "
                "ignores them",
                std::string(""))
        .flag("json", "print a one-object JSON summary on stdout (no progress bar)");
    declareOverwrite(p,
                     "; with --out-dir also a file of an output's name that the batch did not "
                     "write (without it such a file is refused and left alone)");
    declareVideoModelOptions(p, false);
}

int runBatch(const ArgParser& a, const EncodeOptions& o) {
    std::string input = a.has("manifest") ? a.get("manifest") : a.getOr("VIDEO", "");
    if (input.empty()) {
        throw UsageError("batch mode needs VIDEO (a folder or manifest) or --manifest");
    }
    const std::string outDir = a.get("out-dir");
    Progress progress = terminalProgress(a.flagSet("json"));
    const ShardSpec shard = resolveShard(a.get("shard"));
    if (shard.sharded()) {
        std::cerr << "encoding shard " << shard.text() << " (from " << shard.origin << ")\n";
    }
    BatchReport r = encodeBatchShard(input, outDir, o, shard, &progress);
    if (a.flagSet("json")) {
        nlohmann::json j = batchReportJson(r, outDir);
        j["dtype"] = dtypeJson(dtypeFrom(a));
        printJson(j, -1);
    } else {
        std::cout << "encoded " << r.encoded << ", skipped " << r.skipped << " (already done), "
                  << "failed " << r.failures.size() << " of " << r.total << " video(s) -> "
                  << outDir << "\n";
        for (const auto& [video, message] : r.failures) {
            std::cout << "  failed: " << message << "\n";
        }
    }
    return r.failures.empty() ? 0 : 1;
}

int run(const ArgParser& a) {
    EncodeOptions o;
    o.backbone = backboneFrom(a, true);
    o.encoder.modelDir = modelFrom(a);
    o.encoder.device = a.get("device");
    o.encoder.dtype = dtypeFrom(a).resolved;
    o.encoder.poolStride = int(a.getInt("pool-stride"));
    o.replace = replaceFrom(a);
    const SamplingChoice sampling = samplingFrom(a, o.backbone, o.encoder.modelDir);
    o.sampling = SamplingRule::parse(sampling.rule);
    printNotices({sampling.notice});
    o.videoLimits = videoLimitsFrom(a);
    o.storeDtype = a.get("store-dtype");
    if (a.has("out-dir")) {
        if (a.has("output")) {
            throw UsageError("give either -o (one video) or --out-dir (batch), not both");
        }
        return runBatch(a, o);
    }
    if (a.has("manifest")) {
        throw UsageError("--manifest needs --out-dir");
    }
    if (!a.has("VIDEO") || !a.has("output")) {
        throw UsageError("one video needs VIDEO and -o FEATURES.safetensors");
    }
    Progress progress = terminalProgress(a.flagSet("json"));
    EncodeReport r = encodeVideoToFile(a.get("VIDEO"), a.get("output"), o, &progress);
    printNotices(r.notices);
    if (a.flagSet("json")) {
        nlohmann::json j = encodeReportJson(r);
        j["dtype"] = dtypeJson(dtypeFrom(a));
        printJson(j, -1);
    } else {
        // Qwen3.5 encodes frames in temporal pairs: 28 sampled frames are 14 feature frames.
        std::string frames = std::to_string(r.sampledFrames) + " frames";
        if (r.sampledFrames != r.frames) {
            frames +=
                " (" + std::to_string(r.frames) +
                ((r.sampledFrames + 1) / 2 == r.frames ? " temporal pairs)" : " temporal groups)");
        }
        std::cout << "encoded " << frames << " of " << r.video << " (" << r.info.codec << " "
                  << r.info.width << "x" << r.info.height << ", " << r.info.frameCount
                  << " frames at " << r.info.fps << " fps) with " << r.backbone << ": features ["
                  << r.frames << ", " << r.patches << ", " << r.dim << "] grid " << r.gridH << "x"
                  << r.gridW << " in " << r.totalSeconds << " s (decode " << r.decodeSeconds
                  << " s, encode " << r.encodeSeconds << " s) -> " << r.output << "\n";
    }
    return 0;
}

const CommandRegistrar reg{{"encode",
                            "encode a video (or a folder/manifest of videos) into "
                            "feature files",
                            declare, run}};

}  // namespace
}  // namespace once::cli
