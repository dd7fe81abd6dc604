# bench_gpu: the GPU measurements (bench/gpu/run.sh). Builds without Qt and FFmpeg; uses the CUDA
# backend module (gpu/) when it is built and a GPU is present, else the CPU paths (run.sh --dry-run).
# The backend checks are the test suite's (tests/support/backend_check.cpp, Qt-free), compiled in
# here because the GPU machine builds without Qt and without the tests.
add_executable(bench_gpu ${CMAKE_CURRENT_LIST_DIR}/bench_gpu.cpp
               ${CMAKE_SOURCE_DIR}/tests/support/backend_check.cpp
               ${CMAKE_SOURCE_DIR}/tests/support/decoder_kernel_check.cpp)
target_link_libraries(bench_gpu PRIVATE once::core)
# bench/: the drivers' shared command line (bench_cli.h).
target_include_directories(bench_gpu PRIVATE "${CMAKE_CURRENT_LIST_DIR}/.." "${CMAKE_SOURCE_DIR}/tests")
once_target_warnings(bench_gpu)
