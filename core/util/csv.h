#pragma once
// The CSV tables the engine writes (`once eval report`, `once bench`, analysis/*.h) and reads
// back, RFC 4180 both ways: a cell is quoted when it holds a comma, a quote or a line break, with
// quotes doubled; reading undoes that, one record per line. Read files are untrusted: rows of the
// wrong width are an error naming the file and the line.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace once {

/// One cell as written: `s` itself, or quoted with its quotes doubled.
std::string csvField(const std::string& s);

/// A CSV file as read: the header's cells and every row, each as wide as the header; cells
/// trimmed of surrounding spaces.
struct CsvText {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    /// Index of column `name` in the header, −1 when absent.
    int column(std::string_view name) const;
};

/// Non-empty lines of `text` (LF or CRLF).
std::vector<std::string> csvLines(std::string_view text);
/// One CSV line split into cells.
std::vector<std::string> csvCells(std::string_view line);
/// `text` as a header and rows; throws OnceError naming `source` and the line for a row whose
/// width is not the header's, and for a text without a header line.
CsvText parseCsv(std::string_view text, const std::string& source);

}  // namespace once
