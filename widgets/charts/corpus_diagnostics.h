#pragma once
// What a codebook file says about its training corpus, for the charts' "codebook corpus" side:
// metadata "diagnostics" holding the JSON of once::Diagnostics (decile_shares,
// residual_percentiles), or the same two keys at the top level of the metadata.
#include <QString>
#include <map>
#include <vector>

namespace once {
class Codebook;
}

namespace once::studio {

struct CorpusDiagnostics {
    std::vector<double> decileShares;     ///< 10 values or empty
    std::map<QString, double> residuals;  ///< "R50"… or empty
    static CorpusDiagnostics fromCodebook(const once::Codebook& codebook);
};

}  // namespace once::studio
