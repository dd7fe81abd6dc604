#include "eval/results_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "util/error.h"

namespace once {

std::vector<EvalRecord> readResults(const std::string& path) {
    std::vector<EvalRecord> out;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return out;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    std::size_t start = 0;
    int line = 0;
    for (std::size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1) {
        ++line;
        std::string l = text.substr(start, nl - start);
        if (l.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        out.push_back(EvalRecord::fromJsonLine(l, path, line));
    }
    return out;  // text after the last newline: a line cut by a kill, ignored
}

ResultsWriter::ResultsWriter(const std::string& path) : path_(path) {
    namespace fs = std::filesystem;
    if (fs::exists(path)) {
        // Cut an unterminated tail (a kill in the middle of a write) before appending.
        std::ifstream in(path, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string text = ss.str();
        const auto keep = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
        if (keep != text.size()) {
            fs::resize_file(path, keep);
        }
    } else if (fs::path(path).has_parent_path()) {
        fs::create_directories(fs::path(path).parent_path());
    }
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd_ < 0) {
        fail("cannot open the results file", path, "output", "a writable path",
             std::strerror(errno));
    }
}

ResultsWriter::~ResultsWriter() {
    if (fd_ >= 0) {
        ::close(fd_);
    }
}

void ResultsWriter::append(const EvalRecord& r) {
    const std::string line = r.toJsonLine() + "\n";
    std::size_t done = 0;
    while (done < line.size()) {
        ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
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

}  // namespace once
