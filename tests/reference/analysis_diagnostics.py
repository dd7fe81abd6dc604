"""NumPy reference for core/analysis/diagnostics (written from the paper's definitions and
docs/training.md): float64 nearest codewords, active codes, exp(H)/K, weighted mean cosine error,
equal-count deciles, per-video residual percentiles, SplitMix64 video bootstrap, random-exemplar
paired differences.
Usage: analysis_diagnostics.py IN.safetensors OUT.json
IN: codebook [K, D], x [N, D], w [N], video [N] int64, params [4] = (bootstrap, boot_seed,
n_random, random_seed)."""
import json
import sys

import numpy as np
from safetensors.numpy import load_file

from once_reference import nu

from splitmix import SplitMix, splitmix_permutation


d = load_file(sys.argv[1])
C = nu(d["codebook"].astype(np.float64))
x = nu(d["x"].astype(np.float64))
w = d["w"].astype(np.float64)
vid = d["video"].astype(np.int64)
B, bseed, nrand, rseed = [int(v) for v in d["params"]]
K, V = C.shape[0], int(vid.max()) + 1


def per_video(cb):
    s = x @ cb.T
    ids, cos = s.argmax(1), s.max(1)
    out = []
    for v in range(V):
        m = vid == v
        res = 1 - cos[m]
        mass = np.bincount(ids[m], weights=w[m], minlength=K)
        out.append(dict(mass=mass, w=w[m].sum(), wr=(w[m] * res).sum(),
                        r=[np.percentile(res, p) for p in (50, 90, 95, 99)]))
    return out


def summary(vs, pick):
    mass = sum(vs[v]["mass"] for v in pick)
    p = mass[mass > 0] / mass.sum()
    return dict(active=100 * (mass > 0).mean(), entropy=100 * np.exp(-(p * np.log(p)).sum()) / K,
                mce=sum(vs[v]["wr"] for v in pick) / sum(vs[v]["w"] for v in pick),
                r=[np.mean([vs[v]["r"][l] for v in pick]) for l in range(4)], mass=mass)


vs = per_video(C)
full = summary(vs, range(V))
order = sorted(range(K), key=lambda k: (-full["mass"][k], k))
deciles = [full["mass"][order[d * K // 10:(d + 1) * K // 10]].sum() / full["mass"].sum()
           for d in range(10)]
dm, dr = [], []
if nrand > 0 and x.shape[0] >= K:
    for s in range(nrand):
        rc = x[splitmix_permutation(x.shape[0], rseed + s)[:K]]
        rv = per_video(rc)
        dm.append([rv[v]["wr"] / rv[v]["w"] - vs[v]["wr"] / vs[v]["w"] for v in range(V)])
        dr.append([rv[v]["r"][2] - vs[v]["r"][2] for v in range(V)])
dm, dr = np.array(dm), np.array(dr)
rng = SplitMix(bseed)
draws = {k: [] for k in ["active", "entropy", "mce", "R50", "R90", "R95", "R99", "dm", "dr"]}
for b in range(B):
    pick = [rng.below(V) for _ in range(V)]
    s = summary(vs, pick)
    for key in ("active", "entropy", "mce"):
        draws[key].append(s[key])
    for l, name in enumerate(("R50", "R90", "R95", "R99")):
        draws[name].append(s["r"][l])
    if len(dm):
        seeds = [rng.below(nrand) for _ in range(nrand)]
        draws["dm"].append(dm[np.ix_(seeds, pick)].mean())
        draws["dr"].append(dr[np.ix_(seeds, pick)].mean())
ci = lambda k: [float(np.percentile(draws[k], 2.5)), float(np.percentile(draws[k], 97.5))]
out = dict(active_codes_pct=full["active"], entropy_capacity_pct=full["entropy"],
           mean_cosine_error=full["mce"], decile_shares=[float(v) for v in deciles],
           residual_percentiles=dict(zip(("R50", "R90", "R95", "R99"), full["r"])),
           ci95=dict(active_codes_pct=ci("active"), entropy_capacity_pct=ci("entropy"),
                     mean_cosine_error=ci("mce"), R50=ci("R50"), R90=ci("R90"), R95=ci("R95"),
                     R99=ci("R99")))
if len(dm):
    out["random_exemplar"] = dict(random_minus_full_mean_residual=dict(value=dm.mean(), ci95=ci("dm")),
                                  random_minus_full_R95=dict(value=dr.mean(), ci95=ci("dr")))
json.dump(out, open(sys.argv[2], "w"))
