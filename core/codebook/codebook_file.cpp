#include "codebook/codebook_file.h"

#include <vector>

#include "io/finite_values.h"
#include "util/error.h"

namespace once {
namespace {

constexpr const char* kFormat = "once-codebook/1";  // Codebook::kFormat

std::string meta(const SafetensorsHeader& h, const std::string& key) {
    auto it = h.metadata.find(key);
    return it == h.metadata.end() ? std::string() : it->second;
}

std::string shown(const std::string& v) {
    std::string out;
    for (char c : v.substr(0, 40)) {
        out += (c >= 32 && c < 127) ? c : '?';
    }
    return "'" + out + (v.size() > 40 ? "...'" : "'");
}

// A count recorded in the metadata ("dim", "size") must be a plain decimal number equal to the
// tensor's; compared as text, so no conversion can throw or overflow.
void checkCount(const SafetensorsHeader& h, const std::string& key, std::int64_t actual,
                const std::string& path) {
    const std::string v = meta(h, key);
    if (v.empty()) {
        return;
    }
    if (v.find_first_not_of("0123456789") != std::string::npos) {
        fail("codebook metadata is not a number", path, "__metadata__." + key,
             "a decimal count (" + std::to_string(actual) + ")", shown(v));
    }
    if (v != std::to_string(actual)) {
        fail("codebook metadata disagrees with its tensor", path, "__metadata__." + key,
             std::to_string(actual), shown(v));
    }
}

}  // namespace

std::string chooseCodebookKey(const std::map<std::string, std::int64_t>& ranks,
                              const std::string& requested, const std::string& path) {
    if (!requested.empty()) {
        if (!ranks.count(requested)) {
            std::string have;
            for (const auto& [k, _] : ranks) {
                have += (have.empty() ? "" : ", ") + k;
            }
            fail("codebook tensor not found", path, requested, "a tensor named " + requested,
                 have.empty() ? "no tensors" : have);
        }
        return requested;
    }
    if (ranks.count("codebook")) {
        return "codebook";
    }
    std::vector<std::string> twoD;
    for (const auto& [k, rank] : ranks) {
        if (rank == 2) {
            twoD.push_back(k);
        }
    }
    if (twoD.size() != 1) {
        std::string names;
        for (const auto& k : twoD) {
            names += (names.empty() ? "" : ", ") + k;
        }
        fail("cannot tell which tensor is the codebook (use --key)", path, "key",
             "one 2-D floating tensor or one named 'codebook'",
             twoD.empty() ? "no 2-D floating tensor" : std::to_string(twoD.size()) + ": " + names);
    }
    return twoD.front();
}

const TensorEntry& checkCodebookFile(const SafetensorsHeader& h,
                                     std::span<const std::uint8_t> image, const std::string& key,
                                     const std::string& path) {
    std::map<std::string, std::int64_t> ranks;
    for (const TensorEntry& e : h.tensors) {
        ranks[e.name] = dtypeIsFloat(e.dtype) ? std::int64_t(e.shape.size()) : -1;
    }
    const std::string name = chooseCodebookKey(ranks, key, path);
    const std::string format = meta(h, "format");
    if (!format.empty() && format != kFormat) {
        fail("unknown codebook format", path, "__metadata__.format", kFormat, shown(format));
    }
    const TensorEntry* e = nullptr;
    for (const TensorEntry& t : h.tensors) {
        if (t.name == name) {
            e = &t;
        }
    }
    std::string found = std::to_string(e->shape.size()) + "-D [";
    for (std::size_t i = 0; i < e->shape.size(); ++i) {
        found += (i ? ", " : "") + std::to_string(e->shape[i]);
    }
    found += "] " + std::string(dtypeName(e->dtype));
    if (e->shape.size() != 2) {
        fail("codebook is not a matrix", path, name, "2-D [K, D]", found);
    }
    if (!dtypeIsFloat(e->dtype)) {
        fail("codebook is not floating point", path, name, "F32, F16, BF16 or F64", found);
    }
    if (e->shape[0] < 1 || e->shape[1] < 1) {
        fail("codebook is empty", path, name, "K >= 1 and D >= 1", found);
    }
    checkCount(h, "dim", e->shape[1], path);
    checkCount(h, "size", e->shape[0], path);
    const auto bad = firstNonFinite(e->dtype, image.subspan(std::size_t(h.dataOffset + e->begin),
                                                            std::size_t(e->end - e->begin)));
    if (bad) {
        fail("codebook holds NaN or Inf", path,
             "codebook row " + std::to_string(*bad / std::uint64_t(e->shape[1])), "finite values",
             "NaN/Inf");
    }
    return *e;
}

}  // namespace once
