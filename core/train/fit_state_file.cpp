#include "train/fit_state_file.h"

#include <ATen/ATen.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <system_error>
#include <utility>

#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "util/error.h"

namespace once {

void saveFitState(const std::string& path, const FitState& st, const std::string& config,
                  const std::string& dataSha) {
    if (path.empty()) {
        return;
    }
    SafetensorsWriter w;
    addFiniteTensor(w, "param", st.param, path);
    addFiniteTensor(w, "m1", st.m1, path);
    addFiniteTensor(w, "m2", st.m2, path);
    addFiniteTensor(w, "best", st.best, path);
    w.setMetadata("format", kFitStateFormat);
    w.setMetadata("training_config", config);
    w.setMetadata("training_data_sha256", dataSha);
    w.setMetadata("state", nlohmann::json({{"rounds_done", st.roundsDone},
                                           {"step", st.step},
                                           {"bad", st.bad},
                                           {"best_epoch", st.bestEpoch},
                                           {"criterion", st.crit},
                                           {"history", st.history}})
                               .dump());
    w.write(path);  // atomic: a kill leaves the previous state or this one
}

bool loadFitState(const std::string& path, FitState& st, const std::string& config,
                  const std::string& dataSha, const FitStateExpectation& expect) {
    std::error_code ec;
    if (path.empty() || !std::filesystem::exists(std::filesystem::symlink_status(path, ec))) {
        return false;
    }
    auto f = SafetensorsFile::open(path);
    static_cast<FitStateCounters&>(st) =
        parseFitStateHeader(f.metadata(), f.tensors(), path, config, dataSha, expect);
    st.param = loadTensor(f, "param").clone();
    st.m1 = loadTensor(f, "m1").clone();
    st.m2 = loadTensor(f, "m2").clone();
    st.best = loadTensor(f, "best").clone();
    for (const auto& [name, t] : {std::pair{"param", &st.param}, std::pair{"m1", &st.m1},
                                  std::pair{"m2", &st.m2}, std::pair{"best", &st.best}}) {
        if (!at::isfinite(*t).all().item<bool>()) {
            fail("the saved Stage-B state holds non-finite values", path, name, "finite values",
                 "NaN or infinity");
        }
    }
    if (st.m2.lt(0).any().item<bool>()) {
        fail("the saved Stage-B state's second moments are negative", path, "m2", ">= 0",
             "a negative value");
    }
    return true;
}

}  // namespace once
