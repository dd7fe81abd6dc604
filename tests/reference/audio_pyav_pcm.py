"""Reference for the audio decoder (core/video/audio_stream.h): decodes the best audio stream of
MEDIA with PyAV (its own bundled FFmpeg) and converts it with PyAV's AudioResampler to interleaved
float32 at RATE Hz and CHANNELS channels (the default layout of that count), flushing the
resampler at the end, and writes to OUT.safetensors:
  pcm f32 [N, CHANNELS], time f64 [1] (the first decoded frame's time on the video's clock:
  its pts in seconds minus the start of the video stream, or of the audio stream without one),
  rate i64 [1].
Usage: audio_pyav_pcm.py MEDIA RATE CHANNELS OUT
"""
import sys

import av
import numpy as np
from safetensors.numpy import save_file


def main():
    path, rate, channels, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    layout = {1: "mono", 2: "stereo"}.get(channels, f"{channels}c")
    resampler = av.AudioResampler(format="flt", layout=layout, rate=rate)
    chunks, first = [], None
    with av.open(path) as c:
        a = c.streams.audio[0]
        clock = c.streams.video[0] if c.streams.video else a
        start = float(clock.start_time * clock.time_base) if clock.start_time is not None else 0.0
        for frame in c.decode(a):
            if first is None:
                first = float(frame.pts * frame.time_base) - start
            for r in resampler.resample(frame):
                chunks.append(r.to_ndarray().reshape(-1, channels))
        for r in resampler.resample(None):
            chunks.append(r.to_ndarray().reshape(-1, channels))
    pcm = np.concatenate(chunks).astype(np.float32)
    save_file({"pcm": pcm, "time": np.array([first], dtype=np.float64),
               "rate": np.array([rate], dtype=np.int64)}, out)


if __name__ == "__main__":
    main()
