"""Reference frame indices for the sampling rules, printed as JSON lines:
  uniform: np.linspace(0, total-1, n, dtype=int)            (LLaVA-OneVision evaluation code)
  fps: qwen_vl_utils.smart_nframes without FRAME_FACTOR, then
       torch.linspace(0, total-1, nframes).round().long()   (Qwen2.5-VL)
Usage: video_sampling_reference.py  (reads nothing; the cases are fixed below)
"""
import json
import math

import numpy as np
import torch

UNIFORM = [(1, 1), (1, 5), (2, 32), (36, 32), (190, 32), (280, 32), (288, 8), (1000, 7),
           (23, 23), (100, 1), (997, 64), (12345, 32)]
FPS = [(280, 20.0, 2.0, 4, 256), (36, 30.02, 2.0, 4, 256), (190, 25.0, 1.0, 4, 256),
       (288, 15.0, 2.0, 4, 16), (5000, 29.97, 2.0, 4, 256), (3, 25.0, 2.0, 4, 256),
       (999, 24.0, 0.5, 4, 256)]


def qwen_count(total, video_fps, fps, fmin, fmax):
    n = total / video_fps * fps
    n = min(min(max(n, fmin), min(fmax, total)), total)
    return max(1, math.floor(n))


for total, n in UNIFORM:
    idx = np.linspace(0, total - 1, n, dtype=int).tolist()
    print(json.dumps({"rule": f"uniform:{n}", "total": total, "fps": 1.0, "indices": idx}))
for total, vfps, fps, fmin, fmax in FPS:
    n = qwen_count(total, vfps, fps, fmin, fmax)
    idx = torch.linspace(0, total - 1, n).round().long().tolist()
    print(json.dumps({"rule": f"fps:{fps}:{fmin}:{fmax}", "total": total, "fps": vfps,
                      "indices": idx}))
