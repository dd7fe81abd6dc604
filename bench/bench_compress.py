"""Compression benchmark (issue 2): ratios measured in one run on the same inputs.

Shapes of LLaVA-OneVision video features without pooling (N = 32 × 729 = 23,328 content tokens;
the 23,329th is the newline layout token, not compressed), K = 8192, D = 896 and 3584, clustered
synthetic data. Prints, per shape and per precision of the similarity scores (float32: exact, with
the default kernel, i.e. the certified BF16 product where the CPU has AVX512-BF16, and with the
F32 product forced, "float32_sgemm"; bfloat16: the paper's production order, cast → normalise →
multiply in BF16); the floor is the same-shape product in the precision of the scores:
  full / gemm         our full compression ÷ the same-shape matrix product in that precision
                      (target ≤ 1.15)
  torch / ours        plain PyTorch eager (normalize, matmul, argmax, bincount, topk, index_add)
                      in the same precision ÷ ours (≥ 1.5)
  faiss / assign      faiss-cpu IndexFlatIP k=1 search (F32: faiss has no BF16 GEMM) ÷ our
                      assignment step (≥ 1.2)
  full / rebudget     full recompute ÷ a new budget (B/2) from the cached assignment (≥ 50)
Usage: python bench/bench_compress.py [--build build/default] [--dims 896,3584] [--reps 2]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch
from safetensors.numpy import save_file

from bench_timing import best_of

THREADS = int(os.environ.get("OMP_NUM_THREADS", os.cpu_count() or 1))


def clustered(n, k, d, popularity="zipf", seed=0):
    """Tokens around 2048 centres. Video tokens are redundant (repeated patches across frames,
    a few dominant regions), so by default centre popularity follows Zipf's law (s = 1.1);
    `uniform` is the adversarial case where no codeword dominates."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((2048, d)).astype(np.float32)
    if popularity == "zipf":
        p = 1.0 / np.arange(1, len(centres) + 1) ** 1.1
        labels = rng.choice(len(centres), size=n, p=p / p.sum())
    else:
        labels = rng.integers(0, len(centres), n)
    x = centres[labels] + 0.5 * rng.standard_normal((n, d)).astype(np.float32)
    c = np.concatenate([centres, rng.standard_normal((k - len(centres), d)).astype(np.float32)])
    return x.astype(np.float32), c.astype(np.float32)


def torch_eager(x, c, budget, dtype=torch.float32):
    xf = x.float()
    xn = torch.nn.functional.normalize(x.to(dtype), dim=1)
    cn = torch.nn.functional.normalize(c.to(dtype), dim=1)
    khat = (xn @ cn.T).argmax(1)
    counts = torch.bincount(khat, minlength=c.shape[0])
    top = torch.topk(counts, min(budget, c.shape[0]))
    sel = top.indices[top.values > 0]
    k = (xn @ cn[sel].T).argmax(1)
    sums = torch.zeros(len(sel), x.shape[1]).index_add_(0, k, xf)
    return sums / torch.bincount(k, minlength=len(sel)).clamp_min(1).unsqueeze(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build/default")
    ap.add_argument("--dims", default="896,3584")
    ap.add_argument("--n", type=int, default=23328)
    ap.add_argument("--k", type=int, default=8192)
    ap.add_argument("--budget", type=int, default=512)
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--popularity", default="zipf", choices=["zipf", "uniform"])
    args = ap.parse_args()
    import faiss
    torch.set_num_threads(THREADS)
    faiss.omp_set_num_threads(THREADS)
    exe = os.path.join(args.build, "bench", "bench_compress")
    print(f"threads={THREADS} N={args.n} K={args.k} B={args.budget} popularity={args.popularity} "
          f"(best of {args.reps})")
    rows = []
    for d in [int(v) for v in args.dims.split(",")]:
        x, c = clustered(args.n, args.k, d, args.popularity)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "data.safetensors")
            save_file({"features": x, "codebook": c}, path)
            out = subprocess.run([exe, path, str(args.budget), str(args.reps)], check=True,
                                 capture_output=True, text=True,
                                 env={**os.environ, "OMP_NUM_THREADS": str(THREADS)})
            ours = json.loads(out.stdout.strip().splitlines()[-1])
        xt, ct = torch.from_numpy(x), torch.from_numpy(c)
        cn = c / np.linalg.norm(c, axis=1, keepdims=True)
        xn = x / np.linalg.norm(x, axis=1, keepdims=True)
        index = faiss.IndexFlatIP(d)
        index.add(cn)
        t_faiss = best_of(args.reps, lambda: index.search(xn, 1))
        for precision, dtype in (("float32", torch.float32), ("float32_sgemm", torch.float32),
                                 ("bfloat16", torch.bfloat16)):
            o = ours[precision]
            t_torch = best_of(args.reps, lambda: torch_eager(xt, ct, args.budget, dtype))
            row = dict(D=d, precision=precision, gemm_s=o["gemm"], full_s=o["full"],
                       assign_s=o["assign"], rebudget_s=o["rebudget"], torch_s=t_torch,
                       faiss_s=t_faiss, full_over_gemm=o["full"] / o["gemm"],
                       torch_over_ours=t_torch / o["full"],
                       faiss_over_assign=t_faiss / o["assign"],
                       full_over_rebudget=o["full"] / o["rebudget"], M=o["M"],
                       fallback_share=o["fallback_tokens"] / ours["N"], kernel=o["kernel"],
                       lists_complete=o["lists_complete"],
                       exact_fallback_share=o["exact_fallback_tokens"] / ours["N"])
            rows.append(row)
            print(f"D={d} {precision} [{o['kernel']}, lists complete {o['lists_complete']}, "
                  f"F32 fallback {row['exact_fallback_share']:.1%}]:")
            print(f"  gemm {row['gemm_s']:.3f}s  ours {row['full_s']:.3f}s "
                  f"(assign {row['assign_s']:.3f}s, rebudget {row['rebudget_s']*1000:.1f} ms)  "
                  f"torch {t_torch:.3f}s  faiss(F32) {t_faiss:.3f}s  M={row['M']}  "
                  f"fallback share {row['fallback_share']:.1%}")
            print(f"  full/gemm = {row['full_over_gemm']:.3f} (target <= 1.15)   "
                  f"torch/ours = {row['torch_over_ours']:.2f} (>= 1.5)   "
                  f"faiss/assign = {row['faiss_over_assign']:.2f} (>= 1.2)   "
                  f"full/rebudget = {row['full_over_rebudget']:.0f} (>= 50)", flush=True)
    json.dump(rows, sys.stderr)
    print(file=sys.stderr)


if __name__ == "__main__":
    main()
