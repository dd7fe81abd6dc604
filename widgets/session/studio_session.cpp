#include "session/studio_session.h"

#include <ATen/Parallel.h>

#include <QFileInfo>

#include "codebook/codebook.h"
#include "session/compression_controller.h"
#include "session/load_steps.h"
#include "session/video_loader.h"
#include "tasks/background_task.h"
#include "util/error.h"

namespace once::studio {

StudioSession::FileKind StudioSession::classify(const QString& path) {
    return once::classifyPath(path.toStdString());
}

StudioSession::StudioSession(QObject* parent) : QObject(parent) {
    loader_ = new VideoLoader(*this);
    compression_ = new CompressionController(*this);
    connect(loader_, &VideoLoader::busyChanged, this, &StudioSession::updateBusy);
    connect(compression_, &CompressionController::busyChanged, this, &StudioSession::updateBusy);
    connect(compression_, &CompressionController::compressingChanged, this,
            &StudioSession::compressingChanged);
    connect(compression_, &CompressionController::sweepingChanged, this,
            &StudioSession::sweepingChanged);
    connect(compression_, &CompressionController::sweepCancelled, this,
            &StudioSession::sweepCancelled);
}

StudioSession::~StudioSession() {
    shutdown();
}

// ---- requests ----

void StudioSession::openVideo(const QString& path) {
    loader_->open(once::FileKind::Video, path);
}

void StudioSession::openFeatureFile(const QString& path) {
    loader_->open(once::FileKind::FeatureFile, path);
}

void StudioSession::openCodebook(const QString& path) {
    loader_->open(once::FileKind::Codebook, path);
}

void StudioSession::openModelFolder(const QString& path) {
    loader_->open(once::FileKind::ModelFolder, path);
}

void StudioSession::openPath(const QString& path) {
    loader_->open(once::FileKind::Unknown, path);
}

void StudioSession::loadDemo() {
    loader_->loadDemo();
}

void StudioSession::reencodeVideo() {
    loader_->reencode();
}

void StudioSession::setVideo(VideoData video) {
    AssignOutcome outcome;
    if (codebook_) {
        try {
            codebook_->checkCompatible(video.dim(), video.backbone, video.path.toStdString());
        } catch (const once::OnceError& e) {
            outcome.unloaded = QString::fromUtf8(e.what());
        }
    }
    installVideo(std::move(video), outcome);
    loader_->assign();
}

void StudioSession::setCodebook(std::shared_ptr<const once::Codebook> codebook) {
    installCodebook(std::move(codebook), AssignOutcome{});
    loader_->assign();
}

void StudioSession::setBudget(std::int64_t budget) {
    compression_->request({std::nullopt, budget, std::nullopt});
}

void StudioSession::setVariant(once::Variant variant) {
    compression_->request({std::nullopt, std::nullopt, variant});
}

void StudioSession::setMethod(const QString& method) {
    compression_->request({method, std::nullopt, std::nullopt});
}

void StudioSession::runBudgetSweep() {
    compression_->runBudgetSweep();
}

std::int64_t StudioSession::maxBudget(const QString& method) const {
    if (methods::needsCodebook(method.isEmpty() ? method_ : method)) {
        return codebook_ ? codebook_->size() : 0;
    }
    return video_.numTokens();
}

once::BudgetRange StudioSession::budgetRange(const QString& method) const {
    return methods::budgetRange(method.isEmpty() ? method_ : method,
                                methods::budgetShape(video_, codebook_ ? codebook_->size() : 0));
}

bool StudioSession::isPrepared(const QString& method) const {
    return methods::needsCodebook(method) ? assignment_ != nullptr
                                          : compression_->isPeerPrepared(method);
}

int StudioSession::preparationCount() const {
    return assignments_ + compression_->peerPreparations();
}

void StudioSession::setPipelineSettings(const PipelineSettings& settings) {
    settings_ = settings;
    if (settings.threads > 0) {
        at::set_num_threads(settings.threads);
    }
}

// ---- state ----

std::int64_t StudioSession::llmVisualTokens() const {
    return result_ ? result_->numOutputs + video_.layoutTokenCount() : 0;
}

QString StudioSession::codebookFile() const {
    if (!codebook_) {
        return {};
    }
    const QString origin = QString::fromStdString(codebook_->origin());
    return QFileInfo(origin).isFile() ? origin : QString();
}

PipelineKey StudioSession::pipelineKey() const {
    PipelineKey key;
    key.modelDir = model_ ? model_->path : QString();
    key.settings = settings_;
    return key;
}

PipelineInputs StudioSession::pipelineInputs() const {
    return {videoGeneration_, video_, codebook_};
}

// ---- installs ----

void StudioSession::installVideo(VideoData video, const AssignOutcome& outcome,
                                 std::shared_ptr<const once::Codebook> codebook) {
    video_ = std::move(video);
    ++videoGeneration_;
    result_.reset();  // of the previous video
    const bool newCodebook = codebook != nullptr;
    if (newCodebook) {
        codebook_ = std::move(codebook);
    } else if (!outcome.unloaded.isEmpty()) {
        codebook_.reset();
        emit codebookChanged();
        emit notice(tr("The codebook was unloaded because it does not fit the new video: %1")
                        .arg(outcome.unloaded));
    }
    emit videoChanged();
    if (newCodebook) {
        emit codebookChanged();
    }
    installAssignment(outcome.assignment, outcome.result);
    if (!methods::needsCodebook(method_)) {
        emit resultChanged();  // the peer's result of the previous video is gone
    }
}

void StudioSession::installCodebook(std::shared_ptr<const once::Codebook> codebook,
                                    const AssignOutcome& outcome) {
    codebook_ = std::move(codebook);
    emit codebookChanged();
    installAssignment(outcome.assignment, outcome.result);
}

void StudioSession::installAssignment(std::shared_ptr<const once::Assignment> assignment,
                                      std::shared_ptr<const once::CompressionResult> result) {
    ++assignmentGeneration_;
    if (assignment) {
        ++assignments_;
    }
    assignment_ = std::move(assignment);
    sweep_.reset();
    // A peer's result does not depend on the codebook and stays.
    const bool onceMethod = methods::needsCodebook(method_);
    if (onceMethod) {
        const bool matches = assignment_ && result && result->budget == options_.budget &&
                             result->variant == options_.variant;
        result_ = matches ? std::move(result) : nullptr;
    }
    emit assignmentChanged();
    emit sweepChanged();
    if (onceMethod) {
        emit resultChanged();
    }
}

void StudioSession::installModel(const ModelFolder& model) {
    model_ = model;
    emit modelChanged();
}

void StudioSession::installSettings(const QString& method, const once::CompressOptions& options) {
    const bool newMethod = method != method_;
    const bool newOptions =
        options.budget != options_.budget || options.variant != options_.variant;
    method_ = method;
    options_ = options;
    if (newMethod) {
        result_.reset();
        sweep_.reset();  // measured for the other method
        emit methodChanged();
        emit resultChanged();
        emit sweepChanged();
    }
    if (newOptions) {
        emit optionsChanged();
    }
}

void StudioSession::installResult(std::shared_ptr<const once::CompressionResult> result) {
    result_ = std::move(result);
    emit resultChanged();
}

void StudioSession::installSweep(const BudgetSweep& sweep) {
    sweep_ = sweep;
    emit sweepChanged();
}

void StudioSession::report(const QString& title, const QString& message) {
    emit errorOccurred(title, message);
}

void StudioSession::inform(const QString& message) {
    emit notice(message);
}

void StudioSession::offerReencode(const QString& featuresBackbone, const QString& modelBackbone) {
    emit reencodeOffered(featuresBackbone, modelBackbone);
}

// ---- workers ----

BackgroundTask* StudioSession::loadTask() const {
    return loader_->task();
}

BackgroundTask* StudioSession::compressTask() const {
    return compression_->compressTask();
}

BackgroundTask* StudioSession::sweepTask() const {
    return compression_->sweepTask();
}

bool StudioSession::isBusy() const {
    return loader_->isBusy() || compression_->isBusy();
}

bool StudioSession::isCompressing() const {
    return compression_->isCompressing();
}

bool StudioSession::isSweeping() const {
    return compression_->isSweeping();
}

void StudioSession::updateBusy() {
    const bool busy = isBusy();
    if (busy != busy_) {
        busy_ = busy;
        emit busyChanged(busy);
    }
}

void StudioSession::cancel() {
    loader_->cancel();
    compression_->cancel();
}

void StudioSession::shutdown() {
    compression_->shutdown();
    loader_->shutdown();
    updateBusy();
}

}  // namespace once::studio
