#pragma once
// The kept groups a server sends (AskReport::groupOfToken and codewordIds) as the compression
// result the local path produces (compress/compression.h), so the studio's overlay and group
// views draw a remote compression or a remote answer's groups without knowing where they came
// from. Compiled in every build (also without cpp-httplib): the studio links it either way.
#include <memory>

#include "pipeline/answer_session.h"

namespace once {
struct CompressionResult;
}

namespace once::serve {

/// Groups, their sizes and codewords, outputs, coverage; no feature rows, residuals or cosines
/// (those stay on the server). usedCodewords is the number of rows (a server may say more).
std::shared_ptr<CompressionResult> keptGroups(const AskReport& report);

}  // namespace once::serve
