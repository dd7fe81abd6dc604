#pragma once
// LongVideoBench (lvb_val.json): records with `video_path`, `question`, `candidates`,
// `correct_choice` (index), `question_category` and `id`. Prompt and scoring follow lmms-eval
// lmms_eval/tasks/longvideobench/utils.py (longvideobench_doc_to_text without interleaved
// subtitles, as in longvideobench_val_v.yaml; parse_multi_choice_response).
#include <cstdint>
#include <string>
#include <vector>

#include "eval/benchmark.h"

namespace once {

/// `annotations`: lvb_val.json. Videos: DIR/<video_path> (then DIR/videos/<video_path>).
Benchmark readLongVideoBench(const std::string& annotations, const std::string& videoDir);

/// parse_multi_choice_response: answer prefixes removed, the first of A–E in the text. Where
/// lmms-eval falls back to random.choice, we draw the letter from SplitMix64 seeded with the
/// FNV-1a hash of `questionId`, so reruns score the same.
std::string longVideoBenchParse(const std::string& output, int optionCount,
                                const std::string& questionId);

}  // namespace once
