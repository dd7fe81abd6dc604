#include "session/studio_session.h"

#include <ATen/Parallel.h>

#include <QFileInfo>

#include "codebook/codebook.h"
#include "session/compression_controller.h"
#include "session/load_steps.h"
#include "session/remote_connection.h"
#include "session/video_loader.h"
#include "tasks/background_task.h"
#include "util/error.h"

namespace once::studio {

StudioSession::FileKind StudioSession::classify(const QString& path) {
    return once::classifyPath(path.toStdString());
}

StudioSession::StudioSession(QObject* parent) : QObject(parent) {
    // The connection first: the compression controller follows its state.
    remote_ = new RemoteConnection(this);
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
    const QString unloaded = codebookMismatch(video, codebook_.get());
    installVideo(std::move(video), unloaded);
}

void StudioSession::setCodebook(std::shared_ptr<const once::Codebook> codebook) {
    installCodebook(std::move(codebook));
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
    return methods::maxBudget(method.isEmpty() ? method_ : method,
                              methods::budgetShape(video_, codebook_ ? codebook_->size() : 0));
}

once::BudgetRange StudioSession::budgetRange(const QString& method) const {
    return methods::budgetRange(method.isEmpty() ? method_ : method,
                                methods::budgetShape(video_, codebook_ ? codebook_->size() : 0));
}

bool StudioSession::canMeasureSweep() const {
    // A server sweeps the method's range on this video; ONCE without a codebook here has none.
    return isPrepared(method_) || (compression_->usesServer() && maxBudget(method_) > 0);
}

bool StudioSession::isPrepared(const QString& method) const {
    return prepared_.has(method.toStdString());
}

std::shared_ptr<once::PreparedCompressor> StudioSession::preparedCompressor(const QString& method) {
    if (!methods::all().contains(method)) {
        return nullptr;
    }
    return prepared_.find(method.toStdString(), methods::params(method, options_.variant));
}

std::uint64_t StudioSession::generation(const QString& method) const {
    return methods::needsCodebook(method) ? codebookGeneration_ : videoGeneration_;
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
    return {videoGeneration_, video_, codebook_, prepared_.all()};
}

// ---- installs ----

void StudioSession::installVideo(VideoData video, const QString& unloaded,
                                 std::shared_ptr<const once::Codebook> codebook) {
    video_ = std::move(video);
    ++videoGeneration_;
    ++codebookGeneration_;
    prepared_.clear();  // prepared for the previous video
    result_.reset();
    resultMachine_.clear();
    sweep_.reset();
    const bool newCodebook = codebook != nullptr;
    if (newCodebook) {
        codebook_ = std::move(codebook);
    } else if (!unloaded.isEmpty()) {
        codebook_.reset();
        emit codebookChanged();
        emit notice(tr("The codebook was unloaded because it does not fit the new video: %1")
                        .arg(unloaded));
    }
    emit videoChanged();
    if (newCodebook) {
        emit codebookChanged();
    }
    emit assignmentChanged();
    emit sweepChanged();
    emit resultChanged();
}

void StudioSession::installCodebook(std::shared_ptr<const once::Codebook> codebook) {
    codebook_ = std::move(codebook);
    ++codebookGeneration_;
    prepared_.forgetCodebook();
    sweep_.reset();
    // A result of a method without a codebook stays.
    const bool resultGone = methods::needsCodebook(method_);
    if (resultGone) {
        result_.reset();
        resultMachine_.clear();
    }
    emit codebookChanged();
    emit assignmentChanged();
    emit sweepChanged();
    if (resultGone) {
        emit resultChanged();
    }
}

void StudioSession::installPrepared(std::shared_ptr<once::PreparedCompressor> compressor) {
    const auto before = prepared_.assignment();
    prepared_.put(std::move(compressor));
    ++preparations_;
    if (prepared_.assignment() != before) {
        emit assignmentChanged();
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
        resultMachine_.clear();
        sweep_.reset();  // measured for the other method
        emit methodChanged();
        emit resultChanged();
        emit sweepChanged();
    }
    if (newOptions) {
        emit optionsChanged();
    }
}

void StudioSession::installResult(std::shared_ptr<const once::CompressionResult> result,
                                  const QString& machine) {
    result_ = std::move(result);
    resultMachine_ = machine;
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
