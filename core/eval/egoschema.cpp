#include "eval/egoschema.h"

#include <algorithm>
#include <filesystem>

#include "eval/annotation_json.h"
#include "util/error.h"

namespace once {

std::string egoschemaParse(const std::string& pred, const std::vector<std::string>& options) {
    // lmms-eval's doc["option"] entries are "A. text"; each is completed with a final period.
    std::vector<std::string> strs, sents, inds;
    for (std::size_t i = 0; i < options.size(); ++i) {
        std::string s = optionLetter(int(i)) + ". " + options[i];
        if (s.empty() || s.back() != '.') {
            s += ".";
        }
        auto at = s.find(". ");
        strs.push_back(s);
        // Python's split(". ")[1]: the text up to the next ". ".
        std::string rest = at == std::string::npos ? s : s.substr(at + 2);
        sents.push_back(at == std::string::npos ? s : rest.substr(0, rest.find(". ")));
        inds.push_back(at == std::string::npos ? s : s.substr(0, at));
    }
    for (std::size_t i = 0; i < strs.size(); ++i) {
        if (pred == strs[i]) {
            return optionLetter(int(i));
        }
    }
    for (std::size_t i = 0; i < sents.size(); ++i) {
        if (pred == sents[i]) {
            return optionLetter(int(i));
        }
    }
    for (std::size_t i = 0; i < inds.size(); ++i) {
        std::string bare = inds[i];
        bare.erase(std::remove(bare.begin(), bare.end(), '.'), bare.end());
        if (pred == inds[i] || pred == bare) {
            return optionLetter(int(i));
        }
    }
    return {};
}

Benchmark readEgoschema(const std::string& annotations, const std::string& videoDir) {
    namespace fs = std::filesystem;
    fs::path questions = annotations, answers;
    std::error_code ec;
    if (fs::is_directory(questions, ec)) {
        questions /= "questions.json";
    }
    answers = questions.parent_path() / "subset_answers.json";
    if (!fs::exists(questions, ec)) {
        fail("EgoSchema questions not found", questions.string(), "questions.json", "present",
             "missing");
    }
    if (!fs::exists(answers, ec)) {
        fail("EgoSchema answers not found", answers.string(), "subset_answers.json",
             "beside questions.json", "missing");
    }
    const std::string qfile = questions.string(), afile = answers.string();
    nlohmann::json qs = readJsonFile(qfile), as = readJsonFile(afile);
    if (!qs.is_array()) {
        fail("EgoSchema questions are not a list", qfile, "(top level)", "a list", qs.type_name());
    }
    if (!as.is_object()) {
        fail("EgoSchema answers are not a map", afile, "(top level)", "{q_uid: 0..4}",
             as.type_name());
    }
    Benchmark b;
    b.name = "egoschema";
    b.maxNewTokens = 16;  // egoschema/_default_template_yaml generation_kwargs
    for (std::size_t i = 0; i < qs.size(); ++i) {
        const std::string where = "[" + std::to_string(i) + "]";
        EvalQuestion q;
        q.id = jsonString(qs[i], "q_uid", qfile, where);
        if (!as.contains(q.id)) {
            continue;  // no public answer: not part of the evaluated subset
        }
        q.videoId = q.id;
        q.task = "egoschema";
        q.videoPath =
            resolveVideo(videoDir, {q.id + ".mp4", q.id + ".MP4"}, qfile, where + ".q_uid");
        q.question = jsonString(qs[i], "question", qfile, where);
        for (int k = 0; k < 5; ++k) {
            q.options.push_back(jsonString(qs[i], "option " + std::to_string(k), qfile, where));
        }
        q.answer = jsonInt(as, q.id, afile, "");
        if (q.answer < 0 || q.answer >= 5) {
            fail("EgoSchema answer out of range", afile, q.id, "0..4", std::to_string(q.answer));
        }
        // egoschema_doc_to_text: question, "\n" + each option, then the post prompt.
        q.prompt = q.question;
        for (std::size_t k = 0; k < q.options.size(); ++k) {
            q.prompt += "\n" + optionLetter(int(k)) + ". " + q.options[k];
        }
        q.prompt += "\nAnswer with the option's letter from the given choices directly.";
        b.questions.push_back(std::move(q));
    }
    b.parse = [](const std::string& output, const EvalQuestion& q) {
        return egoschemaParse(output, q.options);
    };
    return b;
}

}  // namespace once
