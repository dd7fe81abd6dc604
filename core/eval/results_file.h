#pragma once
// The resumable results file of `once eval`: JSON Lines appended one whole line at a time (one
// write() with O_APPEND, then fsync), so a killed run leaves complete lines plus at most one
// unterminated tail, which readers ignore and the next run cuts off before appending.
//
// The file is only ever modified when it is a results file: a path holding anything else (a
// malformed line, text without a complete line, a tail that is not the start of a record) is
// refused before any work, and nothing is written until the first record is complete. A new
// file (or one replaced under --overwrite) appears by renaming a temporary file holding its
// first whole record, so it never exists empty or torn.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "eval/eval_record.h"

namespace once {

/// Largest results file read (2 GiB: about two million records).
constexpr std::uint64_t kMaxResultsFileBytes = std::uint64_t(2) << 30;
/// Longest line of a results file (a record is about 1 KB).
constexpr std::size_t kMaxResultsLineBytes = std::size_t(1) << 20;

/// Complete lines of `path` (an unterminated last line is ignored); none if it does not exist.
/// Throws OnceError naming the file and line for a malformed record, a line longer than
/// kMaxResultsLineBytes or a file larger than kMaxResultsFileBytes.
std::vector<EvalRecord> readResults(const std::string& path);

/// An existing results file about to be appended to.
struct ResultsFileCheck {
    bool exists = false;
    std::vector<EvalRecord> records;
};
/// Like readResults, and also throws OnceError naming `path` when it is a folder or, being
/// non-empty, is not a results file: no complete line, or an unterminated tail that does not
/// start a record. What it accepts, ResultsWriter may append to.
ResultsFileCheck checkResultsFile(const std::string& path);

/// Appends records to a results file. Opens nothing until the first append: then a missing
/// file (or any file when `replace`) gets the first record through a temporary file renamed
/// into place; an existing one has its unterminated tail cut (only when checkResultsFile would
/// accept it) and is appended to.
class ResultsWriter {
  public:
    explicit ResultsWriter(const std::string& path, bool replace = false);
    ~ResultsWriter();
    ResultsWriter(const ResultsWriter&) = delete;
    ResultsWriter& operator=(const ResultsWriter&) = delete;
    void append(const EvalRecord& record);

  private:
    void writeAll(const std::string& data);
    std::string path_;
    bool replace_ = false;
    int fd_ = -1;
};

}  // namespace once
