"""NumPy reference for core/analysis/codebook_projection (written from the definition of PCA, by
SVD rather than the eigenproblem the C++ solves): unit codewords, centred; the two leading right
singular vectors, each signed so its largest-magnitude loading is positive; explained variance
s_i^2 / sum(s^2); codewords and unit tokens projected on the same axes.
Usage: codebook_projection.py IN.safetensors OUT.safetensors
IN: codebook [K, D], tokens [N, D]. OUT: axes [2, D], explained [2], codewords [K, 2],
tokens [N, 2] (float64)."""
import sys

import numpy as np
from safetensors.numpy import load_file, save_file


def unit(a):
    return a / np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-12)


d = load_file(sys.argv[1])
c = unit(d["codebook"].astype(np.float64))
x = unit(d["tokens"].astype(np.float64))
mean = c.mean(0)
cc = c - mean
_, s, vt = np.linalg.svd(cc, full_matrices=False)
axes = vt[:2].copy()
for a in range(2):
    if axes[a][np.argmax(np.abs(axes[a]))] < 0:
        axes[a] = -axes[a]
save_file({"axes": axes, "explained": (s[:2] ** 2) / (s ** 2).sum(),
           "codewords": cc @ axes.T, "tokens": (x - mean) @ axes.T}, sys.argv[2])
