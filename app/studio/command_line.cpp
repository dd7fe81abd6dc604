#include "command_line.h"

#include <optional>
#include <string_view>

namespace once::studio {
namespace {
/// The --open-session spelling of `arg` when it is one of Qt's session-manager spellings.
std::optional<std::string> rewritten(std::string_view arg) {
    const std::string option = std::string("--") + kOpenSessionOption;
    for (const std::string_view old : {"--session", "-session"}) {
        if (arg == old) {
            return option;
        }
        if (arg.size() > old.size() && arg.substr(0, old.size()) == old && arg[old.size()] == '=') {
            return option + std::string(arg.substr(old.size()));
        }
    }
    return std::nullopt;
}
}  // namespace

std::vector<std::string> protectStudioArguments(int argc, const char* const* argv) {
    std::vector<std::string> out;
    bool positionalOnly = false;
    for (int i = 0; i < argc; ++i) {
        const std::string_view arg = argv[i] != nullptr ? argv[i] : "";
        const auto replacement = i > 0 && !positionalOnly ? rewritten(arg) : std::nullopt;
        out.emplace_back(replacement ? *replacement : std::string(arg));
        positionalOnly = positionalOnly || (i > 0 && arg == "--");
    }
    return out;
}

}  // namespace once::studio
