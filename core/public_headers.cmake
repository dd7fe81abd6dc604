# The engine's public API: the headers a shell (the `once` CLI, the studio's widgets) or a
# program linking once_core includes. Every other header under core/ is internal: kernels,
# byte-level parsers, model internals, the peers' shared helpers. Tests and benchmarks may
# include internals (they test them); app/ and widgets/ may not, which the test
# `architecture_test_public_headers` checks. A new backbone or compressor adds no public header:
# it registers itself behind models/backbone.h, models/visual_encoder.h or
# compress/token_compressor.h.
set(ONCE_CORE_PUBLIC_HEADERS
    analysis/break_even.h
    analysis/budget_sweep.h
    analysis/diagnostics.h
    analysis/stress_diagnostic.h
    analysis/support_origin.h
    cluster/shard.h
    cluster/shard_encode.h
    codebook/codebook.h
    codebook/codebook_exemplars.h
    codebook/codebook_file.h
    codebook/codebook_writer.h
    compress/assign_backend.h
    compress/assignment.h
    compress/compression.h
    compress/device_compress.h
    compress/result_file.h
    compress/token_compressor.h
    encode/batch_encode.h
    encode/decode_encode.h
    encode/encode_job.h
    eval/benchmark.h
    eval/eval_record.h
    eval/report.h
    eval/results_file.h
    eval/results_merge.h
    eval/runner.h
    features/encoded_video.h
    features/feature_check.h
    features/feature_file.h
    io/dtype.h
    io/file_kind.h
    io/safetensors.h
    models/backbone.h
    models/generation.h
    models/gguf_file.h
    models/gguf_header.h
    models/prefill_flops.h
    models/qwen2_config.h
    models/qwen2_model.h
    models/visual_encoder.h
    pipeline/chat_prompt.h
    pipeline/session.h
    session/session_file.h
    tokenizer/bpe_tokenizer.h
    tokenizer/gguf_chat.h
    tokenizer/gguf_tokenizer.h
    tokenizer/unicode_normalizer.h
    train/cache_merge.h
    train/cache_reader.h
    train/codebook_fit_file.h
    train/codebook_metadata.h
    train/exemplar_pixels.h
    train/exemplar_selection.h
    train/sketch.h
    train/sketch_cache.h
    train/stage_a_manifest.h
    train/stage_b.h
    util/atomic_file.h
    util/device.h
    util/dtype_choice.h
    util/error.h
    util/exception_text.h
    util/json_file.h
    util/json_text.h
    util/progress.h
    util/work_counters.h
    video/sampling_rule.h
    video/video_reader.h
)
