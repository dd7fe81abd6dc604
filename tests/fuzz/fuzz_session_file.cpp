// clang-format off
// fuzz-sources: core/session/session_file.cpp core/video/sampling_rule.cpp core/util/json_file.cpp core/util/error.cpp core/util/regular_file.cpp
// clang-format on
// libFuzzer target for the studio's session file (session/session_file.h), which the studio
// opens from File ▸ Open Session…, Open Recent, a drop or `once-studio --session`. Any byte
// string either throws OnceError (not a session at all) or parses: every kept value then obeys
// the limits (strings 1 … kMaxSessionStringBytes without NUL, budget and frame in range, names
// from the vocabulary, relative paths inside the folder) and every problem names the file and
// the field; what was kept serialises and parses back to the same values without problems.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "session/session_file.h"
#include "util/error.h"
#include "video/sampling_rule.h"

using once::fuzz::check;

namespace {

void checkString(const std::optional<std::string>& s) {
    if (s) {
        check(!s->empty() && s->size() <= once::kMaxSessionStringBytes &&
              s->find('\0') == std::string::npos);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string file = "/fuzz/dir/a.oncesession";
    once::SessionVocabulary vocabulary;
    vocabulary.methods = {"once", "tome", "fastvid"};
    vocabulary.variants = {"full", "no-reassign"};
    vocabulary.backbones = {"demo", "llava-onevision"};
    vocabulary.dtypes = {"float32", "float16", "bfloat16"};
    vocabulary.checkSampling = [](const std::string& s) { once::SamplingRule::parse(s); };
    once::ParsedSession parsed;
    try {
        parsed = once::parseSessionFile(std::string_view(reinterpret_cast<const char*>(data), size),
                                        file, vocabulary);
    } catch (const once::OnceError&) {
        return 0;
    }
    const once::SessionFile& s = parsed.session;
    for (const auto& p : parsed.problems) {
        check(p.file == file && !p.field.empty() && !p.expected.empty() && !p.found.empty());
        check(!p.message().empty());
    }
    for (const std::string* path : {&s.video, &s.codebook, &s.modelFolder}) {
        check(path->empty() || (*path)[0] == '/');
    }
    checkString(s.method);
    checkString(s.variant);
    checkString(s.backbone);
    checkString(s.sampling);
    checkString(s.dtype);
    check(!s.budget || (*s.budget >= 1 && *s.budget <= once::kMaxSessionIndex));
    check(!s.frame || (*s.frame >= 0 && *s.frame <= once::kMaxSessionIndex));
    // What was kept saves and reads back unchanged.
    std::string text;
    try {
        text = once::serializeSessionFile(s, file);
    } catch (const once::OnceError&) {
        return 0;  // a path longer than the limit once made absolute
    }
    const once::ParsedSession again = once::parseSessionFile(text, file, vocabulary);
    check(again.session.budget == s.budget && again.session.frame == s.frame &&
          again.session.method == s.method && again.session.sampling == s.sampling);
    return 0;
}
