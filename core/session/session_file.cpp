#include "session/session_file.h"

#include <algorithm>
#include <filesystem>
#include <utility>
#include <nlohmann/json.hpp>

#include "util/error.h"
#include "util/json_file.h"

namespace once {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kFormatKey = "format";
constexpr std::string_view kVersionKey = "version";
/// Real files nest one level; anything deeper is refused before nlohmann parses it.
constexpr int kMaxSessionJsonDepth = 4;

std::string inQuotes(const std::string& s) {
    return "\"" + printableExcerpt(s) + "\"";
}

/// What a JSON value is, for "found" ("a number 3.5", "the string \"x\"").
std::string describe(const nlohmann::json& v) {
    if (v.is_string()) {
        return "the string " + inQuotes(v.get<std::string>());
    }
    if (v.is_number() || v.is_boolean()) {
        return jsonTypeName(v) + " " + printableExcerpt(v.dump());
    }
    return jsonTypeName(v);
}

std::string joined(const std::vector<std::string>& names) {
    std::string s;
    for (const auto& n : names) {
        s += (s.empty() ? "" : ", ") + n;
    }
    return s;
}

fs::path sessionFolder(const std::string& file) {
    return fs::absolute(fs::path(file)).lexically_normal().parent_path();
}

/// Reads one object member; each accessor records a problem and returns nullopt on a bad value.
class Reader {
  public:
    Reader(const nlohmann::json& object, const std::string& file,
           std::vector<SessionProblem>& problems)
        : object_(object), file_(file), problems_(problems) {}

    void problem(const std::string& field, const std::string& expected, const std::string& found) {
        problems_.push_back({file_, field, expected, found});
    }

    const nlohmann::json* find(const std::string& key) const {
        const auto it = object_.find(key);
        return it == object_.end() || it->is_null() ? nullptr : &*it;
    }

    /// A non-empty string without NUL bytes of at most `maxBytes`.
    std::optional<std::string> string(const std::string& key, const std::string& expected,
                                      std::size_t maxBytes = kMaxSessionStringBytes) {
        const nlohmann::json* v = find(key);
        if (v == nullptr) {
            return std::nullopt;
        }
        if (!v->is_string()) {
            problem(key, expected, describe(*v));
            return std::nullopt;
        }
        const auto& s = v->get_ref<const std::string&>();
        if (s.empty() || s.size() > maxBytes || s.find('\0') != std::string::npos) {
            problem(key,
                    expected + " (1 to " + std::to_string(maxBytes) +
                        " bytes, no NUL byte)",
                    s.empty()
                        ? "an empty string"
                        : "a string of " + std::to_string(s.size()) + " bytes " + inQuotes(s));
            return std::nullopt;
        }
        return s;
    }

    /// One of `names` (any name when empty).
    std::optional<std::string> name(const std::string& key, const std::string& what,
                                    const std::vector<std::string>& names) {
        auto s = string(key, what);
        if (s && !names.empty() && std::find(names.begin(), names.end(), *s) == names.end()) {
            problem(key, what + ": one of " + joined(names), inQuotes(*s));
            return std::nullopt;
        }
        return s;
    }

    std::optional<std::int64_t> integer(const std::string& key, std::int64_t min) {
        const nlohmann::json* v = find(key);
        if (v == nullptr) {
            return std::nullopt;
        }
        const std::string expected =
            "an integer from " + std::to_string(min) + " to " + std::to_string(kMaxSessionIndex);
        if (!v->is_number_integer() && !v->is_number_unsigned()) {
            problem(key, expected, describe(*v));
            return std::nullopt;
        }
        if (v->is_number_unsigned() && v->get<std::uint64_t>() > std::uint64_t(kMaxSessionIndex)) {
            problem(key, expected, describe(*v));
            return std::nullopt;
        }
        const auto n = v->get<std::int64_t>();
        if (n < min || n > kMaxSessionIndex) {
            problem(key, expected, describe(*v));
            return std::nullopt;
        }
        return n;
    }

    /// An absolute path, or a relative one resolved against `folder` that stays below it.
    std::string path(const std::string& key, const std::string& what, const fs::path& folder) {
        const auto s = string(key, what);
        if (!s) {
            return {};
        }
        const fs::path p(*s);
        if (p.is_absolute()) {
            return p.lexically_normal().string();
        }
        const fs::path relative = p.lexically_normal();
        if (!relative.empty() && *relative.begin() == "..") {
            problem(key, what + " below the session's folder, or an absolute path",
                    inQuotes(*s) + ", which leaves the folder");
            return {};
        }
        return (folder / relative).lexically_normal().string();
    }

  private:
    const nlohmann::json& object_;
    const std::string& file_;
    std::vector<SessionProblem>& problems_;
};

const std::vector<std::string>& knownKeys() {
    static const std::vector<std::string> keys = {std::string(kFormatKey),
                                                  std::string(kVersionKey),
                                                  "video",
                                                  "video_kind",
                                                  "codebook",
                                                  "model_folder",
                                                  "method",
                                                  "budget",
                                                  "variant",
                                                  "backbone",
                                                  "sampling",
                                                  "dtype",
                                                  "frame",
                                                  "question",
                                                  "dense_answer",
                                                  "compressed_answer"};
    return keys;
}

std::string storedPath(const std::string& path, const fs::path& folder) {
    const fs::path p = fs::absolute(fs::path(path)).lexically_normal();
    const fs::path relative = p.lexically_relative(folder);
    const bool below = !relative.empty() && *relative.begin() != ".." && relative != ".";
    return below ? relative.generic_string() : p.string();
}

void checkString(const std::string& s, const std::string& field, const std::string& file,
                 std::size_t maxBytes = kMaxSessionStringBytes) {
    if (s.size() > maxBytes || s.find('\0') != std::string::npos) {
        fail("cannot save this session value", file, field,
             "at most " + std::to_string(maxBytes) + " bytes, no NUL byte",
             std::to_string(s.size()) + " bytes");
    }
}

}  // namespace

std::string SessionProblem::message() const {
    return OnceError("this session value was skipped", {file, field, expected, found}).what();
}

ParsedSession parseSessionFile(std::string_view text, const std::string& file,
                               const SessionVocabulary& vocabulary) {
    if (text.size() > kMaxSessionFileBytes) {
        fail("session file too large", file, "",
             "at most " + std::to_string(kMaxSessionFileBytes) + " bytes",
             std::to_string(text.size()) + " bytes");
    }
    JsonLimits limits;
    limits.maxBytes = kMaxSessionFileBytes;
    limits.maxDepth = kMaxSessionJsonDepth;
    const nlohmann::json root = parseJsonText(text, file, {}, limits);
    if (!root.is_object()) {
        fail("not a session file", file, "", "a JSON object", jsonTypeName(root));
    }
    const std::string format = jsonToString(jsonRequire(root, std::string(kFormatKey), file, ""),
                                            file, std::string(kFormatKey));
    if (format != kSessionFileFormat) {
        fail("not a session file", file, std::string(kFormatKey),
             inQuotes(std::string(kSessionFileFormat)), inQuotes(format));
    }
    jsonToInt(jsonRequire(root, std::string(kVersionKey), file, ""), file, std::string(kVersionKey),
              1, kSessionFileVersion);

    ParsedSession out;
    Reader r(root, file, out.problems);
    const fs::path folder = sessionFolder(file);
    SessionFile& s = out.session;
    s.video = r.path("video", "a video, folder of frames or feature file", folder);
    if (const auto kind = r.name("video_kind", "the kind of the video", {"video", "features"})) {
        s.videoKind = *kind == "features" ? SessionFile::VideoKind::FeatureFile
                                          : SessionFile::VideoKind::Video;
    }
    s.codebook = r.path("codebook", "a codebook file", folder);
    s.modelFolder = r.path("model_folder", "a model folder", folder);
    s.method = r.name("method", "a compression method", vocabulary.methods);
    s.budget = r.integer("budget", 1);
    s.variant = r.name("variant", "a variant of ONCE", vocabulary.variants);
    s.backbone = r.name("backbone", "a visual encoder", vocabulary.backbones);
    s.sampling = r.string("sampling", "a frame sampling rule");
    if (s.sampling && vocabulary.checkSampling) {
        try {
            vocabulary.checkSampling(*s.sampling);
        } catch (const OnceError& e) {
            r.problem("sampling", "a frame sampling rule (" + e.brief() + ")",
                      inQuotes(*s.sampling));
            s.sampling.reset();
        }
    }
    s.dtype = r.name("dtype", "a compute dtype", vocabulary.dtypes);
    s.frame = r.integer("frame", 0);
    s.question = r.string("question", "a question", kMaxSessionTextBytes);
    s.denseAnswer = r.string("dense_answer", "an answer", kMaxSessionTextBytes);
    s.compressedAnswer = r.string("compressed_answer", "an answer", kMaxSessionTextBytes);
    for (const auto& [key, value] : root.items()) {
        const auto& keys = knownKeys();
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
            r.problem(key.empty() ? "\"\"" : printableExcerpt(key),
                      "a key of a version-" + std::to_string(kSessionFileVersion) + " session file",
                      "an unknown key");
        }
    }
    return out;
}

std::string serializeSessionFile(const SessionFile& session, const std::string& file) {
    const fs::path folder = sessionFolder(file);
    nlohmann::ordered_json j;
    j[std::string(kFormatKey)] = kSessionFileFormat;
    j[std::string(kVersionKey)] = kSessionFileVersion;
    auto putPath = [&](const char* key, const std::string& path) {
        if (!path.empty()) {
            checkString(path, key, file);
            j[key] = storedPath(path, folder);
        }
    };
    auto putString = [&](const char* key, const std::optional<std::string>& value) {
        if (value && !value->empty()) {
            checkString(*value, key, file);
            j[key] = *value;
        }
    };
    auto putIndex = [&](const char* key, const std::optional<std::int64_t>& value,
                        std::int64_t min) {
        if (value) {
            if (*value < min || *value > kMaxSessionIndex) {
                fail("cannot save this session value", file, key,
                     "an integer from " + std::to_string(min) + " to " +
                         std::to_string(kMaxSessionIndex),
                     std::to_string(*value));
            }
            j[key] = *value;
        }
    };
    putPath("video", session.video);
    if (!session.video.empty()) {
        j["video_kind"] =
            session.videoKind == SessionFile::VideoKind::FeatureFile ? "features" : "video";
    }
    putPath("codebook", session.codebook);
    putPath("model_folder", session.modelFolder);
    putString("method", session.method);
    putIndex("budget", session.budget, 1);
    putString("variant", session.variant);
    putString("backbone", session.backbone);
    putString("sampling", session.sampling);
    putString("dtype", session.dtype);
    putIndex("frame", session.frame, 0);
    for (const auto& [key, text] : {std::pair{"question", &session.question},
                                    std::pair{"dense_answer", &session.denseAnswer},
                                    std::pair{"compressed_answer", &session.compressedAnswer}}) {
        if (*text && !(*text)->empty()) {
            checkString(**text, key, file, kMaxSessionTextBytes);
            j[key] = **text;
        }
    }
    // Paths are bytes on Linux; replace what is not UTF-8 rather than throw inside nlohmann.
    return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::vector<SessionProblem> dropMissingSessionFiles(SessionFile& session, const std::string& file) {
    std::vector<SessionProblem> problems;
    auto check = [&](std::string& path, const char* field, const std::string& expected,
                     bool folderToo, bool fileToo) {
        if (path.empty()) {
            return;
        }
        std::error_code ec;
        const bool isFile = fs::is_regular_file(path, ec);
        const bool isFolder = fs::is_directory(path, ec);
        if ((fileToo && isFile) || (folderToo && isFolder)) {
            return;
        }
        problems.push_back({file, field, expected,
                            inQuotes(path) + (isFile     ? ", a file"
                                              : isFolder ? ", a folder"
                                                         : ", which is missing")});
        path.clear();
    };
    const bool features = session.videoKind == SessionFile::VideoKind::FeatureFile;
    check(session.video, "video",
          features ? "an existing feature file" : "an existing video file or folder of frames",
          !features, true);
    check(session.codebook, "codebook", "an existing codebook file", false, true);
    check(session.modelFolder, "model_folder", "an existing model folder", true, false);
    return problems;
}

}  // namespace once
