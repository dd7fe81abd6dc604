"""Writes the video fixtures of tests/video into OUT_DIR with PyAV:
  clip.webm (VP9), clip.avi (MJPEG), clip_mpeg4.mkv (MPEG-4 part 2), 24 frames 96x64 at 12 FPS;
  frames_png/ and frames_jpg/ (numbered frames, natural order img_1 .. img_12), frames_mixed/
  (two sizes), text.mp4 (text), truncated.mp4 / truncated.mpg (first third of REAL_MP4 / REAL_MPG), empty.mkv
  (a container with a video stream and no frames), unknown_codec.avi (MJPEG with its fourcc
  overwritten), empty_folder/.
Usage: video_make_clips.py OUT_DIR [REAL_MP4 [REAL_MPG]]
"""
import os
import sys

import av
import numpy as np


def frame(i, w=96, h=64):
    yy, xx = np.mgrid[0:h, 0:w]
    img = np.zeros((h, w, 3), np.uint8)
    img[..., 0] = (xx * 255 // w + i * 10) % 256
    img[..., 1] = (yy * 255 // h) % 256
    img[..., 2] = ((xx // 8 + yy // 8 + i) % 2) * 200
    return img


def write(path, codec, n=24, fps=12, pix_fmt="yuv420p", w=96, h=64):
    with av.open(path, "w") as out:
        s = out.add_stream(codec, rate=fps)
        s.width, s.height, s.pix_fmt = w, h, pix_fmt
        for i in range(n):
            for p in s.encode(av.VideoFrame.from_ndarray(frame(i, w, h), format="rgb24")):
                out.mux(p)
        for p in s.encode():
            out.mux(p)


def write_image(path, img, codec):
    with av.open(path, "w", format="image2") as out:
        s = out.add_stream(codec, rate=1)
        s.width, s.height = img.shape[1], img.shape[0]
        s.pix_fmt = "rgb24" if codec == "png" else "yuvj444p"
        for p in s.encode(av.VideoFrame.from_ndarray(img, format="rgb24")):
            out.mux(p)
        for p in s.encode():
            out.mux(p)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    write(os.path.join(out, "clip.webm"), "libvpx-vp9")
    write(os.path.join(out, "clip.avi"), "mjpeg", pix_fmt="yuvj420p")
    write(os.path.join(out, "clip_mpeg4.mkv"), "mpeg4")
    for kind, codec, ext in (("png", "png", "png"), ("jpg", "mjpeg", "jpg")):
        d = os.path.join(out, "frames_" + kind)
        os.makedirs(d, exist_ok=True)
        for i in range(1, 13):
            write_image(os.path.join(d, f"img_{i}.{ext}"), frame(i), codec)
    d = os.path.join(out, "frames_mixed")
    os.makedirs(d, exist_ok=True)
    write_image(os.path.join(d, "1.png"), frame(1), "png")
    write_image(os.path.join(d, "2.png"), frame(2, 48, 32), "png")
    os.makedirs(os.path.join(out, "empty_folder"), exist_ok=True)
    with open(os.path.join(out, "text.mp4"), "w") as f:
        f.write("This is not a video, only text renamed to .mp4.\n" * 50)
    for src, name in zip(sys.argv[2:4], ("truncated.mp4", "truncated.mpg")):
        data = open(src, "rb").read()
        with open(os.path.join(out, name), "wb") as f:
            f.write(data[: len(data) // 3])
    o = av.open(os.path.join(out, "empty.mkv"), "w")
    s = o.add_stream("mpeg4", rate=12)
    s.width, s.height, s.pix_fmt = 96, 64, "yuv420p"
    o.start_encoding()
    o.close()
    data = bytearray(open(os.path.join(out, "clip.avi"), "rb").read())
    for tag in (b"MJPG", b"mjpg"):
        at = data.find(tag)
        while at >= 0:
            data[at:at + 4] = b"QQ9Z"
            at = data.find(tag)
    with open(os.path.join(out, "unknown_codec.avi"), "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
