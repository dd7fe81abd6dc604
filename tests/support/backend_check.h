#pragma once
// Every registered assignment backend and segmented-pooling kernel against the CPU reference on
// the same inputs, the way llama.cpp's test-backend-ops runs each backend's ops against the CPU:
// one loop, so a new backend (gpu/, a HIP or MPS folder) is tested by registering, not by a new
// test file. Qt-free: compress_test_backends_<name> (tests/compress/test_backends.cpp) asserts
// on it, and `bench_gpu check` prints it on the GPU machine, which has no Qt.
//
// The rules (exact where the rule is discrete, stated tolerances where floats are summed):
// - lists: scores within 1e-5 of the reference (F32 scores) or 1e-2 (BF16 scores); whole lists
//   equal but for rounding-level swaps of neighbours (at most 1 % of them in F32, 25 % in BF16,
//   whose 8-bit scores tie often); the nearest codeword always equal (the data have margins);
//   per-codeword sums within 1e-3;
// - two backends on one device (the "aten" tensor ops and a device's kernels): the same cuBLAS
//   scores, so the very same lists and counts;
// - compression at B ∈ {1, 8, 32, 1000} for the full rule, no-reassign and medoid output: the
//   same codewords, group sizes and groups, tokens within 1e-4, results on the backend's device
//   where the device path implements the variant;
// - the device's segmented pooling with one group of 90 % of the tokens (the atomics hot spot)
//   and dropped tokens: sizes equal, means within 1e-4.
#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

namespace once::test {

struct BackendCheck {
    std::string what;  ///< the case, e.g. "assign bfloat16 BFloat16 → cuda/cuda-bf16"
    bool passed = false;
    std::string detail;  ///< the measured differences
};

/// A measured difference as a check's detail prints it (3 significant digits).
std::string checkNumber(double v);

/// The backends the loop covers: every registered assignment backend but the CPU reference.
std::vector<std::string> checkedAssignBackends();
/// The device `backend` runs on here ("cpu" for "aten" without a GPU), or "" with the reason in
/// `why` when it cannot run on this machine (its module is not built, no device).
std::string backendDevice(const std::string& backend, std::string* why);
/// Runs every case for `backend` on `device` (seeded: the same inputs every run).
std::vector<BackendCheck> checkAssignBackend(const std::string& backend, const std::string& device);

}  // namespace once::test
