"""Writes hostile tensor files (and a valid twin of each kind) into the folder given as the only
argument, for tests/security/test_hostile_io.cpp. Every file is small on disk; several claim far
more data than they hold.

.pt  valid.pt            a state dict {"codebook": [4, 3] float32}
     short_storage.pt    a tensor of [1000, 3] over a storage of 12 floats
     short_record.pt     a storage claiming 1000 floats whose record holds 12
     deep_nested.pt      100000 nested lists beside the codebook
     memo_deep.pt        1000 nested lists built through the memo with a constant stack
     huge_memo.pt        LONG_BINPUT 0xFFFFFFFF (LibTorch would grow its memo to 2^32 entries)
     cycle.pt            a dict containing itself
.npy valid.npy           [4, 3] float32
     negative_dim.npy    shape (-3, 3)
     long_header.npy     a format 2.0 header of 1 MB of spaces
     overflow.npy        shape (2^32, 2^32, 16) float64
     huge.npy            shape (10^6, 10^6) float32 and no data
.gguf huge_count.gguf    an array claiming 2^40 elements
     over_limit.gguf     a u8 array of 17,000,000 elements (all present)
     string_past_end.gguf a string claiming 1000 bytes where 5 follow
"""
import io
import os
import pickle
import struct
import sys
import zipfile

import numpy as np
import torch

out = sys.argv[1]


def write(name, blob):
    with open(os.path.join(out, name), "wb") as f:
        f.write(blob)


# --- PyTorch files ------------------------------------------------------------------------
buf = io.BytesIO()
torch.save({"codebook": torch.arange(12.0).view(4, 3) / 10}, buf)
write("valid.pt", buf.getvalue())


def binunicode(s):
    b = s.encode()
    return b"X" + struct.pack("<I", len(b)) + b


def tensor_ops(numel_claimed, size, stride, key="0"):
    """Opcodes pushing _rebuild_tensor_v2(('storage', FloatStorage, key, 'cpu', numel), 0,
    size, stride, False, OrderedDict())."""
    def tup(values):
        return b"(" + b"".join(b"J" + struct.pack("<i", v) for v in values) + b"t"
    return (b"ctorch._utils\n_rebuild_tensor_v2\n("
            + b"(" + binunicode("storage") + b"ctorch\nFloatStorage\n" + binunicode(key)
            + binunicode("cpu") + b"J" + struct.pack("<i", numel_claimed) + b"tQ"
            + b"K\x00" + tup(size) + tup(stride) + b"\x89"
            + b"ccollections\nOrderedDict\n)R" + b"tR")


def pt(pickle_bytes, storage=np.arange(12, dtype=np.float32).tobytes()):
    """A torch.save zip around hand-written pickle bytes."""
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", zipfile.ZIP_STORED) as z:
        z.writestr("archive/data.pkl", pickle_bytes)
        z.writestr("archive/byteorder", "little")
        z.writestr("archive/data/0", storage)
        z.writestr("archive/version", "3\n")
    return b.getvalue()


def state_dict(*items):
    """{key: value-opcodes, ...} as pickle protocol 2."""
    body = b"".join(binunicode(k) + v for k, v in items)
    return b"\x80\x02}(" + body + b"u."


write("valid_handmade.pt", pt(state_dict(("codebook", tensor_ops(12, [4, 3], [3, 1])))))
write("short_storage.pt", pt(state_dict(("codebook", tensor_ops(12, [1000, 3], [3, 1])))))
write("short_record.pt", pt(state_dict(("codebook", tensor_ops(1000, [4, 3], [3, 1])))))
n = 100000
write("deep_nested.pt", pt(state_dict(("codebook", tensor_ops(12, [4, 3], [3, 1])),
                                       ("deep", b"]" * n + b"a" * (n - 1)))))
# Nesting through the memo with a constant stack: d["deep"] = []; memo[0] = it; then 1000 times
# d["deep"] = [memo[0]]; memo[0] = that list.
memo_deep = (b"\x80\x02}" + binunicode("codebook") + tensor_ops(12, [4, 3], [3, 1]) + b"s"
             + binunicode("deep") + b"]q\x00s"
             + (binunicode("deep") + b"](h\x00eq\x00s") * 1000 + b".")
write("memo_deep.pt", pt(memo_deep))
write("huge_memo.pt", pt(b"\x80\x02}r\xff\xff\xff\xff" + binunicode("codebook")
                         + tensor_ops(12, [4, 3], [3, 1]) + b"s."))
write("cycle.pt", pt(b"\x80\x02}q\x00(" + binunicode("codebook") + tensor_ops(12, [4, 3], [3, 1])
                     + binunicode("self") + b"h\x00u."))

# --- NumPy files --------------------------------------------------------------------------
buf = io.BytesIO()
np.save(buf, (np.arange(12, dtype=np.float32) / 10).reshape(4, 3))
write("valid.npy", buf.getvalue())


def npy(header, data=b"", major=1):
    h = header.encode("latin1")
    if major == 1:
        return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h + data
    return b"\x93NUMPY" + bytes([major, 0]) + struct.pack("<I", len(h)) + h + data


write("negative_dim.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (-3, 3), }\n",
                              bytes(36)))
write("long_header.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4, 3), }"
                             + " " * 1000000 + "\n", bytes(48), major=2))
write("overflow.npy", npy("{'descr': '<f8', 'fortran_order': False, "
                          "'shape': (4294967296, 4294967296, 16), }\n"))
write("huge.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1000000, 1000000), }\n"))

# --- GGUF files ---------------------------------------------------------------------------
def gguf(kv_bytes, n_kv=1):
    return b"GGUF" + struct.pack("<IQQ", 3, 0, n_kv) + kv_bytes


def key(s):
    return struct.pack("<Q", len(s)) + s.encode()


write("huge_count.gguf", gguf(key("general.architecture") + struct.pack("<I", 8) + key("llama")
                              + key("a.huge") + struct.pack("<IIQ", 9, 0, 1 << 40), n_kv=2))
count = 17_000_000
write("over_limit.gguf", gguf(key("a.big") + struct.pack("<IIQ", 9, 0, count) + bytes(count)))
write("string_past_end.gguf", gguf(key("general.name") + struct.pack("<IQ", 8, 1000) + b"short"))
print("wrote hostile files to", out)
