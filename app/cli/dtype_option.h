#pragma once
// --dtype of the commands that run a model (ask, encode, eval): one name, one default ("auto":
// BF16 where it is computed natively, F32 elsewhere; core/util/dtype_choice.h) and one JSON form.
#include <nlohmann/json.hpp>
#include <string>

#include "cli/arg_parser.h"
#include "util/dtype_choice.h"

namespace once::cli {

/// --dtype auto|float32|float16|bfloat16, default auto.
void declareDtype(ArgParser& p, const std::string& what);
/// The choice for --dtype on the device named by the command's --device.
DtypeChoice dtypeFrom(const ArgParser& a);
/// {"requested": …, "resolved": …, "reason": …}, the `dtype` field of `--json` reports.
nlohmann::json dtypeJson(const DtypeChoice& choice);

}  // namespace once::cli
