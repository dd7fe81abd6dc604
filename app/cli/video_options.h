#pragma once
// Options that several commands share (encode, ask, eval, train sketch), declared in one place so
// that one thing has one name, one default and one explanation everywhere.
#include <string>

#include "cli/arg_parser.h"
#include "video/video_reader.h"

namespace once::cli {

/// --sampling RULE (older spelling --sample) with the rule syntax in its help.
void declareSampling(ArgParser& p, const std::string& defaultRule);
/// --pool-stride 1|2, default 1, with how it relates to transformers and to the paper.
void declarePoolStride(ArgParser& p);
/// --prompt-format auto|llava-next|chat-template (commands that answer questions).
void declarePromptFormat(ArgParser& p);

/// --max-decoded-gib G and --max-frame-megapixels M: the decoding limits of docs/security.md.
void declareVideoLimits(ArgParser& p);
VideoLimits videoLimitsFrom(const ArgParser& a);

/// Prints each notice as "note: ..." on stderr (settings a model folder lacked and the defaults
/// used instead), unless `quiet`.
void printNotices(const std::vector<std::string>& notices);

}  // namespace once::cli
