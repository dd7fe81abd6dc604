"""Writes the seed corpora of the tensor-file fuzz targets (npy, gguf, torch_pickle,
feature_file, codebook, safetensors) into tests/fuzz/corpus/<name>/: a few valid files and a few
broken ones each, all small. Run with the project Python: .venv/bin/python tests/fuzz/make_io_seeds.py
"""
import io
import json
import os
import struct
import sys
import tempfile
import zipfile

import numpy as np
import torch

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def put(target, name, blob):
    d = os.path.join(root, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(blob)


def npy_bytes(arr):
    buf = io.BytesIO()
    np.save(buf, arr)
    return buf.getvalue()


def npy_raw(header, data=b"", major=1):
    h = header.encode("latin1")
    if major == 1:
        return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h + data
    return b"\x93NUMPY" + bytes([major, 0]) + struct.pack("<I", len(h)) + h + data


def safetensors_image(header, data):
    h = json.dumps(header).encode()
    h += b" " * (-(8 + len(h)) % 8)
    return struct.pack("<Q", len(h)) + h + data


def st_file(tensors, metadata=None):
    """tensors: name -> numpy array (F32/F64/F16/I64)."""
    names = {np.dtype("float32"): "F32", np.dtype("float64"): "F64",
             np.dtype("float16"): "F16", np.dtype("int64"): "I64"}
    header, data = {}, b""
    if metadata:
        header["__metadata__"] = metadata
    for k, a in tensors.items():
        raw = np.ascontiguousarray(a).tobytes()
        header[k] = {"dtype": names[a.dtype], "shape": list(a.shape),
                     "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    return safetensors_image(header, data)


# --- npy ----------------------------------------------------------------------------------
rng = np.random.default_rng(1)
put("npy", "f4_2x3", npy_bytes(rng.standard_normal((2, 3)).astype(np.float32)))
put("npy", "f2_4", npy_bytes(np.arange(4, dtype=np.float16)))
put("npy", "i8_scalar", npy_bytes(np.int64(7)))
put("npy", "u1_empty", npy_bytes(np.zeros((0, 5), np.uint8)))
put("npy", "b1", npy_bytes(np.array([True, False])))
put("npy", "v2", npy_raw("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }\n",
                         bytes(16), major=2))
put("npy", "negative_dim", npy_raw("{'descr': '<f4', 'fortran_order': False, 'shape': (-3,), }\n"))
put("npy", "fortran", npy_raw("{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }\n", bytes(4)))
put("npy", "big_endian", npy_raw("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }\n", bytes(4)))
put("npy", "overflow", npy_raw("{'descr': '<f8', 'fortran_order': False, "
                               "'shape': (4294967296, 4294967296, 16), }\n"))
put("npy", "extra_key", npy_raw("{'descr': '<f4', 'fortran_order': False, 'shape': (), 'x': 1}\n", bytes(4)))
put("npy", "truncated", npy_bytes(np.ones(8, np.float32))[:-5])

# --- gguf ---------------------------------------------------------------------------------
def gguf_bytes(build):
    import gguf
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "x.gguf")
        w = gguf.GGUFWriter(path, "llama")
        build(w)
        w.write_header_to_file()
        w.write_kv_data_to_file()
        w.write_tensors_to_file()
        w.close()
        return open(path, "rb").read()


def small_model(w):
    import gguf
    w.add_uint32("llama.block_count", 1)
    w.add_float32("llama.rope.freq_base", 10000.0)
    w.add_bool("tokenizer.ggml.add_bos_token", True)
    w.add_string("tokenizer.ggml.model", "gpt2")
    w.add_array("tokenizer.ggml.tokens", ["a", "b", "ab"])
    w.add_array("tokenizer.ggml.token_type", [1, 1, 3])
    w.add_array("some.floats", [0.5, 1.5])
    w.add_tensor("token_embd.weight", np.arange(64, dtype=np.float32).reshape(2, 32))
    w.add_tensor("q8", gguf.quants.quantize(np.ones((1, 32), np.float32), gguf.GGMLQuantizationType.Q8_0),
                 raw_dtype=gguf.GGMLQuantizationType.Q8_0)


valid_gguf = gguf_bytes(small_model)
put("gguf", "valid", valid_gguf)
put("gguf", "truncated", valid_gguf[:100])
put("gguf", "header_only", b"GGUF" + struct.pack("<IQQ", 3, 0, 0))
put("gguf", "huge_array", b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 1) + b"a"
    + struct.pack("<IIQ", 9, 0, 1 << 40))
put("gguf", "string_past_end", b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 1) + b"a"
    + struct.pack("<IQ", 8, 1000) + b"short")
put("gguf", "bad_tensor", b"GGUF" + struct.pack("<IQQ", 3, 1, 0) + struct.pack("<Q", 1) + b"t"
    + struct.pack("<IQQIQ", 2, 1 << 62, 8, 0, 0))

# --- torch_pickle (first byte: 0 = whole .pt file, 1 = data.pkl inside a valid zip) ----------
def torch_file(obj):
    buf = io.BytesIO()
    torch.save(obj, buf)
    return buf.getvalue()


def data_pkl(pt):
    z = zipfile.ZipFile(io.BytesIO(pt))
    return z.read([n for n in z.namelist() if n.endswith("data.pkl")][0])


# Storages of the wrapped zip: data/0 six floats, data/1 one int64 (fuzz_torch_pickle.cpp).
two = {"a": torch.arange(6.0).view(2, 3), "b": torch.tensor([7])}
put("torch_pickle", "file_dict", b"\x00" + torch_file({"codebook": torch.ones(3, 2)}))
put("torch_pickle", "file_tensor", b"\x00" + torch_file(torch.zeros(4)))
put("torch_pickle", "file_truncated", b"\x00" + torch_file(torch.zeros(4))[:300])
put("torch_pickle", "pkl_two", b"\x01" + data_pkl(torch_file(two)))
put("torch_pickle", "pkl_nested", b"\x01" + data_pkl(torch_file({"x": {"y": two["a"]}, "n": two["b"]})))
put("torch_pickle", "pkl_view", b"\x01" + data_pkl(torch_file({"v": torch.arange(6.0)[1:5:2]})))
put("torch_pickle", "pkl_param",
    b"\x01" + data_pkl(torch_file({"p": torch.nn.Parameter(torch.arange(6.0))})))
# nn.Module.state_dict(): a collections.OrderedDict, its _metadata set by BUILD.
put("torch_pickle", "file_state_dict", b"\x00" + torch_file(torch.nn.Linear(3, 2).state_dict()))
put("torch_pickle", "pkl_state_dict",
    b"\x01" + data_pkl(torch_file(torch.nn.Linear(3, 2, bias=False).state_dict())))
d = {}
d["self"] = d
import pickle
put("torch_pickle", "pkl_cycle", b"\x01" + pickle.dumps(d, protocol=2))
deep = []
for _ in range(100):
    deep = [deep]
put("torch_pickle", "pkl_deep", b"\x01" + pickle.dumps(deep, protocol=2))

# --- feature_file and codebook (safetensors images) ----------------------------------------
feats = rng.standard_normal((2, 4, 3)).astype(np.float32)
times = np.array([0.0, 0.5])
meta = {"format": "once-features/1", "backbone": "demo", "grid": "2x2"}
put("feature_file", "valid", st_file({"features": feats, "frame_times": times}, meta))
put("feature_file", "valid_attention_layout", st_file(
    {"features": feats.astype(np.float16), "frame_times": times,
     "attention": np.ones((2, 4), np.float32), "layout_tokens": np.zeros((1, 3), np.float32)}, meta))
nan = feats.copy()
nan[1, 2, 0] = np.nan
put("feature_file", "nan_features", st_file({"features": nan, "frame_times": times}, meta))
put("feature_file", "nan_times", st_file({"features": feats, "frame_times": np.array([0.0, np.inf])}))
put("feature_file", "attention_shape", st_file(
    {"features": feats, "frame_times": times, "attention": np.ones((4, 2), np.float32)}))
put("feature_file", "bad_grid", st_file({"features": feats, "frame_times": times},
                                        {"grid": "99999999999x1"}))

cb = rng.standard_normal((4, 3)).astype(np.float32)
put("codebook", "valid", st_file({"codebook": cb}, {"format": "once-codebook/1", "dim": "3",
                                                    "size": "4", "backbone": "demo"}))
put("codebook", "two_tensors", st_file({"a": cb, "b": cb[:2].astype(np.float16)}))
put("codebook", "size_not_number", st_file({"codebook": cb}, {"size": "four"}))
inf = cb.copy()
inf[2, 1] = np.inf
put("codebook", "inf", st_file({"codebook": inf}))
put("codebook", "int", st_file({"codebook": np.ones((2, 2), np.int64)}))

# --- safetensors (the parser itself) --------------------------------------------------------
put("safetensors", "valid", safetensors_image(
    {"__metadata__": {"format": "once-codebook/1"},
     "a": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]},
     "b": {"dtype": "BF16", "shape": [3], "data_offsets": [16, 22]}}, bytes(22)))
put("safetensors", "short", b"\x01\x02")
put("safetensors", "nojson", struct.pack("<Q", 3) + b"{a:")
put("safetensors", "overlap", safetensors_image(
    {"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]},
     "b": {"dtype": "F32", "shape": [1], "data_offsets": [2, 6]}}, bytes(8)))
put("safetensors", "deep", struct.pack("<Q", 64) + b"[" * 64)
print("seeds written to", root)
