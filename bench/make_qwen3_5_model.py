"""A Qwen3.5 model folder with random BF16 weights, for timing `once bench` on the CPU.

  python bench/make_qwen3_5_model.py OUT_DIR --published 0.8b|9b
  python bench/make_qwen3_5_model.py OUT_DIR [--hidden 1024] [--layers 8] [--vision-depth 4]

--published writes a published checkpoint's geometry unscaled (its config.json's sizes; random
weights): 0.8b is Qwen3.5-0.8B (text 1,024 wide, 24 layers, MLP 3,584, 8 query / 2 key-value
heads of 256, DeltaNet 16 key / 16 value heads of 128, tied embeddings; vision 12 blocks of 768,
MLP 3,072, 12 heads), the smallest Qwen3.5 and the one whose CPU table docs/performance.md
gives; 9b is Qwen3.5-9B, the paper's (transformers' class defaults: 4,096 wide, 32 layers, MLP
12,288, 16 / 4 heads, DeltaNet 16 / 32 heads; vision 27 blocks of 1,152, MLP 4,304, 16 heads;
about 18 GB in BF16, so it needs that much free memory twice while it is written).
Without it, the 9B geometry scaled only in width and depth (as the tests' models are):
text head_dim 256 with 16 query / 4 key-value heads, partial rotary 0.25, interleaved M-RoPE
[11, 11, 10], DeltaNet with 16 key / 32 value heads of 128 and a 4-tap convolution, every 4th
layer full attention, the 248,320-token vocabulary; vision patch 16, temporal patch 2, merge 2,
the 48 × 48 position table, SigLIP-2-so400m widths (1152, MLP 4304, 16 heads) with fewer blocks.
Saved by transformers' save_pretrained with a Qwen3VLProcessor: a small byte-level BPE with
Qwen3.5's pre-tokenizer and its special tokens at their published ids
(tests/reference/qwen3_5_processor_reference.py), the non-thinking chat template, and a video
processor at 2 fps, 4 to 256 frames, with the published pixel budget (4,096 to 25,165,824
pixels for the whole video).
With random weights and a fixed number of new tokens the work per token is the real geometry's.
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "reference"))
from qwen3_5_processor_reference import SPECIAL, TEMPLATE, build_tokenizer  # noqa: E402


# Published config.json sizes (the fields that differ between the two; the rest is shared).
PUBLISHED = {
    "0.8b": dict(hidden=1024, intermediate=3584, layers=24, heads=8, kv_heads=2,
                 linear_value_heads=16, tied=True, vision_depth=12, vision_hidden=768,
                 vision_intermediate=3072, vision_heads=12),
    "9b": dict(hidden=4096, intermediate=12288, layers=32, heads=16, kv_heads=4,
               linear_value_heads=32, tied=False, vision_depth=27, vision_hidden=1152,
               vision_intermediate=4304, vision_heads=16),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--hidden", type=int, default=1024)
    ap.add_argument("--intermediate", type=int, default=3072)
    ap.add_argument("--layers", type=int, default=8)
    ap.add_argument("--vision-depth", type=int, default=4)
    ap.add_argument("--published", choices=sorted(PUBLISHED),
                    help="a published geometry, unscaled (overrides the four sizes above)")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    geometry = dict(PUBLISHED[a.published]) if a.published else dict(
        hidden=a.hidden, intermediate=a.intermediate, layers=a.layers, heads=16, kv_heads=4,
        linear_value_heads=32, tied=False, vision_depth=a.vision_depth, vision_hidden=1152,
        vision_intermediate=4304, vision_heads=16)
    from transformers import (PreTrainedTokenizerFast, Qwen2VLImageProcessor, Qwen3_5Config,
                              Qwen3_5ForConditionalGeneration, Qwen3VLProcessor,
                              Qwen3VLVideoProcessor)

    os.makedirs(a.out, exist_ok=True)
    tok_path = os.path.join(a.out, "tokenizer_build.json")
    build_tokenizer(tok_path)
    tok = PreTrainedTokenizerFast(tokenizer_file=tok_path, eos_token="<|im_end|>",
                                  pad_token="<|endoftext|>")
    os.remove(tok_path)
    ids = {s: tok.convert_tokens_to_ids(s) for s in SPECIAL}
    cfg = Qwen3_5Config(
        text_config=dict(
            vocab_size=248320, hidden_size=geometry["hidden"],
            intermediate_size=geometry["intermediate"], num_hidden_layers=geometry["layers"],
            num_attention_heads=geometry["heads"], num_key_value_heads=geometry["kv_heads"],
            head_dim=256, linear_num_key_heads=16,
            linear_num_value_heads=geometry["linear_value_heads"], linear_key_head_dim=128,
            linear_value_head_dim=128, linear_conv_kernel_dim=4,
            tie_word_embeddings=geometry["tied"], eos_token_id=[ids["<|im_end|>"]],
            rope_parameters=dict(rope_type="default", rope_theta=10000000.0,
                                 partial_rotary_factor=0.25, mrope_interleaved=True,
                                 mrope_section=[11, 11, 10])),
        vision_config=dict(depth=geometry["vision_depth"], hidden_size=geometry["vision_hidden"],
                           intermediate_size=geometry["vision_intermediate"],
                           num_heads=geometry["vision_heads"],
                           out_hidden_size=geometry["hidden"], patch_size=16,
                           temporal_patch_size=2, spatial_merge_size=2,
                           num_position_embeddings=2304),
        tie_word_embeddings=geometry["tied"],
        image_token_id=ids["<|image_pad|>"], video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"], vision_end_token_id=ids["<|vision_end|>"])
    torch.manual_seed(a.seed)
    model = Qwen3_5ForConditionalGeneration(cfg).eval().to(torch.bfloat16)
    model.save_pretrained(a.out)
    # The published video processor's pixel budget (for the whole video, not per frame).
    vp = Qwen3VLVideoProcessor(size={"shortest_edge": 4096, "longest_edge": 25165824},
                               fps=2, min_frames=4, max_frames=256, cap_pixels_per_frame=False)
    Qwen3VLProcessor(image_processor=Qwen2VLImageProcessor(), tokenizer=tok, video_processor=vp,
                     chat_template=TEMPLATE).save_pretrained(a.out)
    params = sum(p.numel() for p in model.parameters())
    print(f"Qwen3.5 hidden {geometry['hidden']}, {geometry['layers']} layers, "
          f"vision depth {geometry['vision_depth']}: "
          f"{params / 1e9:.2f} B parameters -> {a.out}")


if __name__ == "__main__":
    main()
