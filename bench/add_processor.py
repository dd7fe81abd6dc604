"""Adds what `once bench` needs besides the weights to a model folder that
bench/gpu/make_model.py wrote (config.json + random weights, no processor, no tokenizer): a
LlavaOnevisionProcessor saved by transformers (tokenizer, chat template, image and video
processor with the vision tower's image size, SigLIP's 384 px for the published models, and
mean = std = 0.5). The tokenizer is a small byte-level BPE
trained here with Qwen2's pre-tokenizer and special tokens (tests/reference/
tokenizer_reference.py), its vocabulary filled with unreachable placeholders up to the model's
(random weights generate any id, and every id must decode); with a fixed number of new tokens
the work per token is the real model's.

  python bench/add_processor.py MODEL_DIR
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "reference"))
from llava_ov_vision_reference import make_processor  # noqa: E402


def main():
    if len(sys.argv) != 2 or not os.path.isfile(os.path.join(sys.argv[1], "config.json")):
        sys.exit("usage: add_processor.py MODEL_DIR (a folder with config.json)")
    out = sys.argv[1]
    with open(os.path.join(out, "config.json")) as f:
        config = json.load(f)
    vocab_size = config["text_config"]["vocab_size"]
    # The vision tower's image size (384 for the published models; make_model.py's `tiny` has
    # 56, and run.sh's dry run encodes with it).
    size = config.get("vision_config", {}).get("image_size", 384)
    processor = make_processor(size, [0.5, 0.5, 0.5], [0.5, 0.5, 0.5], vocab=400)
    processor.save_pretrained(out)
    path = os.path.join(out, "tokenizer.json")
    with open(path) as f:
        tok = json.load(f)
    vocab = tok["model"]["vocab"]
    top = max(list(vocab.values()) + [a["id"] for a in tok["added_tokens"]])
    for i in range(top + 1, vocab_size):
        vocab[f"<|unused_{i}|>"] = i
    with open(path, "w") as f:
        json.dump(tok, f, ensure_ascii=False)
    print(f"processor and tokenizer ({top + 1} tokens, filled to {vocab_size}) -> {out}")


if __name__ == "__main__":
    main()
