#pragma once
// A small evaluation summary the analysis tests write with the core's own CSV writers
// (eval/report.h) and read back: two benchmarks, Dense and three compressed rows each, with a
// per-task row beside every overall accuracy.
#include "eval/report.h"

namespace once::test {

EvalSummary sampleEvalSummary();

}  // namespace once::test
