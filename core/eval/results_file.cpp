#include "eval/results_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "util/atomic_file.h"
#include "util/error.h"
#include "util/json_file.h"
#include "util/regular_file.h"

namespace fs = std::filesystem;

namespace once {
namespace {

struct Scan {
    bool exists = false;
    std::vector<EvalRecord> records;
    std::uint64_t completeBytes = 0;  ///< bytes up to and including the last newline
    std::string tail;                 ///< after the last newline (at most kMaxResultsLineBytes)
};

// Reads `path` line by line without holding more than one line, with the file and line limits.
Scan scan(const std::string& path) {
    Scan s;
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
        return s;
    }
    if (fs::is_directory(status)) {
        fail("the results file is a folder", path, "output", "a JSON Lines file", "a folder");
    }
    RegularFile in = RegularFile::open(path, "output");  // a FIFO is refused, not waited on
    s.exists = true;
    std::string line;
    std::uint64_t total = 0;
    int lineNo = 0;
    char buf[1 << 16];
    while (const std::size_t got = in.read(buf, sizeof buf)) {
        total += got;
        if (total > kMaxResultsFileBytes) {
            fail("results file too large", path, "output",
                 "at most " + std::to_string(kMaxResultsFileBytes) + " bytes", "more");
        }
        std::size_t from = 0;
        for (std::size_t i = 0; i < got; ++i) {
            if (buf[i] != '\n') {
                continue;
            }
            line.append(buf + from, i - from);
            from = i + 1;
            ++lineNo;
            if (line.size() > kMaxResultsLineBytes) {
                fail("results line too long", path, "line " + std::to_string(lineNo),
                     "at most " + std::to_string(kMaxResultsLineBytes) + " bytes",
                     std::to_string(line.size()) + " bytes");
            }
            if (line.find_first_not_of(" \t\r") != std::string::npos) {
                s.records.push_back(EvalRecord::fromJsonLine(line, path, lineNo));
            }
            line.clear();
        }
        line.append(buf + from, got - from);
        if (line.size() > kMaxResultsLineBytes) {
            fail("results line too long", path, "line " + std::to_string(lineNo + 1),
                 "at most " + std::to_string(kMaxResultsLineBytes) + " bytes", "more");
        }
    }
    s.completeBytes = total - line.size();
    s.tail = std::move(line);
    return s;
}

// The file holds only whole records plus, possibly, the start of one cut by a kill.
void requireResultsFile(const Scan& s, const std::string& path) {
    if (s.tail.empty()) {
        return;
    }
    if (s.completeBytes == 0) {
        fail(
            "the output exists and is not a results file of `once eval`; use another path or "
            "--overwrite",
            path, "output", "a JSON Lines results file", "text without a complete line");
    }
    if (s.tail[0] != '{') {
        fail(
            "the output ends in something that is not a results record; use another path or "
            "--overwrite",
            path, "output", "complete records and at most a cut record",
            printableExcerpt(s.tail, 60));
    }
}

}  // namespace

std::vector<EvalRecord> readResults(const std::string& path) {
    return scan(path).records;  // text after the last newline: a line cut by a kill, ignored
}

ResultsFileCheck checkResultsFile(const std::string& path) {
    Scan s = scan(path);
    requireResultsFile(s, path);
    return {s.exists, std::move(s.records)};
}

ResultsWriter::ResultsWriter(const std::string& path, bool replace)
    : path_(path), replace_(replace) {}

ResultsWriter::~ResultsWriter() {
    if (fd_ >= 0) {
        ::close(fd_);
    }
}

void ResultsWriter::writeAll(const std::string& data) {
    std::size_t done = 0;
    while (done < data.size()) {
        ssize_t n = ::write(fd_, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            fail("cannot append to the results file", path_, "output", "free space",
                 std::strerror(errno));
        }
        done += std::size_t(n);
    }
    ::fsync(fd_);
}

void ResultsWriter::append(const EvalRecord& r) {
    const std::string line = r.toJsonLine() + "\n";
    if (fd_ >= 0) {
        writeAll(line);
        return;
    }
    std::error_code ec;
    // A symlink or special file at the name is replaced only under --overwrite, never appended
    // through (O_NOFOLLOW below closes the window between this check and the open).
    checkOutputPath(path_, outputReplace(replace_));
    const bool exists = fs::exists(fs::symlink_status(path_, ec));
    if (exists && !replace_) {
        // Cut an unterminated tail (a kill in the middle of a write) before appending, and only
        // from a file that still is a results file.
        Scan s = scan(path_);
        requireResultsFile(s, path_);
        fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
        if (fd_ < 0) {
            fail("cannot open the results file", path_, "output", "a writable regular file",
                 std::strerror(errno));
        }
        if (!s.tail.empty() && ::ftruncate(fd_, off_t(s.completeBytes)) != 0) {
            const int err = errno;
            ::close(fd_);
            fd_ = -1;
            fail("cannot cut the unterminated last line", path_, "output", "a writable file",
                 std::strerror(err));
        }
        writeAll(line);
        return;
    }
    // New (or replaced) file: the first whole record appears under the final name at once.
    if (fs::path(path_).has_parent_path()) {
        fs::create_directories(fs::path(path_).parent_path(), ec);
    }
    AtomicFile first(path_, outputReplace(replace_));
    first.write(line.data(), line.size());
    fd_ = first.commitKeepOpen();
    // fd_ now writes the file at path_, positioned after the first record.
}

}  // namespace once
