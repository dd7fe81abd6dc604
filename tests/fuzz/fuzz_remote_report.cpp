// clang-format off
// fuzz-sources: core/serve/remote_report.cpp core/util/json_file.cpp core/util/error.cpp core/util/regular_file.cpp
// fuzz-needs: torch
// clang-format on
// libFuzzer target for the client's reading of a server's answer (serve/remote_report.h): what
// `once serve` on another machine sends the studio is untrusted input. Any byte string either is
// not JSON, or throws OnceError, or fills a report whose kept groups obey the sizes it states:
// one entry per source token, each a listed row (< the content tokens) or −1 (dropped), token
// ids non-negative.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "fuzz_check.h"
#include "serve/remote_report.h"
#include "util/error.h"

using once::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const nlohmann::json once =
        nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
    if (once.is_discarded()) {
        return 0;
    }
    once::serve::RemoteAnswer answer;
    try {
        once::serve::readRemoteReport(answer, once, "http://fuzz:8000");
    } catch (const once::OnceError&) {
        return 0;
    }
    const once::AskReport& r = answer.report;
    for (std::int64_t id : r.tokenIds) {
        check(id >= 0);
    }
    if (!r.groupOfToken.empty()) {
        const auto rows = std::int64_t(r.codewordIds.size());
        check(std::int64_t(r.groupOfToken.size()) == r.sourceTokens && rows <= r.contentTokens);
        for (std::int64_t g : r.groupOfToken) {
            check(g >= -1 && g < rows);  // the views index codewordIds with it
        }
    }
    return 0;
}
