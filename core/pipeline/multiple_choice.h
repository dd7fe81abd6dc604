#pragma once
// The multiple-choice question format of the MVBench evaluation (lmms-eval tasks/mvbench):
// options as "(A) …" lines and the answer-with-letter instruction; and the letter extraction
// used for scoring.
#include <optional>
#include <string>
#include <vector>

namespace once {

/// "Question:{q}\nOption:\n(A) …\n(B) …\nAnswer with the option's letter from the given choices
/// directly." Throws OnceError for an empty question, fewer than 2 or more than 26 options.
std::string formatMultipleChoice(const std::string& question,
                                 const std::vector<std::string>& options);

/// The option letter an answer gives ("(B) two", "B.", "b"), or nothing.
std::optional<char> extractOptionLetter(const std::string& answer, int optionCount);

}  // namespace once
