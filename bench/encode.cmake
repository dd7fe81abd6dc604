# Demo encoder throughput (issue 3).
add_executable(bench_encode ${CMAKE_CURRENT_LIST_DIR}/bench_encode.cpp)
target_link_libraries(bench_encode PRIVATE once::core)
