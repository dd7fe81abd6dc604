#include "io/torch_pickle.h"

#include <ATen/ATen.h>
#include <torch/csrc/jit/serialization/pickle.h>

#include "util/atomic_file.h"
#include "util/error.h"

namespace once {
namespace {

void flatten(const c10::IValue& v, const std::string& prefix,
             std::map<std::string, at::Tensor>& out) {
    if (v.isTensor()) {
        out[prefix.empty() ? "tensor" : prefix] = v.toTensor();
    } else if (v.isGenericDict()) {
        for (const auto& kv : v.toGenericDict()) {
            std::string key =
                kv.key().isString() ? kv.key().toStringRef() : std::to_string(out.size());
            flatten(kv.value(), prefix.empty() ? key : prefix + "." + key, out);
        }
    }
}

}  // namespace

std::map<std::string, at::Tensor> readTorchStateDict(const std::string& path) {
    const std::string bytes = readWholeFile(path);
    c10::IValue v;
    try {
        v = torch::jit::pickle_load(std::vector<char>(bytes.begin(), bytes.end()));
    } catch (const std::exception& e) {
        std::string what = e.what();
        fail("not a readable PyTorch file: " + what.substr(0, what.find('\n')), path);
    }
    std::map<std::string, at::Tensor> out;
    flatten(v, "", out);
    if (out.empty()) {
        fail("PyTorch file holds no tensors", path, {}, "a tensor or a dict of tensors",
             v.tagKind());
    }
    return out;
}

}  // namespace once
