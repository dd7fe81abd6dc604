#include "util/error.h"

namespace once {
namespace {

std::string compose(const std::string& message, const OnceError::Where& w) {
    std::string s;
    if (!w.file.empty()) {
        s += w.file + ": ";
    }
    s += message;
    if (!w.field.empty()) {
        s += " [field '" + w.field + "']";
    }
    if (!w.expected.empty() || !w.found.empty()) {
        s += " (expected " + (w.expected.empty() ? std::string("?") : w.expected) + ", found " +
             (w.found.empty() ? std::string("?") : w.found) + ")";
    }
    return s;
}

}  // namespace

OnceError::OnceError(const std::string& message) : std::runtime_error(message), brief_(message) {}

OnceError::OnceError(const std::string& message, Where where)
    : std::runtime_error(compose(message, where)), brief_(message), where_(std::move(where)) {}

void fail(const std::string& message, const std::string& file, const std::string& field,
          const std::string& expected, const std::string& found) {
    throw OnceError(message, OnceError::Where{file, field, expected, found});
}

}  // namespace once
