"""Writes the same random codebook as .npy, as a PyTorch .pt state dict (with a distractor
tensor) and as raw float32 bytes, for the codebook import tests."""
import sys

import numpy as np
import torch

out = sys.argv[1]
rng = np.random.default_rng(5)
cb = rng.standard_normal((10, 6)).astype(np.float32)
np.save(f"{out}/cb.npy", cb)
np.save(f"{out}/cb16.npy", cb.astype(np.float16))
torch.save({"quantizer": {"embedding": torch.from_numpy(cb)}, "step": torch.tensor(3)},
           f"{out}/cb.pt")
torch.save({"a": torch.from_numpy(cb), "b": torch.from_numpy(cb[:4])}, f"{out}/two.pt")
cb.tofile(f"{out}/cb.raw")
