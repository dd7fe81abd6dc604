# Qwen3.5 language model: prefill and decode against transformers' eager implementation, and
# prefill time against prompt length (issue 17); bench_qwen3_5.py drives it.
add_executable(bench_qwen3_5 ${CMAKE_CURRENT_LIST_DIR}/bench_qwen3_5.cpp)
target_link_libraries(bench_qwen3_5 PRIVATE once::core)
