"""NumPy references for the paper's analyses as commands (core/analysis/stress_diagnostic,
support_origin, break_even), written from the paper's appendix: float64 cosines, NumPy's linear
percentiles, SplitMix64 resampling streams as documented in the C++ headers.

stress IN.safetensors OUT.json    IN: codebook [K,D], v0..v{V-1} [T,P,D],
                                  params = (n_random, random_seed, bootstrap, boot_seed)
compare IN.safetensors OUT.json   IN: codebook, other [K2,D], v0.., params = (bootstrap, seed)
support IN.safetensors OUT.json   IN: codebook, v0.., budgets [nB],
                                  params = (bootstrap, boot_seed)
breakeven RESULTS.jsonl OFFLINE OUT.json
"""
import json
import sys

import numpy as np
from safetensors.numpy import load_file

from splitmix import SplitMix, splitmix_permutation


def permutation(n, seed):
    return list(splitmix_permutation(n, seed))


def unit(x):
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)


def videos_of(d):
    out, v = [], 0
    while f"v{v}" in d:
        out.append(d[f"v{v}"].astype(np.float64))
        v += 1
    return out


def stats(xu, cu):
    r = 1.0 - (xu @ cu.T).max(1)
    return [r.mean()] + [np.percentile(r, q) for q in (50, 90, 95, 99)]


def stress(inp, out):
    d = load_file(inp)
    C = d["codebook"].astype(np.float64)
    K, D = C.shape
    nrand, rseed, boot, bseed = [int(x) for x in d["params"]]
    xs = [unit(v.reshape(-1, D)) for v in videos_of(d)]
    allx = np.concatenate(xs)
    V = len(xs)
    learned = np.array([stats(x, unit(C)) for x in xs])  # [V, 5]
    diffs, randoms = [], []
    for s in range(nrand):
        cr = allx[permutation(len(allx), rseed + s)[:K]]
        st = np.array([stats(x, cr) for x in xs])
        randoms.append(st)
        diffs.append(st - learned)
    diffs = np.array(diffs)  # [S, V, 5]
    S = nrand
    rng = SplitMix(bseed)
    draws = []
    for _ in range(boot):
        pv = [rng.below(V) for _ in range(V)]
        ps = [rng.below(S) for _ in range(S)]
        draws.append(diffs[np.ix_(ps, pv)].mean(axis=(0, 1)))
    draws = np.array(draws)
    rand_mean = np.mean(randoms, axis=0)  # [V, 5]
    res = []
    for m, name in enumerate(["mean", "R50", "R90", "R95", "R99"]):
        res.append({"name": name, "learned": learned[:, m].mean(),
                    "random": rand_mean[:, m].mean(), "diff": diffs[:, :, m].mean(),
                    "lo": np.percentile(draws[:, m], 2.5), "hi": np.percentile(draws[:, m], 97.5),
                    "positive": int((rand_mean[:, m] - learned[:, m] > 0).sum())})
    json.dump({"metrics": res}, open(out, "w"))


def compare(inp, out):
    d = load_file(inp)
    A, B = d["codebook"].astype(np.float64), d["other"].astype(np.float64)
    D = A.shape[1]
    boot, bseed = [int(x) for x in d["params"]]
    xs = [unit(v.reshape(-1, D)) for v in videos_of(d)]
    a = np.array([stats(x, unit(A)) for x in xs])
    b = np.array([stats(x, unit(B)) for x in xs])
    V = len(xs)
    rng = SplitMix(bseed)
    draws = []
    for _ in range(boot):
        pick = [rng.below(V) for _ in range(V)]
        draws.append((b - a)[pick].mean(0))
    draws = np.array(draws)
    res = []
    for m, name in enumerate(["mean", "R50", "R90", "R95", "R99"]):
        res.append({"name": name, "reference": a[:, m].mean(), "other": b[:, m].mean(),
                    "diff": (b - a)[:, m].mean(), "lo": np.percentile(draws[:, m], 2.5),
                    "hi": np.percentile(draws[:, m], 97.5),
                    "positive": int(((b - a)[:, m] > 0).sum())})
    json.dump(res, open(out, "w"))


def support(inp, out):
    d = load_file(inp)
    C = d["codebook"].astype(np.float64)
    K, D = C.shape
    Cu = unit(C)
    budgets = [int(b) for b in d["budgets"]]
    boot, bseed = [int(x) for x in d["params"]]
    vids = videos_of(d)
    V = len(vids)
    cent = unit(np.stack([v.reshape(-1, D).mean(0) for v in vids]))
    sim = cent @ cent.T
    cand = sorted(((sim[i, j], i, j) for i in range(V) for j in range(i + 1, V)),
                  key=lambda t: -t[0])  # stable: ties keep (i, j) order
    taken, pairs = set(), []
    for s, i, j in cand:
        if i not in taken and j not in taken:
            taken |= {i, j}
            pairs.append((i, j))

    def view(v, parity):
        raw = v[parity::2].reshape(-1, D)
        u = unit(raw)
        return raw, u, (u @ Cu.T).argmax(1)

    views = [(view(v, 0), view(v, 1)) for v in vids]

    def select(vw, B):
        counts = np.bincount(vw[2], minlength=K)
        used = [k for k in range(K) if counts[k] > 0]
        used.sort(key=lambda k: -counts[k])  # stable: ties to the lower id
        return used[:min(B, len(used))]

    def pool(y, sup):
        raw, u, ids = y
        g = (u @ Cu[sup].T).argmax(1)
        sums = np.zeros((len(sup), D))
        np.add.at(sums, g, raw)
        cos = (u * unit(sums[g])).sum(1)
        r = 1.0 - cos
        return np.percentile(r, 95), r.mean(), 100.0 * np.isin(ids, sup).mean()

    P, nB = len(pairs), len(budgets)
    eff = np.zeros((3, P, nB))
    for p, (a, b) in enumerate(pairs):
        for bi, B in enumerate(budgets):
            for v, w in ((a, b), (b, a)):
                cur = [pool(views[v][1 - dr], select(views[v][dr], B)) for dr in (0, 1)]
                don = [pool(views[v][1 - dr], select(views[w][dr], B)) for dr in (0, 1)]
                c = np.mean(cur, axis=0)
                dn = np.mean(don, axis=0)
                eff[0, p, bi] += (dn[0] - c[0]) / 2
                eff[1, p, bi] += (dn[1] - c[1]) / 2
                eff[2, p, bi] += (c[2] - dn[2]) / 2
    m_hat = eff.mean(1)  # [3, nB]
    rng = SplitMix(bseed)
    draws, maxdev = [], []
    for _ in range(boot):
        pick = [rng.below(P) for _ in range(P)]
        m = eff[:, pick, :].mean(1)
        draws.append(m)
        maxdev.append(np.abs(m[0] - m_hat[0]).max())
    draws = np.array(draws)
    c = np.percentile(maxdev, 95)
    rows = []
    for bi, B in enumerate(budgets):
        rows.append({"budget": B, "delta_r95": m_hat[0, bi], "band": [m_hat[0, bi] - c,
                                                                      m_hat[0, bi] + c],
                     "positive": int((eff[0, :, bi] > 0).sum()),
                     "delta_mean": m_hat[1, bi],
                     "mean_ci": [np.percentile(draws[:, 1, bi], 2.5),
                                 np.percentile(draws[:, 1, bi], 97.5)],
                     "retained": m_hat[2, bi],
                     "retained_ci": [np.percentile(draws[:, 2, bi], 2.5),
                                     np.percentile(draws[:, 2, bi], 97.5)]})
    json.dump({"pairs": pairs, "band": c, "budgets": rows}, open(out, "w"))


def breakeven(results, offline, out):
    dense, meth = {}, {}
    for line in open(results):
        r = json.loads(line)
        if r["method"] == "dense":
            dense[(r["benchmark"], r["question_id"])] = r["seconds"]["e2e"]
        else:
            meth.setdefault((r["benchmark"], r["method"], r["budget"]), {})[r["question_id"]] = \
                r["seconds"]["e2e"]
    rows = []
    for (b, m, B), qs in meth.items():
        pairs = [(dense[(b, q)], t) for q, t in qs.items() if (b, q) in dense]
        dl = np.mean([p[0] for p in pairs])
        ml = np.mean([p[1] for p in pairs])
        rows.append({"benchmark": b, "method": m, "budget": B, "n_star":
                     offline / (dl - ml) if dl > ml else "inf"})
    json.dump(rows, open(out, "w"))


if __name__ == "__main__":
    if sys.argv[1] == "stress":
        stress(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "support":
        support(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "breakeven":
        breakeven(sys.argv[2], float(sys.argv[3]), sys.argv[4])
