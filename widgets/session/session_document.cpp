#include "session/session_document.h"

#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <QPointer>
#include <memory>

#include "codebook/codebook.h"
#include "compress/compression.h"
#include "models/visual_encoder.h"
#include "session/compression_controller.h"
#include "session/methods.h"
#include "session/studio_session.h"
#include "session/video_loader.h"
#include "tasks/background_task.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/json_file.h"
#include "video/sampling_rule.h"

namespace once::studio {
namespace {

std::string local(const QString& path) {
    return QFile::encodeName(path).toStdString();
}

QString fromLocal(const std::string& path) {
    return QFile::decodeName(QByteArray::fromStdString(path));
}

QString line(const once::SessionProblem& problem) {
    return QString::fromStdString(problem.message());
}

}  // namespace

once::SessionVocabulary sessionVocabulary() {
    once::SessionVocabulary v;
    for (const QString& m : methods::all()) {
        v.methods.push_back(m.toStdString());
    }
    v.variants = once::variantNames();
    v.backbones = once::visualEncoderNames();
    v.dtypes = {"auto", "float32", "float16", "bfloat16"};
    v.checkSampling = [](const std::string& rule) { once::SamplingRule::parse(rule); };
    return v;
}

once::SessionFile captureSession(const StudioSession& session, int frame) {
    once::SessionFile f;
    const VideoData& v = session.video();
    if (!v.isEmpty()) {
        f.video = local(QFileInfo(v.path).absoluteFilePath());
        f.videoKind = v.fromFeatureFile ? once::SessionFile::VideoKind::FeatureFile
                                        : once::SessionFile::VideoKind::Video;
        if (frame >= 0) {
            f.frame = frame;
        }
    }
    if (const QString codebook = session.codebookFile(); !codebook.isEmpty()) {
        f.codebook = local(QFileInfo(codebook).absoluteFilePath());
    }
    if (session.model()) {
        f.modelFolder = local(QFileInfo(session.model()->path).absoluteFilePath());
    }
    f.method = session.method().toStdString();
    f.budget = session.budget();
    f.variant = once::variantName(session.variant());
    const PipelineSettings& s = session.pipelineSettings();
    f.backbone = s.backbone.toStdString();
    f.sampling = s.sampling.toStdString();
    f.dtype = s.dtype.toStdString();
    return f;
}

void writeSessionFile(const QString& path, const once::SessionFile& file) {
    const std::string text = once::serializeSessionFile(file, local(path));
    once::writeFileAtomically(local(path), text);  // throws OnceError naming the file
}

once::ParsedSession readSessionFile(const QString& path) {
    const std::string name = local(path);
    // Missing, a folder, unreadable or over the limit: refused naming the file, as every
    // bounded JSON file of the tree is read.
    const std::string bytes = once::readFileLimited(name, once::kMaxSessionFileBytes);
    once::ParsedSession parsed = once::parseSessionFile(bytes, name, sessionVocabulary());
    for (auto& problem : once::dropMissingSessionFiles(parsed.session, name)) {
        parsed.problems.push_back(std::move(problem));
    }
    return parsed;
}

void restoreSession(StudioSession& session, const once::SessionFile& file, const QString& path,
                    QStringList problems, std::function<void(const QStringList&)> done) {
    // Loads that fail on the way (a damaged video, a codebook for another backbone) are told
    // by the session's errorOccurred; they are gathered here for the summary.
    auto* watcher = new QObject(&session);
    auto gathered = std::make_shared<QStringList>(std::move(problems));
    QObject::connect(&session, &StudioSession::errorOccurred, watcher,
                     [gathered](const QString& title, const QString& message) {
                         gathered->push_back(title + QStringLiteral(": ") + message);
                     });
    QObject::connect(session.loadTask(), &BackgroundTask::cancelled, watcher,
                     &QObject::deleteLater);
    VideoLoader* loader = session.loader();
    if (!file.modelFolder.empty()) {
        session.openModelFolder(fromLocal(file.modelFolder));
    }
    // After the model folder, which may switch the encoder: the encoder and sampling the
    // session's video was opened with.
    loader->then([&session, file] {
        PipelineSettings s = session.pipelineSettings();
        s.backbone = file.backbone ? QString::fromStdString(*file.backbone) : s.backbone;
        s.sampling = file.sampling ? QString::fromStdString(*file.sampling) : s.sampling;
        s.dtype = file.dtype ? QString::fromStdString(*file.dtype) : s.dtype;
        session.setPipelineSettings(s);
    });
    // The video before the codebook: a codebook is checked against the video on screen.
    if (!file.video.empty()) {
        if (file.videoKind == once::SessionFile::VideoKind::FeatureFile) {
            session.openFeatureFile(fromLocal(file.video));
        } else {
            session.openVideo(fromLocal(file.video));
        }
    }
    if (!file.codebook.empty()) {
        session.openCodebook(fromLocal(file.codebook));
    }
    loader->then([&session, file, path, watcher = QPointer<QObject>(watcher), gathered, done] {
        CompressionController::Change change;
        if (file.method) {
            change.method = QString::fromStdString(*file.method);
        }
        if (file.variant) {
            change.variant = once::parseVariant(*file.variant);
        }
        session.compression()->request(change);
        if (file.budget) {
            // The range depends on the restored video and codebook: checked only now.
            const std::int64_t most = session.maxBudget();
            const std::int64_t least = std::min(session.budgetRange().min, most);
            if (most > 0 && (*file.budget < least || *file.budget > most)) {
                const std::int64_t used = std::clamp(*file.budget, least, most);
                gathered->push_back(line(
                    {local(path), "budget",
                     "a budget from " + std::to_string(least) + " to " + std::to_string(most) +
                         " for " + session.method().toStdString() + " on this video",
                     std::to_string(*file.budget) + " (" + std::to_string(used) + " is used)"}));
            }
            session.setBudget(*file.budget);
        }
        delete watcher;
        done(*gathered);
    });
}

}  // namespace once::studio
