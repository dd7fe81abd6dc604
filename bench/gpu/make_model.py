"""A LLaVA-OneVision model folder with random weights, for timing (bench/gpu/run.sh).

  make_model.py OUT_DIR {7b,0.5b,tiny} [--device cuda|cpu] [--seed S]

Writes config.json (the published architecture of llava-onevision-qwen2-{7b,0.5b}-ov-hf, or a
tiny one for the CPU dry run) and model.safetensors with random BF16 weights under the names
transformers' save_pretrained uses, which the product's loaders read (core/models). The weights
are drawn on the device (seconds, no download); the folder should live in RAM-backed storage
(run.sh picks /dev/shm when it has room) and is deleted after the run. Greedy decoding with a
fixed number of new tokens makes the work the same as with the real weights.
"""
import argparse
import os
import tempfile

import torch
from safetensors import safe_open
from safetensors.torch import save_file
from transformers import LlavaOnevisionConfig, LlavaOnevisionForConditionalGeneration

def qwen2(vocab_size, hidden_size, intermediate_size, layers, heads, kv_heads, max_positions,
          rope_theta, tie):
    """A Qwen2 language model's config; what the sizes leave open is the same in all three."""
    return dict(model_type="qwen2", vocab_size=vocab_size, hidden_size=hidden_size,
                intermediate_size=intermediate_size, num_hidden_layers=layers,
                num_attention_heads=heads, num_key_value_heads=kv_heads,
                max_position_embeddings=max_positions, rms_norm_eps=1e-6,
                tie_word_embeddings=tie,
                rope_parameters={"rope_type": "default", "rope_theta": rope_theta})


def siglip(hidden_size, intermediate_size, layers, heads, image_size):
    """A SigLIP vision tower's config (14 px patches)."""
    return dict(model_type="siglip_vision_model", hidden_size=hidden_size,
                intermediate_size=intermediate_size, num_hidden_layers=layers,
                num_attention_heads=heads, image_size=image_size, patch_size=14)


# SigLIP-so400m with 26 layers kept: the vision tower of both published models.
SO400M = siglip(1152, 4304, layers=26, heads=16, image_size=384)

ARCH = {
    # llava-hf/llava-onevision-qwen2-7b-ov-hf: Qwen2-7B + SigLIP-so400m.
    "7b": dict(text=qwen2(152064, 3584, 18944, layers=28, heads=28, kv_heads=4,
                          max_positions=32768, rope_theta=1000000.0, tie=False),
               vision=SO400M),
    # llava-hf/llava-onevision-qwen2-0.5b-ov-hf: Qwen2-0.5B, same vision tower.
    "0.5b": dict(text=qwen2(151936, 896, 4864, layers=24, heads=14, kv_heads=2,
                            max_positions=32768, rope_theta=1000000.0, tie=True),
                 vision=SO400M),
    # The CPU dry run: the same code at toy sizes (4×4 patches of 14 px per frame).
    "tiny": dict(text=qwen2(1000, 64, 112, layers=2, heads=4, kv_heads=2, max_positions=4096,
                            rope_theta=10000.0, tie=False),
                 vision=siglip(32, 64, layers=2, heads=2, image_size=56)),
}


def config(arch, shrink=False):
    a = ARCH[arch]
    text, vision = dict(a["text"]), dict(a["vision"])
    if shrink:  # same names and layer counts, toy sizes: to learn the saved tensor names
        text.update(vocab_size=64, hidden_size=32, intermediate_size=32, num_attention_heads=4,
                    num_key_value_heads=2)
        vision.update(hidden_size=16, intermediate_size=16, num_attention_heads=2,
                      image_size=28, patch_size=14)
    return LlavaOnevisionConfig(text_config=text, vision_config=vision,
                                vision_feature_layer=-1, vision_feature_select_strategy="full",
                                tie_word_embeddings=text["tie_word_embeddings"])


def saved_names(arch):
    """In-memory parameter name -> the name save_pretrained writes, from a toy twin whose
    parameters hold their own index."""
    model = LlavaOnevisionForConditionalGeneration(config(arch, shrink=True))
    names = list(model.state_dict().keys())
    with torch.no_grad():
        for i, name in enumerate(names):
            model.state_dict()[name].fill_(float(i))
    mapping = {}
    with tempfile.TemporaryDirectory() as d:
        model.save_pretrained(d)
        with safe_open(os.path.join(d, "model.safetensors"), "pt") as f:
            for key in f.keys():
                mapping[names[int(f.get_tensor(key).flatten()[0].item())]] = key
    return mapping


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("arch", choices=sorted(ARCH))
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    cfg = config(a.arch)
    cfg.save_pretrained(a.out)
    mapping = saved_names(a.arch)
    with torch.device("meta"):
        shapes = {n: t.shape for n, t in
                  LlavaOnevisionForConditionalGeneration(cfg).state_dict().items()}
    g = torch.Generator(device=a.device).manual_seed(a.seed)
    tensors = {}
    for name, shape in shapes.items():
        if name not in mapping:
            continue  # tied weights are saved once
        if "norm" in name and name.endswith("weight"):
            t = torch.ones(shape, device=a.device)
        else:
            t = 0.02 * torch.randn(shape, device=a.device, generator=g)
        tensors[mapping[name]] = t.to(torch.bfloat16).cpu()
    save_file(tensors, os.path.join(a.out, "model.safetensors"), metadata={"format": "pt"})
    total = sum(t.numel() for t in tensors.values())
    print(f"{a.arch}: {len(tensors)} tensors, {total / 1e9:.2f} B parameters -> {a.out}")


if __name__ == "__main__":
    main()
