#pragma once
// The one error type of `core`. Every failure a user can cause (bad file, bad option, shape
// mismatch) is reported as an OnceError naming the file, the field, what was expected and what
// was found, so the CLI can print it and the GUI can show it in a dialog.
#include <stdexcept>
#include <string>

namespace once {

class OnceError : public std::runtime_error {
  public:
    struct Where {
        std::string file;      ///< file (or source) the problem is in; may be empty
        std::string field;     ///< field, tensor or option name; may be empty
        std::string expected;  ///< what was expected; may be empty
        std::string found;     ///< what was found; may be empty
    };

    explicit OnceError(const std::string& message);
    OnceError(const std::string& message, Where where);

    const Where& where() const noexcept { return where_; }
    /// The message without the location details (what() holds the full text).
    const std::string& brief() const noexcept { return brief_; }

  private:
    std::string brief_;
    Where where_;
};

/// Thrown by long operations when their CancelToken was triggered. Not an error for the user.
class Cancelled : public std::runtime_error {
  public:
    Cancelled() : std::runtime_error("cancelled") {}
};

/// Shorthand: throw OnceError{message, {file, field, expected, found}}.
[[noreturn]] void fail(const std::string& message, const std::string& file = {},
                       const std::string& field = {}, const std::string& expected = {},
                       const std::string& found = {});

}  // namespace once
