"""Writes a small safetensors file with the reference `safetensors` package (test fixture)."""
import sys

import numpy as np
import torch
from safetensors.torch import save_file

save_file(
    {"a": torch.arange(6, dtype=torch.float32).reshape(2, 3).to(torch.bfloat16),
     "b": torch.tensor(np.array([1, 2, 3, 4], dtype=np.int64))},
    sys.argv[1], metadata={"who": "python"})
