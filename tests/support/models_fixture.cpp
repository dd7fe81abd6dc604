#include "support/models_fixture.h"

#include <ATen/ATen.h>

#include <QDebug>
#include <fstream>

#include "codebook/codebook.h"
#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "support/test_support.h"

namespace once::test {

void writeRandomCodebook(const std::string& path, std::int64_t rows, std::int64_t dim,
                         const std::string& backbone, const std::string& space) {
    at::manual_seed(5);
    Codebook::fromTensor(at::randn({rows, dim}), backbone, space).save(path);
}

std::optional<nlohmann::json> runPathReference(const QString& script, const std::string& dir,
                                               const QStringList& args) {
    const ProcessResult r = runPython(script, QStringList{QString::fromStdString(dir)} + args);
    if (r.exitCode != 0) {
        qWarning().noquote() << r.err;
        return std::nullopt;
    }
    std::ifstream in(dir + "/ref.json");
    return nlohmann::json::parse(in);
}

std::string makeCausalLmReference(const QString& arch, const QStringList& flags) {
    std::string dir = tempDir();
    const ProcessResult r = runPython(
        "llm_reference.py", QStringList{"causal", QString::fromStdString(dir), arch} + flags);
    if (r.exitCode != 0) {
        qWarning().noquote() << r.err;
    }
    return dir;
}

at::Tensor referenceTensor(const std::string& dir, const std::string& name) {
    auto f = SafetensorsFile::open(dir + "/ref.safetensors");
    return loadTensor(f, name).clone();
}

}  // namespace once::test
