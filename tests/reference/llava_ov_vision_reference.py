#!/usr/bin/env python3
"""Reference for the C++ LLaVA-OneVision visual encoder (tests/models/test_llava_ov_encoder.cpp).

Builds a tiny randomly initialised LlavaOnevisionForConditionalGeneration with transformers (no
download), saves it in the layouts the C++ loader must read, runs seeded frames through the Hugging
Face code and writes the outputs:

  OUT/model/          save_pretrained, one model.safetensors + preprocessor_config.json
  OUT/model_sharded/  save_pretrained with a small max_shard_size (index + shards)
  OUT/model_orig/     the same weights under the original LLaVA-NeXT names
                      (model.mm_projector.0/2, model.vision_tower.vision_tower.vision_model.*)
  OUT/model_llava_next/  with --llava-next: original weights names and an original LLaVA-NeXT
                      config.json (no vision_config; needs --heads 16 --layer -1, what
                      LLaVA-NeXT assumes for its so400m tower minus the removed last layer)
  OUT/reference.safetensors
      frames        uint8 [T, H, W, 3]   the seeded input frames
      pixel_values  f32 [T, 3, S, S]     Hugging Face preprocessing of the frames
      features_s1   f32 [T, g*g, D]      vision tower -> vision_feature_layer -> projector
      features_s2   f32 [T, ceil(g/2)^2, D]  get_video_features (projector -> apply_pooling)
      newline       f32 [1, D]           image_newline
      attention_s1  f32 [T, g*g]         eager attention weights of the layer that produces the
                                         deepest selected hidden state, averaged over heads and
                                         queries (HoliTom's SigLIP `attn.mean(1).mean(1)`)
      attention_s2  f32 [T, ceil(g/2)^2] the same, bilinear-pooled like the features
  metadata "preprocess_source": which Hugging Face code produced pixel_values.

usage: llava_ov_vision_reference.py OUT [--grid G] [--patch P] [--layer L] [--heads H]
                                         [--frames T] [--llava-next]
"""
import argparse
import json
import math
import os
import shutil
import sys

import numpy as np
import torch
import torch.nn.functional as F
from safetensors.torch import load_file, save_file


def build_model(grid, patch, layer, heads):
    from transformers import LlavaOnevisionConfig, LlavaOnevisionForConditionalGeneration

    config = LlavaOnevisionConfig(
        vision_config=dict(
            model_type="siglip_vision_model",
            hidden_size=32,
            intermediate_size=56,
            num_hidden_layers=3,
            num_attention_heads=heads,
            image_size=grid * patch,
            patch_size=patch,
            hidden_act="gelu_pytorch_tanh",
            layer_norm_eps=1e-6,
            vision_use_head=False,
        ),
        text_config=dict(
            model_type="qwen2",
            hidden_size=48,
            intermediate_size=64,
            num_hidden_layers=1,
            num_attention_heads=4,
            num_key_value_heads=2,
            vocab_size=300,
        ),
        image_token_index=290,
        video_token_index=291,
        vision_feature_layer=layer,
        vision_feature_select_strategy="full",
        projector_hidden_act="gelu",
    )
    torch.manual_seed(1234)
    model = LlavaOnevisionForConditionalGeneration(config).eval()
    # Random init leaves LayerNorms at 1/0 and biases at 0: perturb everything so that a wrong
    # weight name or a skipped bias shows in the outputs.
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "language_model" in name or "lm_head" in name:
                continue
            p.add_(torch.randn_like(p) * 0.1)
    return model


def hf_preprocess(frames, size, mean, std):
    """pixel_values from the Hugging Face LLaVA-OneVision video processor when torchvision is there;
    else the same operations written out (torchvision's tensor resize is torch's antialiased
    bicubic on uint8 for CPU tensors, then the fused rescale+normalize)."""
    video = torch.from_numpy(frames).permute(0, 3, 1, 2).contiguous()
    try:
        from transformers import LlavaOnevisionVideoProcessor

        proc = LlavaOnevisionVideoProcessor(
            size={"height": size, "width": size}, image_mean=mean, image_std=std
        )
        out = proc(videos=[video], return_tensors="pt")["pixel_values_videos"][0]
        return out.float(), "transformers LlavaOnevisionVideoProcessor (torchvision)"
    except Exception as e:  # noqa: BLE001 - any missing backend falls back to the written-out ops
        reason = f"{type(e).__name__}"
    resized = F.interpolate(video, size=(size, size), mode="bicubic", align_corners=False,
                            antialias=True)
    m = torch.tensor(mean).view(1, 3, 1, 1) * 255.0
    s = torch.tensor(std).view(1, 3, 1, 1) * 255.0
    return (resized.float() - m) / s, f"torch uint8 antialiased bicubic (processor unavailable: {reason})"


def hf_image_processor(frames, size, mean, std):
    """pixel_values from the checkpoints' own processor class, SiglipImageProcessor (LLaVA-OneVision's
    preprocessor_config.json names it), through its Pillow backend: torchvision has no build for
    this torch, and Pillow's bicubic is what the original LLaVA code resized with. Not bit-exact with
    torch's antialiased bicubic; the C++ test states the measured difference."""
    from transformers import SiglipImageProcessorPil

    proc = SiglipImageProcessorPil(size={"height": size, "width": size}, image_mean=mean,
                                   image_std=std)
    return proc(images=list(frames), return_tensors="pt")["pixel_values"].float()


def to_original_layout(state):
    """transformers 5 saves `vision_tower.*`, `multi_modal_projector.linear_1/2.*`, `image_newline`;
    LLaVA-NeXT checkpoints name them as below."""
    out = {}
    for k, v in state.items():
        k2 = k
        if k.startswith("multi_modal_projector.linear_1."):
            k2 = "model.mm_projector.0." + k[len("multi_modal_projector.linear_1."):]
        elif k.startswith("multi_modal_projector.linear_2."):
            k2 = "model.mm_projector.2." + k[len("multi_modal_projector.linear_2."):]
        elif k.startswith("vision_tower."):
            k2 = "model.vision_tower.vision_tower.vision_model." + k[len("vision_tower."):]
        elif k == "image_newline":
            k2 = "model.image_newline"
        out[k2] = v.contiguous()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--grid", type=int, default=4)
    ap.add_argument("--patch", type=int, default=14)
    ap.add_argument("--layer", default="-2", help="int or comma list (write --layer=-2,-1)")
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--frames", type=int, default=3)
    ap.add_argument("--llava-next", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    layers = [int(x) for x in args.layer.split(",")]
    layer = layers[0] if len(layers) == 1 else layers
    model = build_model(args.grid, args.patch, layer, args.heads)
    size = args.grid * args.patch
    mean, std = [0.5, 0.48, 0.45], [0.5, 0.27, 0.26]  # not all equal: catches channel mix-ups
    pre = {
        "do_resize": True, "size": {"height": size, "width": size}, "resample": 3,
        "do_rescale": True, "rescale_factor": 1 / 255, "do_normalize": True,
        "image_mean": mean, "image_std": std, "image_processor_type": "SiglipImageProcessor",
    }

    model_dir = os.path.join(args.out, "model")
    model.save_pretrained(model_dir)
    with open(os.path.join(model_dir, "preprocessor_config.json"), "w") as f:
        json.dump(pre, f, indent=2)
    sharded = os.path.join(args.out, "model_sharded")
    model.save_pretrained(sharded, max_shard_size="40KB")
    shutil.copy(os.path.join(model_dir, "preprocessor_config.json"), sharded)
    orig = os.path.join(args.out, "model_orig")
    os.makedirs(orig, exist_ok=True)
    shutil.copy(os.path.join(model_dir, "config.json"), orig)
    shutil.copy(os.path.join(model_dir, "preprocessor_config.json"), orig)
    save_file(to_original_layout(load_file(os.path.join(model_dir, "model.safetensors"))),
              os.path.join(orig, "model.safetensors"), metadata={"format": "pt"})

    if args.llava_next:
        assert args.heads == 16 and layer == -1, "LLaVA-NeXT layout needs --heads 16 --layer -1"
        nxt = os.path.join(args.out, "model_llava_next")
        os.makedirs(nxt, exist_ok=True)
        shutil.copy(os.path.join(orig, "model.safetensors"), nxt)
        shutil.copy(os.path.join(model_dir, "preprocessor_config.json"), nxt)
        with open(os.path.join(nxt, "config.json"), "w") as f:
            json.dump({
                "architectures": ["LlavaQwenForCausalLM"], "model_type": "llava",
                "hidden_size": model.config.text_config.hidden_size,
                "mm_projector_type": "mlp2x_gelu", "mm_vision_select_layer": -2,
                "mm_vision_tower": "google/siglip-so400m-patch14-384",
                "mm_spatial_pool_stride": 2, "mm_newline_position": "one_token",
            }, f, indent=2)

    # Frames of a size unlike the model's, not square, so the resize really resamples.
    rng = np.random.default_rng(7)
    t = args.frames
    h, w = size + 13, size * 2 - 5
    base = rng.integers(0, 256, size=(t, h // 4 + 1, w // 4 + 1, 3)).astype(np.float32)
    # Smooth content plus noise (pure noise would make every pixel an edge).
    smooth = torch.from_numpy(base).permute(0, 3, 1, 2)
    smooth = F.interpolate(smooth, size=(h, w), mode="bilinear", align_corners=False)
    noise = torch.from_numpy(rng.normal(0, 12, size=(t, 3, h, w)).astype(np.float32))
    frames = (smooth + noise).clamp(0, 255).round().to(torch.uint8).permute(0, 2, 3, 1).contiguous()
    frames_np = frames.numpy()

    pixel_values, source = hf_preprocess(frames_np, size, mean, std)

    model.set_attn_implementation("eager")  # SDPA returns no weights
    with torch.no_grad():
        inner = model.model
        vis = inner.vision_tower(pixel_values, output_hidden_states=True, output_attentions=True)
        n_states = len(vis.hidden_states)
        deepest = max(i % n_states for i in layers)  # hidden_states[i] is the output of layer i
        attention_s1 = vis.attentions[deepest - 1].mean(1).mean(1)
        g2 = math.ceil(args.grid / 2)
        attention_s2 = F.interpolate(attention_s1.view(t, 1, args.grid, args.grid), size=(g2, g2),
                                     mode="bilinear", align_corners=False).reshape(t, g2 * g2)
        selected = torch.cat([vis.hidden_states[i] for i in layers], dim=-1)
        s1 = inner.multi_modal_projector(selected)
        out = inner.get_video_features(pixel_values[None])
        pooled_and_newline = out.pooler_output
        d = s1.shape[-1]
        g2 = math.ceil(args.grid / 2)
        s2 = pooled_and_newline[0, :-1].reshape(t, g2 * g2, d)
        newline = pooled_and_newline[0, -1:]
        # The pooled path must be the unpooled one plus apply_pooling: checks our reading of HF.
        assert torch.allclose(inner.apply_pooling(s1), s2, atol=1e-6), "HF path mismatch"

    save_file(
        {
            "frames": frames,
            "pixel_values": pixel_values.contiguous(),
            "pixel_values_hf_processor": hf_image_processor(frames_np, size, mean, std).contiguous(),
            "features_s1": s1.contiguous(),
            "features_s2": s2.contiguous(),
            "newline": newline.contiguous(),
            "attention_s1": attention_s1.contiguous(),
            "attention_s2": attention_s2.contiguous(),
        },
        os.path.join(args.out, "reference.safetensors"),
        metadata={"preprocess_source": source},
    )
    print(json.dumps({"preprocess_source": source, "features_s1": list(s1.shape),
                      "features_s2": list(s2.shape)}))


if __name__ == "__main__":
    sys.exit(main())
