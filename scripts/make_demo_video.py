#!/usr/bin/env python3
"""Makes the embedded demo video (resources/demo/demo.mp4) from a real clip that Debian ships:
python3-imageio's cockatoo.mp4 (a cockatoo indoors, 1280x720, 20 FPS, 14 s; BSD-2-Clause,
Copyright 2015 imageio contributors -- resources/demo/NOTICE.md reproduces the notice).

The clip is scaled to 384x216 (the demo encoder and the studio do not need more, and the
repository stays small), keeps all 280 frames at 20 FPS and drops the audio track (the demo is
about the picture; the player's audio path is tested with its own generated clip).

Usage: python scripts/make_demo_video.py [OUT.mp4] [--source PATH]
Needs PyAV (av) with libx264 (the project's .venv has it).
"""
import argparse
import os

import av

SOURCE = "/usr/lib/python3/dist-packages/imageio/resources/images/cockatoo.mp4"
W, H = 384, 216


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?",
                    default=os.path.join(here, "..", "resources", "demo", "demo.mp4"))
    ap.add_argument("--source", default=SOURCE,
                    help="the clip (apt install python3-imageio)")
    args = ap.parse_args()
    src = av.open(args.source)
    vin = src.streams.video[0]
    tmp = args.out + ".tmp.mp4"
    dst = av.open(tmp, "w")
    vout = dst.add_stream("libx264", rate=int(vin.average_rate))
    vout.width, vout.height, vout.pix_fmt = W, H, "yuv420p"
    # Deterministic bytes: one thread, fixed quality, no timestamps from the wall clock.
    vout.options = {"crf": "26", "preset": "slow", "threads": "1"}
    for frame in src.decode(vin):
        # Area averaging: no aliasing on the feathers when scaling down by 3.3.
        rgb = frame.reformat(width=W, height=H, format="rgb24", interpolation="AREA")
        img = av.VideoFrame.from_ndarray(rgb.to_ndarray(), format="rgb24")
        for packet in vout.encode(img):
            dst.mux(packet)
    for packet in vout.encode():
        dst.mux(packet)
    dst.close()
    src.close()
    os.replace(tmp, args.out)  # never leave a half-written demo behind
    print(args.out, os.path.getsize(args.out), "bytes")


if __name__ == "__main__":
    main()
