#!/usr/bin/env python3
"""Model files built to break the tool (tests/security/test_hostile_values.cpp).

usage: hostile_model_files.py OUT gguf|qwen
  gguf  OUT/heads.gguf        a Llama GGUF whose 16 attention heads exceed its hidden size of 8
        OUT/bos_range.gguf    a byte-level BPE vocabulary of 4 tokens with BOS id 99
        OUT/bos_negative.gguf the same with BOS id -1 (an int32, as a writer may store it)
        (gguf.GGUFWriter, the writer of llama.cpp's own scripts; no tensors: each file is
        refused on its metadata before any weight is read)
  qwen  OUT/qwen/             a tiny Qwen3.5 folder exactly as qwen3_5_video_path.py saves it
                              (transformers 5's save_pretrained, the published geometry)
        OUT/qwen_nan/         the same with one vision weight NaN (a corrupted download)
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(__file__))

TOKENS = ["a", "b", "ab", "<|endoftext|>"]


def gguf_file(path, heads, hidden, bos=None, bos_signed=False):
    import gguf

    w = gguf.GGUFWriter(path, "llama")
    w.add_block_count(1)
    w.add_context_length(64)
    w.add_embedding_length(hidden)
    w.add_feed_forward_length(16)
    w.add_head_count(heads)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_tokenizer_model("gpt2")
    w.add_token_list(TOKENS)
    w.add_token_merges(["a b"])
    if bos is not None:
        if bos_signed:
            w.add_int32("tokenizer.ggml.bos_token_id", bos)
        else:
            w.add_bos_token_id(bos)
        w.add_add_bos_token(True)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def qwen(out):
    import torch
    from safetensors.torch import load_file, save_file
    from qwen3_5_video_path import build

    torch.set_num_threads(2)
    clean = os.path.join(out, "qwen")
    build(clean)
    bad = os.path.join(out, "qwen_nan")
    shutil.copytree(clean, bad)
    weights = os.path.join(bad, "model.safetensors")
    tensors = load_file(weights)
    name = next(k for k in sorted(tensors) if "visual" in k and "patch_embed" in k and
                k.endswith("weight"))
    tensors[name].view(-1)[0] = float("nan")
    save_file(tensors, weights, metadata={"format": "pt"})
    print(name)


def main():
    out, what = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    if what == "gguf":
        gguf_file(os.path.join(out, "heads.gguf"), heads=16, hidden=8)
        gguf_file(os.path.join(out, "bos_range.gguf"), heads=2, hidden=8, bos=99)
        gguf_file(os.path.join(out, "bos_negative.gguf"), heads=2, hidden=8, bos=-1,
                  bos_signed=True)
    elif what == "qwen":
        qwen(out)
    else:
        sys.exit("usage: hostile_model_files.py OUT gguf|qwen")


if __name__ == "__main__":
    main()
