#include "session/answer_pipeline.h"

#include "pipeline/session.h"

namespace once::studio {

AnswerPipeline::AnswerPipeline() = default;
AnswerPipeline::~AnswerPipeline() = default;

AnswerPipeline::Lease AnswerPipeline::acquire(const PipelineKey& key, once::Progress* progress) {
    Lease lease;
    lease.lock_ = std::unique_lock(mutex_);
    if (!session_ || !(key == key_)) {
        session_.reset();  // free the old model before loading the next one
        once::SessionOptions o;
        o.modelDir = key.modelDir.toStdString();
        o.device = key.settings.device.toStdString();  // "auto" resolves in core (util/device.h)
        o.dtype = key.settings.dtype.toStdString();
        o.codebook = key.codebook.toStdString();
        o.sampling = key.settings.sampling.toStdString();
        o.poolStride = key.settings.poolStride;
        auto session = std::make_unique<once::Session>(o);
        if (key.fromFeatureFile) {
            session->loadFeatures(key.source.toStdString());
        } else {
            session->loadVideo(key.source.toStdString(), progress);
        }
        session_ = std::move(session);
        key_ = key;
    }
    lease.session_ = session_.get();
    return lease;
}

}  // namespace once::studio
