"""Independent PyTorch port of ForestPrune as its public code runs it
(luminousllsa/ForestPrune llava/model/llava_arch_forest.py: GraphPruner.gprune, then
prune_temporal_forest_spatial on the kept tokens, as prepare_inputs_labels_for_multimodal calls
them for METHOD=forestprune). The tensor code is the public code's, statement for statement
(scatter_reduce over trees, the masked argmax merge loop), in float64 by default; prints and
statistics are left out. Three things are made explicit:
  - torch.topk's tie order is unspecified; the public code runs on CUDA, whose topk gathers every
    value above the k-th, then values equal to it, in index order (cuda_topk below), and with
    sorted=False leaves them in index order. So each frame's kept tokens come in position order
    and ties of score or key go to the lower index.
  - keep_ratio = B / N for a budget B, and K is capped at B (docs/baselines.md).
  - the grid is the caller's (the public code takes a square of side int(sqrt(P))).
Nothing is shared with core/compress/baselines/forestprune.cpp.

Usage:
  forestprune_reference.py OUT.safetensors             synthetic clustered videos, every case
  forestprune_reference.py OUT.safetensors --features FEATURES.safetensors --budgets 16,64,...
    a feature file (once-features/1: features [T, P, D], metadata grid "HxW")
Writes per case and budget "<case>/<budget>/tokens" [M, D], "<case>/<budget>/group_of_token" [N],
"<case>/<budget>/forest" [3] (roots before merging, K, deepest node) and "<case>/budgets";
synthetic videos as "video_<name>" with their grid in "grid_<name>".
"""
import argparse
import json
import math

import numpy as np
import torch
import torch.nn.functional as F
from safetensors.numpy import save_file
from safetensors import safe_open

DEFAULTS = dict(tau=0.9, tau_spatial=0.8, gprune_ratio=0.5, temperature=0.03, similarity=0.5,
                iterate_num=5, frame_divisor=1000.0)


def cuda_topk(values, k):
    """Indices of CUDA's torch.topk(values, k): all values above the k-th largest, then values
    equal to it in index order; returned in index order."""
    if k <= 0:
        return torch.empty(0, dtype=torch.long)
    kth = torch.sort(values, descending=True).values[k - 1]
    above = torch.nonzero(values > kth).squeeze(1)
    equal = torch.nonzero(values == kth).squeeze(1)[: k - above.numel()]
    return torch.sort(torch.cat([above, equal])).values


def gprune(feats, k_intra, temperature, similarity, iterate_num):
    n = feats.shape[0]
    k = int(round(n * k_intra))
    if k > n:
        k = n
    normed_feats = F.normalize(feats, p=2, dim=1)
    A = normed_feats @ normed_feats.t()
    A[A < similarity] = 0
    A = A / temperature
    A[torch.abs(A) < 1e-6] = -5000
    A = F.softmax(A, dim=1)
    degree = (A > 0).sum(dim=1).to(feats.dtype)
    A_n = torch.matrix_power(A, iterate_num)
    W = feats.norm(dim=1, keepdim=True).t()
    scores = (W @ A_n).squeeze(0) / degree
    scores[torch.isnan(scores)] = 0
    return cuda_topk(scores, k)


def idx_to_rc01(idx, H, W):
    r = (idx // W).float() / max(H - 1, 1)
    c = (idx % W).float() / max(W - 1, 1)
    return torch.stack([r, c], dim=-1)


def forest(frames, per_frame_orig_idx, grid_hw, K_of_total, tau, tau_spatial, frame_divisor,
           stats=None):
    """prune_temporal_forest_spatial; K_of_total(total) gives K. Returns the kept
    (frame, original index) pairs; `stats` (a dict) receives the forest's root count, K and its
    deepest node before merging."""
    T = len(frames)
    N_list = [f.shape[0] for f in frames]
    total = int(sum(N_list))
    if total == 0:
        return []
    frames_n = [F.normalize(f, dim=1) for f in frames]
    H, W = grid_hw
    coords = [idx_to_rc01(per_frame_orig_idx[t].long(), H, W) for t in range(T)]
    depth_all = torch.full((total,), -1, dtype=torch.long)
    parent_all = torch.full((total,), -1, dtype=torch.long)
    local_idx_all = torch.full((total,), -1, dtype=torch.long)
    frame_id_all = torch.full((total,), -1, dtype=torch.long)
    hist_feats = torch.empty(0, frames_n[0].shape[1], dtype=frames_n[0].dtype)
    hist_coords = torch.empty(0, 2)
    hist_tree_id = torch.empty(0, dtype=torch.long)
    tree_tail_gid = []
    tree_count = 0
    d_thresh = 1.0 - float(tau_spatial)
    g = 0
    offset = [0]
    for n in N_list:
        offset.append(offset[-1] + n)
    for t in range(T):
        Nt = N_list[t]
        if Nt == 0:
            continue
        s_gid, e_gid = g, g + Nt
        g_ids = torch.arange(s_gid, e_gid)
        Ft, Ct = frames_n[t], coords[t]
        if hist_feats.shape[0] == 0:  # the first frame: every token is a root
            depth_all[s_gid:e_gid] = 0
            frame_id_all[s_gid:e_gid] = t
            local_idx_all[s_gid:e_gid] = torch.arange(Nt)
            new_tids = torch.arange(tree_count, tree_count + Nt)
            tree_count += Nt
            tree_tail_gid.extend(g_ids.tolist())
            hist_feats = torch.cat([hist_feats, Ft])
            hist_coords = torch.cat([hist_coords, Ct])
            hist_tree_id = torch.cat([hist_tree_id, new_tids])
            g = e_gid
            continue
        S = hist_feats @ Ft.T
        D = torch.amax((hist_coords[:, None, :] - Ct[None, :, :]).abs(), dim=2)
        Feas = (S >= tau) & (D <= d_thresh)
        idx_tree_1d = hist_tree_id.long()
        idx_tree_2d = idx_tree_1d[:, None].expand(-1, Nt)
        num_trees = tree_count
        NEG_INF = torch.tensor(float("-inf"), dtype=S.dtype)
        POS_INF = torch.tensor(float("inf"), dtype=D.dtype)
        s_src = torch.where(Feas, S, NEG_INF)
        s_tree = torch.full((num_trees, Nt), float("-inf"), dtype=S.dtype)
        s_tree.scatter_reduce_(0, idx_tree_2d, s_src, reduce="amax", include_self=False)
        near_max = Feas & (S == s_tree.index_select(0, idx_tree_1d))
        d_src = torch.where(near_max, D, POS_INF)
        d_tree = torch.full((num_trees, Nt), float("inf"), dtype=D.dtype)
        d_tree.scatter_reduce_(0, idx_tree_2d, d_src, reduce="amin", include_self=False)
        s_max_tok, _ = torch.max(s_tree, dim=0)
        has_match = torch.isfinite(s_max_tok)
        cand_mask = s_tree == s_max_tok[None, :]
        d_cand = torch.where(cand_mask, d_tree, POS_INF)
        tid_best = torch.argmin(d_cand, dim=0)
        old_tails = torch.as_tensor(tree_tail_gid, dtype=torch.long)
        parent_gid = torch.full((Nt,), -1, dtype=torch.long)
        parent_gid[has_match] = old_tails.index_select(0, tid_best[has_match])
        depth_frame = torch.zeros(Nt, dtype=torch.long)
        if has_match.any():
            depth_frame[has_match] = depth_all.index_select(0, parent_gid[has_match]) + 1
        depth_all[s_gid:e_gid] = depth_frame
        parent_all[s_gid:e_gid] = parent_gid
        frame_id_all[s_gid:e_gid] = t
        local_idx_all[s_gid:e_gid] = torch.arange(Nt)
        curr_tree_ids = torch.empty(Nt, dtype=torch.long)
        curr_tree_ids[has_match] = tid_best[has_match]
        root_mask = ~has_match
        n_new = int(root_mask.sum().item())
        if n_new > 0:
            curr_tree_ids[root_mask] = torch.arange(tree_count, tree_count + n_new)
            tree_count += n_new
        hist_feats = torch.cat([hist_feats, Ft])
        hist_coords = torch.cat([hist_coords, Ct])
        hist_tree_id = torch.cat([hist_tree_id, curr_tree_ids])
        last_gid_exist = torch.full((num_trees,), -1, dtype=torch.long)
        if has_match.any():
            last_gid_exist.scatter_reduce_(0, curr_tree_ids[has_match], g_ids[has_match],
                                           reduce="amax", include_self=False)
        tail_tensor = torch.as_tensor(tree_tail_gid, dtype=torch.long)
        upd_mask = last_gid_exist >= 0
        if upd_mask.any():
            tail_tensor[upd_mask] = last_gid_exist[upd_mask]
        tree_tail_gid = tail_tensor.tolist()
        if n_new > 0:
            tree_tail_gid.extend(g_ids[root_mask].tolist())
        g = e_gid

    K = K_of_total(total)
    root_idx = torch.nonzero(parent_all < 0, as_tuple=False).squeeze(1)
    n_root = root_idx.numel()
    if stats is not None:
        stats.update(roots=n_root, K=K, depth=int(depth_all.max()))
    if n_root > K:
        Xn = torch.cat(frames_n, dim=0)
        Xr = Xn[root_idx]
        R = n_root
        sims_rr = Xr @ Xr.t()
        sims_rr.fill_diagonal_(float("-inf"))
        ii = torch.arange(R).unsqueeze(1)
        jj = torch.arange(R).unsqueeze(0)
        forward_mask = root_idx[ii] < root_idx[jj]
        sims_rr = sims_rr.masked_fill(~forward_mask, float("-inf"))
        remain = torch.ones(R, dtype=torch.bool)
        for _ in range(n_root - K):
            mask_rows = remain.view(R, 1).expand(R, R)
            mask_cols = remain.view(1, R).expand(R, R)
            M = sims_rr.masked_fill(~(mask_rows & mask_cols), float("-inf"))
            flat = M.view(-1)
            flat_idx = torch.argmax(flat)
            if flat[flat_idx] == float("-inf"):
                break
            parent_pos, child_pos = int(flat_idx // R), int(flat_idx % R)
            parent_all[int(root_idx[child_pos])] = int(root_idx[parent_pos])
            remain[child_pos] = False
        depth_all.zero_()
        for gg in range(total):
            p = int(parent_all[gg].item())
            if p >= 0:
                depth_all[gg] = depth_all[p] + 1

    K = min(K, total)
    if K <= 0:
        return []
    key = depth_all.float() + frame_id_all.float() / frame_divisor
    keep_global = cuda_topk(-key, K)
    kept = []
    for t in range(T):
        g_idx_t = keep_global[(keep_global >= offset[t]) & (keep_global < offset[t + 1])]
        loc = local_idx_all.index_select(0, g_idx_t)
        kept += [(t, int(i)) for i in per_frame_orig_idx[t].index_select(0, loc)]
    return kept


def forestprune(x, grid, budget, params=None, dtype=torch.float64, stats=None):
    """x: [T, P, D] array; returns (tokens [M, D], group_of_token [N]) in source order."""
    p = dict(DEFAULTS, **(params or {}))
    x = torch.as_tensor(np.asarray(x)).to(dtype)
    T, P, Dim = x.shape
    frames, orig = [], []
    for t in range(T):
        idx = gprune(x[t], p["gprune_ratio"], p["temperature"], p["similarity"],
                     int(p["iterate_num"]))
        frames.append(x[t][idx])
        orig.append(idx.long())
    keep_ratio = budget / (T * P)
    k_of_total = lambda total: min(int(round(total * float(keep_ratio) / p["gprune_ratio"])),
                                   budget)
    kept = forest(frames, orig, grid, k_of_total, p["tau"], p["tau_spatial"],
                  p["frame_divisor"], stats)
    src = sorted(t * P + i for t, i in kept)
    group = np.full(T * P, -1, dtype=np.int64)
    group[src] = np.arange(len(src))
    tokens = x.reshape(-1, Dim)[src].double().numpy() if src else np.zeros((0, Dim))
    return tokens, group


# ---------------------------------------------------------------- data
def clustered_video(t, gh, gw, d, centres, change, noise, seed):
    """Each grid cell shows one of `centres` directions and keeps it from frame to frame except
    with probability `change`; a cell's token is its centre plus Gaussian noise and a scale."""
    rng = np.random.default_rng(seed)
    c = rng.standard_normal((centres, d))
    labels = rng.integers(0, centres, gh * gw)
    x = np.zeros((t, gh * gw, d))
    for f in range(t):
        if f:
            moved = rng.random(gh * gw) < change
            labels = np.where(moved, rng.integers(0, centres, gh * gw), labels)
        scale = rng.uniform(0.5, 2.0, (gh * gw, 1))
        x[f] = scale * (c[labels] + noise * rng.standard_normal((gh * gw, d)))
    return x.astype(np.float32)


CASES = [  # name, video, params
    ("default", "a", {}),
    ("videomme", "a", {"tau": 0.8, "tau_spatial": 0.5}),
    ("default-b", "b", {}),
    ("ratio-0.7", "b", {"gprune_ratio": 0.7, "iterate_num": 3}),
    ("loose", "c", {"tau": 0.5, "similarity": 0.3, "temperature": 0.1}),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--features", help="a once-features/1 file instead of the synthetic videos")
    ap.add_argument("--budgets", default="")
    args = ap.parse_args()
    out = {}
    if args.features:
        with safe_open(args.features, "np") as f:
            x = f.get_tensor("features").astype(np.float64)
            grid = tuple(int(v) for v in f.metadata()["grid"].split("x"))
        budgets = [int(b) for b in args.budgets.split(",")]
        cases = [("real", x, grid, {})]
    else:
        videos = {
            "a": (clustered_video(8, 6, 6, 16, 6, 0.15, 0.05, 1), (6, 6)),
            "b": (clustered_video(7, 5, 7, 12, 4, 0.3, 0.08, 2), (5, 7)),
            "c": (clustered_video(6, 4, 4, 8, 3, 0.5, 0.3, 3), (4, 4)),
        }
        for name, (v, grid) in videos.items():
            out["video_" + name] = v
            out["grid_" + name] = np.array(grid, dtype=np.int64)
        cases = [(n, videos[v][0], videos[v][1], prm) for n, v, prm in CASES]
        budgets = None
    for name, x, grid, prm in cases:
        n = x.shape[0] * x.shape[1]
        bs = budgets or sorted({1, 2, 3, 5, 8, 13, n // 20, n // 10, n // 5, n // 3, n // 2, n})
        out[name + "/budgets"] = np.array(bs, dtype=np.int64)
        out[name + "/params"] = np.frombuffer(json.dumps(prm).encode(), dtype=np.uint8).copy()
        for b in bs:
            stats = {}
            tokens, group = forestprune(x, grid, b, prm, stats=stats)
            out[f"{name}/{b}/tokens"] = tokens
            out[f"{name}/{b}/group_of_token"] = group
            # roots before merging, K, deepest node: what the case exercises
            out[f"{name}/{b}/forest"] = np.array([stats.get("roots", 0), stats.get("K", 0),
                                                  stats.get("depth", 0)], dtype=np.int64)
    save_file(out, args.out)


if __name__ == "__main__":
    main()
