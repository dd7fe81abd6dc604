#include "util/csv.h"

#include "util/error.h"

namespace once {
namespace {

constexpr const char* kSpace = " \t\r\n\v\f";

std::string trimmed(std::string_view s) {
    const auto first = s.find_first_not_of(kSpace);
    if (first == std::string_view::npos) {
        return {};
    }
    return std::string(s.substr(first, s.find_last_not_of(kSpace) - first + 1));
}

}  // namespace

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) {
        return s;
    }
    std::string q = "\"";
    for (char c : s) {
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return q + "\"";
}

int CsvText::column(std::string_view name) const {
    for (std::size_t i = 0; i < header.size(); ++i) {
        if (header[i] == name) {
            return int(i);
        }
    }
    return -1;
}

std::vector<std::string> csvLines(std::string_view text) {
    std::vector<std::string> lines;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) {
            end = text.size();
        }
        std::string_view line = text.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        if (!line.empty()) {
            lines.emplace_back(line);
        }
        pos = end + 1;
    }
    return lines;
}

std::vector<std::string> csvCells(std::string_view line) {
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char ch = line[i];
        if (quoted) {
            if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                cells.back() += ch;
                ++i;
            } else if (ch == '"') {
                quoted = false;
            } else {
                cells.back() += ch;
            }
        } else if (ch == '"') {
            quoted = true;
        } else if (ch == ',') {
            cells.emplace_back();
        } else {
            cells.back() += ch;
        }
    }
    return cells;
}

CsvText parseCsv(std::string_view text, const std::string& source) {
    const std::vector<std::string> lines = csvLines(text);
    if (lines.empty()) {
        fail("empty table", source, {}, "a header line and rows", "nothing");
    }
    CsvText t;
    for (const std::string& h : csvCells(lines.front())) {
        t.header.push_back(trimmed(h));
    }
    for (std::size_t i = 1; i < lines.size(); ++i) {
        std::vector<std::string> cells = csvCells(lines[i]);
        if (cells.size() != t.header.size()) {
            fail("wrong number of columns", source, "line " + std::to_string(i + 1),
                 std::to_string(t.header.size()), std::to_string(cells.size()));
        }
        for (std::string& c : cells) {
            c = trimmed(c);
        }
        t.rows.push_back(std::move(cells));
    }
    return t;
}

}  // namespace once
