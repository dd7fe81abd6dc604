#pragma once
// Progress reporting and cancellation for long work, shared by the CLI (a terminal bar), the GUI
// (a Qt adapter in widgets/) and the tests. The core never sees Qt: it only calls these.
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace once {

/// A cancel flag shared between the thread that asks (UI, signal handler) and the worker.
/// Copies share the same flag. Thread-safe; cancel() is async-signal-safe.
class CancelToken {
  public:
    CancelToken() : flag_(std::make_shared<std::atomic<bool>>(false)) {}
    void cancel() const noexcept { flag_->store(true, std::memory_order_relaxed); }
    bool cancelled() const noexcept { return flag_->load(std::memory_order_relaxed); }
    /// Throws once::Cancelled when cancelled: call at safe points of long loops.
    void throwIfCancelled() const;
    std::atomic<bool>* raw() const noexcept { return flag_.get(); }

  private:
    std::shared_ptr<std::atomic<bool>> flag_;
};

/// One progress event: a stage name, work done of total (total 0 = unknown), and an optional
/// free-form detail (a loss value, a file name).
struct ProgressEvent {
    std::string stage;
    double done = 0;
    double total = 0;
    std::string detail;
    double elapsedSeconds = 0;
    /// Estimated seconds left in this stage (negative when unknown).
    double etaSeconds = -1;
};

/// What long operations take: a sink for events plus the cancel token. Cheap to copy.
/// The sink is called on the worker thread; adapters forward it to where it is drawn.
class Progress {
  public:
    using Sink = std::function<void(const ProgressEvent&)>;

    Progress() = default;
    explicit Progress(Sink sink, CancelToken token = {});

    const CancelToken& token() const noexcept { return token_; }
    bool cancelled() const noexcept { return token_.cancelled(); }
    void throwIfCancelled() const { token_.throwIfCancelled(); }

    /// Start a stage: resets the clock used for elapsed time and ETA.
    void begin(const std::string& stage, double total);
    /// Report progress inside the current stage; also checks for cancellation (throws Cancelled).
    void update(double done, const std::string& detail = {});

  private:
    Sink sink_;
    CancelToken token_;
    std::shared_ptr<struct ProgressState> state_;
};

}  // namespace once
