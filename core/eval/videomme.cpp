#include "eval/videomme.h"

#include "eval/annotation_json.h"
#include "util/error.h"

namespace once {
namespace {

bool isRegexSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// "A. text" -> "text": the regex ^\s*([A-Z])\.\s?([\s\S]*)$ written out, because libstdc++'s
// std::regex recurses once per character of [\s\S]* and a long option in a hostile file
// would overflow the stack.
std::string stripOptionLetter(const std::string& option) {
    std::size_t i = 0;
    while (i < option.size() && isRegexSpace(option[i])) {
        ++i;
    }
    if (i + 1 >= option.size() || option[i] < 'A' || option[i] > 'Z' || option[i + 1] != '.') {
        return option;
    }
    i += 2;
    if (i < option.size() && isRegexSpace(option[i])) {
        ++i;
    }
    return option.substr(i);
}

}  // namespace

std::string videommeParse(const std::string& output) {
    // The list as written in utils.py, where two missing commas join pairs of prefixes.
    const std::string s = withoutAnswerPrefixes(
        output, {"The best answer is", "The correct answer is", "The answer is", "The answer",
                 "The best option isThe correct option is", "Best answer:Best option:"});
    // "More than 10 words and no A-D" and "no A-D" both give "": one test covers both.
    const auto letter = s.find_first_of("ABCD");
    if (letter == std::string::npos) {
        return {};
    }
    return std::string(1, s[letter]);
}

Benchmark readVideomme(const std::string& annotations, const std::string& videoDir) {
    // videomme.yaml generation_kwargs: 16 new tokens.
    Benchmark b = readQuestionList(
        annotations, {"videomme", "Video-MME", 16},
        [&](const nlohmann::json& r, std::size_t i, const std::string& where) {
            EvalQuestion q;
            q.videoId = jsonString(r, "videoID", annotations, where);
            q.id = r.contains("question_id") ? jsonString(r, "question_id", annotations, where)
                                             : q.videoId + "-" + std::to_string(i);
            q.task = jsonString(r, "task_type", annotations, where);
            jsonString(r, "duration", annotations, where);  // required by the format; not used
            q.videoPath =
                resolveVideo(videoDir, {q.videoId + ".mp4", q.videoId + ".MP4", q.videoId + ".mkv"},
                             annotations, where + ".videoID");
            q.question = jsonString(r, "question", annotations, where);
            const auto options = jsonStrings(r, "options", annotations, where);
            if (options.empty() || options.size() > kMaxOptions) {
                fail("Video-MME question needs 1 to 26 options", annotations, where + ".options",
                     "1..26", std::to_string(options.size()));
            }
            std::string listed;
            for (std::size_t k = 0; k < options.size(); ++k) {
                q.options.push_back(stripOptionLetter(options[k]));
                if (k > 0) {
                    listed += "\n";
                }
                listed += options[k];
            }
            const std::string answer = jsonString(r, "answer", annotations, where);
            if (answer.size() != 1 || answer[0] < 'A' || answer[0] >= 'A' + int(options.size())) {
                fail("Video-MME answer is not an option letter", annotations, where + ".answer",
                     "A.." + optionLetter(int(options.size()) - 1), answer);
            }
            q.answer = answer[0] - 'A';
            // videomme_doc_to_text: option_prompt \n question \n options \n post_prompt, with
            // videomme.yaml's default post_prompt "\nAnswer the question with A, B, C, or D.".
            q.prompt =
                "Select the best answer to the following multiple-choice question based on the "
                "video "
                "and the subtitles. Respond with only the letter (A, B, C, or D) of the correct "
                "option.\n" +
                q.question + "\n" + listed + "\n" + "\nAnswer the question with A, B, C, or D.";
            return q;
        });
    b.parse = [](const std::string& output, const EvalQuestion&) { return videommeParse(output); };
    return b;
}

}  // namespace once
