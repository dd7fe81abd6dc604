// `once`: the headless front end. Dispatches to the registered subcommands.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "util/error.h"
#include "util/exception_text.h"

namespace {

// Ctrl-C and SIGTERM ask the command to stop at its next safe point, where it cleans up and
// exits with 130. Some waits have no such point (a library call, a read the file system holds
// up): a second signal, or kForcedExitSeconds after the first, ends the process at once, so a
// signal is never ignored.
constexpr unsigned kForcedExitSeconds = 10;
std::atomic<int> gSignals{0};  // lock-free: safe in a signal handler

void forcedExit(int) {
    static const char message[] = "\nonce: stopped without cleaning up (no safe point reached)\n";
    const ssize_t written = ::write(STDERR_FILENO, message, sizeof message - 1);
    (void)written;
    ::_exit(130);
}

void onSignal(int signal) {
    if (gSignals.fetch_add(1) > 0) {
        forcedExit(signal);
    }
    once::cli::interruptToken().cancel();
    ::alarm(kForcedExitSeconds);
}

void installSignalHandlers() {
    once::cli::interruptToken();  // constructed here, not first in a signal handler
    struct sigaction on {};
    on.sa_handler = onSignal;
    on.sa_flags = SA_RESTART;  // as std::signal had it: interrupted reads resume
    sigemptyset(&on.sa_mask);
    ::sigaction(SIGINT, &on, nullptr);
    ::sigaction(SIGTERM, &on, nullptr);
    struct sigaction alarmed {};
    alarmed.sa_handler = forcedExit;
    sigemptyset(&alarmed.sa_mask);
    ::sigaction(SIGALRM, &alarmed, nullptr);
}

void printUsage() {
    std::cout << "usage: once <command> [options]   (once <command> --help for details)\n\n"
                 "ONCE: video-token compression with a global codebook.\n\ncommands:\n";
    // The name column is as wide as the longest name, so two-word commands stay aligned.
    int width = 0;
    for (const auto& c : once::cli::commands()) {
        width = std::max(width, static_cast<int>(c.name.size()));
    }
    for (const auto& c : once::cli::commands()) {
        std::printf("  %-*s  %s\n", width, c.name.c_str(), c.summary.c_str());
    }
}

}  // namespace

int main(int argc, char** argv) {
    installSignalHandlers();
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
        printUsage();
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version") {
        std::cout << "once " ONCE_VERSION "\n";
        return 0;
    }
    // Longest match first, so "train fit" wins over a hypothetical "train".
    const once::cli::Command* cmd = nullptr;
    std::size_t used = 0;
    for (const auto& c : once::cli::commands()) {
        const std::string two = args.size() > 1 ? args[0] + " " + args[1] : "";
        if (c.name == two && used < 2) {
            cmd = &c;
            used = 2;
        } else if (c.name == args[0] && used < 1) {
            cmd = &c;
            used = 1;
        }
    }
    if (!cmd) {
        // A group word alone ("once analyze", "once train --help"): list its subcommands.
        std::vector<const once::cli::Command*> group;
        for (const auto& c : once::cli::commands()) {
            if (c.name.rfind(args[0] + " ", 0) == 0) {
                group.push_back(&c);
            }
        }
        if (!group.empty()) {
            const bool help = args.size() > 1 && (args[1] == "--help" || args[1] == "-h");
            std::FILE* out = help ? stdout : stderr;
            std::fprintf(out, "once %s needs a subcommand%s:\n", args[0].c_str(),
                         args.size() > 1 && !help ? (" (not '" + args[1] + "')").c_str() : "");
            for (const auto* c : group) {
                std::fprintf(out, "  %-24s %s\n", c->name.c_str(), c->summary.c_str());
            }
            return help ? 0 : 2;
        }
        std::cerr << "once: unknown command '" << args[0] << "'\n\n";
        printUsage();
        return 2;
    }
    once::cli::ArgParser parser(cmd->name, cmd->summary);
    cmd->declare(parser);
    try {
        parser.parse({args.begin() + std::ptrdiff_t(used), args.end()});
        if (parser.helpRequested()) {
            std::cout << parser.help();
            return 0;
        }
        return cmd->run(parser);
    } catch (const once::cli::UsageError& e) {
        std::cerr << "once " << cmd->name << ": " << e.what() << "\n\n" << parser.help();
        return 2;
    } catch (const once::Cancelled&) {
        std::cerr << "\nonce " << cmd->name << ": cancelled\n";
        return 130;
    } catch (const once::OnceError& e) {
        std::cerr << "once " << cmd->name << ": error: " << e.what() << "\n";
        return 1;
    } catch (const std::exception& e) {
        // A LibTorch error, an allocation sized from a file, a library's own text: one line.
        std::cerr << "once " << cmd->name << ": error: " << once::userMessage(e) << "\n";
        return 1;
    }
}
