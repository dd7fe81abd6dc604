#!/usr/bin/env python3
"""Reference for the C++ Qwen3.5 model core (tests/models/test_qwen3_5_model.cpp).

Builds a tiny randomly initialised Qwen3_5ForConditionalGeneration with transformers 5 (no
download) that keeps the published Qwen3.5-9B geometry and scales only width and depth:
vision patch 16, temporal patch 2, spatial merge 2, 16 vision heads, the 48 x 48 learned
position table; text head_dim 256 with 16 query / 4 key-value heads, partial rotary 0.25 with
interleaved M-RoPE sections [11, 11, 10] and rope_theta 1e7, DeltaNet with 16 key / 32 value
heads of 128 and a 4-tap convolution, the 3:1 linear/full layer pattern. Widths: text hidden
64, vision hidden 64; depth: 8 text layers (two full-attention), 2 vision blocks.

Writes:
  OUT/model/            save_pretrained (F32)
  OUT/model_bf16/       save_pretrained of the model cast to BF16
  OUT/reference.safetensors
    pixel_values   f32 [t*h*w, 1536]   seeded pixel rows in the processor's layout
    grid           i64 [3]             video_grid_thw of the one video
    features       f32 [t*h/2*w/2, 64] get_video_features (the merger output)
    input_ids      i64 [S]             a Qwen3-VL video prompt: per temporal group timestamp
                                       tokens, vision start, video pads, vision end; S > 64
    positions      i64 [3, S]          get_rope_index
    rope_delta     i64 [1]
    logits         f32 [S, V]          forward of the whole prompt (video spliced)
    generated      i64 [N]             greedy generate(), N new tokens
    step_logits    f32 [N, V]          the logits of each generated step (output_scores)
    features_bf16, logits_bf16, generated_bf16: the same from the BF16 folder run in BF16
usage: qwen3_5_model_reference.py OUT [--frames F] [--height H] [--width W] [--new N]
"""
import argparse
import os

import torch
from safetensors.torch import save_file

VOCAB = 512
VIDEO, IMAGE, VSTART, VEND = 501, 500, 502, 503


def tiny_model(vocab, layers, eos, image, video, vstart, vend, seed):
    """The published geometry at widths 64 with `layers` text layers (3:1 DeltaNet/attention)
    and 2 vision blocks, seeded; every weight perturbed. Shared with qwen3_5_video_path.py."""
    from transformers import Qwen3_5Config, Qwen3_5ForConditionalGeneration

    cfg = Qwen3_5Config(
        text_config=dict(
            vocab_size=vocab, hidden_size=64, intermediate_size=128, num_hidden_layers=layers,
            num_attention_heads=16, num_key_value_heads=4, head_dim=256,
            linear_num_key_heads=16, linear_num_value_heads=32, linear_key_head_dim=128,
            linear_value_head_dim=128, linear_conv_kernel_dim=4, eos_token_id=eos,
            rope_parameters=dict(rope_type="default", rope_theta=10000000.0,
                                 partial_rotary_factor=0.25, mrope_interleaved=True,
                                 mrope_section=[11, 11, 10])),
        vision_config=dict(depth=2, hidden_size=64, intermediate_size=96, num_heads=16,
                           out_hidden_size=64, patch_size=16, temporal_patch_size=2,
                           spatial_merge_size=2, num_position_embeddings=2304),
        image_token_id=image, video_token_id=video, vision_start_token_id=vstart,
        vision_end_token_id=vend)
    torch.manual_seed(seed)
    model = Qwen3_5ForConditionalGeneration(cfg).eval()
    # Random init leaves norms at 1 (or 0 for the zero-centred ones) and biases at 0: perturb
    # everything so that a wrong weight name, a skipped bias or a (1 + w) slip shows.
    with torch.no_grad():
        for name, p in model.named_parameters():
            scale = 0.5 if ("norm" in name or "A_log" in name or "dt_bias" in name) else 0.1
            p.add_(torch.randn_like(p) * scale)
    return model


def build():
    return tiny_model(VOCAB, 8, [7], IMAGE, VIDEO, VSTART, VEND, 1234)


def prompt(t, gh, gw):
    g = torch.Generator().manual_seed(7)
    text = lambda n: torch.randint(10, 490, (n,), generator=g).tolist()
    ids = text(40)
    for _ in range(t):
        ids += text(3) + [VSTART] + [VIDEO] * (gh * gw) + [VEND]
    ids += text(30)
    return torch.tensor([ids])


def run(model, pixels, grid, ids, new):
    mm = (ids == VIDEO).int() * 2
    with torch.no_grad():
        feats = model.model.get_video_features(pixels, grid, return_dict=True).pooler_output
        feats = torch.cat(list(feats), 0)
        pos, delta = model.model.get_rope_index(ids, mm, video_grid_thw=grid)
        model.model.rope_deltas = None
        logits = model(input_ids=ids, pixel_values_videos=pixels, video_grid_thw=grid,
                       mm_token_type_ids=mm).logits[0]
        model.model.rope_deltas = None
        out = model.generate(input_ids=ids, pixel_values_videos=pixels, video_grid_thw=grid,
                             mm_token_type_ids=mm, max_new_tokens=new, min_new_tokens=new,
                             do_sample=False, output_scores=True, return_dict_in_generate=True,
                             eos_token_id=None, pad_token_id=0)
    gen = out.sequences[0, ids.shape[1]:]
    scores = torch.stack([s[0] for s in out.scores]).float()
    return feats.float(), pos[:, 0], delta.reshape(1), logits.float(), gen, scores


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--frames", type=int, default=6)
    ap.add_argument("--height", type=int, default=64)
    ap.add_argument("--width", type=int, default=96)
    ap.add_argument("--new", type=int, default=6)
    a = ap.parse_args()
    torch.set_num_threads(2)
    model = build()
    model.save_pretrained(os.path.join(a.out, "model"))
    t, gh, gw = (a.frames + 1) // 2, a.height // 16, a.width // 16
    grid = torch.tensor([[t, gh, gw]])
    g = torch.Generator().manual_seed(3)
    pixels = torch.randn(t * gh * gw, 3 * 2 * 16 * 16, generator=g)
    ids = prompt(t, gh // 2, gw // 2)
    feats, pos, delta, logits, gen, scores = run(model, pixels, grid, ids, a.new)
    outs = {"pixel_values": pixels, "grid": grid[0], "features": feats, "input_ids": ids[0],
            "positions": pos, "rope_delta": delta, "logits": logits, "generated": gen,
            "step_logits": scores}
    bf = model.to(torch.bfloat16)
    bf.save_pretrained(os.path.join(a.out, "model_bf16"))
    feats, _, _, logits, gen, _ = run(bf, pixels.to(torch.bfloat16), grid, ids, a.new)
    outs.update({"features_bf16": feats, "logits_bf16": logits, "generated_bf16": gen})
    save_file({k: v.contiguous() for k, v in outs.items()},
              os.path.join(a.out, "reference.safetensors"))


if __name__ == "__main__":
    main()
