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

# What a PyTorch user most often saves: a module's state_dict(), a collections.OrderedDict with
# a _metadata attribute (pickled with BUILD), alone and nested in a training checkpoint.
emb = torch.nn.Embedding(10, 6)
with torch.no_grad():
    emb.weight.copy_(torch.from_numpy(cb))
torch.save(emb.state_dict(), f"{out}/state_dict.pt")


class Quantizer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.codebook = torch.nn.Parameter(torch.from_numpy(cb).clone())
        self.proj = torch.nn.Linear(6, 3)


model = torch.nn.Sequential(Quantizer())
torch.save(model.state_dict(), f"{out}/module_state.pt")
torch.save({"model": model.state_dict(), "step": 3, "optimizer": {"lr": 0.1}},
           f"{out}/checkpoint.pt")

# Files that must stay refused: a whole pickled module (its class is a global of __main__: loading
# it would run the module's code in Python) and an OrderedDict built from items, not setitems.
torch.save(model, f"{out}/whole_module.pt")
import collections
import io
import pickle
import zipfile

buf = io.BytesIO()
torch.save({"x": torch.from_numpy(cb)}, buf)
with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as z:
    names = z.namelist()
    members = {n: z.read(n) for n in names}
pkl = [n for n in names if n.endswith("data.pkl")][0]


class ItemsDict(collections.OrderedDict):
    def __reduce__(self):
        return (collections.OrderedDict, (list(self.items()),))


members[pkl] = pickle.dumps(ItemsDict(a=1), protocol=2)
with zipfile.ZipFile(f"{out}/ordered_items.pt", "w") as z:
    for n in names:
        z.writestr(n, members[n])
