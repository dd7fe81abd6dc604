#pragma once
// The studio document's compression: the method, budget and variant, and the work that turns
// them into the result on screen, on two BackgroundTasks of its own.
//  - The compression worker re-compresses from ONCE's cached assignment or a peer's prepared
//    state, coalescing slider moves so the newest setting always wins. A peer is prepared there
//    once per video and kept per method (the prepared-peer cache), so switching methods back
//    and forth prepares nothing twice.
//  - The sweep worker measures the budget sweep for the current method.
// It listens to the document's signals (a new video forgets the peers, a new assignment
// re-compresses ONCE) and writes back only through the document's install methods.
#include <QObject>
#include <QString>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>

#include "compress/compression.h"
#include "compress/token_compressor.h"

namespace once::studio {

class BackgroundTask;
class StudioSession;
class PreparedPeer;

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

    bool isPeerPrepared(const QString& method) const { return peers_.count(method) > 0; }
    int peerPreparations() const { return preparations_; }

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
    void onVideo();
    void onAssignment();
    /// `budget` inside `method`'s range for the current video and codebook.
    std::int64_t clampedBudget(const QString& method, std::int64_t budget) const;
    /// Keeps the document's budget inside the current method's range.
    void clampBudget();
    /// Computes the result for the current settings, or queues it behind the running one.
    void recompress();
    /// What compresses `method` now: for ONCE a null peer once the assignment and codebook are
    /// there, for a peer its prepared state (null: not prepared yet); nullopt: ONCE lacks them.
    std::optional<std::shared_ptr<PreparedPeer>> source(const QString& method) const;
    void startPreparation(const QString& method);
    void startCompression(std::shared_ptr<PreparedPeer> peer);
    void updateCompressing();

    StudioSession& session_;
    QString errorTitle_;  // of the job on the compression worker
    std::map<QString, std::shared_ptr<PreparedPeer>> peers_;
    int preparations_ = 0;
    /// The budget last asked for (0: none yet): a method that raised or lowered it to fit its
    /// range does not carry that to the next method (issue 30: ONCE 64 → frame drop 729 → ONCE
    /// came back at 256, so methods were no longer compared at the same budget).
    std::int64_t askedBudget_ = 0;
    bool pending_ = false;  // a newer setting waits for the running compression
    bool compressing_ = false;
    BackgroundTask* compressTask_;
    BackgroundTask* sweepTask_;
};

}  // namespace once::studio
