#pragma once
// The sampling options of the commands that generate text (ask, generate), with their domains:
// declared once so both refuse the same values the same way (a usage error, exit 2).
#include <cstdint>
#include <string>

#include "cli/arg_parser.h"

namespace once::cli {

/// Longest answer accepted for --max-new-tokens (2^20 tokens: beyond any model's context).
constexpr std::int64_t kMaxNewTokensOption = std::int64_t(1) << 20;

/// --max-new-tokens N (1 .. kMaxNewTokensOption, default `defaultMaxNewTokens`),
/// --temperature T (finite, 0 .. 100; `temperatureHelp` says what 0 means here) and
/// --top-p P (finite, (0, 1]).
void declareGenerationOptions(ArgParser& p, int defaultMaxNewTokens,
                              const std::string& temperatureHelp);

}  // namespace once::cli
