"""Qwen3.5 language-model benchmark (issue 17): ratios measured in one run on the same shapes.

A small Qwen3.5 configuration with the published layer geometry (head_dim 256, 4:1 query to
key/value heads, partial rotary 0.25, M-RoPE; DeltaNet key/value heads 1:2 of 128 with a 4-tap
convolution; every 4th layer full attention), narrower and shallower (hidden 512, 8 layers: 6
DeltaNet, 2 attention), random weights, saved by transformers 5 and read by both sides:

  eager / ours (prefill)   transformers' Qwen3_5 text model (attn_implementation="eager", the
                           torch reference kernels of the gated delta rule and the convolution,
                           as a CPU install without flash-linear-attention runs it) ÷
                           bench_qwen3_5, the same N random embeddings at text positions, logits
                           of the last row (target ≥ 1.2)
  eager / ours (decode)    seconds per generated token with the cache / state carried, after
                           that prefill (target ≥ 1.2)
  prefill vs length        ours at 1k, 4k and 16k tokens for the hybrid stack and for the same
                           stack with every layer a DeltaNet layer: time per token stays flat for
                           the linear-attention layers while the softmax layers' grows with N;
                           printed per token and as time(16k) / time(1k) / 16 (1 = linear).

Usage: python bench/bench_qwen3_5.py [--build build/default] [--tokens 1024] [--lengths
       1024,4096,16384] [--new-tokens 16] [--reps 2] [--skip-lengths]
       [--skip-eager]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import torch

from bench_timing import best_of

THREADS = int(os.environ.get("OMP_NUM_THREADS", os.cpu_count() or 1))


def build(path, linear_only=False):
    from transformers import Qwen3_5Config, Qwen3_5ForConditionalGeneration

    layers = 8
    types = ["linear_attention" if linear_only or (i + 1) % 4 else "full_attention"
             for i in range(layers)]
    cfg = Qwen3_5Config(
        text_config=dict(
            vocab_size=4096, hidden_size=512, intermediate_size=1536, num_hidden_layers=layers,
            layer_types=types, num_attention_heads=8, num_key_value_heads=2, head_dim=256,
            linear_num_key_heads=4, linear_num_value_heads=8, linear_key_head_dim=128,
            linear_value_head_dim=128, linear_conv_kernel_dim=4,
            rope_parameters=dict(rope_type="default", rope_theta=10000000.0,
                                 partial_rotary_factor=0.25, mrope_interleaved=True,
                                 mrope_section=[11, 11, 10])),
        vision_config=dict(depth=1, hidden_size=64, intermediate_size=96, num_heads=16,
                           out_hidden_size=512),
        image_token_id=4000, video_token_id=4001, vision_start_token_id=4002,
        vision_end_token_id=4003)
    cfg.text_config._attn_implementation = "eager"
    torch.manual_seed(0)
    model = Qwen3_5ForConditionalGeneration(cfg).eval()
    model.save_pretrained(path)
    return model


def time_eager(model, n, new_tokens, reps):
    lm, head = model.model.language_model, model.lm_head
    torch.manual_seed(0)
    emb = torch.randn(1, n, lm.config.hidden_size) * 0.02

    def prefill():
        out = lm(inputs_embeds=emb, use_cache=True)
        return head(out.last_hidden_state[:, -1]), out.past_key_values

    with torch.no_grad():
        prefill()
        pre = best_of(reps, prefill)
        logits, cache = prefill()
        tok = int(logits[0].argmax())
        import time
        t = time.perf_counter()
        for _ in range(new_tokens):
            out = lm(inputs_embeds=lm.embed_tokens(torch.tensor([[tok]])), past_key_values=cache,
                     use_cache=True)
            cache = out.past_key_values
            tok = int(head(out.last_hidden_state[:, -1])[0].argmax())
        dec = (time.perf_counter() - t) / new_tokens
    return pre, dec


def linear_growth(runs):
    """Time at the longest length over time at the shortest, divided by the length ratio: 1 when
    prefill time grows linearly with the tokens (16k / 1k / 16 with the default lengths)."""
    if len(runs) < 2:
        return None
    short = min(runs, key=lambda r: r["tokens"])
    long = max(runs, key=lambda r: r["tokens"])
    factor = long["tokens"] / short["tokens"]
    return {"short": short["tokens"], "long": long["tokens"],
            "ratio": long["prefill_seconds"] / short["prefill_seconds"] / factor}


def run_ours(exe, path, tokens, new_tokens, reps):
    r = subprocess.run([exe, "--model", path, "--tokens", ",".join(map(str, tokens)),
                        "--new-tokens", str(new_tokens), "--reps", str(reps), "--threads",
                        str(THREADS)], capture_output=True, text=True, check=True)
    return json.loads(r.stdout)["runs"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build/default")
    ap.add_argument("--tokens", type=int, default=1024)
    ap.add_argument("--lengths", default="1024,4096,16384")
    ap.add_argument("--new-tokens", type=int, default=16)
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--skip-lengths", action="store_true")
    ap.add_argument("--skip-eager", action="store_true",
                    help="only the prefill-vs-length runs (no transformers comparison)")
    a = ap.parse_args()
    torch.set_num_threads(THREADS)
    exe = os.path.join(a.build, "bench", "bench_qwen3_5")
    result = {"threads": THREADS}
    with tempfile.TemporaryDirectory() as tmp:
        hybrid = os.path.join(tmp, "hybrid")
        model = build(hybrid)
        if not a.skip_eager:
            ours = run_ours(exe, hybrid, [a.tokens], a.new_tokens, a.reps)[0]
            pre, dec = time_eager(model, a.tokens, a.new_tokens, a.reps)
            result["vs_eager"] = {
                "tokens": a.tokens, "eager_prefill_s": pre,
                "ours_prefill_s": ours["prefill_seconds"],
                "prefill_ratio": pre / ours["prefill_seconds"], "eager_decode_s": dec,
                "ours_decode_s": ours["decode_seconds_per_token"],
                "decode_ratio": dec / ours["decode_seconds_per_token"]}
            print(f"N={a.tokens}, {THREADS} threads: prefill eager {pre:.3f} s, ours "
                  f"{ours['prefill_seconds']:.3f} s -> eager/ours "
                  f"{pre / ours['prefill_seconds']:.2f}x;"
                  f" decode eager {dec * 1e3:.1f} ms/token, ours "
                  f"{ours['decode_seconds_per_token'] * 1e3:.1f} ms/token -> eager/ours "
                  f"{dec / ours['decode_seconds_per_token']:.2f}x", flush=True)
        del model
        if not a.skip_lengths:
            lengths = [int(v) for v in a.lengths.split(",")]
            linear = os.path.join(tmp, "linear")
            build(linear, linear_only=True)
            result["lengths"] = {}
            for name, path in (("hybrid", hybrid), ("deltanet_only", linear)):
                runs = run_ours(exe, path, lengths, 1, 1)
                result["lengths"][name] = runs
                for r in runs:
                    print(f"{name:13s} N={r['tokens']:6d}: prefill {r['prefill_seconds']:.3f} s, "
                          f"{r['prefill_seconds'] / r['tokens'] * 1e6:.1f} us/token", flush=True)
                growth = linear_growth(runs)
                if growth is not None:
                    result["lengths"][name + "_growth"] = growth
                    print(f"{name:13s} time({growth['long']}) / time({growth['short']}) / "
                          f"{growth['long'] // growth['short']} = {growth['ratio']:.2f} "
                          "(1 = linear in N)", flush=True)
    print(json.dumps(result))


if __name__ == "__main__":
    sys.exit(main())
