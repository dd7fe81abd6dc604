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
    BackgroundTask* compressTask_;
    BackgroundTask* sweepTask_;
};

}  // namespace once::studio
