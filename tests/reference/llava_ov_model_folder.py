#!/usr/bin/env python3
"""Writes a tiny random LLaVA-OneVision folder as transformers 5's save_pretrained does (model,
processor, tokenizer, chat template), with the published geometry scaled only in width and depth
(llava_ov_video_path.build: SigLIP 384 px / patch 14 → 27×27, 16 heads; Qwen2 14/2 heads), for
suites that need a model folder but no transformers reference run (tests/eval/
test_efficiency_bench.cpp).

usage: llava_ov_model_folder.py OUT
"""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

from llava_ov_video_path import build  # noqa: E402

if __name__ == "__main__":
    build(sys.argv[1])
