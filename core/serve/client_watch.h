#pragma once
// Noticing that a client went away, so its work is cancelled instead of finishing for no one.
// cpp-httplib 0.11 (Debian 12) tells a handler the peer's address and port but not the socket,
// and notices a closed peer only when it next writes — after a prefill and a whole generation
// for a non-streamed request. So the server finds the connection's socket by its addresses
// (Linux: /proc/self/fd) and a watcher thread polls the watched sockets for the peer's FIN or
// RST, cancelling the request's CancelToken. The socket is owned and kept open by the HTTP
// worker serving the request, so the descriptor cannot be reused while it is watched.
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "util/progress.h"

namespace once::serve {

/// The descriptor of this process's TCP socket whose local port is `localPort` and whose peer
/// is `peerAddress` (numeric, as getnameinfo writes it) : `peerPort`; −1 when none is found.
int findConnectionSocket(const std::string& peerAddress, int peerPort, int localPort);

/// True when the peer of connected socket `fd` has closed its end (FIN or RST) or the socket is
/// in error; false while it is open (unread request bytes included). Never blocks.
bool peerHasLeft(int fd);

class DisconnectWatcher {
  public:
    /// Polls every `periodMs` milliseconds on its own thread.
    explicit DisconnectWatcher(int periodMs = 100);
    ~DisconnectWatcher();
    DisconnectWatcher(const DisconnectWatcher&) = delete;
    DisconnectWatcher& operator=(const DisconnectWatcher&) = delete;

    /// Cancels `token` once the peer of `fd` has left; returns an id for unwatch. A negative
    /// `fd` (socket not found) is not watched.
    std::uint64_t watch(int fd, CancelToken token);
    void unwatch(std::uint64_t id);

  private:
    void run();
    std::mutex m_;
    std::condition_variable wake_;
    bool stop_ = false;
    std::uint64_t next_ = 1;
    std::map<std::uint64_t, std::pair<int, CancelToken>> watched_;
    int periodMs_;
    std::thread thread_;
};

}  // namespace once::serve
