#include "session/compression_controller.h"

#include <algorithm>

#include "codebook/codebook.h"
#include "compress/prepared_compressor.h"
#include "session/methods.h"
#include "session/remote_connection.h"
#include "session/remote_jobs.h"
#include "session/studio_session.h"
#include "session/sweep_job.h"
#include "tasks/background_task.h"

namespace once::studio {

CompressionController::CompressionController(StudioSession& session)
    : QObject(&session),
      session_(session),
      compressTask_(new BackgroundTask(this)),
      sweepTask_(new BackgroundTask(this)) {
    // A cancelled sweep keeps the budgets it measured (issue 30): minutes of work on a long video.
    sweepTask_->setDeliversWhenCancelled(true);
    connect(compressTask_, &BackgroundTask::failed, this,
            [this](const QString& message) { session_.report(errorTitle_, message); });
    connect(compressTask_, &BackgroundTask::succeeded, this, [this] { succeeded_ = true; });
    connect(compressTask_, &BackgroundTask::finished, this, [this] {
        remoteRunning_ = false;
        // After a failure or a cancel only a newer setting starts work again (no retry loop).
        const bool next = pending_ || succeeded_;
        pending_ = false;
        succeeded_ = false;
        if (next) {
            work();
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
    connect(&session_, &StudioSession::videoChanged, this, [this] {
        otherGrid_ = false;
        onInputs();
    });
    // Connected: the result on screen is recomputed by the server; disconnected: it stays.
    connect(session_.remote(), &RemoteConnection::stateChanged, this, [this] {
        localFallback_ = false;
        work();
    });
    connect(&session_, &StudioSession::codebookChanged, this, &CompressionController::onInputs);
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
    localFallback_ = false;  // a new setting asks the server again
    session_.installSettings(method, options);
    work();
}

void CompressionController::onInputs() {
    clampBudget();
    work();
}

bool CompressionController::resultIsCurrent() const {
    const auto r = session_.result();
    const QString method = session_.method();
    // While the server compresses, a result of this machine is not the one wanted.
    if (usesServer() && session_.resultMachine() != session_.remote()->machine()) {
        return false;
    }
    // The variant is a parameter of the methods that take one: a peer's result has none.
    return r && QString::fromStdString(r->method) == method && r->budget == session_.budget() &&
           (!methods::hasVariants(method) || r->variant == session_.variant());
}

QString CompressionController::wantedPreparation() const {
    if (!session_.codebook()) {
        return {};
    }
    for (const QString& method : methods::all()) {
        if (methods::hasAssignment(method) && !session_.isPrepared(method)) {
            return method;
        }
    }
    return {};
}

void CompressionController::work() {
    if (compressTask_->isRunning()) {
        pending_ = true;  // the newest setting runs when this job ends
        if (remoteRunning_) {
            compressTask_->cancel();  // superseded: the server stops when the connection closes
        }
        updateCompressing();
        return;
    }
    if (session_.video().isEmpty()) {
        return;
    }
    if (usesServer()) {
        if (!resultIsCurrent()) {
            startRemoteCompression();
        }
        updateCompressing();
        return;
    }
    const QString method = session_.method();
    const bool usable = !methods::needsCodebook(method) || session_.codebook();
    if (usable && !resultIsCurrent()) {
        if (auto compressor = session_.preparedCompressor(method)) {
            startCompression(std::move(compressor));
        } else {
            startPreparation(method, true);
        }
    } else if (const QString wanted = wantedPreparation(); !wanted.isEmpty()) {
        startPreparation(wanted, false);
    }
    updateCompressing();
}

void CompressionController::startPreparation(const QString& method, bool compress) {
    const std::uint64_t generation = session_.generation(method);
    const once::EncodedVideo video = session_.video();  // shares the tensors, not the pictures
    const auto codebook = methods::needsCodebook(method) ? session_.codebook() : nullptr;
    once::CompressorSpec spec;
    spec.method = method.toStdString();
    spec.params = methods::params(method, session_.variant());
    spec.assign.device = session_.pipelineSettings().device.toStdString();
    const std::int64_t budget = session_.budget();
    errorTitle_ = tr("Cannot prepare %1").arg(methods::title(method));
    compressTask_->start(
        tr("Preparing %1").arg(methods::title(method)),
        [=, this](once::Progress& progress) -> BackgroundTask::Deliver {
            auto compressor = once::PreparedCompressor::prepare(spec, codebook, video, &progress);
            std::shared_ptr<const once::CompressionResult> result;
            if (compress) {
                result = compressor->compress(budget);
            }
            return [=, this] {
                if (generation != session_.generation(method)) {
                    return;  // another video or codebook came meanwhile: work() goes on for it
                }
                session_.installPrepared(compressor);
                if (result && method == session_.method()) {
                    session_.installResult(result);
                }
            };
        });
}

void CompressionController::startCompression(std::shared_ptr<once::PreparedCompressor> compressor) {
    const QString method = session_.method();
    const std::int64_t budget = session_.budget();
    const std::uint64_t generation = session_.generation(method);
    errorTitle_ = tr("Compression failed");
    compressTask_->start(
        tr("Compressing with %1 at B = %2").arg(methods::title(method)).arg(budget),
        [=, this](once::Progress&) -> BackgroundTask::Deliver {
            auto result = compressor->compress(budget);
            return [=, this] {
                if (generation == session_.generation(method) && method == session_.method()) {
                    session_.installResult(result);
                }
            };
        });
}

bool CompressionController::usesServer() const {
    const VideoData& v = session_.video();
    return session_.remote()->isConnected() && !v.isEmpty() && !v.fromFeatureFile &&
           !v.path.isEmpty() && !localFallback_ && !otherGrid_;
}

void CompressionController::startRemoteCompression() {
    const QString method = session_.method();
    const std::uint64_t generation = session_.generation(method);
    const QString machine = session_.remote()->machine();
    errorTitle_ = tr("Compression failed on %1").arg(machine);
    remoteRunning_ = true;
    compressTask_->start(
        tr("Compressing with %1 at B = %2 on %3")
            .arg(methods::title(method))
            .arg(session_.budget())
            .arg(machine),
        makeRemoteCompressJob(session_, [=, this](const RemoteOutcome& o) {
            if (generation != session_.generation(method) || method != session_.method()) {
                return;  // another video, codebook or method meanwhile: work() goes on for it
            }
            if (o.result) {
                session_.installResult(o.result, o.machine);
            } else {
                onRemoteFailure(o, errorTitle_);
            }
        }));
}

void CompressionController::onRemoteFailure(const RemoteOutcome& o, const QString& title) {
    const QString here = tr("Compressing on this machine instead.");
    if (o.otherGrid) {
        otherGrid_ = true;
        session_.inform(tr("%1 compresses a token grid of %2 tokens, not the %3 of the video on "
                           "screen (another encoder, sampling or pooling here). %4")
                            .arg(o.machine, o.error)
                            .arg(session_.video().numTokens())
                            .arg(here));
    } else if (o.busy) {
        localFallback_ = true;
        // Not an error box: the server is fine, and the next setting asks it again.
        session_.inform(o.error + QLatin1Char(' ') + here);
    } else {
        localFallback_ = true;
        session_.report(title, o.error + QLatin1Char('\n') + here);
        if (o.unreachable) {
            session_.remote()->disconnectFromServer();  // the session stays, here
        }
    }
}

void CompressionController::runBudgetSweep() {
    if (sweepTask_->isRunning() || session_.video().isEmpty()) {
        return;
    }
    const QString method = session_.method();
    if (usesServer()) {
        const std::uint64_t generation = session_.generation(method);
        const QString machine = session_.remote()->machine();
        sweepTask_->start(
            tr("Measuring the budget sweep of %1 on %2").arg(methods::title(method), machine),
            makeRemoteSweepJob(
                session_,
                [=, this](const BudgetSweep& sweep) {
                    if (generation == session_.generation(method) && method == session_.method()) {
                        session_.installSweep(sweep);
                    }
                },
                [this, machine](const RemoteOutcome& o) {
                    onRemoteFailure(o, tr("Budget sweep failed on %1").arg(machine));
                    work();  // the result on screen, too, is computed here from now on
                }));
        return;
    }
    auto compressor = session_.preparedCompressor(method);
    if (!compressor) {
        return;  // nothing prepared to measure
    }
    const std::uint64_t generation = session_.generation(method);
    sweepTask_->start(tr("Measuring the budget sweep of %1").arg(methods::title(method)),
                      makeSweepJob(session_, compressor, [=, this](const BudgetSweep& sweep) {
                          // Measured for what is still on screen only.
                          if (generation == session_.generation(method) &&
                              method == session_.method()) {
                              session_.installSweep(sweep);
                          }
                      }));
}

}  // namespace once::studio
