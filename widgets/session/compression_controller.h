#pragma once
// The studio document's compression: the method, budget and variant, and the work that turns
// them into the result on screen, on two BackgroundTasks of its own.
//  - The compression worker prepares a method's compressor once per video (ONCE: its
//    assignment; compress/prepared_compressor.h), which the document keeps, and re-compresses
//    from it, coalescing slider moves so the newest setting always wins. Switching methods back
//    and forth prepares nothing twice; ONCE at another variant adopts the assignment. With a
//    codebook open, the methods whose assignment the views draw (CompressorInfo::hasAssignment)
//    are prepared too, after the one on screen, whichever method that is.
//  - The sweep worker measures the budget sweep for the current method.
// While the session's RemoteConnection is connected, both are asked of the server instead
// (session/remote_jobs.h): a superseded compression is cancelled (which cancels it on the
// server), the result is installed with the server's name, and a server that fails, is busy
// (429) or is gone is reported and this setting is compressed here (a lost server: from then on).
// It listens to the document's signals (a new video or codebook: prepare and compress again)
// and writes back only through the document's install methods.
#include <QObject>
#include <QString>
#include <cstdint>
#include <memory>
#include <optional>

#include "compress/compression.h"
#include "compress/token_compressor.h"

namespace once {
class PreparedCompressor;
}

namespace once::studio {

class BackgroundTask;
class StudioSession;
struct RemoteOutcome;

class CompressionController : public QObject {
    Q_OBJECT
  public:
    /// Child of `session`, whose state it reads and into which it installs.
    explicit CompressionController(StudioSession& session);
    ~CompressionController() override;

    /// A change of method, budget and/or variant; what is unset stays. An unknown method is
    /// an error (the document's errorOccurred) and changes nothing; the budget is clamped to
    /// the (new) method's range (to 1 … the maximum while the method has no budget yet); then
    /// one re-compression, coalesced with the running one.
    struct Change {
        std::optional<QString> method;
        std::optional<std::int64_t> budget;
        std::optional<once::Variant> variant;
    };
    void request(const Change& change);
    void runBudgetSweep();

    BackgroundTask* compressTask() const { return compressTask_; }
    BackgroundTask* sweepTask() const { return sweepTask_; }
    bool isBusy() const { return isCompressing() || isSweeping(); }
    bool isCompressing() const;
    bool isSweeping() const;
    /// Whether the current setting is compressed by the server: connected, a video file (the
    /// server gets its bytes), and neither a failure of this setting nor another token grid.
    bool usesServer() const;
    /// Cancels the running compression, preparation and sweep; the result on screen stays.
    void cancel();
    void shutdown();

  signals:
    void busyChanged();
    void compressingChanged(bool compressing);
    void sweepingChanged(bool sweeping);
    void sweepCancelled();

  private:
    /// A new video or codebook: the budget clamped to the method's new range, then work().
    void onInputs();
    /// `budget` inside `method`'s range for the current video and codebook.
    std::int64_t clampedBudget(const QString& method, std::int64_t budget) const;
    /// Keeps the document's budget inside the current method's range.
    void clampBudget();
    /// Whether the result on screen is the current method's at the current budget (and variant).
    bool resultIsCurrent() const;
    /// A method the views need prepared besides the one on screen: one with an assignment
    /// while a codebook is open and it is not prepared yet; "" when none.
    QString wantedPreparation() const;
    /// Starts the next job toward the current settings (compress, or prepare then compress the
    /// current method; else prepare a wanted one), or queues it behind the running one.
    void work();
    void startPreparation(const QString& method, bool compress);
    void startCompression(std::shared_ptr<once::PreparedCompressor> compressor);
    void startRemoteCompression();
    /// Says why the server gave no result and compresses here instead.
    void onRemoteFailure(const RemoteOutcome& outcome, const QString& title);
    void updateCompressing();

    StudioSession& session_;
    QString errorTitle_;  // of the job on the compression worker
    /// The budget last asked for (0: none yet): a method that raised or lowered it to fit its
    /// range does not carry that to the next method (issue 30: ONCE 64 → frame drop 729 → ONCE
    /// came back at 256, so methods were no longer compared at the same budget).
    std::int64_t askedBudget_ = 0;
    bool pending_ = false;    // a newer setting waits for the running job
    bool succeeded_ = false;  // the running job ended well: go on with the next one
    bool compressing_ = false;
    bool remoteRunning_ = false;  // the running job is a server's: a newer setting cancels it
    bool localFallback_ = false;  // the server failed this setting: it is compressed here
    bool otherGrid_ = false;      // the server's grid is not this video's (until a new one)
    BackgroundTask* compressTask_;
    BackgroundTask* sweepTask_;
};

}  // namespace once::studio
