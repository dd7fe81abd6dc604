#pragma once
// Video-MME: the Hugging Face release is parquet (lmms-lab/Video-MME); we read its JSON or JSON
// Lines export (e.g. `pandas.read_parquet(...).to_json(orient="records")`) with `videoID`,
// `question`, `options` ("A. …" strings), `answer` (a letter), `task_type`, `duration` and,
// when present, `question_id`. Prompt and scoring follow lmms-eval
// lmms_eval/tasks/videomme/utils.py (videomme_doc_to_text with videomme.yaml's default
// post_prompt, extract_characters_regex).
#include <string>

#include "eval/benchmark.h"

namespace once {

/// `annotations`: a .json (list) or .jsonl file. Videos: DIR/<videoID>.mp4 (.MP4, .mkv).
Benchmark readVideomme(const std::string& annotations, const std::string& videoDir);

/// extract_characters_regex: answer prefixes removed; "" for a long answer without A–D;
/// otherwise the first of A, B, C, D in the text.
std::string videommeParse(const std::string& output);

}  // namespace once
