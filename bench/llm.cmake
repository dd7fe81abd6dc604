# Dense prefill and decode of the LLaVA-OneVision-0.5B language model, F32 vs BF16 in one run
# (issue 19, the CPU fast path).
add_executable(bench_llm ${CMAKE_CURRENT_LIST_DIR}/bench_llm.cpp)
target_link_libraries(bench_llm PRIVATE once::core)
once_target_warnings(bench_llm)
