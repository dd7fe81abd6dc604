#!/usr/bin/env python3
"""Reference for the C++ Qwen3.5 video processor and prompt (tests/models/test_qwen3_5_processor.cpp).

Decodes a real clip with PyAV, samples frames with Qwen3VLVideoProcessor.sample_frames' rule
(fps 2, at least 4 frames), and runs transformers' Qwen3VLProcessor on them: the video
processor (smart resize to the 32-pixel merge grid within the min/max pixel budget, torchvision
bicubic, mean = std = 0.5, temporal patch 2, patch rows) and the chat template + tokenizer
(non-thinking: enable_thinking=False), whose video placeholder the processor expands to
"<t seconds><|vision_start|><|video_pad|>*n<|vision_end|>" per temporal group.

The tokenizer is a small byte-level BPE trained here with Qwen3.5's pre-tokenizer (the regex of
transformers' Qwen3_5Tokenizer, NFC) and Qwen3.5's special tokens at their published ids
(<|endoftext|> 248044 ... <|vision_start|> 248053, <|video_pad|> 248057, <think> 248068), so
the ids run to 248k as the real 248,320-token vocabulary does. The chat template is the user-turn
and generation-prompt path of the Qwen3.5 template (content rendered by item, trimmed; system
turn when given; "<think>\n\n</think>\n\n" after the assistant header when thinking is off).

Writes OUT/proc/ (processor.save_pretrained: tokenizer, chat template, processor settings) and
OUT/reference.safetensors: frames u8 [N,H,W,3], indices i64 [N], fps f64 [1],
pixel_values f32 [rows, 1536], grid i64 [3], input_ids i64 [S]; metadata "text" (the rendered
prompt) and "question".
usage: qwen3_5_processor_reference.py OUT CLIP [--max-frames N] [--max-pixels P] [--min-pixels P]
                                      [--system TEXT]
"""
import argparse
import json
import os

import av
import numpy as np
import torch
from safetensors.torch import save_file

SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|object_ref_start|>",
           "<|object_ref_end|>", "<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>",
           "<|vision_start|>", "<|vision_end|>", "<|vision_pad|>", "<|image_pad|>",
           "<|video_pad|>", "<tool_call>", "</tool_call>", "<|fim_prefix|>", "<|fim_middle|>",
           "<|fim_suffix|>", "<|fim_pad|>", "<|repo_name|>", "<|file_sep|>", "<tool_response>",
           "</tool_response>", "<think>", "</think>"]
FIRST_SPECIAL = 248044

TEMPLATE = r"""{%- macro render_content(content) %}
    {%- if content is string %}
        {{- content }}
    {%- else %}
        {%- for item in content %}
            {%- if 'image' in item or item.type == 'image' %}
                {{- '<|vision_start|><|image_pad|><|vision_end|>' }}
            {%- elif 'video' in item or item.type == 'video' %}
                {{- '<|vision_start|><|video_pad|><|vision_end|>' }}
            {%- elif 'text' in item %}
                {{- item.text }}
            {%- endif %}
        {%- endfor %}
    {%- endif %}
{%- endmacro %}
{%- if messages[0].role == 'system' %}
    {{- '<|im_start|>system\n' + render_content(messages[0].content)|trim + '<|im_end|>\n' }}
{%- endif %}
{%- for message in messages %}
    {%- if message.role == 'user' %}
        {{- '<|im_start|>user\n' + render_content(message.content)|trim + '<|im_end|>\n' }}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\n' }}
    {%- if enable_thinking is defined and enable_thinking is false %}
        {{- '<think>\n\n</think>\n\n' }}
    {%- else %}
        {{- '<think>\n' }}
    {%- endif %}
{%- endif %}"""

CORPUS = ["What is happening in this video? Describe the scene, the people and the cars.",
          "Answer with the option's letter from the given choices directly.",
          "seconds second frame frames 0.5 1.0 1.5 2.0 10.5 12.0 7.4 3.3",
          "A city street at night; traffic lights, buildings, a bus and pedestrians.",
          "Which of the following best describes the main action? (A) running (B) walking"]


def train_tokenizer():
    """A small byte-level BPE over CORPUS with Qwen3.5's normaliser, pre-tokenizer and decoder,
    as the JSON of tokenizer.json (a dict; its special tokens still to be added)."""
    from tokenizers import pre_tokenizers, trainers
    from transformers.models.qwen3_5.tokenization_qwen3_5 import PRETOKENIZE_REGEX

    from tokenizer_reference import byte_level_bpe

    tok = byte_level_bpe(PRETOKENIZE_REGEX)
    trainer = trainers.BpeTrainer(vocab_size=600,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    tok.train_from_iterator(CORPUS * 20, trainer)
    return json.loads(tok.to_str())


def add_special_tokens(j, first, path):
    """SPECIAL as added tokens from id `first` (the thinking and tool tokens not special, as
    published), written to `path`."""
    j["added_tokens"] = [dict(id=first + i, content=s, single_word=False, lstrip=False,
                              rstrip=False, normalized=False, special=not s.startswith("<think") and
                              not s.startswith("</think") and "tool" not in s)
                         for i, s in enumerate(SPECIAL)]
    with open(path, "w") as f:
        json.dump(j, f)


def build_tokenizer(path):
    j = train_tokenizer()
    # Fill the vocabulary to the published size so that the special tokens keep their real ids
    # (tokenizers numbers added tokens after the vocabulary): unreachable placeholder entries.
    vocab = j["model"]["vocab"]
    for i in range(len(vocab), FIRST_SPECIAL):
        vocab[f"<|unused_{i}|>"] = i
    add_special_tokens(j, FIRST_SPECIAL, path)


def sample(path, max_frames):
    with av.open(path) as c:
        s = c.streams.video[0]
        fps = float(s.average_rate)
        frames = [f.to_ndarray(format="rgb24") for f in c.decode(video=0)]
    total = len(frames)
    # Qwen3VLVideoProcessor.sample_frames with fps = 2, min_frames 4, max_frames max_frames.
    n = int(total / fps * 2)
    n = min(max(n, 4), max_frames, total)
    idx = np.linspace(0, total - 1, n).round().astype(int)
    return np.stack([frames[i] for i in idx]), idx, fps, total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("clip")
    ap.add_argument("--max-frames", type=int, default=9)
    ap.add_argument("--max-pixels", type=int, default=32 * 32 * 768)
    ap.add_argument("--min-pixels", type=int, default=128 * 32 * 32)
    ap.add_argument("--system", default="")
    a = ap.parse_args()
    from transformers import PreTrainedTokenizerFast, Qwen3VLProcessor, Qwen3VLVideoProcessor
    from transformers.video_utils import VideoMetadata

    os.makedirs(a.out, exist_ok=True)
    build_tokenizer(os.path.join(a.out, "tokenizer.json"))
    tok = PreTrainedTokenizerFast(tokenizer_file=os.path.join(a.out, "tokenizer.json"),
                                  eos_token="<|im_end|>", pad_token="<|endoftext|>")
    vp = Qwen3VLVideoProcessor(size={"shortest_edge": a.min_pixels, "longest_edge": a.max_pixels},
                               cap_pixels_per_frame=False)
    from transformers import Qwen2VLImageProcessor
    proc = Qwen3VLProcessor(image_processor=Qwen2VLImageProcessor(), tokenizer=tok,
                            video_processor=vp, chat_template=TEMPLATE)
    proc.save_pretrained(os.path.join(a.out, "proc"))
    frames, idx, fps, total = sample(a.clip, a.max_frames)
    question = "What is happening in this video? Answer briefly.  "
    content = [{"type": "video"}, {"type": "text", "text": question}]
    messages = ([{"role": "system", "content": a.system}] if a.system else []) + \
               [{"role": "user", "content": content}]
    text = proc.apply_chat_template(messages, add_generation_prompt=True, enable_thinking=False,
                                    tokenize=False)
    meta = VideoMetadata(total_num_frames=total, fps=fps, frames_indices=idx.tolist(),
                         width=frames.shape[2], height=frames.shape[1])
    out = proc(text=[text], videos=[torch.from_numpy(frames).permute(0, 3, 1, 2)],
               video_metadata=[meta], do_sample_frames=False, return_tensors="pt")
    save_file({"frames": torch.from_numpy(frames).contiguous(),
               "indices": torch.from_numpy(idx.astype(np.int64)),
               "fps": torch.tensor([fps], dtype=torch.float64),
               "pixel_values": out["pixel_values_videos"].float().contiguous(),
               "grid": out["video_grid_thw"][0].contiguous(),
               "input_ids": out["input_ids"][0].contiguous()},
              os.path.join(a.out, "reference.safetensors"),
              metadata={"text": text, "question": question, "system": a.system,
                        "expanded": tok.decode(out["input_ids"][0])})


if __name__ == "__main__":
    main()
