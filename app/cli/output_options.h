#pragma once
// What every command that writes files or prints JSON shares: the `--overwrite` flag (what may
// stand at an output's name, util/atomic_file.h) and JSON on stdout that cannot fail on a file
// name that is not UTF-8 (util/json_text.h).
#include <nlohmann/json_fwd.hpp>

#include "cli/arg_parser.h"
#include "util/atomic_file.h"

namespace once::cli {

/// --overwrite: an output that is a symbolic link or a special file is replaced (a regular file
/// always is). `extra` adds what the flag also allows in this command.
void declareOverwrite(ArgParser& p, const std::string& extra = {});
OutputReplace replaceFrom(const ArgParser& a);

/// Prints `j` on stdout (indented by `indent`, one line for -1), names that are not UTF-8
/// included (docs/security.md).
void printJson(const nlohmann::json& j, int indent = 2);

}  // namespace once::cli
