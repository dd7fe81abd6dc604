#!/usr/bin/env python3
"""The NumPy ONCE reference (once_reference.compress) on a given feature file and codebook
(tests/pipeline/test_qwen3_5_path.cpp: ONCE on Qwen3.5's merged features is the same rule).

usage: once_on_features.py FEATURES CODEBOOK OUT --budgets 1,5,12
writes OUT (safetensors): features f32 [T, P, D] as read, and for every variant V and budget B
the keys V/B/codeword_ids, group_sizes, group_of_token, tokens, residual, as once_reference.py.
"""
import argparse
import os
import sys

import numpy as np
from safetensors.numpy import load_file, save_file

sys.path.insert(0, os.path.dirname(__file__))

from once_reference import VARIANTS, compress  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("features")
    ap.add_argument("codebook")
    ap.add_argument("out")
    ap.add_argument("--budgets", required=True)
    a = ap.parse_args()
    x = load_file(a.features)["features"].astype(np.float32)
    cb = load_file(a.codebook)["codebook"].astype(np.float32)
    out = {"features": x}
    for variant in VARIANTS:
        for b in (int(v) for v in a.budgets.split(",")):
            r = compress(x, cb, b, variant, seed=7)
            for key, val in r.items():
                out[f"{variant}/{b}/{key}"] = np.ascontiguousarray(val)
    save_file(out, a.out)


if __name__ == "__main__":
    main()
