#!/usr/bin/env python3
"""The client side of the `once serve` tests (tests/serve/test_serve_openai.cpp), with the official
`openai` package: a client no one here wrote talks to the real server over loopback.

usage:
  serve_client.py model OUT            tiny random LLaVA-OneVision of the published geometry, saved
                                       by transformers' save_pretrained with its processor
                                       (llava_ov_video_path.build), into OUT
  serve_client.py chat BASE REQUESTS   runs each request of the JSON file REQUESTS (a list of
                                       {"video": URL, "question": Q, "stream": bool, "once": {...},
                                       "max_tokens": N, "api_key": K, "system": S}) through
                                       client.chat.completions.create and prints a JSON list of
                                       {"answer", "finish_reason", "usage", "once", "chunks"} or
                                       {"error": {"status", "type", "message", "param"}}
  serve_client.py stream-then-wait BASE VIDEO QUESTION MAX_TOKENS
                                       starts a streamed answer, prints "first chunk" once content
                                       arrives, then waits to be killed (the fault test kills it)
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))


def client(base, api_key=None):
    import openai
    return openai.OpenAI(base_url=base + "/v1", api_key=api_key or "unused", max_retries=0,
                         timeout=300)


def messages(r):
    out = []
    if r.get("system"):
        out.append({"role": "system", "content": r["system"]})
    out.append({"role": "user", "content": [
        {"type": "video_url", "video_url": {"url": r["video"]}},
        {"type": "text", "text": r["question"]}]})
    return out


def one(base, model, r):
    import openai
    extra = {"once": r["once"]} if "once" in r else None
    kw = dict(model=model, messages=messages(r), max_tokens=r.get("max_tokens", 12),
              temperature=0, extra_body=extra)
    c = client(base, r.get("api_key"))
    try:
        if not r.get("stream"):
            res = c.chat.completions.create(**kw)
            return {"answer": res.choices[0].message.content,
                    "finish_reason": res.choices[0].finish_reason,
                    "usage": res.usage.model_dump(), "once": res.model_extra.get("once"),
                    "chunks": 1}
        stream = c.chat.completions.create(stream=True, stream_options={"include_usage": True},
                                           **kw)
        text, finish, usage, once, chunks = "", None, None, None, 0
        for chunk in stream:
            chunks += 1
            if chunk.usage is not None:
                usage = chunk.usage.model_dump()
            extra_once = (chunk.model_extra or {}).get("once")
            if extra_once is not None:
                once = extra_once
            for choice in chunk.choices:
                text += choice.delta.content or ""
                finish = choice.finish_reason or finish
        return {"answer": text, "finish_reason": finish, "usage": usage, "once": once,
                "chunks": chunks}
    except openai.APIStatusError as e:
        body = e.body if isinstance(e.body, dict) else {}
        err = body.get("error", body)
        return {"error": {"status": e.status_code, "type": err.get("type"),
                          "message": err.get("message"), "param": err.get("param")}}
    except openai.APIError as e:  # an error event inside a stream
        return {"error": {"status": None, "type": getattr(e, "type", None),
                          "message": e.message, "param": getattr(e, "param", None)}}


def main():
    cmd = sys.argv[1]
    if cmd == "model":
        from llava_ov_video_path import build
        build(sys.argv[2])
        return
    base = sys.argv[2]
    if cmd == "chat":
        with open(sys.argv[3]) as f:
            requests = json.load(f)
        try:  # the served model's name, as a client finds it (an empty name also selects it)
            model = client(base, requests[0].get("api_key")).models.list().data[0].id
        except Exception:  # noqa: BLE001 — a wrong key: the request itself shows the error
            model = ""
        print(json.dumps([one(base, r.get("model", model), r) for r in requests]))
        return
    if cmd == "stream-then-wait":
        video, question, max_tokens = sys.argv[3], sys.argv[4], int(sys.argv[5])
        c = client(base)
        model = c.models.list().data[0].id
        stream = c.chat.completions.create(
            model=model, messages=messages({"video": video, "question": question}),
            max_tokens=max_tokens, temperature=0, stream=True)
        for chunk in stream:
            if chunk.choices and chunk.choices[0].delta.content:
                print("first chunk", flush=True)
                break
        time.sleep(600)  # killed by the test while the server still generates
        return
    sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
