"""Writes a short MP4 with a video AND an audio track (H.264 + AAC) with PyAV, for the player
test: playing a clip with sound on a machine without an audio device must not crash the studio.
The picture is a moving gradient, the sound a 440 Hz tone.
Usage: video_with_audio.py OUT_PATH [SECONDS]
"""
import sys
from fractions import Fraction

import av
import numpy as np


def main():
    out_path = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
    fps, w, h, rate = 12, 96, 64, 44100
    with av.open(out_path, "w") as out:
        v = out.add_stream("libx264", rate=fps)
        v.width, v.height, v.pix_fmt = w, h, "yuv420p"
        a = out.add_stream("aac", rate=rate)
        a.layout = "stereo"
        yy, xx = np.mgrid[0:h, 0:w]
        for i in range(int(seconds * fps)):
            img = np.zeros((h, w, 3), np.uint8)
            img[..., 0] = (xx * 255 // w + i * 10) % 256
            img[..., 1] = (yy * 255 // h) % 256
            img[..., 2] = 128
            for p in v.encode(av.VideoFrame.from_ndarray(img, format="rgb24")):
                out.mux(p)
        for p in v.encode():
            out.mux(p)
        samples = 1024
        total = int(seconds * rate)
        for start in range(0, total, samples):
            t = (np.arange(start, start + samples) / rate).astype(np.float32)
            tone = (0.2 * np.sin(2 * np.pi * 440 * t)).astype(np.float32)
            frame = av.AudioFrame.from_ndarray(np.stack([tone, tone]), format="fltp",
                                               layout="stereo")
            frame.sample_rate = rate
            frame.pts = start
            frame.time_base = Fraction(1, rate)
            for p in a.encode(frame):
                out.mux(p)
        for p in a.encode():
            out.mux(p)


if __name__ == "__main__":
    main()
