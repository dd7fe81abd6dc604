#!/usr/bin/env python3
"""Reference for the whole Qwen3.5 path from a video file to the answer
(tests/pipeline/test_qwen3_5_path.cpp).

Builds a tiny random Qwen3_5ForConditionalGeneration that keeps the published geometry (vision
patch 16, temporal patch 2, merge 2, 16 vision heads, the 48 x 48 position table; text head_dim
256, 16/4 heads, partial rotary 0.25, M-RoPE [11, 11, 10]; DeltaNet 16/32 heads of 128, a 4-tap
convolution, the 3:1 layer pattern), narrower and shallower (widths 64, 4 text layers, 2 vision
blocks), with a small byte-level BPE tokenizer that has Qwen3.5's pre-tokenizer and special
tokens (right after its vocabulary, so the embedding stays small), and saves model and
Qwen3VLProcessor (video processor, tokenizer, the non-thinking chat template) with transformers
5's save_pretrained. Then, as a transformers user does:
  - decodes VIDEO with PyAV and samples it as Qwen3VLVideoProcessor.sample_frames does at 2 FPS
    with 4 to 256 frames (`once`'s fps:2:4:256);
  - applies the chat template to [video, question] (enable_thinking=False) and runs the
    processor; greedy `generate` (dense);
  - with --codebook: the model's own video features (get_video_features), ONCE at --budget by
    the NumPy reference (once_reference.compress), the pooled tokens placed and positioned by
    the documented rule (docs/models.md, Qwen3.5: the temporal group of the first member, the
    first member's (t, h, w) or the members' rounded mean), written here independently of the
    C++ code, and a greedy loop over the model's forward with inputs_embeds and position_ids.

usage: qwen3_5_video_path.py OUT VIDEO --question Q [--codebook CB --budget B]
writes OUT/model/ and OUT/ref.json: input_ids, positions (get_rope_index), video_token_id,
content_tokens, layout_tokens (the video's span minus its content: timestamps and vision
start/end), generated; with a codebook, for rule in (first, mean): compressed_<rule> with ids,
positions, content_tokens and generated.
"""
import argparse
import json
import os
import sys

import av
import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))

from qwen3_5_model_reference import tiny_model  # noqa: E402
from qwen3_5_processor_reference import (SPECIAL, TEMPLATE, add_special_tokens,  # noqa: E402
                                         train_tokenizer)

GEN_TOKENS = 12
MAX_PIXELS = 4 * 128 * 250   # 4 frames of 240 x 320 -> 128 x 192 (4 x 6 merged cells)
MIN_PIXELS = 4 * 32 * 32


def build_tokenizer(path):
    # The special tokens right after the trained vocabulary, so the embedding stays small.
    j = train_tokenizer()
    first = len(j["model"]["vocab"])
    add_special_tokens(j, first, path)
    return first + len(SPECIAL)


def build(out_dir):
    from transformers import (PreTrainedTokenizerFast, Qwen2VLImageProcessor, Qwen3VLProcessor,
                              Qwen3VLVideoProcessor)

    os.makedirs(out_dir, exist_ok=True)
    tok_path = os.path.join(out_dir, "tokenizer_build.json")
    vocab = build_tokenizer(tok_path)
    tok = PreTrainedTokenizerFast(tokenizer_file=tok_path, eos_token="<|im_end|>",
                                  pad_token="<|endoftext|>")
    os.remove(tok_path)
    ids = {s: tok.convert_tokens_to_ids(s) for s in SPECIAL}
    model = tiny_model(vocab, 4, [ids["<|im_end|>"]], ids["<|image_pad|>"], ids["<|video_pad|>"],
                       ids["<|vision_start|>"], ids["<|vision_end|>"], 4321)
    vp = Qwen3VLVideoProcessor(size={"shortest_edge": MIN_PIXELS, "longest_edge": MAX_PIXELS},
                               fps=2, min_frames=4, max_frames=256,
                               cap_pixels_per_frame=False)
    proc = Qwen3VLProcessor(image_processor=Qwen2VLImageProcessor(), tokenizer=tok,
                            video_processor=vp, chat_template=TEMPLATE)
    model.save_pretrained(out_dir)
    proc.save_pretrained(out_dir)
    return model, proc


def sample(path):
    with av.open(path) as c:
        fps = float(c.streams.video[0].average_rate)
        frames = [f.to_ndarray(format="rgb24") for f in c.decode(video=0)]
    total = len(frames)
    n = min(max(int(total / fps * 2), 4), 256, total)   # sample_frames at fps 2, 4..256
    idx = np.linspace(0, total - 1, n).round().astype(int)
    return np.stack([frames[i] for i in idx]), idx, fps, total


def greedy(model, emb, pos, eos):
    """Greedy decoding from inputs_embeds [L, D] at M-RoPE positions [3, L]."""
    with torch.no_grad():
        out = model(inputs_embeds=emb[None], position_ids=pos[:, None, :], use_cache=True)
        cache, nxt, gen = out.past_key_values, int(pos.max()) + 1, []
        for _ in range(GEN_TOKENS):
            tok = int(out.logits[0, -1].argmax())
            gen.append(tok)
            if tok in eos:
                break
            e = model.get_input_embeddings()(torch.tensor([[tok]]))
            p = torch.full((3, 1, 1), nxt, dtype=torch.long)
            nxt += 1
            out = model(inputs_embeds=e, position_ids=p, past_key_values=cache, use_cache=True)
            cache = out.past_key_values
    return gen


def pooled_prompt(ids, pos, video_id, group, rows, rule):
    """The documented rule, written from its description: each pooled token goes into the
    temporal group of its first member (smallest source index), in first-member order; every
    other token keeps its dense position; a pooled token takes its first member's (t, h, w)
    ("first") or the members' mean rounded half away from zero ("mean")."""
    ids = np.asarray(ids)
    where = np.flatnonzero(ids == video_id)            # dense source token i sits at where[i]
    assert len(where) == len(group)
    first = np.array([np.flatnonzero(group == r).min() for r in range(rows)])
    order = np.argsort(first, kind="stable")
    keep = np.ones(len(ids), dtype=bool)
    keep[where] = False
    out_ids, out_pos, row_order = [], [], []
    placed = {}                                          # dense index of the first member -> row
    for r in order:
        placed[int(where[first[r]])] = int(r)
    # Walk the dense prompt; a group's pooled tokens go where its run of video tokens starts.
    starts = [int(where[0])] + [int(where[i]) for i in range(1, len(where))
                                if where[i] != where[i - 1] + 1]
    run_of = {}
    for s in starts:
        run_of[s] = []
    run_starts = np.array(starts)
    for r in order:
        d = int(where[first[r]])
        run_of[int(run_starts[run_starts <= d].max())].append(int(r))
    for i in range(len(ids)):
        if i in run_of:
            for r in run_of[i]:
                members = np.flatnonzero(group == r)
                if rule == "first":
                    p = pos[:, where[first[r]]]
                else:
                    m = pos[:, where[members]].astype(np.float64).mean(axis=1)
                    p = np.sign(m) * np.floor(np.abs(m) + 0.5)
                out_ids.append(video_id)
                out_pos.append([int(v) for v in p])
                row_order.append(r)
        if keep[i]:
            out_ids.append(int(ids[i]))
            out_pos.append([int(v) for v in pos[:, i]])
    return out_ids, np.array(out_pos).T, row_order


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("video")
    ap.add_argument("--question", required=True)
    ap.add_argument("--codebook")
    ap.add_argument("--budget", type=int)
    a = ap.parse_args()
    torch.set_num_threads(2)
    from transformers.video_utils import VideoMetadata

    model_dir = os.path.join(a.out, "model")
    model, proc = build(model_dir)
    frames, idx, fps, total = sample(a.video)
    content = [{"type": "video"}, {"type": "text", "text": a.question}]
    text = proc.apply_chat_template([{"role": "user", "content": content}],
                                    add_generation_prompt=True, enable_thinking=False,
                                    tokenize=False)
    text_only = proc.apply_chat_template(
        [{"role": "user", "content": [{"type": "text", "text": a.question}]}],
        add_generation_prompt=True, enable_thinking=False, tokenize=False)
    meta = VideoMetadata(total_num_frames=total, fps=fps, frames_indices=idx.tolist(),
                         width=frames.shape[2], height=frames.shape[1])
    inputs = proc(text=[text], videos=[torch.from_numpy(frames).permute(0, 3, 1, 2)],
                  video_metadata=[meta], do_sample_frames=False, return_tensors="pt")
    ids = inputs["input_ids"]
    video_id = model.config.video_token_id
    tok = proc.tokenizer
    eos = [tok.convert_tokens_to_ids(t) for t in ("<|im_end|>", "<|endoftext|>")]
    grid = inputs["video_grid_thw"]
    mm = (ids == video_id).int() * 2
    with torch.no_grad():
        pos, _ = model.model.get_rope_index(ids, mm, video_grid_thw=grid)
        model.model.rope_deltas = None
        gen = model.generate(**inputs, max_new_tokens=GEN_TOKENS, do_sample=False,
                             eos_token_id=eos, pad_token_id=eos[1])[0, ids.shape[1]:]
        feats = torch.cat(list(model.model.get_video_features(
            inputs["pixel_values_videos"], grid, return_dict=True).pooler_output), 0)
    n_content = int((ids[0] == video_id).sum())
    span = ids.shape[1] - len(tok(text_only)["input_ids"])
    ref = {"input_ids": ids[0].tolist(), "positions": pos[:, 0].tolist(),
           "video_token_id": video_id, "grid": grid[0].tolist(), "frames": len(idx),
           "content_tokens": n_content, "layout_tokens": span - n_content,
           "generated": gen.tolist(), "text": text}
    if a.codebook:
        from safetensors.numpy import load_file
        from once_reference import compress
        codebook = load_file(a.codebook)["codebook"].astype(np.float32)
        t, gh, gw = grid[0].tolist()
        x = feats.reshape(t, (gh // 2) * (gw // 2), -1).numpy()
        r = compress(x, codebook, a.budget, "full")
        z, group = torch.from_numpy(r["tokens"]), r["group_of_token"]
        for rule in ("first", "mean"):
            c_ids, c_pos, order = pooled_prompt(ids[0].tolist(), pos[:, 0].numpy(), video_id,
                                                group, len(z), rule)
            c_ids_t = torch.tensor(c_ids)
            with torch.no_grad():
                emb = model.get_input_embeddings()(c_ids_t).clone()
                emb[c_ids_t == video_id] = z[order]
            c_gen = greedy(model, emb, torch.from_numpy(c_pos), eos)
            ref["compressed_" + rule] = {"ids": c_ids, "positions": c_pos.tolist(),
                                         "content_tokens": len(z), "generated": c_gen}
    with open(os.path.join(a.out, "ref.json"), "w") as f:
        json.dump(ref, f)
    print(json.dumps({k: ref[k] for k in ("grid", "content_tokens", "layout_tokens",
                                          "generated")}))


if __name__ == "__main__":
    sys.exit(main())
