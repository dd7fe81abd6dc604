#pragma once
// The resampling options of the commands that report confidence intervals (analyze, diagnose,
// eval, eval report), declared once with their domains (cli/arg_parser.h).
#include <cstdint>
#include <string>

#include "cli/arg_parser.h"

namespace once::cli {

/// Random-exemplar codebooks a diagnostic compares (each is a full assignment pass).
constexpr std::int64_t kMaxRandomCodebooks = 1000;

/// --bootstrap N (0 .. kMaxBootstrapResamples; `help` says what is resampled) and
/// --bootstrap-seed S (0 .. 2^63 - 1).
void declareBootstrap(ArgParser& p, const std::string& help, std::int64_t resamples,
                      std::uint64_t seed);

/// --random-codebooks N (`min` .. kMaxRandomCodebooks) and --random-seed S (0 .. 2^63 - 1).
void declareRandomCodebooks(ArgParser& p, const std::string& help, std::int64_t min,
                            std::int64_t count, const std::string& seedHelp, std::uint64_t seed);

}  // namespace once::cli
