#pragma once
// Encoding many videos into one folder of feature files, resumable (DESIGN §2).
//
// Input: a folder (every video file in it, by io/file_kind.h's videoExtensions(), and every
// sub-folder holding .jpg/.png frames, in name order) or a JSONL manifest
// ({"video": path, "category": name} a line; relative paths are relative to the manifest).
// Output: OUT_DIR/<name>.safetensors per video, where <name> is the video's path relative to
// the input root with "/" replaced by "__" and the extension dropped, plus OUT_DIR/encoded.jsonl
// listing the finished ones ({"video", "category", "features", "frames", "backbone",
// "sampling", "source_sha256"} a line), rewritten atomically after each video.
// Resume: a video is skipped when its feature file exists and its metadata say this tool wrote
// it for that video (`source`) with the same backbone and sampling (encoded.jsonl is completed
// from them); under other settings it is encoded again. Anything else at an output's name — a
// user's file, another video's features, a symlink — is refused before any video is encoded
// and left alone, unless EncodeOptions::replace allows it (encode/batch_outputs.h). Feature
// files are written atomically, so a killed run leaves at most a temporary file, which is never
// counted. A video that fails (broken file) is reported and the batch goes on.
#include <string>
#include <vector>

#include "encode/encode_job.h"

namespace once {

struct BatchItem {
    std::string video;     ///< path as given (resolved against the manifest folder)
    std::string category;  ///< empty when unknown
    std::string output;    ///< file name inside the output folder
};

/// The videos of a folder or a JSONL manifest. Throws OnceError naming the manifest line.
std::vector<BatchItem> listBatch(const std::string& input);

struct BatchReport {
    std::int64_t total = 0, encoded = 0, skipped = 0;
    std::vector<EncodeReport> reports;                          ///< the videos encoded in this run
    std::vector<std::pair<std::string, std::string>> failures;  ///< video, error message
};

/// The name of the finished-videos list inside the output folder.
constexpr const char* kBatchManifestName = "encoded.jsonl";

BatchReport encodeBatch(const std::string& input, const std::string& outDir,
                        const EncodeOptions& options, Progress* progress = nullptr);

/// One-object JSON summary of a batch.
nlohmann::json batchReportJson(const BatchReport& report, const std::string& outDir);

}  // namespace once
