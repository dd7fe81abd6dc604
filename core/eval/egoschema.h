#pragma once
// EgoSchema (github.com/egoschema/EgoSchema): questions.json (records with `q_uid`, `question`,
// `option 0` … `option 4`) and subset_answers.json ({q_uid: 0..4}); only answered questions are
// evaluated (the public 500-question subset). Prompt and scoring follow lmms-eval
// lmms_eval/tasks/egoschema/utils.py (egoschema_doc_to_text,
// egoschema_process_results_generation), whose options read "A. …".
#include <string>

#include "eval/benchmark.h"

namespace once {

/// `annotations`: the folder holding questions.json and subset_answers.json, or questions.json
/// itself (the answers beside it). Videos: DIR/<q_uid>.mp4 (or .MP4).
Benchmark readEgoschema(const std::string& annotations, const std::string& videoDir);

/// egoschema_process_results_generation: the output must equal a whole option ("A. text."),
/// an option sentence, or a letter ("A" or "A."); returns that letter, else "".
std::string egoschemaParse(const std::string& output, const std::vector<std::string>& options);

}  // namespace once
