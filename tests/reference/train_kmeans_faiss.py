"""faiss-cpu reference for core/train/spherical_kmeans: Kmeans(spherical=True) from the same
initial centroids with the same number of iterations and weights; reports its objective.
Usage: train_kmeans_faiss.py IN.safetensors OUT.safetensors
IN: x [N, D] unit rows, w [N], init [k, D], params [1] = iterations.
OUT: centroids [k, D], objective [1] = Σ w·max_k cos(x, c_k) of faiss's final centroids."""
import sys

import faiss
import numpy as np
from safetensors.numpy import load_file, save_file

d = load_file(sys.argv[1])
x = np.ascontiguousarray(d["x"].astype(np.float32))
w = np.ascontiguousarray(d["w"].astype(np.float32))
init = np.ascontiguousarray(d["init"].astype(np.float32))
iters = int(d["params"][0])
km = faiss.Kmeans(x.shape[1], init.shape[0], niter=iters, spherical=True, seed=1,
                  max_points_per_centroid=10**9, min_points_per_centroid=1)
km.train(x, weights=w, init_centroids=init)
c = km.centroids / np.maximum(np.linalg.norm(km.centroids, axis=1, keepdims=True), 1e-12)
obj = float((w.astype(np.float64) * (x.astype(np.float64) @ c.T.astype(np.float64)).max(1)).sum())
save_file({"centroids": c.astype(np.float32), "objective": np.array([obj])}, sys.argv[2])
