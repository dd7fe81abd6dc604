#include "eval/mvbench.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <regex>

#include "eval/annotation_json.h"
#include "pipeline/multiple_choice.h"
#include "util/error.h"

namespace once {
namespace {

// lmms-eval mvbench/utils.py DATA_LIST: the folder of each task's videos in the release.
const std::map<std::string, std::string> kDataList = {
    {"object_interaction", "star/Charades_segment"},
    {"action_sequence", "star/Charades_segment"},
    {"action_prediction", "star/Charades_segment"},
    {"action_localization", "sta/sta_video_segment"},
    {"moving_count", "clevrer/video_validation"},
    {"fine_grained_pose", "nturgbd_convert"},
    {"character_order", "perception/videos"},
    {"object_shuffle", "perception/videos"},
    {"egocentric_navigation", "vlnqa"},
    {"moving_direction", "clevrer/video_validation"},
    {"episodic_reasoning", "tvqa/video_fps3_hq_segment"},
    {"fine_grained_action", "Moments_in_Time_Raw/videos"},
    {"scene_transition", "scene_qa/video"},
    {"state_change", "perception/videos"},
    {"moving_attribute", "clevrer/video_validation"},
    {"action_antonym", "ssv2_video_mp4"},
    {"unexpected_action", "FunQA_test/test"},
    {"counterfactual_inference", "clevrer/video_validation"},
    {"object_existence", "clevrer/video_validation"},
    {"action_count", "perception/videos"},
};

std::string trim(const std::string& s, const std::string& chars = " \t\n\r\f\v") {
    auto b = s.find_first_not_of(chars);
    if (b == std::string::npos) {
        return {};
    }
    return s.substr(b, s.find_last_not_of(chars) - b + 1);
}

std::string replaceAll(std::string s, const std::string& from, const std::string& to) {
    for (std::size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size()) {
        s.replace(at, from.size(), to);
    }
    return s;
}

// mcq_acc's processPunctuation.
std::string processPunctuation(const std::string& in) {
    static const std::regex commaStrip(R"((\d)(,)(\d))");
    // The original pattern "(?!<=\d)(\.)(?!\d)" (a look-ahead, not a look-behind) is kept as is.
    static const std::regex periodStrip(R"((?!<=\d)(\.)(?!\d))");
    static const char* punct[] = {";",  "/", "[", "]", "\"", "{", "}", "(", ")", "=", "+",
                                  "\\", "_", "-", ">", "<",  "@", "`", ",", "?", "!"};
    std::string out = in;
    const bool comma = std::regex_search(in, commaStrip);
    for (const char* p : punct) {
        const std::string ps(p);
        if (in.find(ps + " ") != std::string::npos || in.find(" " + ps) != std::string::npos ||
            comma) {
            out = replaceAll(out, ps, "");
        } else {
            out = replaceAll(out, ps, " ");
        }
    }
    return std::regex_replace(out, periodStrip, "");
}

}  // namespace

std::string mvbenchProcess(const std::string& text) {
    static const std::regex option(R"(^([A-E])\.\s*(.+)$)", std::regex::icase);
    std::smatch m;
    const std::string t = trim(text);
    if (std::regex_match(t, m, option)) {
        std::string l = m[1].str();
        return {char(std::toupper(static_cast<unsigned char>(l[0])))};
    }
    std::string a = replaceAll(replaceAll(text, "\n", " "), "\t", " ");
    a = trim(a);
    a = processPunctuation(a);
    a = trim(a, "'");
    a = trim(a, "\"");
    a = trim(a, ")");
    a = trim(a, "(");
    a = trim(a);
    std::transform(a.begin(), a.end(), a.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    static const std::regex letter(R"(\b([A-E])\b)", std::regex::icase);
    if (std::regex_search(a, m, letter)) {
        return {char(std::toupper(static_cast<unsigned char>(m[1].str()[0])))};
    }
    return a;
}

Benchmark readMvbench(const std::string& annotations, const std::string& videoDir) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    std::error_code ec;
    if (fs::is_directory(annotations, ec)) {
        for (const auto& e : fs::directory_iterator(annotations, ec)) {
            if (e.path().extension() == ".json") {
                files.push_back(e.path());
            }
        }
        if (ec) {
            fail("cannot list the MVBench task files (" + ec.message() + ")", annotations,
                 "annotations", "a readable folder", ec.message());
        }
        std::sort(files.begin(), files.end());
        if (files.empty()) {
            fail("no MVBench task files", annotations, "annotations", "<task>.json files", "none");
        }
    } else {
        files.push_back(annotations);
    }
    Benchmark b;
    b.name = "mvbench";
    b.maxNewTokens = 16;  // mvbench/_default_template_yaml generation_kwargs
    for (const auto& path : files) {
        const std::string file = path.string(), task = path.stem().string();
        nlohmann::json doc = readJsonFile(file);
        if (!doc.is_array()) {
            fail("MVBench task file is not a list", file, "(top level)", "a list of records",
                 doc.type_name());
        }
        for (std::size_t i = 0; i < doc.size(); ++i) {
            const std::string where = "[" + std::to_string(i) + "]";
            EvalQuestion q;
            q.task = task;
            q.id = task + "/" + std::to_string(i);
            const std::string video = jsonString(doc[i], "video", file, where);
            q.videoId = task + "/" + video;
            std::vector<std::string> candidates{video};
            if (auto it = kDataList.find(task); it != kDataList.end()) {
                candidates.insert(candidates.begin(), it->second + "/" + video);
            }
            candidates.insert(candidates.end() - 1, task + "/" + video);
            q.videoPath = resolveVideo(videoDir, candidates, file, where + ".video");
            q.question = jsonString(doc[i], "question", file, where);
            q.options = jsonStrings(doc[i], "candidates", file, where);
            if (q.options.size() < 2 || q.options.size() > kMaxOptions) {
                fail("MVBench question needs 2 to 26 candidates", file, where + ".candidates",
                     "2..26", std::to_string(q.options.size()));
            }
            if (q.question.empty()) {
                fail("MVBench question is empty", file, where + ".question", "non-empty text",
                     "empty");
            }
            const std::string answer = jsonString(doc[i], "answer", file, where);
            auto it = std::find(q.options.begin(), q.options.end(), answer);
            if (it == q.options.end()) {
                fail("MVBench answer is not one of the candidates", file, where + ".answer",
                     "one of the candidates", answer);
            }
            q.answer = int(it - q.options.begin());
            q.prompt = formatMultipleChoice(q.question, q.options);
            b.questions.push_back(std::move(q));
        }
    }
    b.parse = [](const std::string& output, const EvalQuestion&) { return mvbenchProcess(output); };
    return b;
}

}  // namespace once
