#pragma once
// JSON text that any string can go into. nlohmann's dump() throws on bytes that are not UTF-8,
// and file names on Linux are bytes: `once info $'\xff.safetensors' --json` failed with an
// internal error. jsonText writes valid UTF-8 as dump() does and every byte outside a valid
// UTF-8 sequence as the escape \udcXX (XX its hex value): Python's "surrogateescape", so
// os.fsencode(json.loads(text)["file"]) gives back the exact bytes, and a reader that does not
// know the convention sees one replacement-like character per byte (docs/security.md).
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace once {

/// `j` as JSON text: indented by `indent` spaces (one line for -1), like nlohmann's dump(),
/// with strings escaped losslessly as above. Never throws for a string's bytes.
std::string jsonText(const nlohmann::json& j, int indent = -1);

}  // namespace once
