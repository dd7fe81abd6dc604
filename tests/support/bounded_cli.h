#pragma once
// Running the `once` CLI as a user's shell would, for the security suites: under coreutils
// `timeout` (a hang ends as a failure, never as a stuck test), with extra environment variables
// (HF_HUB_CACHE, HF_HOME), stdin closed. And what those suites build their inputs from: FIFOs,
// copies of folders, fingerprints of every file of a folder.
#include <QString>
#include <QStringList>
#include <QtGlobal>
#include <map>
#include <string>

namespace once::test {

struct BoundedRun {
    int exitCode = -1;      ///< the command's; 124 when `timeout` stopped it, 137 when killed
    bool timedOut = false;  ///< 124 or 137: it did not end on its own
    qint64 ms = 0;
    QString out, err;
    QString text() const { return out + err; }
};

/// `timeout --kill-after=5 SECONDS once ARGS` with `env` ("NAME=value") added to the
/// environment.
BoundedRun runCliBounded(const QStringList& args, int seconds = 120, const QStringList& env = {});

/// Makes a FIFO at `path` (replacing a file there); QFAILs the caller's test via the result.
bool makeFifo(const std::string& path);

/// Copies folder `from` to `to` recursively, symlinks copied as symlinks.
void copyTree(const std::string& from, const std::string& to);

/// A one-question EgoSchema benchmark for `once eval --benchmark egoschema`: `dir`/ann/
/// (questions.json, subset_answers.json) about `dir`/videos/q1.mp4, a copy of the real clip;
/// what is at those paths (a FIFO a test made) is replaced.
void writeOneQuestionEgoschema(const std::string& dir);

/// Relative path → SHA-256 of every regular file under `dir` (symlinks followed) and "-> target"
/// of every symlink: equal before and after a run means nothing there was touched.
std::map<std::string, std::string> treeFingerprint(const std::string& dir);

}  // namespace once::test
