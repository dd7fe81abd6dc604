#include "session/compression_controller.h"

#include <algorithm>

#include "codebook/codebook.h"
#include "session/methods.h"
#include "session/prepared_peer.h"
#include "session/studio_session.h"
#include "session/sweep_job.h"
#include "tasks/background_task.h"

namespace once::studio {
namespace {
// The codebook methods (ONCE) work from the document's cached assignment; the others from a
// prepared compressor kept per method.
bool isOnce(const QString& method) {
    return methods::needsCodebook(method);
}
}  // namespace

CompressionController::CompressionController(StudioSession& session)
    : QObject(&session),
      session_(session),
      compressTask_(new BackgroundTask(this)),
      sweepTask_(new BackgroundTask(this)) {
    connect(compressTask_, &BackgroundTask::failed, this,
            [this](const QString& message) { session_.report(errorTitle_, message); });
    connect(compressTask_, &BackgroundTask::finished, this, [this] {
        if (pending_) {
            pending_ = false;
            recompress();
        }
        updateCompressing();
    });
    connect(sweepTask_, &BackgroundTask::failed, this, [this](const QString& message) {
        session_.report(tr("Budget sweep failed"), message);
    });
    connect(sweepTask_, &BackgroundTask::cancelled, this, &CompressionController::sweepCancelled);
    connect(sweepTask_, &BackgroundTask::started, this, [this] {
        emit sweepingChanged(true);
        emit busyChanged();
    });
    connect(sweepTask_, &BackgroundTask::finished, this, [this] {
        emit sweepingChanged(false);
        emit busyChanged();
    });
    connect(&session_, &StudioSession::videoChanged, this, &CompressionController::onVideo);
    connect(&session_, &StudioSession::assignmentChanged, this,
            &CompressionController::onAssignment);
}

CompressionController::~CompressionController() = default;

bool CompressionController::isCompressing() const {
    return compressTask_->isRunning() || pending_;
}

bool CompressionController::isSweeping() const {
    return sweepTask_->isRunning();
}

void CompressionController::cancel() {
    pending_ = false;
    compressTask_->cancel();
    sweepTask_->cancel();
    updateCompressing();
}

void CompressionController::shutdown() {
    pending_ = false;
    sweepTask_->cancelAndWait();
    compressTask_->cancelAndWait();
    updateCompressing();
}

void CompressionController::updateCompressing() {
    const bool now = isCompressing();
    if (now != compressing_) {
        compressing_ = now;
        emit compressingChanged(now);
    }
    emit busyChanged();
}

std::int64_t CompressionController::clampedBudget(const QString& method,
                                                  std::int64_t budget) const {
    budget = std::max<std::int64_t>(1, budget);
    const std::int64_t most = session_.maxBudget(method);
    if (most <= 0) {
        return budget;  // no budget yet (ONCE without a codebook): kept for later
    }
    return std::clamp(budget, std::min(session_.budgetRange(method).min, most), most);
}

void CompressionController::clampBudget() {
    once::CompressOptions options = session_.compressOptions();
    options.budget =
        clampedBudget(session_.method(), askedBudget_ > 0 ? askedBudget_ : options.budget);
    session_.installSettings(session_.method(), options);
}

void CompressionController::request(const Change& change) {
    QString method = session_.method();
    if (change.method && *change.method != method) {
        if (!methods::all().contains(*change.method)) {
            session_.report(tr("Unknown compression method"),
                            tr("\"%1\" is not a compression method. Known methods: %2.")
                                .arg(*change.method, methods::all().join(QStringLiteral(", "))));
            return;
        }
        method = *change.method;
    }
    once::CompressOptions options = session_.compressOptions();
    options.variant = change.variant.value_or(options.variant);
    if (change.budget) {
        askedBudget_ = std::max<std::int64_t>(1, *change.budget);
    }
    const std::int64_t asked = askedBudget_ > 0 ? askedBudget_ : options.budget;
    options.budget = clampedBudget(method, change.budget || change.method ? asked : options.budget);
    const bool newMethod = method != session_.method();
    const bool newBudget = options.budget != session_.budget();
    const bool newVariant = options.variant != session_.variant();
    if (!newMethod && !newBudget && !newVariant) {
        return;
    }
    session_.installSettings(method, options);
    // The variant is ONCE's own: a peer's result does not change with it.
    if (newMethod || newBudget || methods::hasVariants(method)) {
        recompress();
    }
    updateCompressing();
}

void CompressionController::onVideo() {
    peers_.clear();  // prepared for the previous video
    clampBudget();
    if (!isOnce(session_.method())) {
        recompress();
    }
}

void CompressionController::onAssignment() {
    if (!isOnce(session_.method())) {
        return;  // a peer does not use the codebook
    }
    clampBudget();
    const auto result = session_.result();
    const auto& options = session_.compressOptions();
    if (!result || result->budget != options.budget || result->variant != options.variant) {
        recompress();
    }
}

void CompressionController::recompress() {
    if (session_.video().isEmpty()) {
        return;
    }
    const QString method = session_.method();
    const auto from = source(method);
    if (!from) {
        return;
    }
    const std::shared_ptr<PreparedPeer> peer = *from;
    if (compressTask_->isRunning()) {
        pending_ = true;  // the newest setting runs when this one ends
    } else if (!isOnce(method) && !peer) {
        startPreparation(method);
    } else {
        startCompression(peer);
    }
    updateCompressing();
}

std::optional<std::shared_ptr<PreparedPeer>> CompressionController::source(
    const QString& method) const {
    if (isOnce(method)) {
        if (!session_.assignment() || !session_.codebook()) {
            return std::nullopt;
        }
        return std::shared_ptr<PreparedPeer>();
    }
    const auto it = peers_.find(method);
    return it != peers_.end() ? it->second : nullptr;
}

void CompressionController::startPreparation(const QString& method) {
    const std::uint64_t videoGeneration = session_.videoGeneration();
    const once::EncodedVideo video = session_.video();
    const std::int64_t budget = session_.budget();
    errorTitle_ = tr("Cannot prepare %1").arg(methods::title(method));
    compressTask_->start(tr("Preparing %1").arg(methods::title(method)),
                         [=, this](once::Progress& progress) -> BackgroundTask::Deliver {
                             auto peer = PreparedPeer::prepare(method, video, progress);
                             auto result = peer->compress(budget);
                             return [=, this] {
                                 if (videoGeneration != session_.videoGeneration()) {
                                     return;  // another video came meanwhile: it was queued for it
                                 }
                                 peers_[method] = peer;
                                 ++preparations_;
                                 if (method == session_.method()) {
                                     session_.installResult(result);
                                 }
                             };
                         });
}

void CompressionController::startCompression(std::shared_ptr<PreparedPeer> peer) {
    const QString method = session_.method();
    const once::CompressOptions options = session_.compressOptions();
    // What makes a result stale: a new video for a peer, a new assignment for ONCE.
    const std::uint64_t generation =
        peer ? session_.videoGeneration() : session_.assignmentGeneration();
    auto deliver = [=, this](std::shared_ptr<const once::CompressionResult> result) {
        return [=, this] {
            const std::uint64_t now =
                peer ? session_.videoGeneration() : session_.assignmentGeneration();
            if (generation == now && method == session_.method()) {
                session_.installResult(result);
            }
        };
    };
    errorTitle_ = tr("Compression failed");
    const QString title =
        tr("Compressing with %1 at B = %2").arg(methods::title(method)).arg(options.budget);
    if (peer) {
        compressTask_->start(title, [=](once::Progress&) -> BackgroundTask::Deliver {
            return deliver(peer->compress(options.budget));
        });
        return;
    }
    const at::Tensor features = session_.video().features;
    auto assignment = session_.assignment();
    auto codebook = session_.codebook();
    compressTask_->start(title, [=](once::Progress&) -> BackgroundTask::Deliver {
        return deliver(std::make_shared<const once::CompressionResult>(
            once::compressAssigned(features, *assignment, *codebook, options)));
    });
}

void CompressionController::runBudgetSweep() {
    if (sweepTask_->isRunning() || session_.video().isEmpty()) {
        return;
    }
    const QString method = session_.method();
    const auto from = source(method);
    if (!from || (!isOnce(method) && !*from)) {
        return;  // nothing prepared to measure
    }
    const std::shared_ptr<PreparedPeer> peer = *from;
    const std::uint64_t generation = session_.assignmentGeneration();
    const std::uint64_t videoGeneration = session_.videoGeneration();
    sweepTask_->start(tr("Measuring the budget sweep of %1").arg(methods::title(method)),
                      makeSweepJob(session_, peer, [=, this](const BudgetSweep& sweep) {
                          // Measured for what is still on screen only.
                          if (generation == session_.assignmentGeneration() &&
                              videoGeneration == session_.videoGeneration() &&
                              method == session_.method()) {
                              session_.installSweep(sweep);
                          }
                      }));
}

}  // namespace once::studio
