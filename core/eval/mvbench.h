#pragma once
// MVBench (OpenGVLab/MVBench json/<task>.json): records with `video`, `question`, `candidates`
// and `answer` (the text of the right candidate). Prompt and scoring follow lmms-eval
// lmms_eval/tasks/mvbench/utils.py (mvbench_doc_to_text, mcq_acc).
#include <string>

#include "eval/benchmark.h"

namespace once {

/// `annotations`: one <task>.json or a folder of them (the task is the file's stem). Videos are
/// looked up as DIR/<lmms-eval DATA_LIST folder of the task>/<video>, then DIR/<task>/<video>,
/// then DIR/<video>.
Benchmark readMvbench(const std::string& annotations, const std::string& videoDir);

/// mcq_acc's process(): "B. xx" → "B"; otherwise punctuation stripped, lower-cased, and the
/// first stand-alone letter A–E (case-insensitive) upper-cased, else the processed text.
std::string mvbenchProcess(const std::string& text);

}  // namespace once
