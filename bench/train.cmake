# Codebook-training benchmark (issue 4): bench_train.py drives bench_train and times POT and
# faiss-cpu on the same inputs.
add_executable(bench_train ${CMAKE_CURRENT_SOURCE_DIR}/bench_train.cpp)
target_link_libraries(bench_train PRIVATE once::core)
