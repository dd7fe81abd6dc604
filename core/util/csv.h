#pragma once
// One CSV cell as RFC 4180 writes it, for the engine's CSV outputs (`once eval report`,
// `once bench`): quoted when it holds a comma, a quote or a line break, quotes doubled.
#include <string>

namespace once {

std::string csvField(const std::string& s);

}  // namespace once
