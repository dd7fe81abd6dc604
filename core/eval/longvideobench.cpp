#include "eval/longvideobench.h"

#include "compress/seeded_random.h"
#include "eval/annotation_json.h"
#include "util/error.h"

namespace once {

std::string longVideoBenchParse(const std::string& output, int optionCount,
                                const std::string& questionId) {
    const std::string s = withoutAnswerPrefixes(
        output, {"The best answer is", "The correct answer is", "The answer is", "The answer",
                 "The best option is", "The correct option is", "Best answer:", "Best option:"});
    const auto letter = s.find_first_of("ABCDE");
    if (letter != std::string::npos) {
        return std::string(1, s[letter]);
    }
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a 64
    for (unsigned char c : questionId) {
        h = (h ^ c) * 1099511628211ull;
    }
    SplitMix64 rng(h);
    return optionLetter(int(rng.below(std::uint64_t(optionCount))));
}

Benchmark readLongVideoBench(const std::string& annotations, const std::string& videoDir) {
    // longvideobench_val_v.yaml generation_kwargs: 32 new tokens.
    Benchmark b = readQuestionList(
        annotations, {"longvideobench", "LongVideoBench", 32},
        [&](const nlohmann::json& r, std::size_t i, const std::string& where) {
            EvalQuestion q;
            q.id = r.contains("id") ? jsonString(r, "id", annotations, where) : std::to_string(i);
            const std::string video = jsonString(r, "video_path", annotations, where);
            q.videoId =
                r.contains("video_id") ? jsonString(r, "video_id", annotations, where) : video;
            q.videoPath = resolveVideo(videoDir, {video, "videos/" + video}, annotations,
                                       where + ".video_path");
            q.task = jsonString(r, "question_category", annotations, where);
            q.question = jsonString(r, "question", annotations, where);
            q.options = jsonStrings(r, "candidates", annotations, where);
            if (q.options.size() < 2 || q.options.size() > 5) {
                fail("LongVideoBench question needs 2 to 5 candidates", annotations,
                     where + ".candidates", "2..5", std::to_string(q.options.size()));
            }
            q.answer = jsonInt(r, "correct_choice", annotations, where);
            if (q.answer < 0 || q.answer >= int(q.options.size())) {
                fail("LongVideoBench correct_choice out of range", annotations,
                     where + ".correct_choice", "0.." + std::to_string(q.options.size() - 1),
                     std::to_string(q.answer));
            }
            // longvideobench_doc_to_text: question, "\n" + "A. cand" lines, "\n" + post_prompt
            // ("Answer with the option's letter from the given choices directly.\n").
            q.prompt = q.question + "\n";
            for (std::size_t k = 0; k < q.options.size(); ++k) {
                // Appended piecewise: GCC 12 warns (-Wstringop-overflow) on `const char* +
                // string&&`.
                if (k > 0) {
                    q.prompt += "\n";
                }
                q.prompt += optionLetter(int(k));
                q.prompt += ". ";
                q.prompt += q.options[k];
            }
            q.prompt += "\nAnswer with the option's letter from the given choices directly.\n";
            return q;
        });
    b.parse = [](const std::string& output, const EvalQuestion& q) {
        return longVideoBenchParse(output, int(q.options.size()), q.id);
    };
    return b;
}

}  // namespace once
