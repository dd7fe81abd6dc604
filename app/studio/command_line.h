#pragma once
// The arguments once-studio hands to Qt (issue 30): Qt's X11 integration takes "-session ID"
// and "--session ID" as a session-manager argument and removes them before the studio's
// parser runs, so `once-studio --session FILE` opened an empty window without a word. The
// studio's option is --open-session; the old spellings are rewritten to it before Qt sees them.
#include <string>
#include <vector>

namespace once::studio {

/// The option that reopens a session file; "session" is accepted as its alias.
inline constexpr const char* kOpenSessionOption = "open-session";

/// `argv` with "-session X", "--session X", "-session=X" and "--session=X" rewritten to
/// "--open-session …" (argv[0] and everything else unchanged; nothing after "--").
std::vector<std::string> protectStudioArguments(int argc, const char* const* argv);

}  // namespace once::studio
