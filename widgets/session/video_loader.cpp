#include "session/video_loader.h"

#include <QFileInfo>
#include <algorithm>
#include <map>

#include "codebook/codebook.h"
#include "models/backbone.h"
#include "models/visual_encoder.h"
#include "session/demo_assets.h"
#include "session/load_steps.h"
#include "session/studio_session.h"
#include "tasks/background_task.h"

namespace once::studio {
namespace {
/// Size of the stand-in demo codebook sampled from the demo video when its file is missing.
constexpr std::int64_t kFallbackCodebookSize = 256;
/// The demo opens at a budget where groups are large enough to see on the frames.
constexpr std::int64_t kDemoBudget = 64;
}  // namespace

VideoLoader::VideoLoader(StudioSession& session)
    : QObject(&session), session_(session), task_(new BackgroundTask(this)) {
    connect(task_, &BackgroundTask::failed, this,
            [this](const QString& message) { session_.report(errorTitle_, message); });
    connect(task_, &BackgroundTask::finished, this, &VideoLoader::drainQueue);
}

VideoLoader::~VideoLoader() = default;

bool VideoLoader::isBusy() const {
    return task_->isRunning() || !queue_.empty();
}

void VideoLoader::cancel() {
    queue_.clear();
    task_->cancel();
    emit busyChanged();
}

void VideoLoader::shutdown() {
    queue_.clear();
    task_->cancelAndWait();
    emit busyChanged();
}

void VideoLoader::enqueue(std::function<void()> start) {
    queue_.push_back(std::move(start));
    drainQueue();
}

void VideoLoader::drainQueue() {
    // A queued request may finish without starting a task (nothing to do, or an error found on
    // the GUI thread): go on with the next one until a task runs.
    while (!task_->isRunning() && !queue_.empty()) {
        auto next = std::move(queue_.front());
        queue_.erase(queue_.begin());
        next();
    }
    emit busyChanged();
}

void VideoLoader::run(const QString& title, const QString& errorTitle, Work work) {
    errorTitle_ = errorTitle;
    task_->start(title, std::move(work));
}

std::shared_ptr<once::VisualEncoder> VideoLoader::cachedEncoder(const PipelineSettings& settings,
                                                                const QString& modelDir) const {
    return encoderSettings_ == settings && encoderModelDir_ == modelDir ? encoder_ : nullptr;
}

void VideoLoader::keepEncoder(std::shared_ptr<once::VisualEncoder> encoder,
                              const PipelineSettings& settings, const QString& modelDir) {
    encoder_ = std::move(encoder);
    encoderSettings_ = settings;
    encoderModelDir_ = modelDir;
}

void VideoLoader::open(once::FileKind kind, const QString& path) {
    if (kind == once::FileKind::Unknown) {
        kind = StudioSession::classify(path);
    }
    using Start = void (VideoLoader::*)(const QString&);
    static const std::map<once::FileKind, Start> starts = {
        {once::FileKind::Video, &VideoLoader::startVideo},
        {once::FileKind::FeatureFile, &VideoLoader::startFeatureFile},
        {once::FileKind::Codebook, &VideoLoader::startCodebook},
        {once::FileKind::ModelFolder, &VideoLoader::startModelFolder}};
    const auto it = starts.find(kind);
    if (it == starts.end()) {
        session_.report(tr("Cannot open file"),
                        tr("%1: not a video, feature file, codebook or model folder "
                           "(unknown file type \"%2\").")
                            .arg(path, QFileInfo(path).suffix()));
        return;
    }
    enqueue([this, start = it->second, path] { (this->*start)(path); });
}

void VideoLoader::loadDemo() {
    enqueue([this] { startDemo(); });
}

void VideoLoader::assign() {
    if (!session_.video().isEmpty() && session_.codebook()) {
        enqueue([this] { startAssignment(); });
    }
}

void VideoLoader::reencode() {
    enqueue([this] {
        const VideoData& v = session_.video();
        if (!v.isEmpty() && !v.fromFeatureFile) {
            startVideo(v.path);
        }
    });
}

void VideoLoader::then(std::function<void()> step) {
    enqueue(std::move(step));
}

void VideoLoader::startVideo(const QString& path) {
    const PipelineSettings s = session_.pipelineSettings();
    const QString modelDir = session_.model() ? session_.model()->path : QString();
    auto cached = cachedEncoder(s, modelDir);
    auto codebook = session_.codebook();
    const auto options = session_.compressOptions();
    run(tr("Opening %1").arg(QFileInfo(path).fileName()), tr("Cannot open video"),
        [=, this](once::Progress& progress) -> std::function<void()> {
            auto encoder = encoderFor(cached, cached != nullptr, s, modelDir);
            auto video = std::make_shared<VideoData>(decodeAndEncode(path, s, *encoder, progress));
            const auto outcome = assignIfCompatible(*video, codebook.get(), s, options, progress);
            return [=, this] {
                keepEncoder(encoder, s, modelDir);
                session_.installVideo(std::move(*video), outcome);
            };
        });
}

void VideoLoader::startFeatureFile(const QString& path) {
    const PipelineSettings s = session_.pipelineSettings();
    auto codebook = session_.codebook();
    const auto options = session_.compressOptions();
    run(tr("Opening %1").arg(QFileInfo(path).fileName()), tr("Cannot open feature file"),
        [=, this](once::Progress& progress) -> std::function<void()> {
            auto video = std::make_shared<VideoData>(loadFeatureVideo(path, s, progress));
            const auto outcome = assignIfCompatible(*video, codebook.get(), s, options, progress);
            return [=, this] { session_.installVideo(std::move(*video), outcome); };
        });
}

void VideoLoader::startCodebook(const QString& path) {
    const PipelineSettings s = session_.pipelineSettings();
    auto video = std::make_shared<const VideoData>(session_.video());  // shares the tensors
    const auto options = session_.compressOptions();
    run(tr("Opening %1").arg(QFileInfo(path).fileName()), tr("Cannot open codebook"),
        [=, this](once::Progress& progress) -> std::function<void()> {
            auto codebook =
                std::make_shared<const once::Codebook>(once::Codebook::load(path.toStdString()));
            AssignOutcome outcome;
            if (!video->isEmpty()) {
                // A codebook for another backbone or dimension is refused: the video stays.
                codebook->checkCompatible(video->dim(), video->backbone, video->path.toStdString());
                outcome = assignAndCompress(*video, *codebook, s, options, progress);
            }
            return [=, this] { session_.installCodebook(codebook, outcome); };
        });
}

void VideoLoader::startModelFolder(const QString& path) {
    run(tr("Checking model folder %1").arg(QFileInfo(path).fileName()),
        tr("Cannot open model folder"), [=, this](once::Progress&) -> std::function<void()> {
            auto model = std::make_shared<ModelFolder>(ModelFolder::inspect(path));
            return [=, this] {
                // A model folder brings its own encoder (its backbone's): later videos use it,
                // sampled as that backbone expects unless the user chose another sampling (the
                // demo encoder's features would not fit the model or its codebooks).
                PipelineSettings s = session_.pipelineSettings();
                const auto names = once::visualEncoderNames();
                const std::string backbone = model->backbone.toStdString();
                const bool knownEncoder =
                    std::find(names.begin(), names.end(), backbone) != names.end();
                const bool switchEncoder =
                    !model->backbone.isEmpty() && s.backbone != model->backbone && knownEncoder;
                // A sampling left at the studio backbone's default follows the folder's: its
                // backbone's, or for Qwen3.5 its video processor's (as transformers samples).
                // defaultSampling covers the demo encoder and names without a language side
                // too ("uniform:32").
                const bool defaultSampling =
                    s.sampling.isEmpty() ||
                    s.sampling.toStdString() == once::defaultSampling(s.backbone.toStdString());
                const bool followSampling = defaultSampling && !model->samplingDefault.isEmpty() &&
                                            s.sampling != model->samplingDefault &&
                                            (switchEncoder || s.backbone == model->backbone);
                if (switchEncoder || followSampling) {
                    s.backbone = switchEncoder ? model->backbone : s.backbone;
                    s.sampling = followSampling ? model->samplingDefault : s.sampling;
                    session_.setPipelineSettings(s);
                    session_.inform(
                        tr("Videos opened from now on are encoded by the model folder's %1 "
                           "encoder, sampled %2 (Preferences ▸ Backbone).")
                            .arg(QString::fromStdString(once::backboneInfo(backbone).title),
                                 s.sampling));
                }
                session_.installModel(*model);
                // The video on screen keeps the features of the encoder it was opened with:
                // offer to encode it again with the model's (issue 16).
                const VideoData& v = session_.video();
                const QString features = QString::fromStdString(v.backbone);
                if (!v.isEmpty() && !v.fromFeatureFile && knownEncoder &&
                    features != model->backbone) {
                    session_.offerReencode(features, model->backbone);
                }
            };
        });
}

void VideoLoader::startDemo() {
    const DemoAssets assets = DemoAssets::locate();
    if (!assets.hasVideo()) {
        session_.report(
            tr("Cannot load the demo"),
            tr("The demo video (demo.mp4) was not found. Looked in "
               "$ONCE_DEMO_DIR, <install prefix>/share/once-studio/demo and the "
               "source tree%1.")
                .arg(assets.folder.isEmpty() ? QString()
                                             : QStringLiteral(" (%1)").arg(assets.folder)));
        return;
    }
    // The demo always uses the demo encoder and its default sampling, whatever the settings.
    PipelineSettings s = session_.pipelineSettings();
    s.backbone = QStringLiteral("demo");
    s.sampling = QStringLiteral("uniform:32");
    s.poolStride = 1;
    auto cached = cachedEncoder(s, QString());
    auto options = session_.compressOptions();
    options.budget = kDemoBudget;
    run(tr("Loading the demo"), tr("Cannot load the demo"),
        [=, this](once::Progress& progress) -> std::function<void()> {
            auto encoder = encoderFor(cached, cached != nullptr, s, QString());
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
                keepEncoder(encoder, s, QString());
                auto demoOptions = session_.compressOptions();
                demoOptions.budget = std::min(kDemoBudget, codebook->size());
                session_.installSettings(session_.method(), demoOptions);
                session_.installVideo(std::move(*video), outcome, codebook);
                if (!note.isEmpty()) {
                    session_.inform(note);
                }
            };
        });
}

void VideoLoader::startAssignment() {
    if (session_.video().isEmpty() || !session_.codebook()) {
        return;
    }
    const PipelineSettings s = session_.pipelineSettings();
    auto video = std::make_shared<const VideoData>(session_.video());
    auto codebook = session_.codebook();
    const auto options = session_.compressOptions();
    const std::uint64_t generation = session_.assignmentGeneration();
    run(tr("Assigning tokens"), tr("Cannot assign tokens"),
        [=, this](once::Progress& progress) -> std::function<void()> {
            const auto outcome = assignAndCompress(*video, *codebook, s, options, progress);
            return [=, this] {
                // A video or codebook installed meanwhile brings its own assignment.
                if (generation == session_.assignmentGeneration()) {
                    session_.installAssignment(outcome.assignment, outcome.result);
                }
            };
        });
}

}  // namespace once::studio
