"""Reference outputs of tiny random language models built with transformers (no download).

  llm_reference.py causal OUT_DIR ARCH [--shard] [--tie]
      ARCH qwen2 (q/k/v biases, untied) or llama (no biases, llama3 rope scaling). Writes the HF
      folder and ref.safetensors: input_ids [S], logits [S, V] F32, generated [G] (greedy).
  llm_reference.py llava OUT_DIR
      A tiny LlavaOnevisionForConditionalGeneration with a locally trained Qwen2-style tokenizer.
      Writes the folder (+ tokenizer.json), features.safetensors (HF's own projected, pooled
      video features [T, P, D] as a once-features/1 file), and ref.safetensors with the full
      multimodal prompt's input_ids, logits and greedy ids (pixel_values_videos path).
  llm_reference.py embeds MODEL_DIR IN OUT
      IN holds prompt_ids [S] with one placeholder at `placeholder_index` and visual [V, D]:
      HF's embeddings with the visual rows spliced in are run as inputs_embeds; OUT gets logits
      and greedy ids. Used for the compressed-token parity. OUT also gets the prefill FLOPs
      torch.utils.flop_counter counts for that prompt (logits of the last position only):
      prefill_flops_matmul (every projection, MLP and the head) and
      prefill_flops_attention_full (QKᵀ and AV over the full S × S square, as it counts SDPA).
"""
import os
import sys

import torch
from safetensors.torch import load_file, save_file

sys.path.insert(0, os.path.dirname(__file__))

GEN_TOKENS = 12
SYSTEM = "You are a helpful assistant."
QUESTION = "What happens in the video? Answer briefly."


def randomize(model, seed):
    # HF's 0.02 init gives near-zero logits; larger weights make the comparison meaningful.
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "norm" in name and name.endswith("weight"):
                p.copy_(1 + 0.2 * torch.randn(p.shape, generator=g))
            else:
                p.copy_(0.15 * torch.randn(p.shape, generator=g))


def causal(out, arch, shard, tie):
    from transformers import LlamaConfig, LlamaForCausalLM, Qwen2Config, Qwen2ForCausalLM
    common = dict(vocab_size=96, hidden_size=64, intermediate_size=112, num_hidden_layers=3,
                  num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=256,
                  tie_word_embeddings=tie, rms_norm_eps=1e-6)
    if arch == "qwen2":
        cfg = Qwen2Config(**common, rope_parameters={"rope_type": "default", "rope_theta": 5000.0})
        model = Qwen2ForCausalLM(cfg)
    else:
        cfg = LlamaConfig(**common, attention_bias=False, rope_parameters={
            "rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0, "low_freq_factor": 1.0,
            "high_freq_factor": 4.0, "original_max_position_embeddings": 32})
        model = LlamaForCausalLM(cfg)
    randomize(model, 7)
    if tie:
        model.tie_weights()
    model.eval()
    model.save_pretrained(out, max_shard_size="40KB" if shard else "5GB")
    ids = torch.randint(0, 96, (1, 40), generator=torch.Generator().manual_seed(3))
    with torch.no_grad():
        logits = model(ids).logits[0].float()
        # An explicit mask: without it HF treats ids equal to pad_token_id as padding.
        gen = model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=GEN_TOKENS,
                             do_sample=False, eos_token_id=None, pad_token_id=0)[0, ids.shape[1]:]
    save_file({"input_ids": ids[0].contiguous(), "logits": logits.contiguous(),
               "generated": gen.contiguous()}, os.path.join(out, "ref.safetensors"))


def llava(out):
    from transformers import LlavaOnevisionConfig, LlavaOnevisionForConditionalGeneration
    from tokenizer_reference import train_tokenizer
    tok = train_tokenizer(600)
    os.makedirs(out, exist_ok=True)
    tok.save(os.path.join(out, "tokenizer.json"))
    text = dict(model_type="qwen2", vocab_size=tok.get_vocab_size(), hidden_size=64,
                intermediate_size=112, num_hidden_layers=2, num_attention_heads=4,
                num_key_value_heads=2, rope_parameters={"rope_type": "default",
                                                        "rope_theta": 10000.0})
    vision = dict(model_type="siglip_vision_model", hidden_size=32, intermediate_size=64,
                  num_hidden_layers=2, num_attention_heads=2, image_size=56, patch_size=14)
    cfg = LlavaOnevisionConfig(text_config=text, vision_config=vision,
                               video_token_index=tok.token_to_id("<video>"),
                               image_token_index=tok.token_to_id("<image>"),
                               vision_feature_layer=-1, vision_feature_select_strategy="full")
    model = LlavaOnevisionForConditionalGeneration(cfg)
    randomize(model, 11)
    model.eval()
    model.save_pretrained(out)
    T = 3
    pv = torch.randn(1, T, 3, 56, 56, generator=torch.Generator().manual_seed(5))
    with torch.no_grad():
        feats = model.model.get_video_features(
            pv, vision_feature_layer=-1, vision_feature_select_strategy="full").pooler_output[0]
    content, newline = feats[:-1], feats[-1:]
    P = content.shape[0] // T
    save_file({"features": content.reshape(T, P, -1).contiguous(),
               "frame_times": torch.arange(T, dtype=torch.float64)},
              os.path.join(out, "features.safetensors"),
              metadata={"format": "once-features/1", "backbone": "llava-onevision",
                        "grid": "2x2", "sampling": "uniform:3", "source": "random",
                        "source_sha256": "0" * 64, "feature_source": "projected patch grid"})
    prompt = (f"<|im_start|>system\n{SYSTEM}<|im_end|>\n<|im_start|>user\n"
              + "<video>" * feats.shape[0] + f"\n{QUESTION}<|im_end|>\n<|im_start|>assistant\n")
    ids = torch.tensor([tok.encode(prompt).ids])
    with torch.no_grad():
        logits = model(input_ids=ids, pixel_values_videos=pv).logits[0].float()
        gen = model.generate(input_ids=ids, attention_mask=torch.ones_like(ids),
                             pixel_values_videos=pv, max_new_tokens=GEN_TOKENS,
                             do_sample=False, eos_token_id=None, pad_token_id=0)[0, ids.shape[1]:]
    save_file({"input_ids": ids[0].contiguous(), "logits": logits.contiguous(),
               "generated": gen.contiguous(), "newline": newline.contiguous()},
              os.path.join(out, "ref.safetensors"))


def embeds(model_dir, inp, out):
    from torch.utils.flop_counter import FlopCounterMode
    from transformers import LlavaOnevisionForConditionalGeneration
    model = LlavaOnevisionForConditionalGeneration.from_pretrained(model_dir).eval()
    t = load_file(inp)
    ids, visual, at = t["prompt_ids"], t["visual"], int(t["placeholder_index"].item())
    with torch.no_grad():
        e = model.get_input_embeddings()(ids)
        e = torch.cat([e[:at], visual.to(e.dtype), e[at + 1:]])[None]
        logits = model(inputs_embeds=e).logits[0].float()
        with FlopCounterMode(display=False) as counter:
            model(inputs_embeds=e, logits_to_keep=1)
        gen = model.generate(inputs_embeds=e, attention_mask=torch.ones(e.shape[:2], dtype=torch.long),
                             max_new_tokens=GEN_TOKENS, do_sample=False,
                             eos_token_id=None, pad_token_id=0)[0]
    counts = {str(op): n for op, n in counter.get_flop_counts()["Global"].items()}
    attention = sum(n for op, n in counts.items() if "scaled_dot_product" in op)
    matmul = sum(n for op, n in counts.items() if "scaled_dot_product" not in op)
    save_file({"logits": logits.contiguous(), "generated": gen.contiguous(),
               "prefill_flops_matmul": torch.tensor([float(matmul)], dtype=torch.float64),
               "prefill_flops_attention_full": torch.tensor([float(attention)],
                                                            dtype=torch.float64)}, out)


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "causal":
        causal(sys.argv[2], sys.argv[3], "--shard" in sys.argv, "--tie" in sys.argv)
    elif cmd == "llava":
        llava(sys.argv[2])
    elif cmd == "embeds":
        embeds(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(f"unknown command {cmd}")
