#include "train/fit_state.h"

#include <cmath>

#include "util/error.h"
#include "util/json_file.h"

namespace once {

namespace {

std::string meta(const std::map<std::string, std::string>& m, const std::string& key) {
    auto it = m.find(key);
    return it == m.end() ? std::string() : it->second;
}

// The first option whose value differs between the saved and the requested configuration, so
// the message says which option to change back ("training_config.lr").
std::string differingOption(const std::string& saved, const std::string& requested,
                            const std::string& path, std::string& savedValue,
                            std::string& requestedValue) {
    savedValue = printableExcerpt(saved, 200);
    requestedValue = printableExcerpt(requested, 200);
    nlohmann::json a, b;
    try {
        a = parseJsonText(saved, path, "training_config");
        b = nlohmann::json::parse(requested);
    } catch (const std::exception&) {
        return "training_config";
    }
    if (!a.is_object() || !b.is_object()) {
        return "training_config";
    }
    for (auto it = b.begin(); it != b.end(); ++it) {
        auto found = a.find(it.key());
        if (found == a.end() || *found != it.value()) {
            savedValue = found == a.end() ? "missing" : printableExcerpt(found->dump(), 200);
            requestedValue = printableExcerpt(it.value().dump(), 200);
            return "training_config." + it.key();
        }
    }
    for (auto it = a.begin(); it != a.end(); ++it) {
        if (!b.contains(it.key())) {
            savedValue = printableExcerpt(it.value().dump(), 200);
            requestedValue = "not an option of this version";
            return "training_config." + it.key();
        }
    }
    return "training_config";
}

}  // namespace

FitStateCounters parseFitStateHeader(const std::map<std::string, std::string>& metadata,
                                     const std::vector<TensorEntry>& tensors,
                                     const std::string& path, const std::string& config,
                                     const std::string& dataSha256, const FitStateExpectation& e) {
    if (meta(metadata, "format") != kFitStateFormat) {
        fail("not a Stage-B resume state", path, "format", kFitStateFormat,
             metadata.count("format") ? printableExcerpt(meta(metadata, "format")) : "missing");
    }
    if (meta(metadata, "training_config") != config) {
        std::string saved, requested;
        const std::string field =
            differingOption(meta(metadata, "training_config"), config, path, saved, requested);
        fail(
            "the saved Stage-B state is of other options (expected: the state's value, found: "
            "this run's): rerun with the same options or delete the state to start over",
            path, field, saved, requested);
    }
    if (meta(metadata, "training_data_sha256") != dataSha256) {
        fail("the saved Stage-B state is of another Stage-A cache: delete it to start over", path,
             "training_data_sha256", printableExcerpt(meta(metadata, "training_data_sha256")),
             dataSha256);
    }

    const nlohmann::json j = parseJsonText(meta(metadata, "state"), path, "state");
    FitStateCounters c;
    const int maxRounds = e.hardLloyd ? e.lloydIterations : e.epochs;
    c.roundsDone = int(jsonToInt(jsonRequire(j, "rounds_done", path, "state"), path,
                                 "state.rounds_done", 0, std::max(0, maxRounds)));
    std::int64_t step = 0;
    if (!e.hardLloyd &&
        __builtin_mul_overflow(std::int64_t(c.roundsDone), e.stepsPerEpoch, &step)) {
        fail("the saved Stage-B state counts more steps than can be", path, "state.rounds_done",
             "fewer rounds", std::to_string(c.roundsDone));
    }
    c.step = jsonToInt(jsonRequire(j, "step", path, "state"), path, "state.step", step, step);
    const nlohmann::json& crit = jsonRequire(j, "criterion", path, "state");
    // One criterion per evaluated epoch: the initialiser's, then one per Sinkhorn epoch (a
    // hard-Lloyd state is saved before its single evaluation).
    const std::size_t evaluated = e.hardLloyd ? 1 : std::size_t(c.roundsDone) + 1;
    if (!crit.is_array() || crit.size() != evaluated) {
        fail("the saved Stage-B state's criteria do not match its epochs", path, "state.criterion",
             std::to_string(evaluated) + " values",
             crit.is_array() ? std::to_string(crit.size()) + " values" : jsonTypeName(crit));
    }
    for (std::size_t i = 0; i < crit.size(); ++i) {
        c.crit.push_back(jsonToNumber(crit[i], path, "state.criterion[" + std::to_string(i) + "]"));
    }
    c.bestEpoch = int(jsonToInt(jsonRequire(j, "best_epoch", path, "state"), path,
                                "state.best_epoch", 0, std::int64_t(evaluated) - 1));
    // Epochs without improvement since the best one: the loop stops once it reaches patience.
    const std::int64_t bad = e.hardLloyd ? 0 : c.roundsDone - c.bestEpoch;
    if (bad > e.patience) {
        fail("the saved Stage-B state has more epochs without improvement than the patience", path,
             "state.best_epoch", ">= " + std::to_string(c.roundsDone - e.patience),
             std::to_string(c.bestEpoch));
    }
    c.bad = int(jsonToInt(jsonRequire(j, "bad", path, "state"), path, "state.bad", bad, bad));
    c.history = jsonRequire(j, "history", path, "state");
    if (!c.history.is_array() || c.history.size() != evaluated) {
        fail("the saved Stage-B state's history does not match its epochs", path, "state.history",
             std::to_string(evaluated) + " entries",
             c.history.is_array() ? std::to_string(c.history.size()) + " entries"
                                  : jsonTypeName(c.history));
    }
    for (std::size_t i = 0; i < c.history.size(); ++i) {
        if (!c.history[i].is_object()) {
            fail("wrong JSON type", path, "state.history[" + std::to_string(i) + "]", "an object",
                 jsonTypeName(c.history[i]));
        }
    }

    for (const std::string& name : kFitStateTensors) {
        const TensorEntry* t = nullptr;
        for (const auto& entry : tensors) {
            if (entry.name == name) {
                t = &entry;
            }
        }
        if (!t) {
            fail("the saved Stage-B state lacks a tensor", path, name, "present", "missing");
        }
        const bool shapeOk =
            t->shape.size() == 2 && t->shape[0] == e.codewords && t->shape[1] == e.dim;
        if (t->dtype != DType::F32 || !shapeOk) {
            std::string shape;
            for (std::size_t i = 0; i < t->shape.size(); ++i) {
                shape += (i ? ", " : "") + std::to_string(t->shape[i]);
            }
            fail("a tensor of the saved Stage-B state has the wrong type or shape", path, name,
                 "F32 [" + std::to_string(e.codewords) + ", " + std::to_string(e.dim) + "]",
                 std::string(dtypeName(t->dtype)) + " [" + shape + "]");
        }
    }
    return c;
}

}  // namespace once
