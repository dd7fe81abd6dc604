"""POT reference for core/train/sinkhorn: ot.sinkhorn_log on the scores written by the test.
Usage: train_sinkhorn_pot.py IN.safetensors OUT.safetensors
IN: scores [B, K], a [B], b [K], params [2] = (epsilon, iterations). OUT: plan [B, K] float64."""
import sys

import numpy as np
import ot
from safetensors.numpy import load_file, save_file

d = load_file(sys.argv[1])
eps, iters = float(d["params"][0]), int(d["params"][1])
S = d["scores"].astype(np.float64)
plan = ot.bregman.sinkhorn_log(d["a"].astype(np.float64), d["b"].astype(np.float64), -S, reg=eps,
                       numItermax=iters, stopThr=0.0, warn=False)
save_file({"plan": np.ascontiguousarray(plan)}, sys.argv[2])
