#include "session/prepared_peer.h"

#include <QElapsedTimer>

#include "session/methods.h"

namespace once::studio {

std::shared_ptr<PreparedPeer> PreparedPeer::prepare(const QString& method,
                                                    const once::EncodedVideo& video,
                                                    once::Progress& progress) {
    once::CompressorSpec spec;
    spec.method = method.toStdString();
    auto peer = std::make_shared<PreparedPeer>();
    peer->method_ = spec.method;
    peer->compressor_ = once::makeCompressor(spec);
    peer->maxUseful_ = methods::budgetRange(method, methods::budgetShape(video, 0)).max;
    QElapsedTimer timer;
    timer.start();
    peer->compressor_->prepare(video, &progress);
    peer->prepareMs_ = static_cast<double>(timer.nsecsElapsed()) * 1e-6;
    progress.throwIfCancelled();
    return peer;
}

once::CompressionResult PreparedPeer::measure(std::int64_t budget) {
    std::lock_guard lock(mutex_);
    ++compressions_;
    once::CompressionResult result = compressor_->compress(budget, kSeed);
    result.method = method_;
    return result;
}

std::shared_ptr<const once::CompressionResult> PreparedPeer::compress(std::int64_t budget) {
    if (maxUseful_ <= 0 || budget <= maxUseful_) {
        return std::make_shared<const once::CompressionResult>(measure(budget));
    }
    std::shared_ptr<const once::CompressionResult> atMax;
    {
        std::lock_guard lock(mutex_);
        atMax = atMax_;
    }
    if (!atMax) {
        atMax = std::make_shared<const once::CompressionResult>(measure(maxUseful_));
        std::lock_guard lock(mutex_);
        atMax_ = atMax;
    }
    auto result = std::make_shared<once::CompressionResult>(*atMax);  // shares the tensors
    result->budget = budget;
    return result;
}

int PreparedPeer::compressions() const {
    std::lock_guard lock(mutex_);
    return compressions_;
}

}  // namespace once::studio
