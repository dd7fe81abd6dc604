#pragma once
// Feature file (DESIGN §2): an EncodedVideo (features/encoded_video.h) on disk.
//   tensors: features [T, P, D] (BF16 or F32), frame_times [T] F64 seconds, and optionally
//            layout_tokens [n, D] (special tokens the backbone adds back after compression,
//            e.g. LLaVA-OneVision's image_newline; never compressed) and attention [T, P] F32
//            (the attention each token received in the vision tower, for FastVID's salient
//            tokens and VisionZip's dominant ones; absent for backbones without attention)
//   metadata: format once-features/1, backbone, grid "HxW", sampling, source, source_sha256,
//             feature_source, plus free-form extras (EncodedVideo::extra).
#include <string>

#include "features/encoded_video.h"
#include "features/feature_check.h"  // kFeatureFileFormat
#include "util/atomic_file.h"

namespace once {

/// Loads and validates (checkFeatureFile in feature_check.h: shapes, types, grid, no NaN or Inf).
/// Throws OnceError naming the file and field. The features tensor maps the file; an unknown
/// grid stays 0 × 0 and missing frame times are an error.
EncodedVideo loadFeatureFile(const std::string& path);

/// Writes `video` atomically (features in their dtype, on the CPU). Throws OnceError for
/// tensors that do not fit together or values that are not finite (NaN, Inf: the file would be
/// refused by loadFeatureFile), naming `path` and the field; nothing is written then.
void saveFeatureFile(const EncodedVideo& video, const std::string& path,
                     OutputReplace replace = OutputReplace::regularFile);

}  // namespace once
