// fuzz-sources: core/io/pickle_scan.cpp core/io/dtype.cpp core/util/error.cpp
// libFuzzer target for the torch.save pickle scan alone (io/pickle_scan.h), without LibTorch:
// fast, so it explores the opcode machine far deeper than fuzz_torch_pickle can. Any byte string
// either scans within the stated limits or throws OnceError.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "io/pickle_scan.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const once::PickleScan s = once::scanTorchPickle({data, size}, "fuzz.pkl");
        if (s.depth == 0 || s.depth > once::kMaxPickleDepth || s.storages.size() > size) {
            std::abort();
        }
    } catch (const once::OnceError&) {
    }
    return 0;
}
