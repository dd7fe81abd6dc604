#pragma once
// CUDA and cuBLAS status codes as the project's error (once::OnceError, core/util/error.h): the
// CLI prints them and the studio shows them like any other failure, naming the call that failed
// (the "field"), success as what was expected and the library's own name and text for the code.
//
//   ONCE_CUDA_CHECK(cudaMemsetAsync(p, 0, bytes, stream));
//   myKernel<<<grid, block, 0, stream>>>(…);
//   ONCE_CUDA_CHECK_LAUNCH("myKernel");   // launch errors (bad configuration, no kernel image)
//   ONCE_CUBLAS_CHECK(cublasGemmEx(…));
#include <cublas_api.h>
#include <cuda_runtime_api.h>

#include <string>

#include "util/error.h"

namespace once::gpu {

/// Throws OnceError for any status but cudaSuccess; `call` is the expression, `where` file:line.
inline void checkCuda(cudaError_t status, const char* call, const char* where) {
    if (status != cudaSuccess) {
        fail(std::string("CUDA call failed: ") + cudaGetErrorString(status), where, call,
             "cudaSuccess",
             std::string(cudaGetErrorName(status)) + " (" + std::to_string(int(status)) + ")");
    }
}

/// The same for cuBLAS.
inline void checkCublas(cublasStatus_t status, const char* call, const char* where) {
    if (status != CUBLAS_STATUS_SUCCESS) {
        fail(std::string("cuBLAS call failed: ") + cublasGetStatusString(status), where, call,
             "CUBLAS_STATUS_SUCCESS",
             std::string(cublasGetStatusName(status)) + " (" + std::to_string(int(status)) + ")");
    }
}

}  // namespace once::gpu

#define ONCE_CUDA_STRINGIFY2(x) #x
#define ONCE_CUDA_STRINGIFY(x) ONCE_CUDA_STRINGIFY2(x)
#define ONCE_CUDA_WHERE __FILE__ ":" ONCE_CUDA_STRINGIFY(__LINE__)
#define ONCE_CUDA_CHECK(expr) ::once::gpu::checkCuda((expr), #expr, ONCE_CUDA_WHERE)
#define ONCE_CUBLAS_CHECK(expr) ::once::gpu::checkCublas((expr), #expr, ONCE_CUDA_WHERE)
/// After a kernel launch: the launch's own error (not the kernel's, which shows at the next
/// synchronising call).
#define ONCE_CUDA_CHECK_LAUNCH(name) \
    ::once::gpu::checkCuda(cudaGetLastError(), "launch of " name, ONCE_CUDA_WHERE)
