#pragma once
// One line for the user from any exception that escapes to a front end. Readers throw OnceError
// naming the file and field; this is the safety net for the rest, so that a LibTorch backtrace,
// `stoll`, `[json.exception...]` or `cannot create std::vector larger than max_size()` never
// reaches a terminal or a dialog as it is.
#include <exception>
#include <string>

namespace once {

/// OnceError: its text. c10::Error: its message without the backtrace, first line only.
/// std::bad_alloc: "out of memory". Other standard exceptions: "internal error (<kind>: <first
/// line>)", marked as a bug to report, since a reader should have named the file instead.
std::string userMessage(const std::exception& e);

}  // namespace once
