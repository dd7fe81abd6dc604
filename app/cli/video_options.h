#pragma once
// Options that several commands share (encode, ask, eval, train sketch), declared in one place so
// that one thing has one name, one default and one explanation everywhere.
#include <string>

#include "cli/arg_parser.h"
#include "pipeline/answer_session.h"
#include "video/video_reader.h"

namespace once {
struct SamplingChoice;  // models/backbone.h
}

namespace once::cli {

/// --sampling RULE (older spelling --sample) with the rule syntax in its help, and no default:
/// samplingFrom gives the backbone's (models/backbone.h defaultSampling).
void declareSampling(ArgParser& p);
/// The --sampling given (no notice), else the default of `backbone` for the model folder
/// `modelDir` (models/backbone.h defaultSamplingFor: uniform:32 for llava-onevision and the demo
/// encoder; for qwen3.5 the folder's video processor settings, as transformers samples, with a
/// notice naming them).
SamplingChoice samplingFrom(const ArgParser& a, const std::string& backbone,
                            const std::string& modelDir);
/// --model as a model folder: "" when not given; an existing folder as it is; a repository id
/// ORG/NAME (or a models--ORG--NAME folder) found in the Hugging Face hub cache as its snapshot
/// of refs/main (models/hub_cache.h). Throws OnceError when the cache does not hold it.
std::string modelFrom(const ArgParser& a);
/// --backbone NAME|auto. `withEncoders`: also the visual encoders without a language model
/// (demo), for commands that only encode.
void declareBackbone(ArgParser& p, bool withEncoders);
/// The backbone of --backbone: "auto" is the model folder's (config.json), or "demo" when
/// `withEncoders` and no --model is given. Throws OnceError naming config.json.
std::string backboneFrom(const ArgParser& a, bool withEncoders);
/// The options of every command that turns video into model tokens, in one order: --dtype,
/// --backbone, --sampling, --pool-stride (1|2, with how it relates to transformers and to the
/// paper), the decoding limits; with `answers` (commands that answer questions with a language
/// model: --backbone then lists only those) also --prompt-format and --positions.
void declareVideoModelOptions(ArgParser& p, bool answers);

/// The session of the commands that answer with a model (ask, eval, bench) from --model
/// (modelFrom), --device, --dtype (resolved), --codebook, --backbone, --sampling (samplingFrom;
/// its notice into `samplingNotice` when given), --positions, --pool-stride, --prompt-format and
/// the decoding limits (declareVideoModelOptions with answers).
AnswerSessionOptions sessionOptionsFrom(const ArgParser& a, std::string* samplingNotice = nullptr);

/// --max-decoded-gib G and --max-frame-megapixels M: the decoding limits of docs/security.md.
void declareVideoLimits(ArgParser& p);
VideoLimits videoLimitsFrom(const ArgParser& a);

/// Prints each non-empty notice as "note: ..." on stderr (settings a model folder lacked and the
/// defaults used instead, the sampling a folder asked for).
void printNotices(const std::vector<std::string>& notices);

}  // namespace once::cli
