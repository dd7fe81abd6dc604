"""Independent NumPy ports of the peer baselines in core/compress/baselines/, written from the
public code each follows (ModelTC/llmc token_reduction/{fastvid,dycoke,visionzip}.py,
facebookresearch/ToMe tome/merge.py, Hai-chao-Zhang/VQToken VQToken/cluster.py) and the
budget rules of docs/baselines.md. Everything runs in float64 with the whole matrices built
literally, sharing no code with the C++ side; randomness is SplitMix64 as in seeded_random.h.

Usage: baselines_reference.py OUT.safetensors [--seed S]
Writes two synthetic videos (video_a: T=9, 4x5 grid, D=16 with attention and frame globals;
video_b: T=8, 4x5 grid, two scenes) and for every case in CASES and budget
"<case>/<budget>/tokens" [M, D] and "<case>/<budget>/group_of_token" [N].
"""
import argparse

import numpy as np
from safetensors.numpy import save_file

MASK64 = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def uniform(self):
        return (self.next() >> 11) * 2.0 ** -53


def unit(v):
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def top(scores, k):
    """Indices of the k largest, ties to the lower index."""
    return np.argsort(-np.asarray(scores), kind="stable")[:k]


def empty(n, d):
    return np.zeros((0, d)), np.full(n, -1, dtype=np.int64)


def frame_mean_cos(x):
    return (unit(x) * unit(x.mean(1, keepdims=True))).sum(-1)


# ---------------------------------------------------------------- spatial-pool / frame-drop
def spatial_pool(x, gh, gw, budget):
    t, p, d = x.shape
    for s in range(1, max(gh, gw) + 1):
        bh, bw = -(-gh // s), -(-gw // s)
        if t * bh * bw <= budget:
            break
    else:
        return empty(t * p, d)
    out, group = [], np.zeros(t * p, dtype=np.int64)
    for f in range(t):
        grid = x[f].reshape(gh, gw, d)
        for by in range(bh):
            for bx in range(bw):
                out.append(grid[by * s:(by + 1) * s, bx * s:(bx + 1) * s].reshape(-1, d).mean(0))
                for r in range(by * s, min(gh, (by + 1) * s)):
                    for c in range(bx * s, min(gw, (bx + 1) * s)):
                        group[f * p + r * gw + c] = len(out) - 1
    return np.array(out), group


def frame_drop(x, budget):
    t, p, d = x.shape
    keep = min(t, budget // p)
    if keep < 1:
        return empty(t * p, d)
    frames = np.floor(np.linspace(0, t - 1, keep) + 0.5).astype(np.int64)
    group = np.full(t * p, -1, dtype=np.int64)
    for k, f in enumerate(frames):
        group[f * p:(f + 1) * p] = np.arange(k * p, (k + 1) * p)
    return x[frames].reshape(-1, d), group


# ---------------------------------------------------------------- DyCoke TTM
def dycoke(x, budget):
    t, p, d = x.shape
    ref = [-1] * t
    for i in range(0, t - 1, 2):
        ref[i + 1] = i
    for i in range(0, t - 4, 4):
        ref[i + 2] = i
    whole = [f for f in range(t) if ref[f] < 0]
    pruned = t - len(whole)
    keep_whole = set()
    keep = 0
    if budget >= len(whole) * p:
        keep = min(p, (budget - len(whole) * p) // pruned) if pruned else 0
        keep_whole = set(whole)
    else:
        nf = budget // p
        if nf < 1:
            return empty(t * p, d)
        for i in np.floor(np.linspace(0, len(whole) - 1, nf) + 0.5).astype(int):
            keep_whole.add(whole[i])
    rows, group = [], np.full(t * p, -1, dtype=np.int64)
    for f in range(t):
        if f in keep_whole:
            pos = list(range(p))
        elif ref[f] >= 0 and keep > 0:
            sim = (unit(x[f]) * unit(x[ref[f]])).sum(1)
            pos = list(np.argsort(sim, kind="stable")[:keep])
        else:
            pos = []
        for q in pos:
            group[f * p + q] = len(rows)
            rows.append(x[f, q])
    return (np.array(rows) if rows else np.zeros((0, d))), group


# ---------------------------------------------------------------- ToMe
def tome(x, budget, r_param=0):
    t0, p, d = x.shape
    cur = x.reshape(-1, d).copy()
    size = np.ones((len(cur), 1))
    owner = np.arange(len(cur))
    while len(cur) > budget:
        t = len(cur)
        r = min(r_param if r_param > 0 else t, t // 2, t - budget)  # 0: as many as allowed
        m = unit(cur)
        scores = m[0::2] @ m[1::2].T
        node_max, node_idx = scores.max(1), scores.argmax(1)
        edges = np.argsort(-node_max, kind="stable")
        src, unm = edges[:r], edges[r:]
        dst = node_idx[src]
        xa, sa = cur[0::2], size[0::2]
        xb, sb = cur[1::2].copy(), size[1::2].copy()
        wb = xb * sb
        np.add.at(wb, dst, xa[src] * sa[src])
        np.add.at(sb, dst, sa[src])
        xb = wb / sb
        new_row = np.zeros(t, dtype=np.int64)
        new_row[2 * unm] = np.arange(len(unm))
        new_row[2 * src] = len(unm) + dst
        new_row[1::2] = len(unm) + np.arange(t // 2)
        owner = new_row[owner]
        cur = np.concatenate([xa[unm], xb])
        size = np.concatenate([sa[unm], sb])
    return cur, owner


# ---------------------------------------------------------------- VisionZip (SigLIP flavour)
def visionzip(x, budget, attn=None, dominant=54, contextual=10):
    t, p, d = x.shape
    retain = min(p, budget // t)
    if retain < 1:
        return empty(t * p, d)
    ctx = retain * contextual // (dominant + contextual)
    dom = retain - ctx
    score = attn if attn is not None else frame_mean_cos(x)
    rows, group = [], np.full(t * p, -1, dtype=np.int64)
    for f in range(t):
        mask = np.zeros(p, dtype=bool)
        mask[top(score[f], dom)] = True
        for q in np.flatnonzero(mask):
            group[f * p + q] = len(rows)
            rows.append(x[f, q])
        rest = np.flatnonzero(~mask)
        if ctx == 0:
            continue
        step = max(1, len(rest) // ctx)
        tpos = np.arange(0, len(rest), step)[:ctx]
        targets = rest[tpos]
        others = rest[~np.isin(np.arange(len(rest)), tpos)]
        first = len(rows)
        contextual_rows = x[f, targets].copy()
        if len(others):
            near = (unit(x[f, others]) @ unit(x[f, targets]).T).argmax(1)
            for j in range(len(targets)):
                members = others[near == j]
                if len(members):
                    contextual_rows[j] += x[f, members].mean(0)
            for i, q in enumerate(others):
                group[f * p + q] = first + near[i]
        for j, q in enumerate(targets):
            group[f * p + q] = first + j
            rows.append(contextual_rows[j])
    return np.array(rows), group


# ---------------------------------------------------------------- FastVID
def dpc_knn(f, k, rng):
    n, d = f.shape
    dist = np.sqrt(((f[:, None, :] - f[None, :, :]) ** 2).sum(-1)) / np.sqrt(d)
    kk = min(k, n)
    dens = np.exp(-(np.sort(dist, axis=1)[:, :kk] ** 2).mean(1))
    dens = dens + np.array([rng.uniform() for _ in range(n)]) * 1e-6
    dmax = dist.max()
    delta = np.array([min([dist[i, j] for j in range(n) if dens[j] > dens[i]], default=dmax)
                      for i in range(n)])
    delta = np.minimum(delta, dmax)
    return delta * dens


def fastvid(x, budget, seed, attn=None, glob=None, c=8, tau=0.9, dd=0.4, pp=4, alpha=0.6, k=4):
    t, p, d = x.shape
    retain = min(p, budget // t)
    if retain < 1:
        return empty(t * p, d)
    g = unit(glob if glob is not None else x.mean(1))
    if t == 1:
        sizes = [1]
    else:
        s = (g[:-1] * g[1:]).sum(1)
        cuts = set(np.argsort(s, kind="stable")[:min(c - 1, t - 1)].tolist())
        cuts |= set(np.flatnonzero(s < tau).tolist())
        sizes = np.diff([-1] + sorted(cuts) + [t - 1]).tolist()
    ns = retain - int(retain * dd)
    nc = retain - ns
    rest = p - ns
    count = np.zeros(t, dtype=np.int64)
    off = 0
    for length in sizes:
        per = min(rest, nc * length // (-(-length // pp)))
        for i in range(length):
            if (length - 1 - i) % pp == 0:
                count[off + i] = per
        off += length
    score = attn if attn is not None else frame_mean_cos(x)
    rng = SplitMix64(seed)
    flat = x.reshape(-1, d)
    outputs = []  # (source index, token)
    group = np.full(t * p, -1, dtype=np.int64)
    filt, dens = [], []
    for f in range(t):
        sal = top(score[f], ns)
        for q in sal:
            group[f * p + q] = len(outputs)
            outputs.append((f * p + q, x[f, q]))
        keep = np.setdiff1d(np.arange(p), sal)
        filt.append(f * p + keep)
        dens.append(dpc_knn(x[f, keep], k, rng) if nc > 0 else None)

    def merge(anchor_frames, members, cnt):
        best_cos = np.full(len(members), -2.0)
        best_out = np.full(len(members), -1)
        mu = unit(flat[members])
        for f in anchor_frames:
            anchors = filt[f][top(dens[f], cnt)]
            cos = mu @ unit(flat[anchors]).T
            near = cos.argmax(1)
            first = len(outputs)
            for a, src in enumerate(anchors):
                mem = members[near == a]
                n = len(mem)
                w = max(1.0 / (n + 1), alpha)
                mean = flat[mem].mean(0) if n else np.zeros(d)
                outputs.append((src, w * flat[src] + (1 - w) * mean))
            for i in range(len(members)):
                if cos[i, near[i]] > best_cos[i]:
                    best_cos[i] = cos[i, near[i]]
                    best_out[i] = first + near[i]
        group[members] = best_out

    if nc > 0:
        off = 0
        for length in sizes:
            seg_members = np.concatenate([filt[f] for f in range(off, off + length)])
            anchor_frames = []
            for f in range(off, off + length):
                if count[f] == nc:
                    merge([f], filt[f], nc)
                elif count[f] > nc:
                    anchor_frames.append(f)
            if anchor_frames:
                merge(anchor_frames, seg_members, count[off + length - 1])
            off += length
    order = np.argsort([o[0] for o in outputs], kind="stable")
    row_of = np.empty(len(outputs), dtype=np.int64)
    row_of[order] = np.arange(len(outputs))
    group = np.where(group >= 0, row_of[np.maximum(group, 0)], -1)
    return np.array([outputs[i][1] for i in order]), group


# ---------------------------------------------------------------- VQToken
def vq_fit(xn, k, rng, max_iter, tol):
    n = len(xn)
    chosen = [rng.next() % n]
    nearest = np.full(n, np.inf)
    for _ in range(1, k):
        nearest = np.minimum(nearest, ((xn - xn[chosen[-1]]) ** 2).sum(1))
        cum = np.cumsum(nearest + 1e-6)
        target = rng.uniform() * cum[-1]
        chosen.append(min(int(np.searchsorted(cum, target, side="right")), n - 1))
    cent = xn[chosen].copy()
    labels = None
    for _ in range(max_iter):
        labels = (1 - xn @ unit(cent).T).argmin(1)
        new = cent.copy()
        for j in range(k):
            if (labels == j).any():
                new[j] = xn[labels == j].mean(0)
        if np.linalg.norm(cent - new) < tol:
            break
        cent = new
    return labels, cent


def vqtoken(x, budget, seed, k_min=12, k_max=32, max_iter=100, tol=1e-4):
    t, p, d = x.shape
    flat = x.reshape(-1, d)
    xn = unit(flat)
    hi = min(k_max, budget, len(flat))
    lo = min(k_min, hi)
    rng = SplitMix64(seed)
    k = hi
    if hi - lo + 1 >= 3:
        dist = []
        for kk in range(lo, hi + 1):
            labels, cent = vq_fit(xn, kk, rng, max_iter, tol)
            dist.append(((xn - cent[labels]) ** 2).sum())
        k = min(max(int(np.argmax(np.diff(np.diff(dist)))) + 4, lo), hi)
    labels, _ = vq_fit(xn, k, rng, max_iter, tol)
    used = np.unique(labels)
    row = {c: i for i, c in enumerate(used)}
    group = np.array([row[c] for c in labels], dtype=np.int64)
    return np.array([flat[group == i].mean(0) for i in range(len(used))]), group


# ---------------------------------------------------------------- cases
BUDGETS_A = [1, 7, 9, 20, 45, 61, 100, 180]
BUDGETS_B = [8, 30, 64, 100, 160]


def videos(seed):
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((6, 16))
    base = centres[rng.integers(0, 6, 20)] + 0.3 * rng.standard_normal((20, 16))
    a = np.stack([base + 0.4 * rng.standard_normal((20, 16)) * (1 + (f % 3)) for f in range(9)])
    a[5:] += 1.5 * rng.standard_normal((1, 20, 16))  # a scene change
    attn = rng.random((9, 20))
    glob = rng.standard_normal((9, 12))
    scene1 = centres[rng.integers(0, 6, 20)] + 0.3 * rng.standard_normal((20, 16))
    scene2 = centres[rng.integers(0, 6, 20)] + 0.3 * rng.standard_normal((20, 16))
    b = np.stack([(scene1 if f < 4 else scene2) + 0.2 * rng.standard_normal((20, 16))
                  for f in range(8)])
    return (a.astype(np.float32), attn.astype(np.float32), glob.astype(np.float32),
            b.astype(np.float32))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    a32, attn32, glob32, b32 = videos(args.seed)
    a, attn, glob, b = (v.astype(np.float64) for v in (a32, attn32, glob32, b32))
    run_seed = 7
    cases = {
        "spatial-pool": (BUDGETS_A, lambda bud: spatial_pool(a, 4, 5, bud)),
        "frame-drop": (BUDGETS_A, lambda bud: frame_drop(a, bud)),
        "dycoke": (BUDGETS_A, lambda bud: dycoke(a, bud)),
        "dycoke-b": (BUDGETS_B, lambda bud: dycoke(b, bud)),
        "tome": (BUDGETS_A, lambda bud: tome(a, bud)),
        "tome-r5": (BUDGETS_A, lambda bud: tome(a, bud, r_param=5)),
        "visionzip": (BUDGETS_A, lambda bud: visionzip(a, bud)),
        "visionzip-attn": (BUDGETS_A, lambda bud: visionzip(a, bud, attn=attn)),
        "fastvid": (BUDGETS_A, lambda bud: fastvid(a, bud, run_seed)),
        "fastvid-attn": (BUDGETS_A, lambda bud: fastvid(a, bud, run_seed, attn=attn, glob=glob)),
        "fastvid-seg": (BUDGETS_B, lambda bud: fastvid(b, bud, run_seed, c=2, tau=0.0, pp=2)),
        "vqtoken": ([1, 5, 12, 20, 40], lambda bud: vqtoken(a, bud, run_seed)),
        "vqtoken-small": (BUDGETS_B, lambda bud: vqtoken(b, bud, run_seed, k_min=3, k_max=9)),
    }
    out = {"video_a": a32, "attention_a": attn32, "globals_a": glob32, "video_b": b32}
    for name, (budgets, fn) in cases.items():
        out[name + "/budgets"] = np.array(budgets, dtype=np.int64)
        for bud in budgets:
            tokens, group = fn(bud)
            out[f"{name}/{bud}/tokens"] = np.asarray(tokens, dtype=np.float32).reshape(-1, 16)
            out[f"{name}/{bud}/group_of_token"] = np.asarray(group, dtype=np.int64)
    save_file(out, args.out)


if __name__ == "__main__":
    main()
