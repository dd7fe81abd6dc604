#pragma once
// Subcommands of `once`. Each lives in its own cmd_*.cpp and registers itself with a static
// CommandRegistrar, so adding a command is adding one file.
#include <functional>
#include <string>
#include <vector>

#include "cli/arg_parser.h"
#include "util/progress.h"

namespace once::cli {

struct Command {
    std::string name;     ///< "compress", or "train fit" for a two-word command
    std::string summary;  ///< one line for `once help`
    /// Declares the options on the parser (called before parsing).
    std::function<void(ArgParser&)> declare;
    /// Runs with parsed arguments; returns the exit code.
    std::function<int(const ArgParser&)> run;
};

const std::vector<Command>& commands();

struct CommandRegistrar {
    explicit CommandRegistrar(Command c);
};

/// Cancelled by SIGINT/SIGTERM (installed by main): long commands pass it to the core.
CancelToken& interruptToken();

/// Progress that draws a one-line bar with ETA on stderr when stderr is a terminal (and
/// `quiet` is false); otherwise only honours cancellation.
Progress terminalProgress(bool quiet = false);

}  // namespace once::cli
