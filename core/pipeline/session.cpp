#include "pipeline/session.h"

#include <ATen/ATen.h>
#include <c10/util/Exception.h>

#include <chrono>
#include <cmath>

#include "codebook/codebook.h"
#include "compress/token_compressor.h"
#include "encode/decode_encode.h"
#include "features/feature_file.h"
#include "models/generation.h"
#include "models/hf_checkpoint.h"
#include "models/qwen2_model.h"
#include "models/visual_encoder.h"
#include "pipeline/chat_prompt.h"
#include "pipeline/resource_usage.h"
#include "tokenizer/bpe_tokenizer.h"
#include "util/device.h"
#include "util/error.h"
#include "video/sampling_rule.h"
#include "video/video_reader.h"

namespace once {
namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void outOfDeviceMemory(const std::string& stage, const at::Device& device) {
    fail("out of GPU memory during " + stage +
             " (try a smaller budget, fewer frames or --dtype bfloat16)",
         {}, "device", "enough memory", device.str());
}

// Runs one stage on `device`, recording its wall time, peak RSS and peak reserved device
// memory. Running out of device memory becomes an OnceError; what the stage allocated is freed
// with its locals, so the session stays usable.
template <class F>
StageReport timed(const std::string& name, const at::Device& device, F&& f) {
    resetPeakRss();
    resetDevicePeakMemory(device);
    auto t0 = Clock::now();
    try {
        f();
    } catch (const c10::OutOfMemoryError&) {
        outOfDeviceMemory(name, device);
    }
    StageReport r;
    r.name = name;
    r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    r.peakRssBytes = peakRssBytes();
    r.devicePeakReservedBytes = devicePeakReservedBytes(device);
    return r;
}

// Cuts `bytes` before a trailing incomplete UTF-8 character (kept for the next piece).
std::size_t completeUtf8Prefix(const std::string& bytes) {
    std::size_t n = bytes.size(), i = n;
    while (i > 0 && (static_cast<unsigned char>(bytes[i - 1]) & 0xC0) == 0x80 && n - i < 3) {
        --i;
    }
    if (i == 0) {
        return n;
    }
    unsigned char lead = static_cast<unsigned char>(bytes[i - 1]);
    std::size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    return (n - (i - 1)) < need ? i - 1 : n;
}

}  // namespace

struct Session::State {
    SessionOptions options;
    HfCheckpoint checkpoint;
    Qwen2Model model;
    BpeTokenizer tokenizer;
    std::shared_ptr<const Codebook> codebook;
    /// Built by the first loadVideo and kept, like the model.
    std::unique_ptr<VisualEncoder> encoder;
    EncodedVideo video;  ///< layoutTokens always defined ([0, D] when there are none)
    std::string origin;  ///< the video's file, for errors
    /// Prepared compressors of the current video by method and parameters ("once" holds its
    /// assignment), so a new budget only runs compress().
    std::map<std::string, std::unique_ptr<TokenCompressor>> prepared;
    std::vector<StageReport> loadStages;
    std::vector<std::int64_t> stopTokens;
    PromptStyle prompt;
    std::vector<std::string> notices;  ///< how the folder was read, for the user

    State(SessionOptions o, HfCheckpoint ck, Qwen2Model m, BpeTokenizer t)
        : options(std::move(o)),
          checkpoint(std::move(ck)),
          model(std::move(m)),
          tokenizer(std::move(t)) {}

    void addNotice(const std::string& n) {
        if (std::find(notices.begin(), notices.end(), n) == notices.end()) {
            notices.push_back(n);
        }
    }
};

Session::Session(SessionOptions options) {
    HfCheckpoint ck = HfCheckpoint::open(options.modelDir);
    Qwen2Model model = Qwen2Model::load(ck, {options.device, options.dtype});
    BpeTokenizer tok = BpeTokenizer::fromFile(ck.file("tokenizer.json"));
    s_ = std::make_unique<State>(options, std::move(ck), std::move(model), std::move(tok));
    s_->prompt = choosePromptStyle(options.modelDir, options.promptFormat);
    if (!s_->prompt.notice.empty()) {
        s_->notices.push_back(s_->prompt.notice);
    }
    if (!options.codebook.empty()) {
        s_->codebook = std::make_shared<const Codebook>(Codebook::load(options.codebook));
    }
    for (const char* stop : {"<|im_end|>", "<|endoftext|>"}) {
        if (auto id = s_->tokenizer.tokenId(stop)) {
            s_->stopTokens.push_back(*id);
        }
    }
    for (auto id : s_->model.config().eosTokenIds) {
        s_->stopTokens.push_back(id);
    }
}

const std::vector<std::string>& Session::notices() const {
    return s_->notices;
}

std::string Session::promptSource() const {
    return s_->prompt.source;
}

Session::~Session() = default;
Session::Session(Session&&) noexcept = default;

std::string Session::encoderBackbone() const {
    return "llava-onevision";
}

void Session::loadVideo(const std::string& path, Progress* progress) {
    const at::Device device = s_->model.device();
    if (!s_->encoder) {
        EncoderOptions eo;
        eo.modelDir = s_->options.modelDir;
        eo.device = s_->options.device;
        eo.dtype = s_->options.dtype;
        eo.poolStride = s_->options.poolStride;
        s_->encoder = makeVisualEncoder(encoderBackbone(), eo);
        for (const std::string& n : s_->encoder->notices()) {
            s_->addNotice(n);
        }
    }
    DecodeEncodeOptions de;
    de.sampling = SamplingRule::parse(s_->options.sampling);
    de.limits = s_->options.videoLimits;
    resetPeakRss();
    resetDevicePeakMemory(device);
    DecodedVideo d;
    try {
        d = decodeAndEncode(path, *s_->encoder, de, progress);
    } catch (const c10::OutOfMemoryError&) {
        outOfDeviceMemory("encode", device);
    }
    // One peak for both stages: they run in one call (the decoder's frames feed the encoder).
    const std::int64_t rss = peakRssBytes(), reserved = devicePeakReservedBytes(device);
    std::vector<StageReport> stages = {{"decode", d.decodeSeconds, rss, false, -1},
                                       {"encode", d.encodeSeconds, rss, false, reserved}};
    setVideo(std::move(d.video), path, std::move(stages));
}

void Session::loadFeatures(const std::string& path) {
    EncodedVideo v;
    auto st = timed("load features", at::Device(at::kCPU), [&] { v = loadFeatureFile(path); });
    setVideo(std::move(v), path, {st});
}

void Session::setVideo(EncodedVideo v, const std::string& origin, std::vector<StageReport> stages) {
    if (v.empty() || v.features.dim() != 3) {
        fail("the video has no features [T, P, D]", origin, "features", "[T, P, D]",
             v.empty() ? "none" : std::to_string(v.features.dim()) + "-D");
    }
    const std::int64_t H = s_->model.config().hiddenSize;
    if (v.dim() != H) {
        fail("the features do not match the language model", origin, "features",
             "dimension " + std::to_string(H) + " (hidden size of " + s_->options.modelDir + ")",
             std::to_string(v.dim()));
    }
    if (v.layoutTokenCount() == 0) {
        // Feature files hold content tokens only; LLaVA's layout token lives in the model folder.
        const auto& ck = s_->checkpoint;
        if (ck.has("image_newline") || ck.has("model.image_newline")) {
            v.layoutTokens = ck.get(ck.firstPresent({"image_newline", "model.image_newline"}), {H})
                                 .to(at::kFloat)
                                 .reshape({1, H});
        } else {
            v.layoutTokens = at::zeros({0, H});
        }
    }
    // LLaVA's patch grids are square (27×27, or 14×14 pooled); spatial methods need the grid.
    v.fillUnknownGrid();
    s_->video = std::move(v);
    s_->origin = origin;
    s_->prepared.clear();
    s_->loadStages = std::move(stages);
}

const EncodedVideo& Session::video() const {
    return s_->video;
}

void Session::setCodebook(std::shared_ptr<const Codebook> codebook) {
    s_->codebook = std::move(codebook);
    for (auto it = s_->prepared.begin(); it != s_->prepared.end();) {
        it = compressorInfo(it->first.substr(0, it->first.find('\n'))).needsCodebook
                 ? s_->prepared.erase(it)
                 : std::next(it);
    }
}

const std::vector<StageReport>& Session::loadStages() const {
    return s_->loadStages;
}

at::Tensor Session::visualTokens(std::optional<std::int64_t> budget, const std::string& method,
                                 const std::map<std::string, std::string>& params,
                                 std::uint64_t seed) {
    const EncodedVideo& video = s_->video;
    if (video.empty()) {
        fail("no video loaded", {}, "video", "a video or --features", "none");
    }
    const std::int64_t D = video.dim();
    at::Tensor content;
    if (!budget) {
        content = video.features.reshape({-1, D});
    } else {
        CompressorSpec spec;
        spec.method = method.empty() ? s_->options.method : method;
        spec.params = method.empty() ? s_->options.params : params;
        // Validates the name first, so an unknown method is named before a missing codebook.
        const CompressorInfo& info = compressorInfo(spec.method);
        if (info.needsCodebook) {
            if (!s_->codebook) {
                fail("a budget with method '" + spec.method + "' needs a codebook", {}, "codebook",
                     "--codebook FILE", "none");
            }
            s_->codebook->checkCompatible(D, video.backbone, s_->origin);
            spec.codebook = s_->codebook.get();
        }
        std::string key = spec.method;
        for (const auto& [k, v] : spec.params) {
            key += "\n" + k + "=" + v;
        }
        auto it = s_->prepared.find(key);
        if (it == s_->prepared.end()) {
            auto c = makeCompressor(spec);
            c->prepare(video);
            it = s_->prepared.emplace(key, std::move(c)).first;
        }
        content = it->second->compress(*budget, seed).tokens;
    }
    return at::cat({content.to(at::kFloat), video.layoutTokens.to(content.device(), at::kFloat)});
}

AskReport Session::ask(const std::string& question, const AskOptions& o, Progress* progress) {
    ChatPrompt prompt = buildVideoPrompt(s_->tokenizer, s_->prompt, question, o.system);
    AskReport r;
    r.promptIds = prompt.ids;
    r.placeholderIndex = prompt.placeholderIndex;
    for (auto st : s_->loadStages) {
        r.stages.push_back(st);
    }
    for (auto& st : s_->loadStages) {
        st.cached = true;  // a later question reuses them
    }
    r.dense = !o.budget.has_value();
    r.budget = o.budget.value_or(0);
    if (o.budget) {
        r.method = o.method.empty() ? s_->options.method : o.method;
    }
    at::Tensor visual;
    r.stages.push_back(timed("compress", s_->model.device(),
                             [&] { visual = visualTokens(o.budget, o.method, o.params, o.seed); }));
    r.layoutTokens = s_->video.layoutTokenCount();
    r.contentTokens = visual.size(0) - r.layoutTokens;
    r.sourceTokens = s_->video.numTokens();
    try {
        at::Tensor embeds = spliceVisual(s_->model, prompt, visual);
        r.promptTokens = embeds.size(0);
        r.prefillFlops = s_->model.prefillFlops(r.promptTokens);

        GenerationOptions go;
        go.maxNewTokens = o.maxNewTokens;
        go.temperature = o.temperature;
        go.topP = o.topP;
        go.stopTokens = s_->stopTokens;
        if (progress) {
            go.cancel = progress->token();
        }
        std::string pending;
        std::vector<std::int64_t> shown;
        go.onToken = [&](std::int64_t id) {
            if (!o.onText) {
                return;
            }
            shown.push_back(id);
            std::string bytes = s_->tokenizer.decodeBytes({id}, true);
            pending += bytes;
            std::size_t cut = completeUtf8Prefix(pending);
            if (cut > 0) {
                o.onText(pending.substr(0, cut));
                pending.erase(0, cut);
            }
        };
        // Prefill and generation run in one call; the peaks are read and reset between them.
        const at::Device device = s_->model.device();
        std::int64_t prefillRss = 0, prefillReserved = 0;
        go.onPrefilled = [&] {
            prefillRss = peakRssBytes();
            prefillReserved = devicePeakReservedBytes(device);
            resetPeakRss();
            resetDevicePeakMemory(device);
        };
        resetPeakRss();
        resetDevicePeakMemory(device);
        GenerationResult g = generate(s_->model, embeds, go);
        if (o.onText && !pending.empty()) {
            o.onText(pending);  // a cut character at the end: the raw bytes, as generated
        }
        r.stages.push_back({"prefill", g.prefillSeconds, prefillRss, false, prefillReserved});
        r.stages.push_back(
            {"generate", g.decodeSeconds, peakRssBytes(), false, devicePeakReservedBytes(device)});
        r.tokenIds = g.tokens;
        std::vector<std::int64_t> text = g.tokens;
        if (g.stoppedByToken) {
            text.pop_back();
        }
        r.answer = s_->tokenizer.decode(text, true);
    } catch (const c10::OutOfMemoryError&) {
        // The KV cache and activations were local to this call and are freed by now.
        outOfDeviceMemory("prefill and generation", s_->model.device());
    }
    return r;
}

}  // namespace once
