#!/usr/bin/env python3
"""Reference for the whole path from a video file to the answer (tests/pipeline/test_video_path.cpp).

Builds a tiny random LlavaOnevisionForConditionalGeneration with the published geometry scaled
down only in width and depth (SigLIP: 384-pixel images, 14-pixel patches, so a 27 x 27 grid from
the top-left 378 x 378 pixels, 16 heads; Qwen2: 14 query and 2 key/value heads, as the 0.5B) and
saves it with transformers 5's save_pretrained, model and LlavaOnevisionProcessor (processor
config, chat template, tokenizer). Then, as a transformers user does:
  - decodes VIDEO with PyAV and keeps frames np.linspace(0, n - 1, FRAMES, dtype=int) (LLaVA's
    uniform sampling, what `once` does for uniform:FRAMES);
  - applies the chat template to [video, question] and runs the processor (its video processor:
    384 x 384 bicubic, the checkpoint's mean/std) on the frames;
  - greedy `generate` with the model (dense: transformers pools each frame to 14 x 14, i.e.
    `once --pool-stride 2`);
  - with --codebook: the model's own video features (get_video_features), ONCE at --budget by the
    NumPy reference (once_reference.compress), the compressed rows + image_newline spliced where
    the video tokens were, greedy `generate` from inputs_embeds.

usage: llava_ov_video_path.py OUT VIDEO --frames N --question Q [--codebook CB --budget B]
writes OUT/model/ and OUT/ref.json: input_ids (the processor's), video_token_id, visual_tokens
(dense count), generated (dense greedy ids), and with a codebook compressed_visual_tokens and
compressed_generated.
"""
import argparse
import json
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))

GEN_TOKENS = 12


def build(out_dir):
    from transformers import LlavaOnevisionConfig, LlavaOnevisionForConditionalGeneration
    from llava_ov_vision_reference import make_processor
    from llm_reference import randomize

    mean, std = [0.5, 0.48, 0.45], [0.5, 0.27, 0.26]
    processor = make_processor(384, mean, std, vocab=400)
    tok = processor.tokenizer
    cfg = LlavaOnevisionConfig(
        vision_config=dict(model_type="siglip_vision_model", hidden_size=64,
                           intermediate_size=96, num_hidden_layers=2, num_attention_heads=16,
                           image_size=384, patch_size=14, hidden_act="gelu_pytorch_tanh",
                           layer_norm_eps=1e-6, vision_use_head=False),
        text_config=dict(model_type="qwen2", vocab_size=len(tok), hidden_size=112,
                         intermediate_size=160, num_hidden_layers=2, num_attention_heads=14,
                         num_key_value_heads=2, rms_norm_eps=1e-6, tie_word_embeddings=False,
                         rope_parameters={"rope_type": "default", "rope_theta": 1000000.0}),
        video_token_index=tok.convert_tokens_to_ids("<video>"),
        image_token_index=tok.convert_tokens_to_ids("<image>"),
        vision_feature_layer=-1, vision_feature_select_strategy="full",
        projector_hidden_act="gelu")
    model = LlavaOnevisionForConditionalGeneration(cfg)
    randomize(model, 23)
    model.eval()
    model.save_pretrained(out_dir)
    processor.save_pretrained(out_dir)
    return model, processor


def decode(video, n):
    import av
    with av.open(video) as c:
        frames = [f.to_ndarray(format="rgb24") for f in c.decode(video=0)]
    idx = np.linspace(0, len(frames) - 1, n, dtype=int)
    return np.stack([frames[i] for i in idx])


def stops(tok):
    return [tok.convert_tokens_to_ids(t) for t in ("<|im_end|>", "<|endoftext|>")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("video")
    ap.add_argument("--frames", type=int, required=True)
    ap.add_argument("--question", required=True)
    ap.add_argument("--codebook")
    ap.add_argument("--budget", type=int)
    args = ap.parse_args()
    model_dir = os.path.join(args.out, "model")
    model, processor = build(model_dir)
    frames = decode(args.video, args.frames)
    conversation = [{"role": "user", "content": [{"type": "video"},
                                                  {"type": "text", "text": args.question}]}]
    prompt = processor.apply_chat_template(conversation, add_generation_prompt=True)
    inputs = processor(text=prompt, videos=[frames], return_tensors="pt")
    ids = inputs["input_ids"]
    video_id = model.config.video_token_index
    eos = stops(processor.tokenizer)
    with torch.no_grad():
        gen = model.generate(**inputs,
                             max_new_tokens=GEN_TOKENS, do_sample=False, eos_token_id=eos,
                             pad_token_id=eos[1])[0, ids.shape[1]:]
    ref = {"prompt": prompt, "input_ids": ids[0].tolist(), "video_token_id": video_id,
           "visual_tokens": int((ids[0] == video_id).sum()), "generated": gen.tolist(),
           "frames_shape": list(frames.shape)}
    if args.codebook:
        from safetensors.numpy import load_file
        from once_reference import compress
        codebook = load_file(args.codebook)["codebook"].astype(np.float32)
        with torch.no_grad():
            feats = model.model.get_video_features(
                inputs["pixel_values_videos"]).pooler_output[0]
            content, newline = feats[:-1], feats[-1:]
            t = args.frames
            x = content.reshape(t, -1, content.shape[-1]).numpy()
            z = compress(x, codebook, args.budget, "full")["tokens"]
            visual = torch.cat([torch.from_numpy(z), newline.float()])
            emb = model.get_input_embeddings()(ids[0])
            run = (ids[0] == video_id).nonzero().flatten()
            first, last = int(run[0]), int(run[-1])
            e = torch.cat([emb[:first], visual, emb[last + 1:]])[None]
            cgen = model.generate(inputs_embeds=e, attention_mask=torch.ones(e.shape[:2],
                                  dtype=torch.long), max_new_tokens=GEN_TOKENS,
                                  do_sample=False, eos_token_id=eos, pad_token_id=eos[1])[0]
        ref["compressed_visual_tokens"] = int(visual.shape[0])
        ref["compressed_generated"] = cgen.tolist()
    with open(os.path.join(args.out, "ref.json"), "w") as f:
        json.dump(ref, f)
    print(json.dumps({k: ref[k] for k in ("visual_tokens", "generated", "frames_shape")}))


if __name__ == "__main__":
    sys.exit(main())
