// once ask: answer a question about a video (or its feature file) with a registered backbone
// (LLaVA-OneVision, Qwen3.5: models/backbone.h), at a token budget through any registered
// compressor (ONCE with a codebook by default) or dense.
// Streams the answer on a terminal; --json prints the answer, token ids, per-stage timings, token
// counts, FLOPs and memory.
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/dtype_option.h"
#include "cli/generation_options.h"
#include "cli/output_options.h"
#include "cli/video_options.h"
#include "compress/token_compressor.h"
#include "models/backbone.h"
#include "pipeline/answer_session.h"
#include "util/error.h"

namespace once::cli {
namespace {

void declare(ArgParser& p) {
    p.positional("VIDEO", "video file or frame folder (or use --features)", false)
        .option("features", "FILE", "feature file of the video (skips decoding and encoding)")
        .option("model", "DIR|ORG/NAME",
                "Hugging Face folder of the backbone (LLaVA-OneVision, Qwen3.5), or its "
                "repository in the hub cache (HF_HUB_CACHE)")
        .option("codebook", "FILE", "codebook for ONCE compression (with --budget)")
        .option("method", "NAME", "compressor of the registry (once, or a baseline)", "once")
        .option("param", "KEY=VALUE", "compressor parameter (repeatable)")
        .option("budget", "B", "visual token budget")
        .integerIn(1, kMaxIntOption)
        .flag("dense", "no compression: all visual tokens (the reference)")
        .option("question", "TEXT", "the question");
    declareGenerationOptions(p, 16, "0: greedy (the paper's evaluation)");
    p.option("system", "TEXT",
             "system prompt (default: 'You are a helpful assistant.' with the llava-next "
             "format, none with the llava-hf chat template and with Qwen3.5)")
        .option("device", "DEV", "cpu, cuda or cuda:N", "cpu")
        .flag("json", "print a JSON report instead of streaming");
    declareVideoModelOptions(p, true);
}

int run(const ArgParser& a) {
    const bool haveVideo = a.has("VIDEO"), haveFeatures = a.has("features");
    if (haveVideo == haveFeatures) {
        throw UsageError("give exactly one of VIDEO or --features");
    }
    if (!a.has("model")) {
        throw UsageError("--model DIR is required");
    }
    if (!a.has("question")) {
        throw UsageError("--question is required");
    }
    const bool dense = a.flagSet("dense");
    if (dense == a.has("budget")) {
        throw UsageError("give exactly one of --dense or --budget B");
    }
    if (a.has("budget") && compressorInfo(a.get("method")).needsCodebook && !a.has("codebook")) {
        throw UsageError("--budget with --method " + a.get("method") + " needs --codebook");
    }
    std::string samplingNotice;
    AnswerSessionOptions so = sessionOptionsFrom(a, &samplingNotice);
    const DtypeChoice dtype = dtypeFrom(a);
    so.method = a.get("method");
    for (const auto& kv : a.getAll("param")) {
        auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) {
            throw UsageError("--param takes KEY=VALUE, got '" + kv + "'");
        }
        so.params[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    const bool json = a.flagSet("json");
    Progress progress = terminalProgress(json);

    AnswerSession session(so);
    if (haveVideo) {
        session.loadVideo(a.get("VIDEO"), &progress);
    } else {
        session.loadFeatures(a.get("features"));
    }
    std::vector<std::string> notices = session.notices();
    if (!samplingNotice.empty()) {
        notices.insert(notices.begin(), samplingNotice);
    }
    if (!json) {
        printNotices(notices);
    }
    AskOptions ao;
    if (!dense) {
        ao.budget = a.getInt("budget");
    }
    ao.maxNewTokens = a.getInt("max-new-tokens");
    ao.temperature = a.getDouble("temperature");
    ao.topP = a.getDouble("top-p");
    ao.system = a.getOr("system", "");
    if (!json) {
        ao.onText = [](const std::string& piece) { std::cout << piece << std::flush; };
    }
    AskReport r = session.ask(a.get("question"), ao, &progress);
    if (!json) {
        std::cout << "\n";
        std::cerr << "visual tokens " << r.contentTokens << "+" << r.layoutTokens << " of "
                  << r.sourceTokens << ", prompt " << r.promptTokens << " tokens, prefill "
                  << r.prefillFlops / 1e12 << " TFLOPs\n";
        return 0;
    }
    nlohmann::json j;
    j["answer"] = r.answer;
    j["token_ids"] = r.tokenIds;
    j["mode"] = r.dense ? "dense" : r.method;  // "once" or a baseline name
    if (!r.dense) {
        j["method"] = r.method;
        j["budget"] = r.budget;
    }
    j["visual_tokens"] = {{"content", r.contentTokens},
                          {"layout", r.layoutTokens},
                          {"total", r.contentTokens + r.layoutTokens},
                          {"source", r.sourceTokens}};
    j["dtype"] = dtypeJson(dtype);
    j["prompt_tokens"] = r.promptTokens;
    j["backbone"] = session.encoderBackbone();
    j["sampling"] = session.options().sampling;
    // LLaVA: the visual rows go at placeholder_index; Qwen3.5: expanded (one video pad per
    // content row) with placeholder_index -1 and the M-RoPE positions.
    j["prompt_ids"] = r.promptIds;
    j["placeholder_index"] = r.placeholderIndex;
    if (!r.promptPositions.empty()) {
        j["prompt_positions"] = r.promptPositions;
    }
    j["prompt_format"] = session.promptSource();
    j["notices"] = notices;
    j["prefill_flops"] = r.prefillFlops;
    j["stages"] = nlohmann::json::array();
    // Peak reserved CUDA memory per stage and over the question; null on the CPU.
    nlohmann::json peakReserved = nullptr;
    for (const auto& s : r.stages) {
        nlohmann::json reserved = nullptr;
        if (s.devicePeakReservedBytes >= 0) {
            reserved = s.devicePeakReservedBytes;
            peakReserved = std::max(
                peakReserved.is_null() ? std::int64_t{0} : peakReserved.get<std::int64_t>(),
                s.devicePeakReservedBytes);
        }
        j["stages"].push_back({{"name", s.name},
                               {"seconds", s.seconds},
                               {"peak_rss_bytes", s.peakRssBytes},
                               {"cuda_peak_reserved_bytes", reserved},
                               {"cached", s.cached}});
    }
    j["cuda_peak_reserved_bytes"] = peakReserved;
    printJson(j);
    return 0;
}

const CommandRegistrar reg{
    {"ask", "answer a question about a video at a token budget (or dense)", declare, run}};

}  // namespace
}  // namespace once::cli
