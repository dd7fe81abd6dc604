#include "cli/command.h"

#include <unistd.h>

#include <cstdio>

namespace once::cli {

namespace {
std::vector<Command>& registry() {
    static std::vector<Command> r;
    return r;
}
}  // namespace

const std::vector<Command>& commands() {
    return registry();
}

CommandRegistrar::CommandRegistrar(Command c) {
    registry().push_back(std::move(c));
}

CancelToken& interruptToken() {
    static CancelToken token;
    return token;
}

Progress terminalProgress(bool quiet) {
    if (quiet || !::isatty(STDERR_FILENO)) {
        return Progress({}, interruptToken());
    }
    return Progress(
        [](const ProgressEvent& e) {
            char line[256];
            if (e.total > 0) {
                const int width = 30;
                const double f = std::min(1.0, e.done / e.total);
                const int fill = int(f * width);
                std::string bar(std::size_t(fill), '#');
                bar.resize(width, '.');
                std::snprintf(line, sizeof line, "\r%-18s [%s] %5.1f%%  %6.1fs  eta %6.1fs  %s",
                              e.stage.c_str(), bar.c_str(), 100 * f, e.elapsedSeconds,
                              e.etaSeconds < 0 ? 0.0 : e.etaSeconds, e.detail.c_str());
            } else {
                std::snprintf(line, sizeof line, "\r%-18s %.0f  %6.1fs  %s", e.stage.c_str(),
                              e.done, e.elapsedSeconds, e.detail.c_str());
            }
            std::fprintf(stderr, "%s\033[K", line);
            if (e.total > 0 && e.done >= e.total) {
                std::fprintf(stderr, "\n");
            }
            std::fflush(stderr);
        },
        interruptToken());
}

}  // namespace once::cli
