"""Independent NumPy implementation of the ONCE online rule, written from the paper's equations
(method section, "Inference-Time Token Compression") and DESIGN.md §3, used as the parity
reference for core/compress. It shares no code with the C++ implementation: it builds the full
N×K cosine matrix in float64 and applies the rules literally.

Usage: once_reference.py OUT.safetensors [--dtype F32|BF16] [--seed S] [--frames T] [--patches P]
       [--dim D] [--codewords K]
Writes the synthetic clustered inputs (features [T,P,D], codebook [K,D]) and, for every variant
and budget, codeword_ids / group_sizes / group_of_token / tokens / residual.
"""
import argparse

import numpy as np
import torch
from safetensors.numpy import save_file

from splitmix import splitmix_permutation

DELTA = 1e-12
VARIANTS = ["full", "no-reassign", "fixed-random", "frame-wise", "random-grouping",
            "codeword-output", "medoid-output"]


def nu(v):
    """ν(v) = v / max(‖v‖₂, δ), row-wise."""
    return v / np.maximum(np.linalg.norm(v, axis=-1, keepdims=True), DELTA)


def argmax_lower(scores, cols):
    """argmax over the given codeword columns, ties to the lower codeword index."""
    cols = np.sort(np.asarray(cols))
    return cols[np.argmax(scores[:, cols], axis=1)]  # np.argmax returns the first maximum


def select_top(counts, budget):
    """K_B: the min(B, #{n_k > 0}) codewords with the largest n_k, ties to the lower index."""
    used = np.flatnonzero(counts > 0)
    order = sorted(used, key=lambda k: (-counts[k], k))
    return np.array(order[:min(budget, len(order))], dtype=np.int64)


def select_rounds(khat, top_lists, tokens, k, budget, rounds):
    counts = np.bincount(khat[tokens], minlength=k)
    total = min(budget, int((counts > 0).sum()))
    chosen = []
    taken = np.zeros(k, dtype=bool)
    for q in range(rounds):
        if len(chosen) >= total:
            break
        want = -(-(total - len(chosen)) // (rounds - q))
        if q == 0:
            votes = counts.copy()
        else:
            served = taken[top_lists[tokens]].any(axis=1)
            votes = np.bincount(khat[tokens][~served], minlength=k)
        order = sorted([c for c in range(k) if votes[c] > 0 and not taken[c]],
                       key=lambda c: (-votes[c], c))
        if len(order) < want:
            rest = sorted([c for c in range(k) if counts[c] > 0 and not taken[c] and c not in order],
                          key=lambda c: (-counts[c], c))
            order += rest
        for c in order[:want]:
            chosen.append(c)
            taken[c] = True
    return np.array(chosen, dtype=np.int64)


def compress(x, c, budget, variant, seed=42, rounds=1, top_l=8):
    t, p, d = x.shape
    xf = x.reshape(-1, d).astype(np.float64)
    n, k = xf.shape[0], c.shape[0]
    s = nu(xf) @ nu(c.astype(np.float64)).T                      # S_ik = ν(x_i)ᵀν(c_k)
    khat = np.argmax(s, axis=1)                                   # Eq. (initial assignment)
    counts = np.bincount(khat, minlength=k)                       # n_k
    # top-L lists (only used by the rounds extension): stable sort → ties to lower index
    top_lists = np.argsort(-s, axis=1, kind="stable")[:, :top_l]
    group = np.full(n, -1, dtype=np.int64)
    codes = []

    def reassign(tokens, sel, offset):
        best = argmax_lower(s[tokens], sel)
        pos = {int(cw): i for i, cw in enumerate(sel)}
        group[tokens] = [offset + pos[int(b)] for b in best]

    if variant == "fixed-random":
        sel = splitmix_permutation(k, seed)[:min(budget, k)]
        reassign(np.arange(n), sel, 0)
        sizes = np.bincount(group, minlength=len(sel))
        keep = np.flatnonzero(sizes > 0)
        remap = -np.ones(len(sel), dtype=np.int64)
        remap[keep] = np.arange(len(keep))
        group = remap[group]
        codes = list(sel[keep])
    elif variant == "frame-wise":
        segments = min(t, budget)
        for sidx in range(segments):
            f0, f1 = sidx * t // segments, (sidx + 1) * t // segments
            b = budget // segments + (1 if sidx < budget % segments else 0)
            tokens = np.arange(f0 * p, f1 * p)
            sel = select_rounds(khat, top_lists, tokens, k, b, rounds)
            reassign(tokens, sel, len(codes))
            codes += list(sel)
    else:
        sel = select_rounds(khat, top_lists, np.arange(n), k, budget, rounds)
        codes = list(sel)
        if variant == "no-reassign":
            pos = {int(cw): i for i, cw in enumerate(sel)}
            group = np.array([pos.get(int(kk), -1) for kk in khat], dtype=np.int64)
        else:
            reassign(np.arange(n), sel, 0)                        # Eq. (complete reassignment)
        if variant == "random-grouping":
            sizes = np.bincount(group, minlength=len(sel))
            perm = splitmix_permutation(n, seed)
            newg = np.empty(n, dtype=np.int64)
            cursor = 0
            for gi, sz in enumerate(sizes):
                newg[perm[cursor:cursor + sz]] = gi
                cursor += sz
            group = newg
    codes = np.array(codes, dtype=np.int64)
    m = len(codes)
    sizes = np.bincount(group[group >= 0], minlength=m).astype(np.int64)
    means = np.zeros((m, d))
    np.add.at(means, group[group >= 0], xf[group >= 0])
    means /= np.maximum(sizes, 1)[:, None]                        # z_k: mean of source tokens
    if variant == "codeword-output":
        out = c[codes].astype(np.float64)
    elif variant == "medoid-output":
        cos_to_mean = np.sum(nu(xf) * nu(means[np.maximum(group, 0)]), axis=1)
        out = np.zeros_like(means)
        for gi in range(m):
            members = np.flatnonzero(group == gi)
            out[gi] = xf[members[np.argmax(cos_to_mean[members])]]
    else:
        out = means
    final_code = np.where(group >= 0, codes[np.maximum(group, 0)], khat)
    residual = 1.0 - s[np.arange(n), final_code]
    return dict(codeword_ids=codes, group_sizes=sizes, group_of_token=group,
                tokens=out.astype(np.float32), residual=residual.astype(np.float32),
                used=np.array([int((counts > 0).sum())], dtype=np.int64))


def clustered_inputs(rng, t, p, d, k):
    """Tokens around a few dozen centres; the codebook holds noisy centres and random vectors."""
    centres = rng.standard_normal((max(4, k // 2), d))
    labels = rng.integers(0, len(centres), size=t * p)
    scale = rng.uniform(0.5, 2.0, size=(t * p, 1))
    x = (centres[labels] + 0.35 * rng.standard_normal((t * p, d))) * scale
    x = x.reshape(t, p, d)
    cb = np.concatenate([centres + 0.2 * rng.standard_normal(centres.shape),
                         rng.standard_normal((k - len(centres), d))])[:k]
    return x.astype(np.float32), cb.astype(np.float32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--dtype", default="F32", choices=["F32", "BF16"])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--frames", type=int, default=12)
    ap.add_argument("--patches", type=int, default=49)
    ap.add_argument("--dim", type=int, default=24)
    ap.add_argument("--codewords", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    x, cb = clustered_inputs(rng, args.frames, args.patches, args.dim, args.codewords)
    tensors = {"codebook": cb}
    if args.dtype == "BF16":
        xb = torch.from_numpy(x).to(torch.bfloat16)
        x = xb.to(torch.float32).numpy()  # exactly representable: the C++ side casts to BF16
    tensors["features"] = x
    used = int(compress(x, cb, 1, "full")["used"][0])
    budgets = sorted({1, 2, 3, 5, 8, 13, 21, used - 1, used, used + 5, args.codewords + 10} - {0})
    tensors["budgets"] = np.array(budgets, dtype=np.int64)
    for variant in VARIANTS:
        for b in budgets:
            r = compress(x, cb, b, variant, seed=7, rounds=args.rounds)
            for key, val in r.items():
                tensors[f"{variant}/{b}/{key}"] = np.ascontiguousarray(val)
    save_file(tensors, args.out)


if __name__ == "__main__":
    main()
