#pragma once
// The question-answering pipeline (once::Session: model, tokenizer, the video's features), shared
// by the question panel and the budget sweep so a model's weights are loaded once. Used from
// worker threads only; acquire() serialises them, since a once::Session is not thread-safe.
#include <QString>
#include <memory>
#include <mutex>

#include "session/pipeline_settings.h"
#include "util/progress.h"

namespace once {
class Session;
}

namespace once::studio {

struct PipelineKey {
    QString modelDir;
    QString codebook;  ///< codebook file ("" for none: dense only)
    QString source;    ///< video or feature file
    bool fromFeatureFile = false;
    PipelineSettings settings;
    bool operator==(const PipelineKey&) const = default;
};

class AnswerPipeline {
  public:
    AnswerPipeline();
    ~AnswerPipeline();

    /// Locks the pipeline for the calling worker and returns the session for `key`, building
    /// it (and loading the video) when the key changed since the last call. Throws OnceError
    /// from the model or the video, Cancelled through `progress`.
    class Lease {
      public:
        once::Session& session() { return *session_; }

      private:
        friend class AnswerPipeline;
        std::unique_lock<std::mutex> lock_;
        once::Session* session_ = nullptr;
    };
    Lease acquire(const PipelineKey& key, once::Progress* progress);

  private:
    std::mutex mutex_;
    std::unique_ptr<once::Session> session_;
    PipelineKey key_;
};

}  // namespace once::studio
