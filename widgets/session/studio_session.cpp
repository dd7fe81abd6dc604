#include "session/studio_session.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>

#include "codebook/codebook.h"
#include "compress/token_compressor.h"
#include "io/file_kind.h"
#include "io/safetensors.h"
#include "models/visual_encoder.h"
#include "session/demo_assets.h"
#include "session/load_steps.h"
#include "session/methods.h"
#include "session/model_latency.h"
#include "tasks/background_task.h"
#include "util/error.h"

namespace once::studio {
namespace {

/// Size of the stand-in demo codebook sampled from the demo video when its file is missing.
constexpr std::int64_t kFallbackCodebookSize = 256;
/// The demo opens at a budget where groups are large enough to see on the frames.
constexpr std::int64_t kDemoBudget = 64;
/// The seed of every peer compression (the paper's runs use 42).
constexpr std::uint64_t kPeerSeed = 42;

// The codebook methods (ONCE) work from the cached assignment; the others from a prepared
// compressor (TokenCompressor::prepare) kept per method.
bool isOnce(const QString& method) {
    return methods::needsCodebook(method);
}

}  // namespace

StudioSession::FileKind StudioSession::classify(const QString& path) {
    return once::classifyPath(path.toStdString());
}

StudioSession::StudioSession(QObject* parent)
    : QObject(parent),
      loadTask_(new BackgroundTask(this)),
      compressTask_(new BackgroundTask(this)),
      sweepTask_(new BackgroundTask(this)) {
    connect(loadTask_, &BackgroundTask::failed, this,
            [this](const QString& message) { emit errorOccurred(loadErrorTitle_, message); });
    connect(loadTask_, &BackgroundTask::finished, this, [this] {
        // A preparation that failed or was cancelled may be asked for again.
        if (!runningPreparation_.isEmpty()) {
            preparing_.erase(runningPreparation_);
            runningPreparation_.clear();
        }
        drainQueue();
    });
    connect(compressTask_, &BackgroundTask::failed, this, [this](const QString& message) {
        emit errorOccurred(tr("Compression failed"), message);
    });
    connect(compressTask_, &BackgroundTask::finished, this, [this] {
        if (compressPending_) {
            compressPending_ = false;
            recompress();
        }
        updateBusy();
    });
    connect(sweepTask_, &BackgroundTask::failed, this, [this](const QString& message) {
        emit errorOccurred(tr("Budget sweep failed"), message);
    });
    connect(sweepTask_, &BackgroundTask::finished, this, &StudioSession::updateBusy);
}

StudioSession::~StudioSession() {
    shutdown();
}

void StudioSession::shutdown() {
    queue_.clear();
    preparing_.clear();
    compressPending_ = false;
    sweepTask_->cancelAndWait();
    compressTask_->cancelAndWait();
    loadTask_->cancelAndWait();
    updateBusy();
}

void StudioSession::cancel() {
    queue_.clear();
    preparing_.clear();  // the queued ones are gone; the running one is cancelled
    if (!runningPreparation_.isEmpty()) {
        preparing_.insert(runningPreparation_);
    }
    loadTask_->cancel();
    sweepTask_->cancel();
}

bool StudioSession::isBusy() const {
    return loadTask_->isRunning() || compressTask_->isRunning() || sweepTask_->isRunning() ||
           !queue_.empty() || compressPending_;
}

void StudioSession::updateBusy() {
    const bool busy = isBusy();
    if (busy != busy_) {
        busy_ = busy;
        emit busyChanged(busy);
    }
}

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

void StudioSession::setPipelineSettings(const PipelineSettings& settings) {
    settings_ = settings;
    if (settings.threads > 0) {
        at::set_num_threads(settings.threads);
    }
}

void StudioSession::enqueue(std::function<void()> start) {
    queue_.push_back(std::move(start));
    drainQueue();
}

void StudioSession::drainQueue() {
    // A queued request may finish without starting a task (nothing to do, or an error found on
    // the GUI thread): go on with the next one until a task runs.
    while (!loadTask_->isRunning() && !queue_.empty()) {
        auto next = std::move(queue_.front());
        queue_.erase(queue_.begin());
        next();
    }
    updateBusy();
}

void StudioSession::openVideo(const QString& path) {
    enqueue([this, path] { startVideo(path); });
}

void StudioSession::openFeatureFile(const QString& path) {
    enqueue([this, path] { startFeatureFile(path); });
}

void StudioSession::openCodebook(const QString& path) {
    enqueue([this, path] { startCodebook(path); });
}

void StudioSession::openModelFolder(const QString& path) {
    enqueue([this, path] { startModelFolder(path); });
}

void StudioSession::loadDemo() {
    enqueue([this] { startDemo(); });
}

void StudioSession::runLoad(const QString& title, const QString& errorTitle, Work work) {
    loadErrorTitle_ = errorTitle;
    loadTask_->start(title, std::move(work));
    updateBusy();
}

void StudioSession::startVideo(const QString& path) {
    const PipelineSettings s = settings_;
    const QString modelDir = model_ ? model_->path : QString();
    const bool cacheMatches = encoder_ && encoderSettings_ == s && encoderModelDir_ == modelDir;
    auto cached = encoder_;
    auto codebook = codebook_;
    const auto options = options_;
    runLoad(
        tr("Opening %1").arg(QFileInfo(path).fileName()), tr("Cannot open video"),
        [=, this](once::Progress& progress) -> std::function<void()> {
            auto encoder = encoderFor(cached, cacheMatches, s, modelDir);
            auto video = std::make_shared<VideoData>(decodeAndEncode(path, s, *encoder, progress));
            const auto outcome = assignIfCompatible(*video, codebook.get(), s, options, progress);
            return [=, this] {
                encoder_ = encoder;
                encoderSettings_ = s;
                encoderModelDir_ = modelDir;
                installVideo(std::move(*video), outcome);
            };
        });
}

void StudioSession::startFeatureFile(const QString& path) {
    const PipelineSettings s = settings_;
    auto codebook = codebook_;
    const auto options = options_;
    runLoad(tr("Opening %1").arg(QFileInfo(path).fileName()), tr("Cannot open feature file"),
            [=, this](once::Progress& progress) -> std::function<void()> {
                auto video = std::make_shared<VideoData>(loadFeatureVideo(path, s, progress));
                const auto outcome =
                    assignIfCompatible(*video, codebook.get(), s, options, progress);
                return [=, this] { installVideo(std::move(*video), outcome); };
            });
}

void StudioSession::installVideo(VideoData video, const AssignOutcome& outcome) {
    video_ = std::move(video);
    resetPeers();
    if (!outcome.unloaded.isEmpty()) {
        codebook_.reset();
        emit codebookChanged();
        emit notice(tr("The codebook was unloaded because it does not fit the new video: %1")
                        .arg(outcome.unloaded));
    }
    emit videoChanged();
    installAssignment(outcome.assignment, outcome.result);
}

void StudioSession::startCodebook(const QString& path) {
    const PipelineSettings s = settings_;
    auto video = std::make_shared<const VideoData>(video_);  // shares the tensors, no copy
    const auto options = options_;
    runLoad(
        tr("Opening %1").arg(QFileInfo(path).fileName()), tr("Cannot open codebook"),
        [=, this](once::Progress& progress) -> std::function<void()> {
            auto codebook =
                std::make_shared<const once::Codebook>(once::Codebook::load(path.toStdString()));
            AssignOutcome outcome;
            if (!video->isEmpty()) {
                // A codebook for another backbone or dimension is refused: the video stays.
                codebook->checkCompatible(video->dim(), video->backbone, video->path.toStdString());
                outcome = assignAndCompress(*video, *codebook, s, options, progress);
            }
            return [=, this] {
                codebook_ = codebook;
                emit codebookChanged();
                installAssignment(outcome.assignment, outcome.result);
            };
        });
}

void StudioSession::startModelFolder(const QString& path) {
    runLoad(tr("Checking model folder %1").arg(QFileInfo(path).fileName()),
            tr("Cannot open model folder"), [=, this](once::Progress&) -> std::function<void()> {
                auto model = std::make_shared<ModelFolder>(ModelFolder::inspect(path));
                return [=, this] {
                    model_ = *model;
                    // A LLaVA-OneVision folder brings its own encoder: later videos use it (the
                    // weight-free demo encoder's features would not fit the model's codebooks).
                    const auto names = once::visualEncoderNames();
                    if (settings_.backbone == QLatin1String("demo") &&
                        model->modelType.startsWith(QLatin1String("llava")) &&
                        std::find(names.begin(), names.end(), "llava-onevision") != names.end()) {
                        settings_.backbone = QStringLiteral("llava-onevision");
                        emit notice(
                            tr("Videos opened from now on are encoded by the model "
                               "folder's LLaVA-OneVision encoder (Preferences ▸ "
                               "Backbone)."));
                    }
                    emit modelChanged();
                };
            });
}

void StudioSession::openPath(const QString& path) {
    switch (classify(path)) {
        case FileKind::Video:
            openVideo(path);
            break;
        case FileKind::FeatureFile:
            openFeatureFile(path);
            break;
        case FileKind::Codebook:
            openCodebook(path);
            break;
        case FileKind::ModelFolder:
            openModelFolder(path);
            break;
        case FileKind::Unknown:
            emit errorOccurred(tr("Cannot open file"),
                               tr("%1: not a video, feature file, codebook or model folder "
                                  "(unknown file type \"%2\").")
                                   .arg(path, QFileInfo(path).suffix()));
            break;
    }
}

void StudioSession::startDemo() {
    const DemoAssets assets = DemoAssets::locate();
    if (!assets.hasVideo()) {
        emit errorOccurred(
            tr("Cannot load the demo"),
            tr("The demo video (demo.mp4) was not found. Looked in "
               "$ONCE_DEMO_DIR, <install prefix>/share/once-studio/demo and the "
               "source tree%1.")
                .arg(assets.folder.isEmpty() ? QString()
                                             : QStringLiteral(" (%1)").arg(assets.folder)));
        return;
    }
    // The demo always uses the demo encoder and its default sampling, whatever the settings.
    PipelineSettings s = settings_;
    s.backbone = QStringLiteral("demo");
    s.sampling = QStringLiteral("uniform:32");
    s.poolStride = 1;
    const bool cacheMatches = encoder_ && encoderSettings_ == s && encoderModelDir_.isEmpty();
    auto cached = encoder_;
    auto options = options_;
    options.budget = kDemoBudget;
    runLoad(
        tr("Loading the demo"), tr("Cannot load the demo"),
        [=, this](once::Progress& progress) -> std::function<void()> {
            auto encoder = encoderFor(cached, cacheMatches, s, QString());
            auto video =
                std::make_shared<VideoData>(decodeAndEncode(assets.video, s, *encoder, progress));
            std::shared_ptr<const once::Codebook> codebook;
            QString note;
            if (assets.hasCodebook()) {
                codebook = std::make_shared<const once::Codebook>(
                    once::Codebook::load(assets.codebook.toStdString()));
            } else {
                codebook = codebookFromFeatures(*video, kFallbackCodebookSize);
                note = tr("The demo codebook (demo_codebook.safetensors) is not installed: "
                          "using %1 codewords sampled from the demo video's own features.")
                           .arg(codebook->size());
            }
            codebook->checkCompatible(video->dim(), video->backbone, assets.video.toStdString());
            const auto outcome = assignAndCompress(*video, *codebook, s, options, progress);
            return [=, this] {
                encoder_ = encoder;
                encoderSettings_ = s;
                encoderModelDir_.clear();
                options_.budget = std::min(kDemoBudget, codebook->size());
                video_ = std::move(*video);
                resetPeers();
                codebook_ = codebook;
                emit videoChanged();
                emit codebookChanged();
                installAssignment(outcome.assignment, outcome.result);
                if (!note.isEmpty()) {
                    emit notice(note);
                }
            };
        });
}

void StudioSession::setVideo(VideoData video) {
    video_ = std::move(video);
    resetPeers();
    emit videoChanged();
    if (codebook_) {
        try {
            codebook_->checkCompatible(video_.dim(), video_.backbone, video_.path.toStdString());
        } catch (const once::OnceError& e) {
            codebook_.reset();
            emit codebookChanged();
            emit notice(tr("The codebook was unloaded because it does not fit the new video: %1")
                            .arg(QString::fromUtf8(e.what())));
        }
    }
    startAssignment();
}

void StudioSession::setCodebook(std::shared_ptr<const once::Codebook> codebook) {
    codebook_ = std::move(codebook);
    emit codebookChanged();
    startAssignment();
}

void StudioSession::startAssignment() {
    if (video_.isEmpty() || !codebook_) {
        installAssignment(nullptr, nullptr);
        return;
    }
    enqueue([this] {
        if (video_.isEmpty() || !codebook_) {
            return;
        }
        const PipelineSettings s = settings_;
        auto video = std::make_shared<const VideoData>(video_);
        auto codebook = codebook_;
        const auto options = options_;
        runLoad(tr("Assigning tokens"), tr("Cannot assign tokens"),
                [=, this](once::Progress& progress) -> std::function<void()> {
                    const auto outcome = assignAndCompress(*video, *codebook, s, options, progress);
                    return [=, this] { installAssignment(outcome.assignment, outcome.result); };
                });
    });
}

void StudioSession::installAssignment(std::shared_ptr<const once::Assignment> assignment,
                                      std::shared_ptr<const once::CompressionResult> result) {
    ++generation_;
    if (assignment) {
        ++preparations_;
    }
    assignment_ = std::move(assignment);
    sweep_.reset();
    emit assignmentChanged();
    emit sweepChanged();
    if (!isOnce(method_)) {
        // A peer does not use the codebook: its result stays; a compression that was running
        // is redone (the generation changed) and a new video's is prepared.
        recompress();
        return;
    }
    if (codebook_ && options_.budget > codebook_->size()) {
        options_.budget = codebook_->size();
    }
    if (result && result->budget == options_.budget && result->variant == options_.variant) {
        result_ = std::move(result);
        emit resultChanged();
    } else {
        result_.reset();
        emit resultChanged();
        recompress();
    }
}

void StudioSession::setBudget(std::int64_t budget) {
    budget = std::max<std::int64_t>(1, budget);
    if (const std::int64_t most = maxBudget(); most > 0) {
        budget = std::min(budget, most);
    }
    if (budget == options_.budget) {
        return;
    }
    options_.budget = budget;
    recompress();
}

void StudioSession::setVariant(once::Variant variant) {
    if (variant == options_.variant) {
        return;
    }
    options_.variant = variant;
    if (isOnce(method_)) {
        recompress();
    }
}

std::int64_t StudioSession::maxBudget() const {
    if (isOnce(method_)) {
        return codebook_ ? codebook_->size() : 0;
    }
    return video_.numTokens();
}

bool StudioSession::isPrepared(const QString& method) const {
    return isOnce(method) ? assignment_ != nullptr : peers_.count(method) > 0;
}

void StudioSession::setMethod(const QString& method) {
    if (method == method_) {
        return;
    }
    if (!methods::all().contains(method)) {
        emit errorOccurred(tr("Unknown compression method"),
                           tr("\"%1\" is not a compression method. Known methods: %2.")
                               .arg(method, methods::all().join(QStringLiteral(", "))));
        return;
    }
    method_ = method;
    if (const std::int64_t most = maxBudget(); most > 0) {
        options_.budget = std::clamp<std::int64_t>(options_.budget, 1, most);
    }
    result_.reset();
    sweep_.reset();  // measured for the other method
    emit methodChanged();
    emit resultChanged();
    emit sweepChanged();
    recompress();
    updateBusy();
}

void StudioSession::resetPeers() {
    ++videoGeneration_;
    peers_.clear();
    if (!isOnce(method_)) {
        result_.reset();  // of the previous video; videoChanged follows
    }
}

void StudioSession::startPreparation(const QString& method) {
    if (video_.isEmpty() || preparing_.count(method)) {
        return;
    }
    preparing_.insert(method);
    enqueue([this, method] {
        if (video_.isEmpty() || peers_.count(method)) {
            preparing_.erase(method);
            return;
        }
        const std::uint64_t videoGeneration = videoGeneration_;
        const once::EncodedVideo tokens = video_;
        const std::int64_t budget = std::clamp<std::int64_t>(
            options_.budget, 1, std::max<std::int64_t>(1, video_.numTokens()));
        runningPreparation_ = method;
        runLoad(tr("Preparing %1").arg(methods::title(method)),
                tr("Cannot prepare %1").arg(methods::title(method)),
                [=, this](once::Progress& progress) -> std::function<void()> {
                    once::CompressorSpec spec;
                    spec.method = method.toStdString();
                    auto peer = std::make_shared<PreparedPeer>();
                    peer->compressor = once::makeCompressor(spec);
                    QElapsedTimer timer;
                    timer.start();
                    peer->compressor->prepare(tokens, &progress);
                    peer->prepareMs = static_cast<double>(timer.nsecsElapsed()) * 1e-6;
                    progress.throwIfCancelled();
                    auto result = std::make_shared<once::CompressionResult>(
                        peer->compressor->compress(budget, kPeerSeed));
                    result->method = method.toStdString();  // the peers leave it to callers
                    return [=, this] {
                        preparing_.erase(method);
                        runningPreparation_.clear();
                        if (videoGeneration != videoGeneration_) {
                            if (method_ == method) {
                                recompress();  // prepare for the video now on screen
                            }
                            return;
                        }
                        peers_[method] = peer;
                        ++preparations_;
                        if (method_ != method) {
                            return;
                        }
                        if (result->budget == options_.budget) {
                            result_ = result;
                            emit resultChanged();
                        } else {
                            recompress();
                        }
                    };
                });
    });
}

void StudioSession::recompress() {
    if (video_.isEmpty()) {
        return;
    }
    std::shared_ptr<PreparedPeer> peer;
    if (isOnce(method_)) {
        if (!assignment_ || !codebook_) {
            return;
        }
    } else {
        const auto it = peers_.find(method_);
        if (it == peers_.end()) {
            startPreparation(method_);
            return;
        }
        peer = it->second;
    }
    if (compressTask_->isRunning()) {
        compressPending_ = true;  // the newest budget runs when this one ends
        updateBusy();
        return;
    }
    const std::uint64_t generation = generation_;
    const QString method = method_;
    auto deliver = [=, this](std::shared_ptr<const once::CompressionResult> result) {
        return [=, this] {
            if (generation != generation_ || method != method_) {
                return;  // the assignment, the video or the method changed meanwhile
            }
            result_ = result;
            emit resultChanged();
        };
    };
    if (peer) {
        const std::int64_t budget = options_.budget;
        compressTask_->start(tr("Compressing"), [=](once::Progress&) -> std::function<void()> {
            std::shared_ptr<once::CompressionResult> result;
            {
                std::lock_guard lock(peer->mutex);
                result = std::make_shared<once::CompressionResult>(
                    peer->compressor->compress(budget, kPeerSeed));
            }
            result->method = method.toStdString();
            return deliver(result);
        });
        updateBusy();
        return;
    }
    const at::Tensor features = video_.features;
    auto assignment = assignment_;
    auto codebook = codebook_;
    const auto options = options_;
    compressTask_->start(tr("Compressing"), [=](once::Progress&) -> std::function<void()> {
        return deliver(std::make_shared<const once::CompressionResult>(
            once::compressAssigned(features, *assignment, *codebook, options)));
    });
    updateBusy();
}

void StudioSession::runBudgetSweep() {
    if (sweepTask_->isRunning() || video_.isEmpty()) {
        return;
    }
    const bool onceMethod = isOnce(method_);
    std::shared_ptr<PreparedPeer> peer;
    if (onceMethod) {
        if (!assignment_ || !codebook_) {
            return;
        }
    } else {
        const auto it = peers_.find(method_);
        if (it == peers_.end()) {
            return;
        }
        peer = it->second;
    }
    const std::uint64_t generation = generation_;
    const std::uint64_t videoGeneration = videoGeneration_;
    const QString method = method_;
    const at::Tensor features = video_.features;
    const std::int64_t numTokens = video_.numTokens();
    // A peer is measured over the budgets it honours (below its minimum it gives no token).
    once::BudgetShape shape;
    shape.frames = video_.numFrames();
    shape.patches = video_.patchesPerFrame();
    shape.gridH = video_.gridH;
    shape.gridW = video_.gridW;
    const once::BudgetRange range = once::budgetRange(method_.toStdString(), shape);
    auto assignment = assignment_;
    auto codebook = codebook_;
    const auto variant = options_.variant;
    // With a model, prefill and end-to-end time are measured too (ONCE's compressed side needs
    // the codebook as a file, which the pipeline loads itself; a peer needs none).
    const bool withModel = model_.has_value() && !video_.path.isEmpty();
    const PipelineKey key = pipelineKey();
    const PipelineInputs inputs = pipelineInputs();
    auto pipeline = answerPipeline_;
    once::CompressorParams params;
    if (onceMethod) {
        params["variant"] = once::variantName(variant);
    }
    sweepTask_->start(
        tr("Measuring the budget sweep"),
        [=, this](once::Progress& progress) -> std::function<void()> {
            std::shared_ptr<BudgetSweep> sweep;
            if (onceMethod) {
                sweep = std::make_shared<BudgetSweep>(
                    measureBudgetSweep(features, *assignment, *codebook, variant, 3, &progress));
            } else {
                sweep = std::make_shared<BudgetSweep>(measureCompressorSweep(
                    [peer](std::int64_t budget) {
                        std::lock_guard lock(peer->mutex);
                        return peer->compressor->compress(budget, kPeerSeed);
                    },
                    sweepBudgets(range.max, range.min), numTokens, peer->prepareMs, 3, &progress));
            }
            sweep->method = method.toStdString();
            if (withModel) {
                measureModelLatency(*sweep, *pipeline, key, inputs, method.toStdString(), params,
                                    &progress);
            }
            return [=, this] {
                if (generation == generation_ && videoGeneration == videoGeneration_ &&
                    method == method_) {
                    sweep_ = *sweep;
                    emit sweepChanged();
                }
            };
        });
    updateBusy();
}

}  // namespace once::studio
