"""Codebook-training benchmark (issue 4): ratios measured in one run on the same inputs.

Per shape (batch B × codewords K × width D; the paper's Stage-B step is 65,536 × 8192 × 896 for a
0.5B LLaVA-OneVision projector width, plus a smaller CPU shape):
  POT / ours (Sinkhorn)        ot.sinkhorn_log (numpy backend, the default; and its torch
                               backend) ÷ our log-domain Sinkhorn, both returning the plan, same
                               S, ε, iterations, marginals (target ≥ 5)
  POT+eager / ours (Sk+Gumbel) POT's plan + PyTorch-eager Gumbel-ST (noise, log, argmax,
                               softmax) ÷ our Sinkhorn + Gumbel-ST (target ≥ 5)
  faiss / ours (Lloyd)         faiss-cpu Kmeans(spherical=True, niter=1) with weights from the
                               same initial centroids ÷ one sphericalLloyd iteration (≥ 1)
  Stage-A throughput           source tokens per second of `buildSketchCache` on feature files
                               (32 frames × 729 patches × 896, the paper's Stage-A options)
The whole Stage-B step (scores, Sinkhorn, Gumbel-ST, losses, hand-written gradient) is timed
for information. A shape whose working set does not fit in the available memory is replaced by
the largest batch that does, and the output says so.
Usage: python bench/bench_train.py [--build build/default] [--reps 3] [--skip-big]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch
from safetensors.numpy import load_file, save_file

from bench_timing import best_of

THREADS = int(os.environ.get("OMP_NUM_THREADS", os.cpu_count() or 1))
EPS, ITERS, TAU = 0.05, 5, 0.5


def mem_available():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    return 0


def wait_for_quiet(limit=1.5, patience=60):
    """Timings are only taken on a quiet machine (others build and measure here too)."""
    start = time.time()
    while os.getloadavg()[0] > limit and time.time() - start < patience:
        time.sleep(10)
    return os.getloadavg()[0]


def clustered(n, d, seed, centres=512):
    rng = np.random.default_rng(seed)
    c = rng.standard_normal((centres, d)).astype(np.float32)
    p = 1.0 / np.arange(1, centres + 1) ** 1.1
    x = c[rng.choice(centres, size=n, p=p / p.sum())]
    x = x + 0.6 * rng.standard_normal((n, d)).astype(np.float32)
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def run(exe, *args):
    out = subprocess.run([exe, *map(str, args)], check=True, capture_output=True, text=True,
                         env={**os.environ, "OMP_NUM_THREADS": str(THREADS)})
    return json.loads(out.stdout.strip().splitlines()[-1])


def eager_gumbel(log_plan, tau, gen):
    u = torch.rand(log_plan.shape, generator=gen).clamp_(1e-20, 1 - 1e-7)
    z = (log_plan - torch.log(-torch.log(u))) / tau
    return z.argmax(1), torch.softmax(z, 1)


def bench_sinkhorn(exe, tmp, b, k, d, reps, note):
    import ot
    x = clustered(b, d, 1)
    c = clustered(k, d, 2)
    rng = np.random.default_rng(3)
    w = rng.uniform(0.5, 20.0, b).astype(np.float32)
    a = (w / w.sum()).astype(np.float32)
    path = os.path.join(tmp, "sk.safetensors")
    save_file({"x": x, "codebook": c, "a": a}, path)
    pot_out = os.path.join(tmp, "sk_pot.safetensors")
    ours = run(exe, "sinkhorn", path, EPS, ITERS, reps, pot_out)
    os.remove(path)
    mine = load_file(pot_out)
    # The same scores in PyTorch (F32 GEMM, as ours), M = −S for POT's minimisation.
    xt, ct = torch.from_numpy(x), torch.from_numpy(c)
    st = xt @ torch.nn.functional.normalize(ct, dim=1).T
    del xt, ct
    at, bt = torch.from_numpy(a), torch.full((k,), 1.0 / k)
    mt = st.neg_()
    del st
    m = mt.numpy()
    an, bn = a, np.full(k, 1.0 / k, np.float32)
    plan = None

    def pot_numpy():
        nonlocal plan
        plan = ot.bregman.sinkhorn_log(an, bn, m, EPS, numItermax=ITERS, stopThr=0.0, warn=False)

    t_np = best_of(1 if b * k > 2**27 else reps, pot_numpy)
    # Agreement of the plans (POT's row sums are exact after its last row update, like ours).
    f, g = torch.from_numpy(mine["f"]), torch.from_numpy(mine["g"])
    ours_plan = ((-mt / EPS) + f[:, None] + g[None, :]).exp_()
    rel = float((ours_plan - torch.from_numpy(plan)).abs().max() / float(plan.max()))
    del ours_plan, plan

    def pot_torch():
        nonlocal plan
        plan = ot.bregman.sinkhorn_log(at, bt, mt, EPS, numItermax=ITERS, stopThr=0.0, warn=False)

    t_th = best_of(reps, pot_torch)
    gen = torch.Generator().manual_seed(0)

    def pot_torch_gumbel():
        pot_torch()
        eager_gumbel(plan.log(), TAU, gen)

    t_thg = best_of(reps, pot_torch_gumbel)
    del plan
    row = dict(B=b, K=k, D=d, note=note, ours_sinkhorn_s=ours["sinkhorn"],
               ours_sinkhorn_plan_s=ours["sinkhorn_plan"],
               ours_sinkhorn_gumbel_s=ours["sinkhorn_gumbel"], ours_step_s=ours["step"],
               pot_numpy_s=t_np, pot_torch_s=t_th, pot_torch_gumbel_s=t_thg,
               plan_rel_diff=rel)
    row["pot_numpy_over_ours"] = t_np / ours["sinkhorn_plan"]
    row["pot_torch_over_ours"] = t_th / ours["sinkhorn_plan"]
    row["pot_gumbel_over_ours"] = t_thg / ours["sinkhorn_gumbel"]
    row["pot_numpy_gumbel_over_ours"] = (t_np + t_thg - t_th) / ours["sinkhorn_gumbel"]
    return row


def bench_lloyd(exe, tmp, n, k, d, reps):
    import faiss
    x = clustered(n, d, 4)
    rng = np.random.default_rng(5)
    w = rng.uniform(0.5, 20.0, n).astype(np.float32)
    init = x[rng.choice(n, k, replace=False)].copy()
    path = os.path.join(tmp, "km.safetensors")
    save_file({"x": x, "w": w, "init": init}, path)
    ours = run(exe, "lloyd", path, 1, reps)
    os.remove(path)
    obj = None

    def faiss_one():
        nonlocal obj
        km = faiss.Kmeans(d, k, niter=1, spherical=True, seed=1, max_points_per_centroid=10**9,
                          min_points_per_centroid=1)
        km.train(x, weights=w, init_centroids=init)
        obj = km

    t_f = best_of(reps, faiss_one)
    cn = obj.centroids / np.linalg.norm(obj.centroids, axis=1, keepdims=True)
    index = faiss.IndexFlatIP(d)
    index.add(cn)
    cos, _ = index.search(x, 1)
    faiss_obj = float((w.astype(np.float64) * cos[:, 0]).sum())
    return dict(N=n, K=k, D=d, ours_s=ours["lloyd"], faiss_s=t_f, faiss_over_ours=t_f / ours["lloyd"],
                ours_objective=ours["objective"], faiss_objective=faiss_obj)


def fit_batch(k, want, budget):
    """Largest batch ≤ want (halving) whose Sinkhorn/step working set fits: about 8 B×K F32
    matrices at once (POT's temporaries and ours, the step's scores, plan logits, noise and
    gradient), plus a 2 GiB margin for everything else on the machine."""
    b = want
    while b > 1024 and 8 * b * k * 4 + (2 << 30) > budget:
        b //= 2
    return b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build/default")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--skip-big", action="store_true")
    ap.add_argument("--sketch-videos", type=int, default=6)
    args = ap.parse_args()
    import faiss
    torch.set_num_threads(THREADS)
    faiss.omp_set_num_threads(THREADS)
    exe = os.path.join(args.build, "bench", "bench_train")
    load = wait_for_quiet()
    print(f"threads={THREADS} eps={EPS} sinkhorn iterations={ITERS} tau={TAU} "
          f"(best of {args.reps}; 1 for shapes over 2^27 elements) load average {load:.2f}")
    rows = {"sinkhorn": [], "lloyd": [], "sketch": None}
    shapes = [(8192, 1024, 64)]
    if not args.skip_big:
        avail = mem_available()
        b = fit_batch(8192, 65536, avail)
        note = "" if b == 65536 else (f"65,536 x 8192 does not fit in {avail / 2**30:.1f} GiB "
                                      f"available; largest batch that does: {b}")
        shapes.append((b, 8192, 896, note))
    with tempfile.TemporaryDirectory() as tmp:
        for shape in shapes:
            b, k, d = shape[:3]
            note = shape[3] if len(shape) > 3 else ""
            if note:
                print("NOTE:", note)
            r = bench_sinkhorn(exe, tmp, b, k, d, args.reps, note)
            rows["sinkhorn"].append(r)
            print(f"Sinkhorn {b} x {k} x {d}: ours {r['ours_sinkhorn_s']:.3f}s "
                  f"(+plan {r['ours_sinkhorn_plan_s']:.3f}s, +Gumbel-ST "
                  f"{r['ours_sinkhorn_gumbel_s']:.3f}s, whole step {r['ours_step_s']:.3f}s)  "
                  f"POT numpy {r['pot_numpy_s']:.3f}s  POT torch {r['pot_torch_s']:.3f}s "
                  f"(+eager Gumbel-ST {r['pot_torch_gumbel_s']:.3f}s)  plan rel diff "
                  f"{r['plan_rel_diff']:.1e}")
            print(f"  POT(numpy)/ours = {r['pot_numpy_over_ours']:.1f}   "
                  f"POT(torch)/ours = {r['pot_torch_over_ours']:.1f}   "
                  f"[POT+Gumbel]/[ours Sinkhorn+Gumbel] = {r['pot_gumbel_over_ours']:.1f} "
                  f"(torch backend), {r['pot_numpy_gumbel_over_ours']:.1f} (numpy)  (target >= 5)")
        for n, k, d in [(8192, 1024, 64)] + ([] if args.skip_big else [(65536, 8192, 896)]):
            r = bench_lloyd(exe, tmp, n, k, d, 1 if n * k > 2**27 else args.reps)
            rows["lloyd"].append(r)
            print(f"Lloyd {n} x {k} x {d}, one weighted iteration: ours {r['ours_s']:.3f}s  "
                  f"faiss {r['faiss_s']:.3f}s  faiss/ours = {r['faiss_over_ours']:.2f} "
                  f"(target >= 1)  objective ours {r['ours_objective']:.2f} faiss "
                  f"{r['faiss_objective']:.2f}")
        sk = run(exe, "sketch", os.path.join(tmp, "sketch"), args.sketch_videos, 32, 729, 896)
        rows["sketch"] = sk
        print(f"Stage A: {sk['videos']} videos x 32 x 729 x 896 feature files -> {sk['reps']} "
              f"representatives in {sk['seconds']:.2f}s = {sk['tokens_per_second']:,.0f} "
              f"source tokens/s")
    json.dump(rows, sys.stderr)
    print(file=sys.stderr)


if __name__ == "__main__":
    main()
