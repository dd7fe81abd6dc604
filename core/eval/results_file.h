#pragma once
// The resumable results file of `once eval`: JSON Lines appended one whole line at a time (one
// write() with O_APPEND, then fsync), so a killed run leaves complete lines plus at most one
// unterminated tail, which readers ignore and the next run cuts off before appending.
#include <string>
#include <vector>

#include "eval/eval_record.h"

namespace once {

/// Complete lines of `path` (an unterminated last line is ignored); none if it does not exist.
std::vector<EvalRecord> readResults(const std::string& path);

/// Appends records to a results file, creating it; cuts an unterminated tail first.
class ResultsWriter {
  public:
    explicit ResultsWriter(const std::string& path);
    ~ResultsWriter();
    ResultsWriter(const ResultsWriter&) = delete;
    ResultsWriter& operator=(const ResultsWriter&) = delete;
    void append(const EvalRecord& record);

  private:
    std::string path_;
    int fd_ = -1;
};

}  // namespace once
