"""PyTorch-autograd reference for one Stage-B step (core/train/stage_b.cpp, docs/training.md):
plan from POT's sinkhorn_log, straight-through Gumbel-Softmax, reconstruction + commitment +
usage, gradient by autograd in float64.
Usage: train_step_autograd.py IN.safetensors OUT.safetensors
IN: x [B, D], a [B], C [K, D], gumbel [B, K], params [6] = (tau, eps, iters, commitment, usage).
OUT: grad [K, D], losses [4] = (loss, reconstruction, commitment, usage)."""
import sys

import numpy as np
import ot
import torch
from safetensors.numpy import load_file, save_file

d = load_file(sys.argv[1])
tau, eps, iters, beta, lam = [float(v) for v in d["params"][:5]]
x = torch.tensor(d["x"], dtype=torch.float64)
a = torch.tensor(d["a"], dtype=torch.float64)
C = torch.tensor(d["C"], dtype=torch.float64, requires_grad=True)
g = torch.tensor(d["gumbel"], dtype=torch.float64)
K = C.shape[0]
cn = C / C.norm(dim=1, keepdim=True).clamp_min(1e-12)
S = x @ cn.T
plan = ot.bregman.sinkhorn_log(a.numpy(), np.full(K, 1.0 / K), -S.detach().numpy(), reg=eps,
                       numItermax=int(iters), stopThr=0.0, warn=False)
# Column potential g_k = log Γ_uk − S_uk/ε − f_u is held fixed: logits = S/ε + g (+ row const).
logits = torch.tensor(np.log(plan)) - S.detach() / eps
z = (S / eps + logits + g) / tau
ys = torch.softmax(z, dim=1)
hard = torch.nn.functional.one_hot(z.argmax(1), K).to(torch.float64)
y = hard - ys.detach() + ys
q = y @ cn
rec = (a * ((x - q) ** 2).sum(1)).sum()
near = S.detach().argmax(1)
com = (a * ((x - cn[near]) ** 2).sum(1)).sum()
pbar = (a[:, None] * ys).sum(0)
use = (pbar * torch.log(pbar * K)).sum()
loss = rec + beta * com + lam * use
loss.backward()
save_file({"grad": C.grad.numpy(),
           "losses": np.array([loss.item(), rec.item(), com.item(), use.item()])}, sys.argv[2])
