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
  OUT/model_hf5/      transformers 5 as a user gets it: save_pretrained of the model and of a
                      LlavaOnevisionProcessor (processor_config.json with the image and video
                      processors nested, chat template, tokenizer); no preprocessor_config.json
  OUT/model_f16/, OUT/model_bf16/  save_pretrained of the model cast to F16 / BF16 (+ processor)
  OUT/model_sharded_bf16/  BF16, sharded with an index
  OUT/model_hub/      the older llava-hf hub layout (vision_tower.vision_model.*, F16) with a
                      preprocessor_config.json (image processor, CLIP mean/std) and a
                      video_preprocessor_config.json (the reference values): videos must use the
                      video processor's settings, as transformers does
  OUT/model_v4/       the transformers 4.5x layout (model.vision_tower.vision_model.*,
                      model.language_model.*, lm_head.*, model.image_newline)
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
      features_s1_f16, features_s2_f16, features_s1_bf16, features_s2_bf16: the same from the
                                         F16 / BF16 folders loaded by transformers in F32
      pixel_values_next, features_s1_next, features_s2_next (--llava-next): the LLaVA-NeXT
                                         folder has no processor file, so SigLIP's mean = std
                                         = 0.5 (LLaVA-NeXT's SigLipImageProcessor); its weights
                                         are BF16 as lmms-lab publishes them
  metadata "preprocess_source": which Hugging Face code produced pixel_values.

usage: llava_ov_vision_reference.py OUT [--grid G] [--patch P] [--image-size S] [--layer L]
                                         [--heads H] [--frames T] [--llava-next] [--layouts]
  --image-size defaults to G * P; the published checkpoints have 384 with patch 14, whose
  stride-14 convolution sees a 27 x 27 grid of the top-left 378 x 378 pixels.
"""
import argparse
import copy
import json
import math
import os
import shutil
import sys

import numpy as np
import torch
import torch.nn.functional as F
from safetensors.torch import load_file, save_file


def build_model(size, patch, layer, heads):
    from transformers import LlavaOnevisionConfig, LlavaOnevisionForConditionalGeneration

    config = LlavaOnevisionConfig(
        vision_config=dict(
            model_type="siglip_vision_model",
            hidden_size=32,
            intermediate_size=56,
            num_hidden_layers=3,
            num_attention_heads=heads,
            image_size=size,
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
        elif k.startswith("language_model.model."):
            k2 = "model." + k[len("language_model.model."):]
        elif k.startswith("language_model.lm_head."):
            k2 = k[len("language_model."):]
        out[k2] = v.contiguous()
    return out


def rename(state, pairs):
    """Keys with the first matching (old prefix, new prefix) of `pairs` replaced."""
    out = {}
    for k, v in state.items():
        for old, new in pairs:
            if k.startswith(old):
                k = new + k[len(old):]
                break
        out[k] = v.contiguous()
    return out


# transformers 5 saves the legacy llava-hf names (language_model.model.*, vision_tower.*). The
# hub folders of 2024 had vision_tower.vision_model.*; transformers 4.52-4.57 saved model.*.
HUB_LAYOUT = [("vision_tower.", "vision_tower.vision_model.")]
V4_LAYOUT = [("vision_tower.", "model.vision_tower.vision_model."),
             ("multi_modal_projector.", "model.multi_modal_projector."),
             ("language_model.model.", "model.language_model."),
             ("language_model.lm_head.", "lm_head."), ("image_newline", "model.image_newline")]

# The chat template of the llava-hf LLaVA-OneVision checkpoints (their conversion script).
CHAT_TEMPLATE = (
    "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n'}}"
    "{# Render all images first #}{% for content in message['content'] | selectattr('type', "
    "'equalto', 'image') %}{{ '<image>\\n' }}{% endfor %}{# Render all video then #}{% for "
    "content in message['content'] | selectattr('type', 'equalto', 'video') %}{{ '<video>\\n' }}"
    "{% endfor %}{# Render all text next #}{% if message['role'] != 'assistant' %}{% for content "
    "in message['content'] | selectattr('type', 'equalto', 'text') %}{{ content['text'] }}"
    "{% endfor %}{% else %}{% for content in message['content'] | selectattr('type', 'equalto', "
    "'text') %}{% generation %}{{ content['text'] }}{% endgeneration %}{% endfor %}{% endif %}"
    "{{'<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}"
    "{{ '<|im_start|>assistant\\n' }}{% endif %}")


def make_processor(size, mean, std, vocab=300, patch=14):
    """A LlavaOnevisionProcessor as transformers 5 builds one: a Qwen2-style tokenizer trained
    here, the image and the video processor with the given values, the llava-hf chat template."""
    from transformers import (LlavaOnevisionImageProcessor, LlavaOnevisionProcessor,
                              LlavaOnevisionVideoProcessor, PreTrainedTokenizerFast)
    sys.path.insert(0, os.path.dirname(__file__))
    from tokenizer_reference import train_tokenizer

    tok = PreTrainedTokenizerFast(tokenizer_object=train_tokenizer(vocab), eos_token="<|im_end|>",
                                  pad_token="<|endoftext|>")
    tok.add_special_tokens({"additional_special_tokens": ["<image>", "<video>"]})
    ip = LlavaOnevisionImageProcessor(size={"height": size, "width": size}, image_mean=mean,
                                      image_std=std)
    vp = LlavaOnevisionVideoProcessor(size={"height": size, "width": size}, image_mean=mean,
                                      image_std=std)
    return LlavaOnevisionProcessor(image_processor=ip, tokenizer=tok, video_processor=vp,
                                   chat_template=CHAT_TEMPLATE,
                                   num_image_tokens=(size // patch) ** 2,
                                   vision_feature_select_strategy="full")


def features_of(model, pixel_values, layers):
    """(unpooled projected features, get_video_features pooled features without the newline)."""
    with torch.no_grad():
        inner = model.model
        vis = inner.vision_tower(pixel_values, output_hidden_states=True)
        s1 = inner.multi_modal_projector(torch.cat([vis.hidden_states[i] for i in layers], -1))
        pooled = inner.get_video_features(pixel_values[None]).pooler_output[0, :-1]
        return s1.float(), pooled.reshape(s1.shape[0], -1, s1.shape[-1]).float()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--grid", type=int, default=4)
    ap.add_argument("--patch", type=int, default=14)
    ap.add_argument("--image-size", type=int, default=0)
    ap.add_argument("--layouts", action="store_true",
                    help="also write the transformers 5 / F16 / BF16 / hub / 4.5x folders")
    ap.add_argument("--layer", default="-2", help="int or comma list (write --layer=-2,-1)")
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--frames", type=int, default=3)
    ap.add_argument("--llava-next", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    layers = [int(x) for x in args.layer.split(",")]
    layer = layers[0] if len(layers) == 1 else layers
    size = args.image_size or args.grid * args.patch
    assert size // args.patch == args.grid, "--grid must be floor(--image-size / --patch)"
    model = build_model(size, args.patch, layer, args.heads)
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
        # lmms-lab's folders: BF16 weights under the original names, an original config with
        # the decoder's fields at the top, no processor file (LLaVA-NeXT builds SigLIP's).
        nxt = os.path.join(args.out, "model_llava_next")
        os.makedirs(nxt, exist_ok=True)
        bf16 = {k: v.to(torch.bfloat16) if v.is_floating_point() else v for k, v in
                load_file(os.path.join(orig, "model.safetensors")).items()}
        save_file(bf16, os.path.join(nxt, "model.safetensors"), metadata={"format": "pt"})
        tc = model.config.text_config
        with open(os.path.join(nxt, "config.json"), "w") as f:
            json.dump({
                "architectures": ["LlavaQwenForCausalLM"], "model_type": "llava",
                "hidden_size": tc.hidden_size, "intermediate_size": tc.intermediate_size,
                "num_hidden_layers": tc.num_hidden_layers,
                "num_attention_heads": tc.num_attention_heads,
                "num_key_value_heads": tc.num_key_value_heads, "vocab_size": tc.vocab_size,
                "rms_norm_eps": tc.rms_norm_eps, "rope_theta": 1000000.0,
                "tie_word_embeddings": False, "torch_dtype": "bfloat16",
                "mm_hidden_size": model.config.vision_config.hidden_size,
                "mm_projector_type": "mlp2x_gelu", "mm_vision_select_layer": -2,
                "mm_vision_select_feature": "patch",
                "mm_vision_tower": f"google/siglip-so400m-patch{args.patch}-{size}",
                "mm_spatial_pool_stride": 2, "mm_spatial_pool_mode": "bilinear",
                "mm_newline_position": "one_token", "image_aspect_ratio": "anyres_max_9",
            }, f, indent=2)

    extra = {}
    if args.layouts:
        # Settings no file reader could guess: not SigLIP's 0.5 and not OpenAI CLIP's.
        processor = make_processor(size, mean, std, patch=args.patch)
        for name, dtype in (("model_hf5", torch.float32), ("model_f16", torch.float16),
                            ("model_bf16", torch.bfloat16)):
            folder = os.path.join(args.out, name)
            # Module.to() casts in place: cast a copy, the reference outputs need the F32 model.
            copy.deepcopy(model).to(dtype).save_pretrained(folder)
            processor.save_pretrained(folder)
        copy.deepcopy(model).to(torch.bfloat16).save_pretrained(
            os.path.join(args.out, "model_sharded_bf16"), max_shard_size="40KB")
        processor.save_pretrained(os.path.join(args.out, "model_sharded_bf16"))
        state = load_file(os.path.join(model_dir, "model.safetensors"))
        hub = os.path.join(args.out, "model_hub")
        os.makedirs(hub, exist_ok=True)
        shutil.copy(os.path.join(model_dir, "config.json"), hub)
        save_file({k: v.half() for k, v in rename(state, HUB_LAYOUT).items()},
                  os.path.join(hub, "model.safetensors"), metadata={"format": "pt"})
        clip = {**pre, "image_mean": [0.48145466, 0.4578275, 0.40821073],
                "image_std": [0.26862954, 0.26130258, 0.27577711],
                "image_processor_type": "LlavaOnevisionImageProcessor"}
        with open(os.path.join(hub, "preprocessor_config.json"), "w") as f:
            json.dump(clip, f, indent=2)
        with open(os.path.join(hub, "video_preprocessor_config.json"), "w") as f:
            json.dump({**pre, "video_processor_type": "LlavaOnevisionVideoProcessor"}, f,
                      indent=2)
        v4 = os.path.join(args.out, "model_v4")
        os.makedirs(v4, exist_ok=True)
        shutil.copy(os.path.join(model_dir, "config.json"), v4)
        shutil.copy(os.path.join(model_dir, "preprocessor_config.json"), v4)
        save_file(rename(state, V4_LAYOUT), os.path.join(v4, "model.safetensors"),
                  metadata={"format": "pt"})

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

    from transformers import LlavaOnevisionForConditionalGeneration
    if args.layouts:
        for name, tag in (("model_f16", "f16"), ("model_bf16", "bf16")):
            m = LlavaOnevisionForConditionalGeneration.from_pretrained(
                os.path.join(args.out, name), dtype=torch.float32).eval()
            extra[f"features_s1_{tag}"], extra[f"features_s2_{tag}"] = features_of(
                m, pixel_values, layers)
    if args.llava_next:
        # transformers cannot read the original layout; its weights are the BF16 folder's.
        assert args.layouts, "--llava-next needs --layouts (the BF16 folder)"
        m = LlavaOnevisionForConditionalGeneration.from_pretrained(
            os.path.join(args.out, "model_bf16"), dtype=torch.float32)
        half = [0.5, 0.5, 0.5]
        extra["pixel_values_next"], _ = hf_preprocess(frames_np, size, half, half)
        extra["features_s1_next"], extra["features_s2_next"] = features_of(
            m.eval(), extra["pixel_values_next"], layers)

    save_file(
        {
            **{k: v.contiguous() for k, v in extra.items()},
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
