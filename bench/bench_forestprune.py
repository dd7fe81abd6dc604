"""ForestPrune benchmark (issue 27): our compressor against its own eager PyTorch reference, the
public code's tensor operations as tests/reference/forestprune_reference.py ports them, timed in
the same run on the same features. The kept token indices of both are compared (float64).

Shapes: LLaVA-OneVision video tokens after pooling (T frames × 14 × 14, D = 896 for the 0.5B and
3584 for the 7B), clustered synthetic videos whose cells keep their content from frame to frame
with probability 1 − change (static background gives deep trees, motion new roots), and
optionally a feature file (`once encode`) of a real clip.
Prints per shape: ours (prepare + compress), a new budget from the prepared state, and the
reference in float64 (same arithmetic as ours) and float32 (the public code's precision on the
CPU); ratio = reference / ours (target >= 3).
Usage: python bench/bench_forestprune.py [--build build/default] [--frames 8,32] [--dims 896]
       [--budget-ratio 0.1] [--reps 2] [--features FILE]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch
from safetensors import safe_open
from safetensors.numpy import save_file

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "reference"))
from forestprune_reference import clustered_video, forestprune  # noqa: E402

from bench_timing import best_of  # noqa: E402

THREADS = int(os.environ.get("OMP_NUM_THREADS", os.cpu_count() or 1))


def run_case(exe, label, x, grid, budget, reps):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "data.safetensors")
        save_file({"features": np.ascontiguousarray(x, dtype=np.float32)}, path)
        out = subprocess.run([exe, path, str(grid[0]), str(grid[1]), str(budget), str(reps)],
                             check=True, capture_output=True, text=True,
                             env={**os.environ, "OMP_NUM_THREADS": str(THREADS)})
        ours = json.loads(out.stdout.strip().splitlines()[-1])
    ref = {}
    t64 = best_of(reps, lambda: ref.update(out=forestprune(x, grid, budget)))
    kept_ref = np.nonzero(ref["out"][1] >= 0)[0].tolist()
    t32 = best_of(reps, lambda: forestprune(x, grid, budget, dtype=torch.float32))
    same = kept_ref == ours["kept"]
    row = dict(case=label, T=x.shape[0], P=x.shape[1], D=x.shape[2], B=budget, M=ours["M"],
               ours_s=ours["full_s"], prepare_s=ours["prepare_s"], rebudget_s=ours["rebudget_s"],
               ref64_s=t64, ref32_s=t32, ratio64=t64 / ours["full_s"],
               ratio32=t32 / ours["full_s"], same_kept=same)
    print(f"{label}: T={row['T']} P={row['P']} D={row['D']} B={budget} M={row['M']}  "
          f"ours {row['ours_s']:.3f}s (prepare {row['prepare_s']:.3f}s, new budget "
          f"{row['rebudget_s'] * 1000:.2f} ms)  reference f64 {t64:.3f}s f32 {t32:.3f}s  "
          f"ratio f64 {row['ratio64']:.1f} f32 {row['ratio32']:.1f} (target >= 3)  "
          f"kept indices {'equal' if same else 'DIFFER'}", flush=True)
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build/default")
    ap.add_argument("--frames", default="8,32")
    ap.add_argument("--dims", default="896")
    ap.add_argument("--budget-ratio", type=float, default=0.1)
    ap.add_argument("--change", type=float, default=0.2)
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--features", help="a feature file of a real clip (once encode)")
    args = ap.parse_args()
    torch.set_num_threads(THREADS)
    exe = os.path.join(args.build, "bench", "bench_forestprune")
    print(f"threads={THREADS} budget = {args.budget_ratio} N (best of {args.reps})")
    rows = []
    for d in [int(v) for v in args.dims.split(",")]:
        for t in [int(v) for v in args.frames.split(",")]:
            x = clustered_video(t, 14, 14, d, 64, args.change, 0.15, 7)
            rows.append(run_case(exe, "clustered", x, (14, 14), int(args.budget_ratio * x.shape[0]
                                                                   * x.shape[1]), args.reps))
    if args.features:
        with safe_open(args.features, "np") as f:
            x = f.get_tensor("features").astype(np.float32)
            grid = tuple(int(v) for v in f.metadata()["grid"].split("x"))
        rows.append(run_case(exe, os.path.basename(args.features), x, grid,
                             int(args.budget_ratio * x.shape[0] * x.shape[1]), args.reps))
    json.dump(rows, sys.stderr)
    print(file=sys.stderr)


if __name__ == "__main__":
    main()
