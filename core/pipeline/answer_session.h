#pragma once
// One question-answering session, AnswerSession (DESIGN §1 data flow): decode → encode → compress →
// prefill → generate, with wall time, visual token counts, prefill FLOPs and peak memory per stage.
// The session keeps its model parts (language model, tokenizer, and the vision encoder once a video
// was encoded) and the encoded video, so a new budget or a new question does not decode or encode
// again; the compressor of each method is prepared once per video, so a budget sweep over several
// methods encodes each video once. A caller that already holds the encoded video (the studio) or a
// codebook in memory hands them over instead (setVideo, setCodebook), and the compressors it
// prepared (adoptPrepared). Not the studio's document (StudioSession) nor its saved form
// (session/session_file.h).
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "features/encoded_video.h"
#include "util/progress.h"
#include "video/video_reader.h"

namespace once {

class Codebook;
class PreparedCompressor;
struct CompressionResult;

struct AnswerSessionOptions {
    /// Hugging Face folder of a registered backbone (models/backbone.h): LLaVA-OneVision (or a
    /// plain Qwen2 with --features), Qwen3.5.
    std::string modelDir;
    /// Backbone name, or "auto" / "": the one detected from the folder's config.json.
    std::string backbone = "auto";
    std::string device = "cpu";
    std::string dtype = "float32";
    std::string codebook{};  ///< path; needed by methods that use one ("once")
    /// Compressor of the registry (compress/token_compressor.h) used for a budget, and its
    /// parameters (`--param key=value`); AskOptions can override both per question.
    std::string method = "once";
    std::map<std::string, std::string> params{};
    /// Frame sampling rule; empty: the default for the backbone and folder (defaultSamplingFor:
    /// uniform:32 for LLaVA-OneVision; for Qwen3.5 the folder's video processor settings, as
    /// transformers samples, named in a notice).
    std::string sampling{};
    int poolStride = 1;
    /// "auto" or a format of the backbone: LLaVA "llava-next" | "chat-template"
    /// (models/llava_ov/chat_prompt.h), Qwen3.5 "transformers5" | "qwen3-vl".
    std::string promptFormat = "auto";
    /// Positions of pooled tokens on M-RoPE backbones: "first", "mean" or "sequential"
    /// (docs/models.md, Qwen3.5).
    std::string positions = "first";
    VideoLimits videoLimits{};  ///< decoding limits (docs/security.md)
};

/// `options` with the backbone detected from the model folder (or checked against it) and an
/// empty sampling replaced by the default for the backbone and folder (defaultSamplingFor).
/// Throws OnceError naming config.json or the processor file and field.
AnswerSessionOptions resolveAnswerSessionOptions(AnswerSessionOptions options);

struct StageReport {
    std::string name;  ///< decode, encode, compress, prefill, generate
    double seconds = 0;
    std::int64_t peakRssBytes = -1;
    bool cached = false;  ///< reused from an earlier question
    /// Peak reserved device memory (CUDA caching allocator) during the stage; −1 on the CPU.
    std::int64_t devicePeakReservedBytes = -1;
    /// Peak device memory held by tensors during the stage; −1 on the CPU.
    std::int64_t devicePeakAllocatedBytes = -1;
};

struct AskOptions {
    std::optional<std::int64_t> budget;  ///< nullopt: dense (all tokens, the reference)
    /// Compressor for this question; empty: AnswerSessionOptions::method with its params.
    std::string method;
    std::map<std::string, std::string> params;
    std::uint64_t seed = 42;  ///< compressor seed (the paper's runs use 42)
    std::int64_t maxNewTokens = 16;
    /// false: generate exactly maxNewTokens, past the model's stop tokens (benchmarks give every
    /// method the same decoding work).
    bool stopAtStopTokens = true;
    double temperature = 0;
    double topP = 1;
    std::string system;  ///< empty: the prompt format's default (chat_prompt.h)
    /// Streamed pieces of the answer, valid UTF-8 that concatenates to AskReport::answer.
    std::function<void(const std::string&)> onText;
};

struct AskReport {
    std::string answer;
    std::vector<std::int64_t> tokenIds;
    std::vector<StageReport> stages;
    /// Visual tokens entering the LLM: content rows and the backbone's special/layout tokens
    /// (LLaVA's image_newline; Qwen3.5's timestamps and vision start/end tokens).
    std::int64_t contentTokens = 0, layoutTokens = 0;
    std::int64_t sourceTokens = 0;  ///< N before compression
    std::int64_t promptTokens = 0;  ///< full LLM input length
    /// The tokenized prompt. LLaVA: one visual placeholder at `placeholderIndex` (the LLM sees
    /// the visual rows there instead). Qwen3.5: expanded, one video-pad id per content row, and
    /// placeholderIndex −1.
    std::vector<std::int64_t> promptIds;
    std::int64_t placeholderIndex = 0;
    /// [3, S] M-RoPE positions of the prompt (Qwen3.5); empty for 1-D positions.
    std::vector<std::vector<std::int64_t>> promptPositions;
    double prefillFlops = 0;
    /// Seconds of the compressor's budget-independent prepare() inside this question's compress
    /// stage (0 when the method was already prepared for this video).
    double prepareSeconds = 0;
    bool dense = true;
    std::int64_t budget = 0;
    std::string method;  ///< compressor used ("" when dense)
    /// What was kept (compressed answers only; empty when dense): the output row of each source
    /// token, frame-major over the video's [T, P] (−1 when dropped), and each row's codeword (−1
    /// for methods without a codebook) — a compression result file's group_of_token and
    /// codeword_ids (compress/result_file.h).
    std::vector<std::int64_t> groupOfToken, codewordIds;
    bool stoppedByToken = false;  ///< generation ended at a stop token (else at maxNewTokens)
};

/// What compressOnly() gives besides its report: the compressor's own result (group sizes,
/// coverage, ONCE's step timings) and what its prepare() cost for this video, whenever it ran
/// (AskReport::prepareSeconds is 0 once prepared; a budget sweep wants the cost itself).
struct CompressDetail {
    std::shared_ptr<const CompressionResult> result;
    double prepareMs = 0;
};

class AnswerSession {
  public:
    /// Loads the language model and tokenizer (and the codebook when given).
    explicit AnswerSession(AnswerSessionOptions options);
    ~AnswerSession();
    AnswerSession(AnswerSession&&) noexcept;

    /// Decodes and encodes a video with the model folder's vision encoder (encoderBackbone()),
    /// built on the first call and kept for the next videos. `sampling`: a rule for this video
    /// instead of AnswerSessionOptions::sampling (the server's per-request sampling).
    void loadVideo(const std::string& path, Progress* progress = nullptr,
                   const std::string& sampling = {});
    /// Uses a feature file (setVideo of its contents).
    void loadFeatures(const std::string& path);
    /// Uses a video encoded elsewhere (the studio's, a feature file's). `origin` names it in
    /// errors; `stages` are its load stages as measured by the caller (reported as cached).
    /// The backbone completes and checks it (LLaVA: without layout tokens, the model folder's
    /// image_newline is used, as feature files hold content tokens only). Throws OnceError when
    /// D is not the language model's width or the video does not fit the backbone.
    void setVideo(EncodedVideo video, const std::string& origin,
                  std::vector<StageReport> stages = {});
    /// The video in use (features on the model's device or the CPU; undefined before a load).
    const EncodedVideo& video() const;
    /// Registry name of the vision encoder loadVideo uses for this model folder (the backbone's
    /// name, models/backbone.h).
    std::string encoderBackbone() const;
    /// The options in use, with the backbone and sampling resolved.
    const AnswerSessionOptions& options() const;
    /// Throws OnceError (naming the codebook's file) when the codebook does not fit this model's
    /// features: another width, or another backbone when the codebook names one. No codebook:
    /// nothing to check. Lets a caller refuse a mismatch before encoding anything.
    void checkCodebook() const;
    /// Replaces the codebook (AnswerSessionOptions::codebook) by one in memory; null: none.
    void setCodebook(std::shared_ptr<const Codebook> codebook);
    /// Uses a compressor prepared elsewhere (the studio's, on screen) for its method and
    /// parameters, so a question at any budget prepares nothing again. Taken only when it was
    /// prepared from the video in use (the same feature tensor: setVideo of the caller's
    /// video) and with the codebook in use; returns whether it was.
    bool adoptPrepared(std::shared_ptr<PreparedCompressor> compressor);
    /// Asks about the loaded video. Throws OnceError (empty question, no video, codebook
    /// mismatch, out of GPU memory — after which the session stays usable) or Cancelled.
    AskReport ask(const std::string& question, const AskOptions& options,
                  Progress* progress = nullptr);

    /// Compresses the loaded video at options.budget (required) with options.method, params and
    /// seed, as ask() would, and stops there: no prompt, no generation (`once serve`'s
    /// /v1/once/compress, for a client that draws the kept groups or times budgets). The report
    /// holds the load and compress stages, the kept groups, sourceTokens and contentTokens (the
    /// compressor's rows; no layout tokens: no prompt is built).
    AskReport compressOnly(const AskOptions& options, CompressDetail* detail = nullptr);

    /// Visual rows the LLM would see in prompt order (compressed or dense; LLaVA then its
    /// newline), for tests and tools.
    /// `method` empty: the session's method and params.
    at::Tensor visualTokens(std::optional<std::int64_t> budget, const std::string& method = {},
                            const std::map<std::string, std::string>& params = {},
                            std::uint64_t seed = 42);
    /// Load stages of the current video (decode/encode or load features), as first measured.
    const std::vector<StageReport>& loadStages() const;
    /// What the user should know about how the model folder was read (settings it lacked and
    /// the defaults used instead), in the order found; shown by the CLI and the studio.
    const std::vector<std::string>& notices() const;
    /// The prompt format in use and the chat-template file it follows.
    std::string promptSource() const;

  private:
    struct State;
    std::unique_ptr<State> s_;
};

}  // namespace once
