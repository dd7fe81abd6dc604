#include "pipeline/answer_session.h"

#include <ATen/ATen.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>

#include "codebook/codebook.h"
#include "compress/prepared_compressor.h"
#include "encode/decode_encode.h"
#include "features/feature_file.h"
#include "models/backbone.h"
#include "models/generation.h"
#include "models/visual_encoder.h"
#include "pipeline/resource_usage.h"
#include "tokenizer/bpe_tokenizer.h"
#include "tokenizer/utf8.h"
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
        synchronizeDevice(device);  // the stage's queued kernels belong to its time
    } catch (const c10::OutOfMemoryError&) {
        outOfDeviceMemory(name, device);
    }
    StageReport r;
    r.name = name;
    r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    r.peakRssBytes = peakRssBytes();
    r.devicePeakReservedBytes = devicePeakReservedBytes(device);
    r.devicePeakAllocatedBytes = devicePeakAllocatedBytes(device);
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

struct AnswerSession::State {
    AnswerSessionOptions options;
    std::unique_ptr<LanguageBackbone> backbone;
    std::shared_ptr<const Codebook> codebook;
    /// Built by the first loadVideo and kept, like the model.
    std::unique_ptr<VisualEncoder> encoder;
    EncodedVideo video;  ///< as the backbone adopted it (setVideo)
    std::string origin;  ///< the video's file, for errors
    /// Prepared compressors of the current video by method and parameters (ONCE holds its
    /// assignment), so a new budget only runs compress(); the studio adds its own.
    PreparedCompressors prepared;
    std::vector<StageReport> loadStages;
    std::vector<std::string> notices;  ///< how the folder was read, for the user

    void addNotice(const std::string& n) {
        if (!n.empty() && std::find(notices.begin(), notices.end(), n) == notices.end()) {
            notices.push_back(n);
        }
    }

    /// The content rows for a budget (or dense) with the source tokens of each row; the
    /// codeword of each row into `codewords` when given (compressed only), the seconds a
    /// compressor's prepare() took into `prepareSeconds` (0 when it was already prepared), and
    /// the compressor's whole result and prepare time into `detail` when given.
    VisualContent content(std::optional<std::int64_t> budget, const std::string& method,
                          const std::map<std::string, std::string>& params, std::uint64_t seed,
                          std::vector<std::int64_t>* codewords = nullptr,
                          double* prepareSeconds = nullptr, CompressDetail* detail = nullptr);
    /// The report's load stages, settings and compress stage (ask and compressOnly alike).
    VisualContent compressFor(AskReport& r, const AskOptions& o, const at::Device& device,
                              CompressDetail* detail);
};

AnswerSessionOptions resolveAnswerSessionOptions(AnswerSessionOptions o) {
    o.backbone = resolveBackbone(o.backbone, o.modelDir);
    if (o.sampling.empty()) {
        o.sampling = defaultSamplingFor(o.backbone, o.modelDir).rule;
    }
    return o;
}

AnswerSession::AnswerSession(AnswerSessionOptions options) {
    s_ = std::make_unique<State>();
    const bool samplingDefaulted = options.sampling.empty();
    s_->options = resolveAnswerSessionOptions(std::move(options));
    const AnswerSessionOptions& o = s_->options;
    if (samplingDefaulted) {
        s_->addNotice(defaultSamplingFor(o.backbone, o.modelDir).notice);
    }
    BackboneOptions bo;
    bo.modelDir = o.modelDir;
    bo.device = o.device;
    bo.dtype = o.dtype;
    bo.promptFormat = o.promptFormat;
    bo.positions = o.positions;
    s_->backbone = loadLanguageBackbone(o.backbone, bo);
    for (const std::string& n : s_->backbone->notices()) {
        s_->addNotice(n);
    }
    if (!o.codebook.empty()) {
        s_->codebook = std::make_shared<const Codebook>(Codebook::load(o.codebook));
    }
}

const std::vector<std::string>& AnswerSession::notices() const {
    return s_->notices;
}

std::string AnswerSession::promptSource() const {
    return s_->backbone->promptSource();
}

const AnswerSessionOptions& AnswerSession::options() const {
    return s_->options;
}

AnswerSession::~AnswerSession() = default;
AnswerSession::AnswerSession(AnswerSession&&) noexcept = default;

std::string AnswerSession::encoderBackbone() const {
    return s_->backbone->name();
}

void AnswerSession::loadVideo(const std::string& path, Progress* progress,
                              const std::string& sampling) {
    const at::Device device = s_->backbone->device();
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
    de.sampling = SamplingRule::parse(sampling.empty() ? s_->options.sampling : sampling);
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
    const std::int64_t allocated = devicePeakAllocatedBytes(device);
    std::vector<StageReport> stages = {
        {"decode", d.decodeSeconds, rss, false, -1, -1},
        {"encode", d.encodeSeconds, rss, false, reserved, allocated}};
    setVideo(std::move(d.video), path, std::move(stages));
}

void AnswerSession::loadFeatures(const std::string& path) {
    EncodedVideo v;
    auto st = timed("load features", at::Device(at::kCPU), [&] { v = loadFeatureFile(path); });
    setVideo(std::move(v), path, {st});
}

void AnswerSession::setVideo(EncodedVideo v, const std::string& origin,
                             std::vector<StageReport> stages) {
    if (v.empty() || v.features.dim() != 3) {
        fail("the video has no features [T, P, D]", origin, "features", "[T, P, D]",
             v.empty() ? "none" : std::to_string(v.features.dim()) + "-D");
    }
    s_->backbone->adoptVideo(v, origin);
    if (!v.layoutTokens.defined()) {
        v.layoutTokens = at::zeros({0, v.dim()});
    }
    s_->video = std::move(v);
    s_->origin = origin;
    s_->prepared.clear();
    s_->loadStages = std::move(stages);
}

const EncodedVideo& AnswerSession::video() const {
    return s_->video;
}

void AnswerSession::checkCodebook() const {
    if (s_->codebook) {
        s_->codebook->checkCompatible(s_->backbone->hiddenSize(), s_->backbone->name(),
                                      s_->options.modelDir);
    }
}

void AnswerSession::setCodebook(std::shared_ptr<const Codebook> codebook) {
    s_->codebook = std::move(codebook);
    s_->prepared.forgetCodebook();
}

bool AnswerSession::adoptPrepared(std::shared_ptr<PreparedCompressor> compressor) {
    // Only what was prepared from this very video (the same feature tensor, not a re-encoding)
    // and with this very codebook answers for it.
    const bool sameVideo = !s_->video.empty() && compressor->video().features.defined() &&
                           compressor->video().features.is_same(s_->video.features);
    if (!sameVideo || (compressor->codebook() && compressor->codebook() != s_->codebook)) {
        return false;
    }
    s_->prepared.put(std::move(compressor));
    return true;
}

const std::vector<StageReport>& AnswerSession::loadStages() const {
    return s_->loadStages;
}

VisualContent AnswerSession::State::content(std::optional<std::int64_t> budget,
                                            const std::string& method,
                                            const std::map<std::string, std::string>& params,
                                            std::uint64_t seed,
                                            std::vector<std::int64_t>* codewords,
                                            double* prepareSeconds, CompressDetail* detail) {
    if (video.empty()) {
        fail("no video loaded", {}, "video", "a video or --features", "none");
    }
    const std::int64_t D = video.dim();
    VisualContent c;
    if (!budget) {
        c.rows = video.features.reshape({-1, D});
        return c;
    }
    CompressorSpec spec;
    spec.method = method.empty() ? options.method : method;
    spec.params = method.empty() ? options.params : params;
    // Validates the name first, so an unknown method is named before a missing codebook.
    const CompressorInfo& info = compressorInfo(spec.method);
    if (info.needsCodebook) {
        if (!codebook) {
            fail("a budget with method '" + spec.method + "' needs a codebook", {}, "codebook",
                 "--codebook FILE", "none");
        }
        codebook->checkCompatible(D, video.backbone, origin);
        spec.codebook = codebook.get();
    }
    std::shared_ptr<PreparedCompressor> compressor = prepared.find(spec.method, spec.params);
    if (!compressor) {
        compressor = prepared.get(spec, info.needsCodebook ? codebook : nullptr, video, nullptr);
        if (prepareSeconds) {
            *prepareSeconds = compressor->prepareMs() / 1000.0;
        }
    }
    const auto r = compressor->compress(*budget, seed);
    if (detail) {
        detail->result = r;
        detail->prepareMs = compressor->prepareMs();
    }
    c.rows = r->tokens;
    c.groupOfToken =
        r->groupOfToken.defined() ? r->groupOfToken.to(at::kCPU, at::kLong) : r->groupOfToken;
    if (codewords && r->codewordIds.defined()) {
        const at::Tensor ids = r->codewordIds.to(at::kCPU, at::kLong).contiguous();
        codewords->assign(ids.data_ptr<std::int64_t>(), ids.data_ptr<std::int64_t>() + ids.numel());
    }
    return c;
}

at::Tensor AnswerSession::visualTokens(std::optional<std::int64_t> budget,
                                       const std::string& method,
                                       const std::map<std::string, std::string>& params,
                                       std::uint64_t seed) {
    VisualContent c = s_->content(budget, method, params, seed);
    return s_->backbone->visualRows(s_->video, c);
}

VisualContent AnswerSession::State::compressFor(AskReport& r, const AskOptions& o,
                                                const at::Device& device, CompressDetail* detail) {
    for (auto st : loadStages) {
        r.stages.push_back(st);
    }
    for (auto& st : loadStages) {
        st.cached = true;  // a later question reuses them
    }
    r.dense = !o.budget.has_value();
    r.budget = o.budget.value_or(0);
    if (o.budget) {
        r.method = o.method.empty() ? options.method : o.method;
    }
    VisualContent c;
    r.stages.push_back(timed("compress", device, [&] {
        c = content(o.budget, o.method, o.params, o.seed, &r.codewordIds, &r.prepareSeconds,
                    detail);
    }));
    if (c.groupOfToken.defined()) {
        const at::Tensor g = c.groupOfToken.contiguous();
        r.groupOfToken.assign(g.data_ptr<std::int64_t>(), g.data_ptr<std::int64_t>() + g.numel());
    }
    r.sourceTokens = video.numTokens();
    return c;
}

AskReport AnswerSession::compressOnly(const AskOptions& o, CompressDetail* detail) {
    if (s_->video.empty()) {
        fail("no video loaded", {}, "video", "a video or --features", "none");
    }
    if (!o.budget) {
        fail("compressing needs a budget", {}, "budget", "a budget >= 1", "dense");
    }
    AskReport r;
    const VisualContent c = s_->compressFor(r, o, s_->backbone->device(), detail);
    r.contentTokens = c.rows.defined() ? c.rows.size(0) : 0;
    return r;
}

AskReport AnswerSession::ask(const std::string& question, const AskOptions& o, Progress* progress) {
    // An empty question fails before any work, whatever the backbone's prompt.
    if (std::all_of(question.begin(), question.end(),
                    [](unsigned char c) { return std::isspace(c) != 0; })) {
        fail("the question is empty", {}, "question", "non-empty text", "empty");
    }
    const LanguageBackbone& lm = *s_->backbone;
    if (s_->video.empty()) {
        fail("no video loaded", {}, "video", "a video or --features", "none");
    }
    AskReport r;
    VisualContent content = s_->compressFor(r, o, lm.device(), nullptr);
    try {
        VideoPrompt prompt = lm.buildPrompt(s_->video, content, question, o.system);
        r.promptIds = prompt.ids;
        r.placeholderIndex = prompt.placeholderIndex;
        if (prompt.positions.defined()) {
            at::Tensor pos = prompt.positions.to(at::kCPU, at::kLong).contiguous();
            for (std::int64_t a = 0; a < pos.size(0); ++a) {
                const std::int64_t* p = pos[a].data_ptr<std::int64_t>();
                r.promptPositions.emplace_back(p, p + pos.size(1));
            }
        }
        r.layoutTokens = prompt.layoutTokens;
        r.contentTokens = prompt.contentTokens;
        r.promptTokens = prompt.length();
        r.prefillFlops = lm.prefillFlops(r.promptTokens);

        GenerationOptions go;
        go.maxNewTokens = o.maxNewTokens;
        go.temperature = o.temperature;
        go.topP = o.topP;
        if (o.stopAtStopTokens) {
            go.stopTokens = lm.stopTokens();
        }
        if (progress) {
            go.cancel = progress->token();
        }
        std::string pending;
        go.onToken = [&](std::int64_t id) {
            if (!o.onText) {
                return;
            }
            std::string bytes = lm.tokenizer().decodeBytes({id}, true);
            pending += bytes;
            std::size_t cut = completeUtf8Prefix(pending);
            if (cut > 0) {
                // Invalid bytes (a random or byte-level model's) become U+FFFD as decode() makes
                // them: the pieces concatenate to the answer.
                o.onText(lossyUtf8(pending.substr(0, cut)));
                pending.erase(0, cut);
            }
        };
        // Prefill and generation run in one call; the peaks are read and reset between them.
        const at::Device device = lm.device();
        std::int64_t prefillRss = 0, prefillReserved = 0, prefillAllocated = 0;
        go.onPrefilled = [&] {
            prefillRss = peakRssBytes();
            prefillReserved = devicePeakReservedBytes(device);
            prefillAllocated = devicePeakAllocatedBytes(device);
            resetPeakRss();
            resetDevicePeakMemory(device);
        };
        resetPeakRss();
        resetDevicePeakMemory(device);
        GenerationResult g = lm.generate(prompt, go);
        if (o.onText && !pending.empty()) {
            o.onText(lossyUtf8(pending));  // a cut character at the end
        }
        r.stages.push_back(
            {"prefill", g.prefillSeconds, prefillRss, false, prefillReserved, prefillAllocated});
        r.stages.push_back({"generate", g.decodeSeconds, peakRssBytes(), false,
                            devicePeakReservedBytes(device), devicePeakAllocatedBytes(device)});
        r.tokenIds = g.tokens;
        r.stoppedByToken = g.stoppedByToken;
        std::vector<std::int64_t> text = g.tokens;
        if (g.stoppedByToken) {
            text.pop_back();
        }
        r.answer = lm.tokenizer().decode(text, true);
    } catch (const c10::OutOfMemoryError&) {
        // The KV cache and activations were local to this call and are freed by now.
        outOfDeviceMemory("prefill and generation", lm.device());
    }
    return r;
}

}  // namespace once
