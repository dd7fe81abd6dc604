#include "cli/video_options.h"

#include <cmath>
#include <iostream>

#include "cli/dtype_option.h"
#include "models/backbone.h"
#include "models/hub_cache.h"
#include "models/visual_encoder.h"

namespace once::cli {

void declareSampling(ArgParser& p) {
    std::string defaults;
    for (const BackboneInfo& b : backboneInfos()) {
        defaults += (defaults.empty() ? "" : ", ") + b.defaultSampling + " for " + b.name;
    }
    p.option("sampling", "RULE",
             "frames to use: uniform:N | fps:F | fps:F:MIN:MAX, optionally @START-END seconds "
             "(e.g. uniform:32, fps:2:4:256@10-20); default: the backbone's (" +
                 defaults +
                 ", uniform:32 for demo; Qwen3.5: the model folder's video processor settings, "
                 "as transformers samples, fps:2:4:768 without them; the paper's is "
                 "fps:2:4:256)")
        .alias("sample");
}

SamplingChoice samplingFrom(const ArgParser& a, const std::string& backbone,
                            const std::string& modelDir) {
    if (a.has("sampling")) {
        return {a.get("sampling"), {}};
    }
    return defaultSamplingFor(backbone, modelDir);
}

std::string modelFrom(const ArgParser& a) {
    const std::string model = a.getOr("model", "");
    return model.empty() ? model : resolveModelFolder(model);
}

void declareBackbone(ArgParser& p, bool withEncoders) {
    std::string names = "auto";
    if (withEncoders) {
        for (const auto& n : visualEncoderNames()) {
            names += "|" + n;
        }
    } else {
        for (const BackboneInfo& b : backboneInfos()) {
            names += "|" + b.name;
        }
    }
    p.option("backbone", names,
             std::string("auto: the model folder's, from its config.json") +
                 (withEncoders ? " (demo without --model)" : ""),
             std::string("auto"));
}

std::string backboneFrom(const ArgParser& a, bool withEncoders) {
    const std::string b = a.get("backbone");
    const std::string model = modelFrom(a);
    if (b != "auto") {
        return b;
    }
    if (model.empty()) {
        if (withEncoders) {
            return "demo";
        }
        throw UsageError("--backbone auto needs --model DIR");
    }
    return detectBackbone(model);
}

void declareVideoModelOptions(ArgParser& p, bool answers) {
    declareDtype(p, answers ? "model compute dtype" : "encoder compute dtype");
    declareBackbone(p, !answers);
    declareSampling(p);
    p.option("pool-stride", "1|2",
             "LLaVA-OneVision patches per frame: 1 keeps all 27x27 (the paper's setting: 32 "
             "frames give 23,329 tokens); 2 pools bilinearly to 14x14, as transformers' "
             "LlavaOnevision model and lmms-eval's default do (6,273 tokens)",
             std::string("1"))
        .integerIn(1, 2);
    if (answers) {
        // The formats and what they mean come from each backbone's registration.
        std::string formats = "auto", formatHelp, structured;
        for (const BackboneInfo& b : backboneInfos()) {
            for (const std::string& f : b.promptFormats) {
                formats += "|" + f;
            }
            formatHelp += (formatHelp.empty() ? "" : ". ") + b.title + ": " + b.promptFormatHelp;
            if (b.structuredPositions) {
                structured += (structured.empty() ? "" : ", ") + b.name;
            }
        }
        p.option("prompt-format", formats, formatHelp, std::string("auto"))
            .option("positions", "first|mean|sequential",
                    "M-RoPE positions of pooled tokens (" + structured +
                        "; docs/models.md): first = the position of the group's first member in "
                        "time (default), mean = the members' mean, sequential = the prompt "
                        "re-packed 1-D",
                    std::string("first"));
    }
    declareVideoLimits(p);
}

AnswerSessionOptions sessionOptionsFrom(const ArgParser& a, std::string* samplingNotice) {
    AnswerSessionOptions so;
    so.modelDir = modelFrom(a);
    so.backbone = backboneFrom(a, false);
    so.device = a.get("device");
    so.dtype = dtypeFrom(a).resolved;
    so.codebook = a.getOr("codebook", "");
    const SamplingChoice sampling = samplingFrom(a, so.backbone, so.modelDir);
    so.sampling = sampling.rule;
    if (samplingNotice) {
        *samplingNotice = sampling.notice;
    }
    so.positions = a.get("positions");
    so.poolStride = int(a.getInt("pool-stride"));
    so.promptFormat = a.get("prompt-format");
    so.videoLimits = videoLimitsFrom(a);
    return so;
}

void declareVideoLimits(ArgParser& p) {
    p.option("max-decoded-gib", "G",
             "refuse a video whose sampled frames would take more than G GiB decoded (RGB); "
             "raise it for long, high-resolution videos",
             std::to_string(kMaxDecodedBytes >> 30))
        // Up to 1 TiB and 1 gigapixel: beyond that no machine this runs on holds the frames.
        .numberAbove(0, 1024)
        .option("max-frame-megapixels", "M",
                "refuse frames larger than M million pixels (a picture renamed .mp4)",
                std::to_string(double(kMaxFramePixels) / 1e6))  // 8192 x 8192 = 67.108864
        .numberAbove(0, 1000);
}

VideoLimits videoLimitsFrom(const ArgParser& a) {
    const double gib = a.getDouble("max-decoded-gib");  // in range: checked by parse()
    const double mp = a.getDouble("max-frame-megapixels");
    VideoLimits l;
    l.maxDecodedBytes = std::int64_t(gib * double(std::int64_t(1) << 30));
    l.maxFramePixels = std::llround(mp * 1e6);
    return l;
}

void printNotices(const std::vector<std::string>& notices) {
    for (const std::string& n : notices) {
        if (!n.empty()) {
            std::cerr << "note: " << n << "\n";
        }
    }
}

}  // namespace once::cli
