#include "encode/batch_outputs.h"

#include <sys/stat.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "encode/decode_encode.h"
#include "features/feature_check.h"
#include "io/safetensors.h"
#include "util/error.h"
#include "util/json_file.h"

namespace once {
namespace {

// lstat's verdict on a path: absent, regular file, or the kind of anything else.
std::string entryKind(const std::string& path, bool* exists) {
    struct stat st {};
    *exists = ::lstat(path.c_str(), &st) == 0;
    if (!*exists || S_ISREG(st.st_mode)) {
        return {};
    }
    return S_ISLNK(st.st_mode) ? "a symbolic link"
           : S_ISDIR(st.st_mode) ? "a folder"
           : S_ISFIFO(st.st_mode) ? "a FIFO"
                                  : "a special file";
}

[[noreturn]] void refuse(const std::string& path, const std::string& expected,
                         const std::string& found) {
    fail("a file the batch did not write has the name of one of its outputs; it is left alone "
         "(move it away, choose another --out-dir, or give --overwrite to replace it)",
         path, "out-dir", expected, found);
}

}  // namespace

BatchOutputCheck checkBatchOutput(const std::string& path, const std::string& video,
                                  const std::string& backbone, const std::string& sampling,
                                  OutputReplace replace) {
    BatchOutputCheck out;
    bool exists = false;
    const std::string kind = entryKind(path, &exists);
    if (!exists) {
        return out;
    }
    const std::string source = videoSourceName(video);
    const std::string expected = "nothing, or the feature file of " + source;
    if (!kind.empty()) {
        if (kind == "a folder") {
            fail("an output's name is a folder", path, "out-dir", expected, kind);
        }
        if (replace == OutputReplace::anyFile) {
            return out;
        }
        refuse(path, expected, kind);
    }
    std::string found;
    try {
        const SafetensorsFile f = SafetensorsFile::open(path);
        if (f.meta("format") != kFeatureFileFormat || !f.contains("features") ||
            f.entry("features").shape.size() != 3) {
            found = "not a feature file of this tool";
        } else if (f.meta("source") != source) {
            found = "the features of " + printableExcerpt(f.meta("source"), 120);
        } else {
            out.state = f.meta("backbone") == backbone && f.meta("sampling") == sampling
                            ? BatchOutputCheck::State::finished
                            : BatchOutputCheck::State::outdated;
            out.frames = f.entry("features").shape[0];
            out.sourceSha256 = f.meta("source_sha256");
            return out;
        }
    } catch (const OnceError&) {
        found = "not a feature file of this tool";
    }
    if (replace == OutputReplace::anyFile) {
        return out;
    }
    refuse(path, expected, found);
}

void checkFinishedList(const std::string& path, OutputReplace replace) {
    bool exists = false;
    const std::string kind = entryKind(path, &exists);
    if (!exists || replace == OutputReplace::anyFile) {
        if (kind == "a folder") {
            fail("the list of finished videos is a folder", path, "out-dir",
                 "nothing, or the list a batch writes", kind);
        }
        return;
    }
    const std::string expected = "nothing, or the list of finished videos a batch writes";
    if (!kind.empty()) {
        refuse(path, expected, kind);
    }
    std::ifstream in(path);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        // The list is rewritten whole through a temporary file: a line that is not a record
        // was not written by a batch.
        nlohmann::json j;
        try {
            j = parseJsonText(line, path, "line " + std::to_string(number));
        } catch (const OnceError&) {
        }
        if (!j.is_object() || !j.contains("features") || !j["features"].is_string()) {
            refuse(path, expected, "line " + std::to_string(number) + ": " +
                                       printableExcerpt(line, 60));
        }
    }
}

}  // namespace once
