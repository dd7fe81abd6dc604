#include "session_file_controller.h"

#include <QFile>
#include <QFileInfo>
#include <QPushButton>
#include <QTimer>
#include <optional>
#include <string>

#include "input_file_dialogs.h"
#include "overlay/group_overlay.h"
#include "question/question_panel.h"
#include "session/session_autosave.h"
#include "session/session_binder.h"
#include "session/session_document.h"
#include "session/studio_session.h"
#include "tasks/background_task.h"
#include "util/error.h"

namespace once::studio {
namespace {

/// A question over `window` whose default is `accept`, the other answer `other` (in `role`);
/// it deletes itself when closed. Shown with open(): non-blocking like the error box, so
/// loading and the window go on while it is open.
QMessageBox* questionBox(QWidget* window, const QString& title, const QString& text,
                         const QString& accept, const QString& other,
                         QMessageBox::ButtonRole role) {
    auto* box = new QMessageBox(QMessageBox::Question, title, text, QMessageBox::NoButton, window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setDefaultButton(box->addButton(accept, QMessageBox::AcceptRole));
    box->addButton(other, role);
    return box;
}

}  // namespace

SessionFileController::SessionFileController(StudioSession* session, GroupOverlay* overlay,
                                             QuestionPanel* question, const QString& autosaveFolder,
                                             QWidget* window)
    : QObject(window), session_(session), overlay_(overlay), question_(question), window_(window) {
    // Work survives a crash: what is open is autosaved, and a crashed run's is offered back.
    autosave_ = new SessionAutosave(
        session_,
        [this] {
            SessionAutosave::Extras e;
            e.frame = frameOnScreen();
            e.question = question_->askedQuestion();
            e.denseAnswer = question_->denseAnswer();
            e.compressedAnswer = question_->onceAnswer();
            return e;
        },
        autosaveFolder, this);
    connect(question_->task(), &BackgroundTask::finished, autosave_,
            &SessionAutosave::scheduleSave);
    connect(overlay_, &GroupOverlay::currentFrameChanged, autosave_,
            &SessionAutosave::scheduleSave);
    connect(session_, &StudioSession::reencodeOffered, this, &SessionFileController::offerReencode);
    QTimer::singleShot(0, this, [this, autosaveFolder] { offerRecovery(autosaveFolder); });
}

SessionFileController::~SessionFileController() = default;

QString SessionFileController::sessionSuffix() {
    return QString::fromLatin1(once::kSessionFileExtension.data(),
                               qsizetype(once::kSessionFileExtension.size()));
}

bool SessionFileController::isSessionFile(const QString& path) {
    return path.endsWith(sessionSuffix(), Qt::CaseInsensitive);
}

void SessionFileController::endAutosave() {
    delete autosave_;
    autosave_ = nullptr;
}

int SessionFileController::frameOnScreen() const {
    return session_->video().isEmpty() ? -1 : overlay_->currentFrame();
}

void SessionFileController::openSession() {
    const QString path = askOpenFile(window_, tr("Open Session"),
                                     tr("ONCE sessions (*%1);;All files (*)").arg(sessionSuffix()));
    if (!path.isEmpty()) {
        openSessionFile(path);
    }
}

void SessionFileController::saveSession() {
    QString path = askSaveFile(window_, tr("Save Session"),
                               tr("ONCE sessions (*%1);;All files (*)").arg(sessionSuffix()));
    if (path.isEmpty()) {
        return;
    }
    if (!isSessionFile(path) && QFileInfo(path).suffix().isEmpty()) {
        path += sessionSuffix();
    }
    saveSessionFile(path);
}

bool SessionFileController::saveSessionFile(const QString& path) {
    try {
        once::SessionFile file = captureSession(*session_, frameOnScreen());
        if (!question_->askedQuestion().isEmpty()) {
            file.question = question_->askedQuestion().toStdString();
            file.denseAnswer = question_->denseAnswer().toStdString();
            file.compressedAnswer = question_->onceAnswer().toStdString();
        }
        writeSessionFile(path, file);
    } catch (const once::OnceError& e) {
        emit errorOccurred(tr("Cannot save the session"), QString::fromUtf8(e.what()));
        return false;
    }
    emit fileUsed(QFileInfo(path).absoluteFilePath());
    emit announced(tr("Session saved to %1").arg(path), 10000);
    return true;
}

void SessionFileController::openSessionFile(const QString& path) {
    once::ParsedSession parsed;
    try {
        parsed = readSessionFile(path);
    } catch (const once::OnceError& e) {
        emit errorOccurred(tr("Cannot open the session"), QString::fromUtf8(e.what()));
        return;
    }
    QStringList problems;
    for (const auto& p : parsed.problems) {
        problems << QString::fromStdString(p.message());
    }
    emit logged(tr("Opening session %1").arg(path));
    const auto frame = parsed.session.frame;
    const auto text = [](const std::optional<std::string>& s) {
        return s ? QString::fromStdString(*s) : QString();
    };
    const QStringList answers = {text(parsed.session.question), text(parsed.session.denseAnswer),
                                 text(parsed.session.compressedAnswer)};
    restoreSession(
        *session_, parsed.session, path, problems,
        [this, path, frame, answers](QStringList problems) {
            if (!answers[0].isEmpty()) {
                question_->restoreAnswers(answers[0], answers[1], answers[2]);
            }
            if (autosave_ != nullptr) {
                autosave_->scheduleSave();  // the answers are part of what is kept
            }
            if (frame) {
                if (*frame < overlay_->frameCount()) {
                    overlay_->setCurrentFrame(int(*frame));
                } else {
                    const once::SessionProblem pastTheEnd{
                        QFile::encodeName(path).toStdString(), "frame",
                        "a frame index below " + std::to_string(overlay_->frameCount()),
                        std::to_string(*frame)};
                    problems << QString::fromStdString(pastTheEnd.message());
                }
            }
            emit fileUsed(QFileInfo(path).absoluteFilePath());
            if (!problems.isEmpty()) {
                emit errorOccurred(
                    tr("The session was opened without some of its parts"),
                    tr("%1 could not restore everything; the rest is open.\n\n%2")
                        .arg(QFileInfo(path).fileName(), problems.join(QStringLiteral("\n\n"))));
            }
            emit sessionRestored(problems);
        });
}

void SessionFileController::offerRecovery(const QString& folder) {
    const QStringList found = SessionAutosave::orphans(folder);
    if (found.isEmpty() || recoveryBox_) {
        return;
    }
    const QString file = found.first();
    QString what;
    try {
        const once::ParsedSession parsed = readSessionFile(file);
        QStringList parts;
        for (const std::string& p :
             {parsed.session.video, parsed.session.codebook, parsed.session.modelFolder}) {
            if (!p.empty()) {
                parts << QFileInfo(QString::fromStdString(p)).fileName();
            }
        }
        what = parts.join(QStringLiteral(", "));
    } catch (const once::OnceError& e) {
        emit logged(
            tr("The autosave %1 cannot be read: %2").arg(file, QString::fromUtf8(e.what())));
        SessionAutosave::discard(file);
        return;
    }
    recoveryBox_ = questionBox(
        window_, tr("Restore the Last Session?"),
        tr("ONCE Studio did not close normally last time. Restore what was open then (%1), with "
           "its method, budget and last question?")
            .arg(what),
        tr("&Restore"), tr("&Discard"), QMessageBox::DestructiveRole);
    QPushButton* restore = recoveryBox_->defaultButton();
    connect(recoveryBox_, &QMessageBox::buttonClicked, this,
            [this, restore, file](QAbstractButton* button) {
                if (button == restore) {
                    emit logged(tr("Restoring the session of the last run from %1").arg(file));
                    openSessionFile(file);
                }
                // Read by now (openSessionFile parses it at once); this run autosaves anew.
                SessionAutosave::discard(file);
            });
    recoveryBox_->open();
}

void SessionFileController::offerReencode(const QString& featuresBackbone,
                                          const QString& modelBackbone) {
    const auto title = &SessionBinder::encoderTitle;
    if (reencodeBox_) {
        reencodeBox_->close();
    }
    reencodeBox_ = questionBox(
        window_, tr("Re-encode the Video?"),
        tr("The video's features come from the %1 encoder; the model folder's encoder is %2. "
           "Re-encode the video with it, so the model, its codebooks and the charts see the same "
           "features?")
            .arg(title(featuresBackbone), title(modelBackbone)),
        tr("&Re-encode"), tr("&Not Now"), QMessageBox::RejectRole);
    QPushButton* reencode = reencodeBox_->defaultButton();
    connect(reencodeBox_, &QMessageBox::buttonClicked, this,
            [this, reencode, featuresBackbone, title](QAbstractButton* button) {
                if (button == reencode) {
                    session_->reencodeVideo();
                } else {
                    emit logged(tr("The video keeps the features of the %1 encoder.")
                                    .arg(title(featuresBackbone)));
                }
            });
    reencodeBox_->open();
}

}  // namespace once::studio
