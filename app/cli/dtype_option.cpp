#include "cli/dtype_option.h"

namespace once::cli {

void declareDtype(ArgParser& p, const std::string& what) {
    p.option("dtype", "auto|float32|float16|bfloat16",
             what +
                 "; auto: bfloat16 on a GPU or a CPU with AVX512-BF16/AMX, else float32 "
                 "(tolerances per dtype: docs/performance.md)",
             std::string("auto"));
}

DtypeChoice dtypeFrom(const ArgParser& a) {
    return chooseComputeDtype(a.get("dtype"), a.get("device"), "--dtype");
}

nlohmann::json dtypeJson(const DtypeChoice& choice) {
    return {
        {"requested", choice.requested}, {"resolved", choice.resolved}, {"reason", choice.reason}};
}

}  // namespace once::cli
