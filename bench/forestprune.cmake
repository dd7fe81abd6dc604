# ForestPrune benchmark (issue 27): bench_forestprune.py drives bench_forestprune and times the
# eager PyTorch port of the public code (tests/reference/forestprune_reference.py) on the same
# features.
add_executable(bench_forestprune ${CMAKE_CURRENT_SOURCE_DIR}/bench_forestprune.cpp)
target_link_libraries(bench_forestprune PRIVATE once::core)
