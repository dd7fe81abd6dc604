#pragma once
// The comma lists and per-method parameters of the commands that run several compressors
// (eval, bench): one parsing, one error wording.
#include <map>
#include <string>
#include <vector>

#include "cli/arg_parser.h"

namespace once::cli {

/// "a,b,,c" → {"a", "b", "c"}.
std::vector<std::string> splitList(const std::string& s);
/// Each METHOD.KEY=VALUE of `items` into params[METHOD][KEY]; UsageError for another form or a
/// METHOD not in `methods`.
std::map<std::string, std::map<std::string, std::string>> methodParams(
    const std::vector<std::string>& items, const std::vector<std::string>& methods);

}  // namespace once::cli
