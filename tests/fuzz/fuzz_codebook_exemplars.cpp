// fuzz-sources: core/codebook/codebook_exemplars.cpp core/io/safetensors.cpp core/io/dtype.cpp
// fuzz-sources: core/io/mapped_file.cpp core/util/error.cpp core/util/atomic_file.cpp
// fuzz-sources: core/util/json_file.cpp core/util/regular_file.cpp
// fuzz-max-len: 65536
// libFuzzer target for the exemplar section of a codebook file (codebook/codebook_exemplars.h:
// the `corpus_exemplars` metadata, `corpus_usage`, `exemplars`, `exemplar_thumbnails`), which
// the studio's codebook explorer reads from any file it is given. Any byte string either throws
// OnceError, has no section, or yields a section whose every slot names a listed video and a
// cell inside its grid, with thumbnails inside the file. The first data byte picks K.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "codebook/codebook_exemplars.h"
#include "io/safetensors.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const once::SafetensorsHeader h = once::parseSafetensors({data, size}, "fuzz.safetensors");
        const std::int64_t k = size > 8 ? 1 + data[8] % 8 : 1;
        const auto ex = once::parseCodebookExemplars(h, {data, size}, k, "fuzz");
        if (!ex) {
            return 0;
        }
        if (ex->usage.size() != std::size_t(k) ||
            ex->entries.size() != std::size_t(k * ex->perCodeword)) {
            std::abort();
        }
        for (std::int64_t c = 0; c < k; ++c) {
            const int n = ex->exemplarCount(c);
            if (n > ex->usage[std::size_t(c)].reps) {
                std::abort();
            }
            for (int j = 0; j < ex->perCodeword; ++j) {
                const once::CodewordExemplar& e = ex->exemplar(c, j);
                if (j >= n) {
                    if (!e.empty()) {
                        std::abort();  // a filled slot after an empty one
                    }
                    continue;
                }
                if (e.video < 0 || std::size_t(e.video) >= ex->videos.size() || e.row < 0 ||
                    e.row >= e.gridRows || e.col < 0 || e.col >= e.gridCols) {
                    std::abort();
                }
                const auto t = ex->thumbnail({data, size}, c, j);
                if (!t.empty() && (t.data() < data || t.data() + t.size() > data + size)) {
                    std::abort();
                }
            }
        }
        for (const auto& v : ex->videos) {
            if (!once::isContainedRelativePath(v)) {
                std::abort();
            }
        }
    } catch (const once::OnceError&) {
    }
    return 0;
}
