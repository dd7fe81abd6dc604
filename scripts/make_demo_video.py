#!/usr/bin/env python3
"""Draws the embedded demo video (resources/demo/demo.mp4) procedurally, so it is free of
licence questions and reproducible: 8 s at 25 FPS, 320x240, with moving coloured shapes, a
textured background, a striped panel that rotates, and a scene change at 4 s (day/indoor ->
night/outdoor palette), giving the demo encoder and ONCE varied content to group.

Usage: python scripts/make_demo_video.py [OUT.mp4] [--seconds 8] [--fps 25]
Needs numpy and PyAV (av). Uses libx264 when PyAV has it, else mpeg4.
"""
import argparse
import os
import sys

import av
import numpy as np

W, H = 320, 240


def background(t, scene, yy, xx):
    if scene == 0:
        # Warm checkerboard that slowly scrolls right: coarse texture.
        check = (((xx + int(t * 40)) // 20 + yy // 20) % 2).astype(np.float32)
        r = 200 + 40 * check
        g = 170 + 30 * check
        b = 120 + 10 * check
    else:
        # Night sky: dark blue gradient with fine diagonal stripes and sparse stars.
        grad = yy.astype(np.float32) / H
        stripes = ((xx + yy + int(t * 30)) // 4 % 2).astype(np.float32)
        r = 10 + 20 * grad + 6 * stripes
        g = 20 + 30 * grad + 6 * stripes
        b = 60 + 80 * grad + 6 * stripes
    img = np.stack([r, g, b], axis=-1)
    if scene == 1:
        rng = np.random.default_rng(7)
        sy = rng.integers(0, H // 2, 60)
        sx = rng.integers(0, W, 60)
        img[sy, sx] = 255
    return img


def draw_frame(i, fps, scene_change):
    t = i / fps
    scene = 0 if t < scene_change else 1
    yy, xx = np.mgrid[0:H, 0:W]
    img = background(t, scene, yy, xx)
    # A red disc bouncing horizontally.
    cx = 40 + (W - 80) * (0.5 + 0.5 * np.sin(t * 1.7))
    cy = 70 + 30 * np.sin(t * 3.1)
    disc = (xx - cx) ** 2 + (yy - cy) ** 2 < 28 ** 2
    img[disc] = (220, 30, 40) if scene == 0 else (250, 230, 90)  # sun by day, moon by night
    # A green square moving diagonally.
    sx = int((t * 45) % (W + 60)) - 60
    sy = int(150 + 40 * np.cos(t * 0.9))
    img[max(sy, 0):max(sy + 50, 0), max(sx, 0):max(sx + 50, 0)] = (40, 190, 70)
    # A rotating striped panel (gradient orientation changes over time).
    angle = t * 0.8
    u = (xx - 250) * np.cos(angle) + (yy - 170) * np.sin(angle)
    panel = (np.abs(xx - 250) < 45) & (np.abs(yy - 170) < 45)
    stripes = (np.floor(u / 6) % 2 == 0)
    img[panel & stripes] = (30, 60, 200)
    img[panel & ~stripes] = (235, 235, 235)
    if scene == 1:
        # Outdoor scene: a grey city skyline of lit windows.
        for k, bx in enumerate(range(0, W, 40)):
            top = H - 60 - (k * 37 % 70)
            img[top:H, bx:bx + 32] = (70, 70, 80)
            win = (yy[top:H, bx:bx + 32] % 10 < 4) & (xx[top:H, bx:bx + 32] % 8 < 4)
            block = img[top:H, bx:bx + 32]
            block[win] = (240, 200, 80)
    return np.clip(img, 0, 255).astype(np.uint8)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "resources", "demo", "demo.mp4"))
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--fps", type=int, default=25)
    ap.add_argument("--scene-change", type=float, default=4.0)
    args = ap.parse_args()

    codec = "libx264" if "libx264" in av.codecs_available else "mpeg4"
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    tmp = args.out + ".tmp.mp4"
    with av.open(tmp, "w") as out:
        stream = out.add_stream(codec, rate=args.fps)
        stream.width, stream.height, stream.pix_fmt = W, H, "yuv420p"
        if codec == "libx264":
            # Deterministic, small: one thread, fixed quality, no B-frame heuristics that vary.
            stream.options = {"crf": "28", "preset": "medium", "threads": "1",
                              "x264-params": "keyint=50"}
        else:
            stream.bit_rate = 400_000
        for i in range(int(round(args.seconds * args.fps))):
            frame = av.VideoFrame.from_ndarray(draw_frame(i, args.fps, args.scene_change),
                                               format="rgb24")
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode():
            out.mux(packet)
    os.replace(tmp, args.out)
    print(f"{args.out}: {os.path.getsize(args.out)} bytes, {codec}", file=sys.stderr)


if __name__ == "__main__":
    main()
