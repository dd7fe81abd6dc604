#include "session/answer_pipeline.h"

#include "codebook/codebook.h"
#include "compress/prepared_compressor.h"
#include "models/backbone.h"
#include "pipeline/answer_session.h"

namespace once::studio {

once::AnswerSessionOptions answerSessionOptions(const PipelineKey& key) {
    once::AnswerSessionOptions o;
    o.modelDir = key.modelDir.toStdString();
    o.device = key.settings.device.toStdString();  // "auto" resolves in core (util/device.h)
    o.dtype = key.settings.dtype.toStdString();
    // A sampling left at the studio backbone's default is the model's backbone's default
    // (empty: the session resolves it; fps:2:4:256 for Qwen3.5), a chosen one is kept.
    const std::string sampling = key.settings.sampling.toStdString();
    o.sampling =
        sampling == once::defaultSampling(key.settings.backbone.toStdString()) ? "" : sampling;
    o.poolStride = key.settings.poolStride;
    return o;
}

AnswerPipeline::AnswerPipeline() = default;
AnswerPipeline::~AnswerPipeline() = default;

AnswerPipeline::Lease AnswerPipeline::acquire(const PipelineKey& key, const PipelineInputs& in,
                                              once::Progress* progress) {
    Lease lease;
    lease.lock_ = std::unique_lock(mutex_);
    if (!session_ || !(key == key_)) {
        session_.reset();  // free the old model before loading the next one
        hasVideo_ = false;
        codebook_.reset();
        session_ = std::make_unique<once::AnswerSession>(answerSessionOptions(key));
        key_ = key;
    }
    if (!hasVideo_ || videoGeneration_ != in.videoGeneration) {
        hasVideo_ = false;
        const VideoData& v = in.video;
        // The studio encoded the video with the same settings (sampling, pool stride, dtype);
        // when the model's own encoder did it, its features are what the language model takes.
        const bool reusable = !v.empty() && v.backbone == session_->encoderBackbone();
        if (reusable || v.fromFeatureFile) {
            session_->setVideo(v, v.path.toStdString());
        } else {
            session_->loadVideo(v.path.toStdString(), progress);
        }
        hasVideo_ = true;
        videoGeneration_ = in.videoGeneration;
    }
    if (codebook_ != in.codebook) {
        session_->setCodebook(in.codebook);
        codebook_ = in.codebook;
    }
    // Prepared from the studio's features: the session takes them when it holds those very
    // features (not after encoding the video again with the model's encoder).
    for (const auto& compressor : in.prepared) {
        session_->adoptPrepared(compressor);
    }
    lease.session_ = session_.get();
    return lease;
}

}  // namespace once::studio
