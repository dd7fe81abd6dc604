#!/usr/bin/env python3
"""The frames transformers samples from VIDEO for the Qwen3.5 folder MODEL
(tests/models/test_qwen3_5_folder_sampling.cpp): the folder's video processor as
AutoVideoProcessor.from_pretrained loads it (processor_config.json's video_processor, or
video_preprocessor_config.json), its sample_frames over the video's metadata (frame count and
rate as PyAV reads them, as transformers' own video loading does).

usage: qwen3_5_folder_sampling.py MODEL VIDEO
prints {"indices": [...], "fps", "min_frames", "max_frames", "total", "video_fps"}.
"""
import json
import sys

import av


def main():
    model, video = sys.argv[1], sys.argv[2]
    from transformers import AutoVideoProcessor
    from transformers.video_utils import VideoMetadata
    vp = AutoVideoProcessor.from_pretrained(model)
    with av.open(video) as c:
        s = c.streams.video[0]
        video_fps = float(s.average_rate)
        total = sum(1 for _ in c.decode(video=0))
    meta = VideoMetadata(total_num_frames=total, fps=video_fps)
    idx = vp.sample_frames(meta)
    print(json.dumps({"indices": [int(i) for i in idx], "fps": vp.fps,
                      "min_frames": vp.min_frames, "max_frames": vp.max_frames,
                      "total": total, "video_fps": video_fps}))


if __name__ == "__main__":
    sys.exit(main())
