// A small hand-written parser of the .npy header dict. A regular expression over the header
// recursed per character (a long header overflowed the stack) and read "-3" as 3; this parser
// walks the bytes once, accepts only the grammar NumPy writes, and checks every number.
#include "io/npy_header.h"

#include <cstring>
#include <limits>
#include <optional>

#include "util/error.h"

namespace once {
namespace {

// A short, printable excerpt of untrusted header text for error messages.
std::string excerpt(std::string_view s) {
    std::string out;
    for (char c : s.substr(0, 40)) {
        out += (c >= 32 && c < 127) ? c : '?';
    }
    return "'" + out + (s.size() > 40 ? "...'" : "'");
}

struct DescrType {
    const char* descr;
    DType dtype;
};
constexpr DescrType kDescrs[] = {
    {"<f2", DType::F16}, {"<f4", DType::F32}, {"<f8", DType::F64},
    {"<i2", DType::I16}, {"<i4", DType::I32}, {"<i8", DType::I64},
    {"|i1", DType::I8},  {"|u1", DType::U8},  {"|b1", DType::Bool},
};
constexpr const char* kDescrList = "<f2, <f4, <f8, <i2, <i4, <i8, |i1, |u1 or |b1";

class HeaderParser {
  public:
    HeaderParser(std::string_view text, const std::string& source) : s_(text), source_(source) {}

    NpyHeader parse() {
        NpyHeader h;
        bool haveDescr = false, haveOrder = false, haveShape = false;
        expect('{', "the header dict");
        skipSpace();
        while (peek() != '}') {
            const std::string key = string("a key");
            expect(':', "':' after '" + key + "'");
            if (key == "descr") {
                duplicate(haveDescr, key);
                h.descr = string("descr");
                descr(h);
            } else if (key == "fortran_order") {
                duplicate(haveOrder, key);
                if (boolean()) {
                    fail("Fortran-ordered arrays are not supported", source_, "fortran_order",
                         "False", "True");
                }
            } else if (key == "shape") {
                duplicate(haveShape, key);
                shape(h);
            } else {
                fail("unknown key in the .npy header", source_, "header",
                     "only descr, fortran_order and shape", excerpt(key));
            }
            skipSpace();
            if (peek() == ',') {
                ++pos_;
                skipSpace();
            } else if (peek() != '}') {
                unexpected("',' or '}' in the header dict");
            }
        }
        ++pos_;
        skipSpace();
        if (pos_ != s_.size()) {
            unexpected("only spaces after the header dict");
        }
        if (!haveDescr || !haveOrder || !haveShape) {
            fail("the .npy header lacks a key", source_,
                 !haveDescr   ? "descr"
                 : !haveOrder ? "fortran_order"
                              : "shape",
                 "present", "missing");
        }
        return h;
    }

  private:
    char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
    void skipSpace() {
        while (pos_ < s_.size() &&
               (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) {
            ++pos_;
        }
    }
    [[noreturn]] void unexpected(const std::string& expected) const {
        fail("malformed .npy header", source_, "header at byte " + std::to_string(pos_), expected,
             pos_ < s_.size() ? excerpt(s_.substr(pos_)) : "the end of the header");
    }
    void expect(char c, const std::string& what) {
        skipSpace();
        if (peek() != c) {
            unexpected(what);
        }
        ++pos_;
    }
    void duplicate(bool& seen, const std::string& key) const {
        if (seen) {
            fail("a key appears twice in the .npy header", source_, key, "once", "twice");
        }
        seen = true;
    }
    // 'text' or "text" without escapes (NumPy writes repr() of plain ASCII names).
    std::string string(const std::string& what) {
        skipSpace();
        const char q = peek();
        if (q != '\'' && q != '"') {
            unexpected("a quoted string (" + what + ")");
        }
        const std::size_t begin = ++pos_;
        while (pos_ < s_.size() && s_[pos_] != q) {
            if (s_[pos_] == '\\' || s_[pos_] == '\n') {
                unexpected("a plain string (" + what + ")");
            }
            ++pos_;
        }
        if (pos_ == s_.size()) {
            unexpected("the closing quote of " + what);
        }
        return std::string(s_.substr(begin, pos_++ - begin));
    }
    bool boolean() {
        skipSpace();
        for (const char* word : {"True", "False"}) {
            const std::size_t n = std::strlen(word);
            if (s_.substr(pos_, n) == word) {
                pos_ += n;
                return word[0] == 'T';
            }
        }
        unexpected("True or False (fortran_order)");
    }
    void descr(NpyHeader& h) const {
        for (const DescrType& d : kDescrs) {
            if (h.descr == d.descr) {
                h.dtype = d.dtype;
                return;
            }
        }
        fail("unsupported .npy dtype", source_, "descr", kDescrList, excerpt(h.descr));
    }
    // (d0, d1, ...) with an optional trailing comma; each a non-negative decimal integer.
    void shape(NpyHeader& h) {
        expect('(', "'(' starting the shape tuple");
        skipSpace();
        const std::uint64_t cap = std::uint64_t(1) << 62;
        // Checked: the product of the non-zero dimensions. LibTorch's strides of an empty
        // tensor still multiply them, so (0, 2^40, 2^40) is refused like (2^40, 2^40).
        std::uint64_t elements = 1, nonZero = 1;
        while (peek() != ')') {
            if (peek() == '-') {
                std::size_t end = pos_ + 1;
                while (end < s_.size() && s_[end] >= '0' && s_[end] <= '9') {
                    ++end;
                }
                fail("negative dimension in the .npy shape", source_,
                     "shape[" + std::to_string(h.shape.size()) + "]", "a non-negative integer",
                     std::string(s_.substr(pos_, std::min<std::size_t>(end - pos_, 24))));
            }
            if (peek() < '0' || peek() > '9') {
                unexpected("a dimension (non-negative integer) in the shape");
            }
            std::uint64_t d = 0;
            const std::size_t begin = pos_;
            while (peek() >= '0' && peek() <= '9') {
                d = d * 10 + std::uint64_t(peek() - '0');
                ++pos_;
                if (d > cap) {
                    fail("a dimension in the .npy shape is too large", source_,
                         "shape[" + std::to_string(h.shape.size()) + "]", "at most 2^62",
                         std::string(s_.substr(begin, 24)) + "...");
                }
            }
            if (peek() == 'L') {
                ++pos_;  // Python 2 long literal
            }
            if (h.shape.size() == kMaxNpyDims) {
                fail("too many dimensions in the .npy shape", source_, "shape",
                     "at most " + std::to_string(kMaxNpyDims), "more");
            }
            if (d != 0 && nonZero > cap / d) {
                fail("the .npy shape overflows", source_, "shape", "an element count below 2^62",
                     "a product of more");
            }
            elements *= d;
            nonZero *= d == 0 ? 1 : d;
            h.shape.push_back(std::int64_t(d));
            skipSpace();
            if (peek() == ',') {
                ++pos_;
                skipSpace();
            } else if (peek() != ')') {
                unexpected("',' or ')' in the shape");
            }
        }
        ++pos_;
        h.elements = elements;
    }

    std::string_view s_;
    const std::string& source_;
    std::size_t pos_ = 0;
};

}  // namespace

NpyHeader parseNpyHeader(std::span<const std::uint8_t> bytes, const std::string& source) {
    const std::uint8_t* p = bytes.data();
    const std::size_t size = bytes.size();
    if (size < 10 || std::memcmp(p, "\x93NUMPY", 6) != 0) {
        fail("not a .npy file", source, "magic", "\\x93NUMPY and a header",
             size < 10 ? std::to_string(size) + " bytes" : "other bytes");
    }
    const int major = p[6];
    std::size_t headerLen = 0, pos = 0;
    if (major == 1) {
        headerLen = std::size_t(p[8]) | (std::size_t(p[9]) << 8);
        pos = 10;
    } else if (major == 2 || major == 3) {
        if (size < 12) {
            fail("truncated .npy header", source, "header length", "4 bytes",
                 std::to_string(size - 8) + " bytes");
        }
        headerLen = std::size_t(p[8]) | (std::size_t(p[9]) << 8) | (std::size_t(p[10]) << 16) |
                    (std::size_t(p[11]) << 24);
        pos = 12;
    } else {
        fail("unsupported .npy version", source, "version", "1, 2 or 3", std::to_string(major));
    }
    if (headerLen > kMaxNpyHeaderBytes) {
        fail(".npy header is too long", source, "header length",
             "at most " + std::to_string(kMaxNpyHeaderBytes) + " bytes", std::to_string(headerLen));
    }
    if (headerLen > size - pos) {
        fail("truncated .npy header", source, "header length",
             "at most " + std::to_string(size - pos) + " bytes (the rest of the file)",
             std::to_string(headerLen));
    }
    std::string_view text(reinterpret_cast<const char*>(p + pos), headerLen);
    NpyHeader h = HeaderParser(text, source).parse();
    h.dataOffset = pos + headerLen;
    const std::uint64_t item = dtypeSize(h.dtype);
    if (h.elements > std::numeric_limits<std::uint64_t>::max() / item) {
        fail("the .npy shape overflows", source, "shape", "fewer than 2^64 bytes of data",
             std::to_string(h.elements) + " elements");
    }
    h.dataBytes = h.elements * item;
    const std::uint64_t available = size - h.dataOffset;
    if (available != h.dataBytes) {
        fail(".npy data size does not match its shape", source, "data",
             std::to_string(h.dataBytes) + " bytes for " + std::to_string(h.elements) + " x " +
                 h.descr,
             std::to_string(available) + " bytes");
    }
    return h;
}

}  // namespace once
