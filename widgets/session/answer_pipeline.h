#pragma once
// The question-answering pipeline (once::AnswerSession: model, tokenizer, vision encoder), shared
// by the question panel and the budget sweep so a model's weights are loaded once. It answers about
// the video the studio holds and with the codebook the studio holds (in memory, from a file or
// not): the studio's encoded video is handed over as it is when the model's encoder made it, so a
// question decodes and encodes nothing again. Only a video encoded by another encoder (the demo
// encoder, say) is encoded again with the model's, which its language model needs. The compressors
// the studio prepared for that video (ONCE's assignment, a peer's state) are handed over too, so a
// question at the budget on screen prepares nothing again. Used from worker threads only; acquire()
// serialises them, since a once::AnswerSession is not thread-safe.
#include <QString>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "session/pipeline_settings.h"
#include "session/video_data.h"
#include "util/progress.h"

namespace once {
struct AnswerSessionOptions;
class Codebook;
class PreparedCompressor;
class AnswerSession;
}  // namespace once

namespace once::studio {

/// What the model parts depend on: a new key builds a new once::AnswerSession.
struct PipelineKey {
    QString modelDir;
    PipelineSettings settings;
    bool operator==(const PipelineKey&) const = default;
};

/// The core session's options for `key` (the pipeline's, and the batch bench's: one place for
/// how the studio's settings map onto core's).
once::AnswerSessionOptions answerSessionOptions(const PipelineKey& key);

/// What a question is about: the studio's video (identified by its generation, bumped on every
/// new video), its codebook (null: dense answers only for methods that need one) and the
/// compressors prepared for them.
struct PipelineInputs {
    std::uint64_t videoGeneration = 0;
    VideoData video;
    std::shared_ptr<const once::Codebook> codebook;
    std::vector<std::shared_ptr<once::PreparedCompressor>> prepared;
};

class AnswerPipeline {
  public:
    AnswerPipeline();
    ~AnswerPipeline();

    /// Locks the pipeline for the calling worker and returns the session for `key` holding
    /// `inputs`: the model is built when the key changed, the video installed when its
    /// generation changed, the codebook when it is another object, and the prepared
    /// compressors adopted where they fit (the session's own video). Throws OnceError from the
    /// model or the video, Cancelled through `progress`.
    class Lease {
      public:
        once::AnswerSession& session() { return *session_; }

      private:
        friend class AnswerPipeline;
        std::unique_lock<std::mutex> lock_;
        once::AnswerSession* session_ = nullptr;
    };
    Lease acquire(const PipelineKey& key, const PipelineInputs& inputs, once::Progress* progress);

  private:
    std::mutex mutex_;
    std::unique_ptr<once::AnswerSession> session_;
    PipelineKey key_;
    std::uint64_t videoGeneration_ = 0;
    bool hasVideo_ = false;
    std::shared_ptr<const once::Codebook> codebook_;
};

}  // namespace once::studio
