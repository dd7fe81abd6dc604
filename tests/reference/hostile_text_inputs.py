"""Hostile inputs for tests/security/test_hostile_text.cpp (text parsers, video limits, eval).

  hostile_text_inputs.py video OUT_DIR
      clip2s.mkv       a 2-second clip, 60 frames 64x48 at 30 FPS (MPEG-4 part 2)
      huge.mp4         a 16000x16000 PNG (one colour, so a few hundred KB) renamed .mp4
      playlist.mp4     an HLS playlist naming a segment outside its folder, renamed .mp4
      concat.mp4       an ffconcat script naming clip2s.mkv beside it, renamed .mp4
  hostile_text_inputs.py tokenizers GOOD_TOKENIZER_JSON OUT_DIR
      neg_id.json      a vocabulary id of -1
      huge_id.json     a vocabulary id of 4,000,000,000 (an u32 `tokenizers` accepts)
      added_neg.json   an added token with id -7
      nested.json      100,000 nested arrays
      merge_unknown.json  a merge naming a token outside the vocabulary
      wrong_type.json  the vocabulary as a list
  Prints, as JSON, which of these files the `tokenizers` package itself loads.
"""
import json
import os
import sys


def video(out):
    import av
    import numpy as np
    from PIL import Image

    os.makedirs(out, exist_ok=True)
    clip = os.path.join(out, "clip2s.mkv")
    with av.open(clip, "w") as c:
        s = c.add_stream("mpeg4", rate=30)
        s.width, s.height, s.pix_fmt = 64, 48, "yuv420p"
        for i in range(60):
            img = np.full((48, 64, 3), (i * 4) % 256, np.uint8)
            for p in s.encode(av.VideoFrame.from_ndarray(img, format="rgb24")):
                c.mux(p)
        for p in s.encode():
            c.mux(p)
    Image.MAX_IMAGE_PIXELS = None
    Image.new("L", (16000, 16000), 17).save(os.path.join(out, "huge.mp4"), format="PNG")
    with open(os.path.join(out, "playlist.mp4"), "w") as f:
        f.write("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n"
                "#EXTINF:2.0,\n../outside/secret.ts\n#EXT-X-ENDLIST\n")
    with open(os.path.join(out, "concat.mp4"), "w") as f:
        f.write("ffconcat version 1.0\nfile clip2s.mkv\n")


def tokenizers(good, out):
    from tokenizers import Tokenizer

    os.makedirs(out, exist_ok=True)
    base = json.load(open(good, encoding="utf-8"))
    vocab = base["model"]["vocab"]
    first = next(iter(vocab))

    def variant(name, change):
        j = json.loads(json.dumps(base))
        change(j)
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            json.dump(j, f, ensure_ascii=False)

    variant("neg_id.json", lambda j: j["model"]["vocab"].__setitem__(first, -1))
    variant("huge_id.json", lambda j: j["model"]["vocab"].__setitem__("zzhuge", 4000000000))
    variant("added_neg.json", lambda j: j["added_tokens"][0].__setitem__("id", -7))
    variant("merge_unknown.json",
            lambda j: j["model"]["merges"].insert(0, ["zz_not_a_token", first]))
    variant("wrong_type.json",
            lambda j: j["model"].__setitem__("vocab", [[k, v] for k, v in vocab.items()]))
    with open(os.path.join(out, "nested.json"), "w") as f:
        f.write("[" * 100000 + "]" * 100000)
    loads = {}
    for name in sorted(os.listdir(out)):
        try:
            Tokenizer.from_file(os.path.join(out, name))
            loads[name] = True
        except Exception:  # noqa: BLE001 - any refusal counts
            loads[name] = False
    print(json.dumps(loads))


if __name__ == "__main__":
    if sys.argv[1] == "video":
        video(sys.argv[2])
    else:
        tokenizers(sys.argv[2], sys.argv[3])
