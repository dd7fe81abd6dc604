#include "models/visual_encoder.h"

#include <map>

#include "util/error.h"
#include "util/work_counters.h"

namespace once {
namespace {
std::map<std::string, VisualEncoderFactory>& registry() {
    static std::map<std::string, VisualEncoderFactory> r;
    return r;
}
}  // namespace

void registerVisualEncoder(const std::string& backbone, VisualEncoderFactory factory) {
    registry()[backbone] = std::move(factory);
}

std::unique_ptr<VisualEncoder> makeVisualEncoder(const std::string& backbone,
                                                 const EncoderOptions& options) {
    auto it = registry().find(backbone);
    if (it == registry().end()) {
        std::string names;
        for (const auto& [n, _] : registry()) {
            names += (names.empty() ? "" : ", ") + n;
        }
        fail("unknown backbone", {}, "backbone", "one of: " + names, backbone);
    }
    countWork(workCounters().encoderBuilds);
    return it->second(options);
}

EncodedVideo VisualEncoder::encode(const at::Tensor& frames, Progress* progress) {
    countWork(workCounters().encodes);
    EncodedVideo v = encodeFrames(frames, progress);
    v.backbone = backbone();
    v.featureSource = featureSource();
    return v;
}

std::vector<std::string> visualEncoderNames() {
    std::vector<std::string> out;
    for (const auto& [n, _] : registry()) {
        out.push_back(n);
    }
    return out;
}

}  // namespace once
