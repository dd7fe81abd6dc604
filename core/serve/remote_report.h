#pragma once
// The `once` member of a server's answer (serve/openai_json.h onceJson: token ids, visual
// tokens, stages, the video's hash, the kept groups) read into the client's RemoteAnswer. What
// a server sends is untrusted like any file: every field is type- and range-checked, group rows
// and patch indices stay inside the sizes the answer states, and a bad answer is an OnceError
// naming the URL and the field. HTTP-free, so tests/fuzz/fuzz_remote_report.cpp fuzzes it.
#include <nlohmann/json.hpp>
#include <string>

#include "serve/remote_client.h"

namespace once::serve {

/// Fills `answer`'s report, video hash and cached flag from `once` (answered at `url`).
void readRemoteReport(RemoteAnswer& answer, const nlohmann::json& once, const std::string& url);

}  // namespace once::serve
