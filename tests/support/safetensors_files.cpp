#include "support/safetensors_files.h"

#include "io/safetensors.h"
#include "io/tensor_io.h"

namespace once::test {

std::string writeSafetensors(const std::string& path,
                             const std::map<std::string, at::Tensor>& tensors,
                             const std::map<std::string, std::string>& meta) {
    SafetensorsWriter w;
    for (const auto& [name, tensor] : tensors) {
        addTensor(w, name, tensor);
    }
    for (const auto& [key, value] : meta) {
        w.setMetadata(key, value);
    }
    w.write(path);
    return path;
}

}  // namespace once::test
