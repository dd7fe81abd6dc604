#include "serve/client_watch.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <system_error>

namespace once::serve {
namespace {

// Numeric host and port of a socket address, as cpp-httplib writes Request::remote_addr.
bool numeric(const sockaddr_storage& a, socklen_t len, std::string& host, int& port) {
    char h[NI_MAXHOST], s[NI_MAXSERV];
    if (getnameinfo(reinterpret_cast<const sockaddr*>(&a), len, h, sizeof h, s, sizeof s,
                    NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
        return false;
    }
    host = h;
    port = std::atoi(s);
    return true;
}

}  // namespace

int findConnectionSocket(const std::string& peerAddress, int peerPort, int localPort) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd", ec)) {
        const std::string link = std::filesystem::read_symlink(entry.path(), ec).string();
        if (ec || link.rfind("socket:", 0) != 0) {
            ec.clear();
            continue;
        }
        const int fd = std::atoi(entry.path().filename().c_str());
        sockaddr_storage local{}, peer{};
        socklen_t localLen = sizeof local, peerLen = sizeof peer;
        if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &localLen) != 0 ||
            getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &peerLen) != 0) {
            continue;  // a listening or unconnected socket
        }
        std::string localHost, peerHost;
        int lport = 0, pport = 0;
        if (numeric(local, localLen, localHost, lport) && numeric(peer, peerLen, peerHost, pport) &&
            lport == localPort && pport == peerPort && peerHost == peerAddress) {
            return fd;
        }
    }
    return -1;
}

bool peerHasLeft(int fd) {
    pollfd p{fd, POLLIN | POLLRDHUP, 0};
    if (poll(&p, 1, 0) < 0) {
        return false;
    }
    if (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) {
        return true;
    }
    if (p.revents & POLLIN) {
        char c;
        return recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0;  // 0: orderly shutdown
    }
    return false;
}

DisconnectWatcher::DisconnectWatcher(int periodMs)
    : periodMs_(periodMs), thread_([this] { run(); }) {}

DisconnectWatcher::~DisconnectWatcher() {
    {
        std::lock_guard lock(m_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

std::uint64_t DisconnectWatcher::watch(int fd, CancelToken token) {
    std::lock_guard lock(m_);
    const std::uint64_t id = next_++;
    if (fd >= 0) {
        watched_.emplace(id, std::make_pair(fd, std::move(token)));
    }
    return id;
}

void DisconnectWatcher::unwatch(std::uint64_t id) {
    std::lock_guard lock(m_);
    watched_.erase(id);
}

void DisconnectWatcher::run() {
    std::unique_lock lock(m_);
    while (!stop_) {
        wake_.wait_for(lock, std::chrono::milliseconds(periodMs_));
        for (const auto& [id, w] : watched_) {
            if (!w.second.cancelled() && peerHasLeft(w.first)) {
                w.second.cancel();
            }
        }
    }
}

}  // namespace once::serve
