"""Reference for the video reader: decodes VIDEO with PyAV (its own bundled FFmpeg) and writes
the frames picked by uniform:N (np.linspace(0, total-1, N, dtype=int) over the decoded frame
count, as the LLaVA-OneVision evaluation code) to OUT.safetensors:
  rgb uint8 [N, H, W, 3] (frame.to_ndarray(format="rgb24")), times f64 [N] (frame.time minus
  the stream start), indices i64 [N], total i64 [1] (decoded frame count).
Usage: video_pyav_frames.py VIDEO N OUT
"""
import sys

import av
import numpy as np
from safetensors.numpy import save_file


def main():
    path, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with av.open(path) as c:
        frames = list(c.decode(video=0))
        s = c.streams.video[0]
        start = float(s.start_time * s.time_base) if s.start_time is not None else frames[0].time
    total = len(frames)
    idx = np.linspace(0, total - 1, n, dtype=int)
    rgb = np.stack([frames[i].to_ndarray(format="rgb24") for i in idx])
    times = np.array([frames[i].time - start for i in idx], dtype=np.float64)
    save_file({"rgb": rgb, "times": times, "indices": idx.astype(np.int64),
               "total": np.array([total], dtype=np.int64)}, out)


if __name__ == "__main__":
    main()
