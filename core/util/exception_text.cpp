#include "util/exception_text.h"

#include <c10/util/Exception.h>

#include <new>
#include <stdexcept>

#include "util/error.h"

namespace once {

namespace {

std::string firstLine(const std::string& s) {
    const auto end = s.find('\n');
    std::string line = s.substr(0, end);
    constexpr std::size_t kMaxChars = 300;
    if (line.size() > kMaxChars) {
        line = line.substr(0, kMaxChars) + "...";
    }
    return line;
}

}  // namespace

std::string userMessage(const std::exception& e) {
    if (const auto* o = dynamic_cast<const OnceError*>(&e)) {
        return o->what();
    }
    if (const auto* c = dynamic_cast<const c10::Error*>(&e)) {
        return "computation failed: " + firstLine(c->what_without_backtrace());
    }
    if (dynamic_cast<const std::bad_alloc*>(&e)) {
        return "out of memory (an input may claim more data than this machine holds)";
    }
    const char* kind = dynamic_cast<const std::length_error*>(&e)       ? "length error"
                       : dynamic_cast<const std::out_of_range*>(&e)     ? "out of range"
                       : dynamic_cast<const std::invalid_argument*>(&e) ? "invalid argument"
                                                                        : "exception";
    return std::string("internal error (") + kind + ": " + firstLine(e.what()) +
           "); please report it with the command and the input file";
}

}  // namespace once
