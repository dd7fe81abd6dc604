#include "support/backend_check.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "codebook/codebook.h"
#include "compress/assign_backend.h"
#include "compress/compression.h"
#include "compress/device_compress.h"
#include "compress/pooling.h"
#include "util/device.h"

namespace once::test {
namespace {

double maxDiff(const at::Tensor& a, const at::Tensor& b) {
    return (a.to(at::kCPU, at::kDouble) - b.to(at::kCPU, at::kDouble)).abs().max().item<double>();
}

// Tokens near codewords (clear margins) with a skewed use of the codebook: codeword 0 takes
// about half of the tokens (the atomics hot spot a scatter-add would have).
struct Data {
    at::Tensor x;
    Codebook cb;
};
Data clusteredData(std::int64_t t, std::int64_t p, std::int64_t k, std::int64_t d,
                   at::ScalarType type) {
    const at::Tensor c = at::randn({k, d});
    const at::Tensor pick = at::where(at::rand({t * p}) < 0.5, at::zeros({t * p}, at::kLong),
                                      at::randint(0, k / 2, {t * p}));
    const at::Tensor x = (c.index_select(0, pick) + 0.2 * at::randn({t * p, d})).view({t, p, d});
    return {x.to(type), Codebook::fromTensor(c)};
}

AssignOptions options(const std::string& backend, const std::string& precision) {
    AssignOptions o;
    o.device = backend;
    o.precision = precision;
    o.topL = 8;
    o.tileRows = 300;  // several tiles
    o.float32Kernel = "sgemm";
    return o;
}

}  // namespace

std::string checkNumber(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3g", v);
    return b;
}

std::vector<std::string> checkedAssignBackends() {
    loadCudaRuntime();  // device modules register their backends when loaded
    std::vector<std::string> names = assignBackendNames();
    names.erase(std::remove(names.begin(), names.end(), "cpu"), names.end());
    return names;
}

std::string backendDevice(const std::string& backend, std::string* why) {
    const std::vector<std::string> names = checkedAssignBackends();
    if (std::find(names.begin(), names.end(), backend) == names.end()) {
        if (why) {
            const std::string problem = deviceBackendProblem(c10::DeviceType::CUDA);
            *why = "backend \"" + backend + "\" is not registered in this build" +
                   (problem.empty() ? "" : " (" + problem + ")");
        }
        return {};
    }
    if (backend == "aten") {
        return cudaDeviceAvailable() ? "cuda" : "cpu";
    }
    try {
        const auto b = makeAssignBackend(backend);  // throws where it cannot run
        return b->servedDevice() ? c10::DeviceTypeName(*b->servedDevice(), true) : "cpu";
    } catch (const std::exception& e) {
        if (why) {
            *why = "backend \"" + backend + "\" cannot run here: " + e.what();
        }
        return {};
    }
}

std::vector<BackendCheck> checkAssignBackend(const std::string& backend,
                                             const std::string& deviceName) {
    const at::Device device(deviceName);
    std::vector<BackendCheck> out;
    auto record = [&](bool ok, const std::string& what, const std::string& detail) {
        out.push_back({what, ok, detail});
    };
    at::manual_seed(11);
    const std::vector<std::pair<std::string, at::ScalarType>> cases{
        {"float32", at::kFloat},  {"float32", at::kBFloat16},  {"float32", at::kHalf},
        {"bfloat16", at::kFloat}, {"bfloat16", at::kBFloat16}, {"bfloat16", at::kHalf}};
    for (const auto& [precision, type] : cases) {
        const Data data = clusteredData(4, 300, 96, 64, type);
        const at::Tensor xd = data.x.to(device);
        const Assignment ref = assignTokens(data.x, data.cb, options("cpu", precision));
        const Assignment got = assignTokens(xd, data.cb, options(backend, precision));
        const std::string tag = precision + " " + std::string(c10::toString(type)) + " → " +
                                got.backend + "/" + got.kernel;
        const bool bf16 = precision == "bfloat16";
        const double scoreDiff = maxDiff(got.topScores, ref.topScores);
        const double differ =
            (got.topIds.cpu() != ref.topIds).any(1).to(at::kDouble).mean().item<double>();
        const bool nearest = at::equal(got.topIds.select(1, 0).cpu(), ref.topIds.select(1, 0));
        const double sums = maxDiff(got.codewordSums, ref.codewordSums);
        record(got.backend == backend && scoreDiff <= (bf16 ? 1e-2 : 1e-5) &&
                   differ <= (bf16 ? 0.25 : 0.01) && nearest && sums <= 1e-3 &&
                   got.topIds.device() == device,
               "assign " + tag,
               "score diff " + checkNumber(scoreDiff) + ", lists differing " + checkNumber(differ) +
                   ", nearest " + (nearest ? "equal" : "DIFFER") + ", sums diff " +
                   checkNumber(sums));
        if (backend != "aten" && !device.is_cpu()) {
            // A device's kernels scan the same cuBLAS scores the tensor ops rank.
            const Assignment aten = assignTokens(xd, data.cb, options("aten", precision));
            const bool same =
                at::equal(aten.topIds.cpu().to(at::kLong), got.topIds.cpu().to(at::kLong)) &&
                at::equal(aten.counts.cpu(), got.counts.cpu());
            record(same, "assign " + tag + " equals aten/" + aten.kernel,
                   same ? "identical lists and counts" : "lists or counts DIFFER");
        }
        if (bf16) {
            continue;
        }
        for (std::int64_t b : {1, 8, 32, 1000}) {
            for (Variant v : {Variant::Full, Variant::NoReassign, Variant::MedoidOutput}) {
                CompressOptions co;
                co.budget = b;
                co.variant = v;
                const CompressionResult r = compressAssigned(data.x, ref, data.cb, co);
                // CPU tensors' lists are served by the host path: call the device path itself
                // there, as a GPU's lists would be.
                const CompressionResult g =
                    device.is_cpu() && deviceCompressSupports(co)
                        ? compressOnDevice(xd.reshape({-1, xd.size(-1)}), got, data.cb, co)
                        : compressAssigned(xd, got, data.cb, co);
                const bool same = g.numOutputs == r.numOutputs &&
                                  at::equal(g.codewordIds.cpu(), r.codewordIds) &&
                                  at::equal(g.groupSizes.cpu(), r.groupSizes) &&
                                  at::equal(g.groupOfToken.cpu(), r.groupOfToken);
                const double tokens = maxDiff(g.tokens, r.tokens);
                const bool where = !deviceCompressSupports(co) || g.tokens.device() == device;
                record(same && tokens <= 1e-4 && where,
                       "compress B=" + std::to_string(b) + " " + variantName(v) + " " + tag,
                       std::string("groups ") + (same ? "identical" : "DIFFER") + ", token diff " +
                           checkNumber(tokens) + (where ? "" : ", result left the device"));
            }
        }
    }
    // The device's pooling: one group of 90 % of the tokens, dropped tokens, empty groups.
    const std::int64_t n = 20000, d = 200, groups = 50;
    const at::Tensor x = at::randn({n, d}).to(at::kBFloat16);
    const at::Tensor group = at::where(at::rand({n}) < 0.9, at::zeros({n}, at::kLong),
                                       at::randint(-1, groups - 10, {n}));
    std::vector<std::int64_t> g(group.data_ptr<std::int64_t>(), group.data_ptr<std::int64_t>() + n);
    at::Tensor means, sizes, dm, ds;
    poolGroups(x, g, groups, means, sizes);
    poolOnDevice(x.to(device), group.to(device), groups, dm, ds);
    const double meansDiff = maxDiff(dm, means);
    const bool sizesSame = at::equal(ds.cpu(), sizes);
    record(sizesSame && meansDiff <= 1e-4 && dm.device() == device,
           "segmented pooling on " + device.str() + ", skewed groups",
           std::string("sizes ") + (sizesSame ? "equal" : "DIFFER") + ", means diff " +
               checkNumber(meansDiff));
    return out;
}

}  // namespace once::test
