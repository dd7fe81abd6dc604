"""tokenizer.json files that `tokenizers` loads although they are odd, with the ids it gives, so
the C++ reader can be checked to load them the same way (issue 14: a file `tokenizers` loads
loads here too, with the same ids):
  dup_merges.json     a merge listed twice (the last occurrence's rank wins)
  added_ids.json      added tokens whose "id" disagrees with where `tokenizers` puts them
  gaps.json           vocabulary ids with gaps and a repeated id, plus an added token
Writes them and expected.jsonl ({"file", "text", "ids", "added": {content: id}}) into OUT_DIR.
Usage: tokenizer_oddities.py OUT_DIR
"""
import json
import os
import sys

from tokenizers import Tokenizer

BYTE_LEVEL = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
              "use_regex": True}


def document(vocab, merges, added=()):
    return {"version": "1.0", "truncation": None, "padding": None, "normalizer": None,
            "pre_tokenizer": BYTE_LEVEL, "post_processor": None, "decoder": None,
            "added_tokens": [{"id": i, "content": c, "single_word": False, "lstrip": False,
                              "rstrip": False, "normalized": False, "special": True}
                             for i, c in added],
            "model": {"type": "BPE", "dropout": None, "unk_token": None,
                      "continuing_subword_prefix": None, "end_of_word_suffix": None,
                      "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
                      "vocab": vocab, "merges": merges}}


CASES = {
    "dup_merges.json": (document({"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4},
                                 [["a", "b"], ["b", "c"], ["a", "b"]]), ["abc", "ab c"]),
    "added_ids.json": (document({"a": 0, "b": 1, "ab": 2}, [["a", "b"]],
                                [(9, "<x>"), (1, "b"), (3, "<y>"), (9, "<x>")]),
                       ["a<x>b", "<y>ab<x>"]),
    "gaps.json": (document({"a": 0, "b": 1, "ab": 2, "c": 10, "d": 1}, [["a", "b"]],
                           [(11, "<z>")]), ["abc<z>", "c"]),
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "expected.jsonl"), "w") as f:
        for name, (doc, texts) in CASES.items():
            path = os.path.join(out, name)
            with open(path, "w") as g:
                json.dump(doc, g)
            tok = Tokenizer.from_file(path)
            added = {t.content: i for i, t in tok.get_added_tokens_decoder().items()}
            for text in texts:
                ids = tok.encode(text, add_special_tokens=False).ids
                f.write(json.dumps({"file": name, "text": text, "ids": ids, "added": added})
                        + "\n")


if __name__ == "__main__":
    main()
