#include "train/corpus_manifest.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string_view>

#include "util/error.h"
#include "util/json_file.h"

namespace fs = std::filesystem;

namespace once {

std::vector<CorpusEntry> readCorpusManifest(const std::string& path) {
    const std::string text = readFileLimited(path, kMaxCorpusManifestBytes);
    std::vector<CorpusEntry> out;
    const fs::path base = fs::path(path).parent_path();
    std::size_t pos = 0;
    int lineNo = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string::npos) {
            end = text.size();
        }
        const std::string_view line(text.data() + pos, end - pos);
        pos = end + 1;
        ++lineNo;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
            continue;
        }
        const std::string where = "line " + std::to_string(lineNo);
        const nlohmann::json j = parseJsonText(line, path, where);
        const nlohmann::json* video = j.is_object() ? jsonFind(j, "video", path, where) : nullptr;
        if (!video || !video->is_string() || video->get<std::string>().empty()) {
            fail("corpus manifest line without a \"video\" path", path, where,
                 "{\"video\": path, \"category\": name}", printableExcerpt(line));
        }
        const std::string v = video->get<std::string>();
        if (v.find('\0') != std::string::npos) {
            fail("a corpus video path contains a NUL byte", path, where + ".video",
                 "a path without NUL bytes", printableExcerpt(v));
        }
        CorpusEntry e;
        fs::path p = v;
        e.source = (p.is_relative() ? base / p : p).lexically_normal().string();
        e.category = jsonStringOr(j, "category", "", path, where);
        out.push_back(std::move(e));
    }
    if (out.empty()) {
        fail("the corpus manifest lists no video", path, "videos", ">= 1", "0");
    }
    return out;
}

}  // namespace once
