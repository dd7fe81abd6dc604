#include "support/models_fixture.h"

#include <ATen/ATen.h>

#include <QDebug>
#include <fstream>

#include "codebook/codebook.h"
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

}  // namespace once::test
