"""Trains a small Qwen2-style byte-level BPE tokenizer with the `tokenizers` package (no
download) and writes the parity fixture into OUT_DIR:
  tokenizer.json          Qwen2 layout: NFC, Split(Qwen2 regex, isolated) + ByteLevel, BPE
  tokenizer_strmerges.json  the same with merges as "a b" strings (the older file layout)
  corpus.jsonl            one JSON string a line (tokenizer_corpus.py)
  expected.jsonl          {"ids": [...], "text": decode(ids)} per corpus line
Usage: tokenizer_reference.py OUT_DIR [N_LINES] [VOCAB]"""
import json
import os
import sys

from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

sys.path.insert(0, os.path.dirname(__file__))
from tokenizer_corpus import corpus  # noqa: E402

QWEN2_PATTERN = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}|"
                 r" ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]


def byte_level_bpe(pattern):
    """An untrained BPE with the Qwen layout: NFC, Split(pattern, isolated) + ByteLevel, and the
    ByteLevel decoder (Qwen2 and Qwen3.5 differ only in the pattern)."""
    tok = Tokenizer(models.BPE())
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(pattern), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    tok.decoder = decoders.ByteLevel()
    return tok


def train_tokenizer(vocab):
    """A Qwen2-layout tokenizer trained on a slice of the generator not used for testing."""
    train = corpus(6000, seed=99)
    tok = byte_level_bpe(QWEN2_PATTERN)
    trainer = trainers.BpeTrainer(vocab_size=vocab, special_tokens=SPECIAL, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(train, trainer)
    tok.add_special_tokens(["<image>", "<video>"])
    return tok


def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 12000
    vocab = int(sys.argv[3]) if len(sys.argv) > 3 else 3000
    os.makedirs(out, exist_ok=True)
    lines = corpus(n)
    tok = train_tokenizer(vocab)
    path = os.path.join(out, "tokenizer.json")
    tok.save(path)

    with open(path, encoding="utf-8") as f:
        j = json.load(f)
    j["model"]["merges"] = [" ".join(m) if isinstance(m, list) else m for m in j["model"]["merges"]]
    with open(os.path.join(out, "tokenizer_strmerges.json"), "w", encoding="utf-8") as f:
        json.dump(j, f, ensure_ascii=False)

    with open(os.path.join(out, "corpus.jsonl"), "w", encoding="utf-8") as fc, \
            open(os.path.join(out, "expected.jsonl"), "w", encoding="utf-8") as fe:
        for line in lines:
            ids = tok.encode(line, add_special_tokens=False).ids
            fc.write(json.dumps(line, ensure_ascii=False) + "\n")
            fe.write(json.dumps({"ids": ids, "text": tok.decode(ids, skip_special_tokens=False)},
                                ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
