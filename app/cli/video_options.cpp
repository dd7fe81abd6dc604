#include "cli/video_options.h"

#include <iostream>

namespace once::cli {

void declareSampling(ArgParser& p, const std::string& defaultRule) {
    p.option("sampling", "RULE",
             "frames to use: uniform:N | fps:F | fps:F:MIN:MAX, optionally @START-END seconds "
             "(e.g. uniform:32, fps:2:4:256@10-20)",
             defaultRule)
        .alias("sample");
}

void declarePoolStride(ArgParser& p) {
    p.option("pool-stride", "1|2",
             "LLaVA-OneVision patches per frame: 1 keeps all 27x27 (the paper's setting: 32 "
             "frames give 23,329 tokens); 2 pools bilinearly to 14x14, as transformers' "
             "LlavaOnevision model and lmms-eval's default do (6,273 tokens)",
             std::string("1"));
}

void declarePromptFormat(ArgParser& p) {
    p.option("prompt-format", "auto|llava-next|chat-template",
             "auto: the folder's chat template when it is the llava-hf LLaVA-OneVision one (as "
             "transformers applies it), else LLaVA-NeXT's conv_qwen with its system turn (the "
             "paper's lmms-eval runs)",
             std::string("auto"));
}

void printNotices(const std::vector<std::string>& notices) {
    for (const std::string& n : notices) {
        std::cerr << "note: " << n << "\n";
    }
}

}  // namespace once::cli
