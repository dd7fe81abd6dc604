#include "util/progress.h"

#include "util/error.h"

namespace once {

struct ProgressState {
    std::string stage;
    double total = 0;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

void CancelToken::throwIfCancelled() const {
    if (cancelled()) {
        throw Cancelled();
    }
}

Progress::Progress(Sink sink, CancelToken token)
    : sink_(std::move(sink)), token_(std::move(token)), state_(std::make_shared<ProgressState>()) {}

void Progress::begin(const std::string& stage, double total) {
    if (!state_) {
        state_ = std::make_shared<ProgressState>();
    }
    state_->stage = stage;
    state_->total = total;
    state_->start = std::chrono::steady_clock::now();
    update(0);
}

void Progress::update(double done, const std::string& detail) {
    token_.throwIfCancelled();
    if (!sink_ || !state_) {
        return;
    }
    ProgressEvent e;
    e.stage = state_->stage;
    e.done = done;
    e.total = state_->total;
    e.detail = detail;
    e.elapsedSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - state_->start).count();
    if (e.total > 0 && done > 0) {
        e.etaSeconds = e.elapsedSeconds * (e.total - done) / done;
    }
    sink_(e);
}

}  // namespace once
