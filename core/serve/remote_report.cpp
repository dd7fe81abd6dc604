#include "serve/remote_report.h"

#include <limits>
#include <string>
#include <vector>

#include "util/error.h"
#include "util/json_file.h"

namespace once::serve {
namespace {

using json = nlohmann::json;

std::vector<std::int64_t> ints(const json& j, const std::string& url, const std::string& field) {
    std::vector<std::int64_t> v;
    if (!j.is_array()) {
        fail("unexpected answer", url, field, "an array of integers", jsonTypeName(j));
    }
    for (const json& x : j) {
        v.push_back(jsonToInt(x, url, field, -1, std::numeric_limits<std::int64_t>::max()));
    }
    return v;
}

}  // namespace

void readRemoteReport(RemoteAnswer& a, const json& once, const std::string& url) {
    AskReport& r = a.report;
    r.tokenIds = ints(jsonRequire(once, "token_ids", url, "once"), url, "once.token_ids");
    r.dense = jsonToBool(jsonRequire(once, "dense", url, "once"), url, "once.dense");
    if (!r.dense) {
        r.method = jsonToString(jsonRequire(once, "method", url, "once"), url, "once.method");
        r.budget = jsonToInt(jsonRequire(once, "budget", url, "once"), url, "once.budget", 1,
                             std::numeric_limits<std::int32_t>::max());
    }
    const json& vt = jsonRequire(once, "visual_tokens", url, "once");
    const std::int64_t big = std::int64_t(1) << 40;
    r.sourceTokens = jsonToInt(jsonRequire(vt, "before", url, "once.visual_tokens"), url,
                               "once.visual_tokens.before", 0, big);
    r.contentTokens = jsonToInt(jsonRequire(vt, "content", url, "once.visual_tokens"), url,
                                "once.visual_tokens.content", 0, big);
    r.layoutTokens = jsonToInt(jsonRequire(vt, "layout", url, "once.visual_tokens"), url,
                               "once.visual_tokens.layout", 0, big);
    if (const json* f = jsonFind(once, "prefill_flops", url, "once")) {
        r.prefillFlops = jsonToNumber(*f, url, "once.prefill_flops");
    }
    for (const json& s : jsonRequire(once, "stages", url, "once")) {
        StageReport st;
        st.name = jsonToString(jsonRequire(s, "name", url, "once.stages"), url, "once.stages.name");
        st.seconds =
            jsonToNumber(jsonRequire(s, "seconds", url, "once.stages"), url, "once.stages.seconds");
        st.cached = jsonBoolOr(s, "cached", false, url, "once.stages");
        r.stages.push_back(st);
    }
    const json& video = jsonRequire(once, "video", url, "once");
    a.videoSha256 = jsonStringOr(video, "sha256", "", url, "once.video");
    a.videoCached = jsonBoolOr(video, "cached", false, url, "once.video");
    const json* groups = jsonFind(once, "groups", url, "once");
    if (groups && !r.dense) {
        const std::int64_t frames = jsonToInt(jsonRequire(*groups, "frames", url, "once.groups"),
                                              url, "once.groups.frames", 1, big);
        const std::int64_t patches = jsonToInt(jsonRequire(*groups, "patches", url, "once.groups"),
                                               url, "once.groups.patches", 1, big);
        if (frames * patches != r.sourceTokens) {
            fail("kept groups of another size", url, "once.groups", std::to_string(r.sourceTokens),
                 std::to_string(frames * patches));
        }
        r.groupOfToken.assign(std::size_t(frames * patches), -1);
        for (const json& row : jsonRequire(*groups, "rows", url, "once.groups")) {
            // Rows come in output-row order (serve/openai_json.h keptGroupsJson): row m is the
            // m-th, so a token's group always indexes codewordIds (the views index by it).
            const auto next = std::int64_t(r.codewordIds.size());
            if (next >= r.contentTokens) {
                fail("more kept groups than content tokens", url, "once.groups.rows",
                     "at most " + std::to_string(r.contentTokens), "more");
            }
            const std::int64_t m = jsonToInt(jsonRequire(row, "row", url, "once.groups.rows"), url,
                                             "once.groups.rows.row", next, next);
            r.codewordIds.push_back(jsonToInt(jsonRequire(row, "codeword", url, "once.groups.rows"),
                                              url, "once.groups.rows.codeword", -1, big));
            for (const json& member : jsonRequire(row, "members", url, "once.groups.rows")) {
                const std::int64_t t = jsonToInt(jsonRequire(member, "frame", url, "members"), url,
                                                 "once.groups.rows.members.frame", 0, frames - 1);
                for (std::int64_t p : ints(jsonRequire(member, "patches", url, "members"), url,
                                           "once.groups.rows.members.patches")) {
                    if (p < 0 || p >= patches) {
                        fail("patch index out of range", url, "once.groups.rows.members.patches",
                             "0.." + std::to_string(patches - 1), std::to_string(p));
                    }
                    r.groupOfToken[std::size_t(t * patches + p)] = m;
                }
            }
        }
    }
}

}  // namespace once::serve
