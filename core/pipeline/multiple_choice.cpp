#include "pipeline/multiple_choice.h"

#include <cctype>

#include "util/error.h"

namespace once {

std::string formatMultipleChoice(const std::string& question,
                                 const std::vector<std::string>& options) {
    if (question.empty()) {
        fail("the question is empty", {}, "question", "non-empty text", "empty");
    }
    if (options.size() < 2 || options.size() > 26) {
        fail("a multiple-choice question needs 2 to 26 options", {}, "options", "2..26",
             std::to_string(options.size()));
    }
    std::string s = "Question:" + question + "\nOption:\n";
    for (std::size_t i = 0; i < options.size(); ++i) {
        s += "(" + std::string(1, char('A' + i)) + ") " + options[i] + "\n";
    }
    return s + "Answer with the option's letter from the given choices directly.";
}

std::optional<char> extractOptionLetter(const std::string& answer, int optionCount) {
    // The first standalone capital letter within range: "(B)", "B.", "B" or "Answer: B".
    for (std::size_t i = 0; i < answer.size(); ++i) {
        char c = char(std::toupper(static_cast<unsigned char>(answer[i])));
        bool letter = c >= 'A' && c < char('A' + optionCount);
        bool before = i == 0 || !std::isalpha(static_cast<unsigned char>(answer[i - 1]));
        bool after =
            i + 1 == answer.size() || !std::isalpha(static_cast<unsigned char>(answer[i + 1]));
        bool upperOrAlone =
            std::isupper(static_cast<unsigned char>(answer[i])) || answer.size() == 1;
        if (letter && before && after && upperOrAlone) {
            return c;
        }
    }
    return std::nullopt;
}

}  // namespace once
