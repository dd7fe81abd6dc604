"""A codebook for timing ONCE in `once bench` on a model with random weights, for which no trained
codebook exists. Timing depends on K and D, and on how many codewords the tokens use (M is at
most the number of codewords used): Gaussian rows in D dimensions leave most of them unused by
real features, so the default draws K distinct tokens of a feature file (`once encode` of a video
with that model) as the codewords, as a k-means initialisation does. Saved as float32 .npy
(which carries no backbone, so it fits any model of width D). --fill lets K exceed the file's
tokens (an 8-frame file of LLaVA-OneVision has 5,832, the paper's K is 8,192): all tokens, then
midpoints of random pairs of distinct tokens, which lie among the features as the drawn rows do
(bench/gpu/run.sh's `bench` step, which carries an 8-frame file to the GPU).

  python bench/random_codebook.py OUT.npy K --features FEATURES.safetensors [--fill] [--seed S]
  python bench/random_codebook.py OUT.npy K --gaussian D [--seed S]
"""
import argparse

import numpy as np
from safetensors import safe_open


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("k", type=int)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--features", help="draw the codewords from this feature file's tokens")
    src.add_argument("--gaussian", type=int, metavar="D", help="standard-normal rows of width D")
    ap.add_argument("--fill", action="store_true",
                    help="with --features: K may exceed the tokens (the rest: midpoints of pairs)")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    if a.features:
        # Through torch: numpy has no bfloat16 (`once encode --store-dtype bfloat16`).
        with safe_open(a.features, "pt") as f:
            x = f.get_tensor("features").float().numpy()
        x = x.reshape(-1, x.shape[-1])
        if len(x) >= a.k:
            rows = x[np.sort(rng.choice(len(x), a.k, replace=False))]
        elif not a.fill or len(x) < 2:
            raise SystemExit(f"{a.features} has {len(x)} tokens, fewer than K = {a.k}"
                             + ("" if a.fill else " (--fill makes the rest from pairs)"))
        else:
            extra = a.k - len(x)
            i = rng.integers(0, len(x), extra)
            j = (i + rng.integers(1, len(x), extra)) % len(x)  # never i itself
            rows = np.concatenate([x, 0.5 * (x[i] + x[j])])
    else:
        rows = rng.standard_normal((a.k, a.gaussian), dtype=np.float32)
    np.save(a.out, rows)
    print(f"codebook {rows.shape[0]} x {rows.shape[1]} -> {a.out}")


if __name__ == "__main__":
    main()
