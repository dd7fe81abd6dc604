#include "cli/generation_options.h"

namespace once::cli {

void declareGenerationOptions(ArgParser& p, int defaultMaxNewTokens,
                              const std::string& temperatureHelp) {
    p.option("max-new-tokens", "N", "longest answer in tokens",
             std::to_string(defaultMaxNewTokens))
        .integerIn(1, kMaxNewTokensOption)
        .option("temperature", "T", temperatureHelp, "0")
        .numberIn(0, 100)
        .option("top-p", "P", "nucleus mass when sampling", "1")
        .numberAbove(0, 1);
}

}  // namespace once::cli
