# bench_gpu: the GPU measurements of issue 19 (bench/gpu/run.sh). Builds without Qt and FFmpeg;
# with gpu/'s kernels when CUDA is found, else it measures the CPU paths (run.sh --dry-run).
add_executable(bench_gpu ${CMAKE_CURRENT_LIST_DIR}/bench_gpu.cpp)
target_link_libraries(bench_gpu PRIVATE once::core)
# bench/: the drivers' shared command line (bench_cli.h).
target_include_directories(bench_gpu PRIVATE "${CMAKE_CURRENT_LIST_DIR}/..")
if(TARGET once_gpu)
    target_link_libraries(bench_gpu PRIVATE once_gpu)
endif()
once_target_warnings(bench_gpu)
