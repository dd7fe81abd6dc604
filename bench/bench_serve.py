"""`once serve` under load (issue 29): N concurrent clients (the official `openai` package) on the
loopback interface, a fixed number of requests within a time limit, budgets of several methods
mixed so that the server re-budgets its one encoded video. Prints latency p50/p95/max of the
answered requests, throughput, the 429s (--max-concurrent is the documented limit), failures,
answers that differ from the same request asked alone, and the server's resident memory after a
warm-up and after the load. The peer measured in the same run is the way without a server: one
`once ask` process per question (model load, decode and encode every time); the ratio is its p50
over the server's.
Not a test: nothing here asserts a time (tests/serve/test_serve_openai.cpp asserts no failures,
no wrong answers and bounded memory from --json).

Usage: python bench/bench_serve.py [--once build/default/app/once] [--model DIR] [--video FILE]
       --codebook CB [--clients 8] [--requests 64] [--max-concurrent 4] [--time-limit 300]
       [--peer-requests 3] [--json]
Without --model a tiny random LLaVA-OneVision of the published geometry is built (transformers);
the codebook must match its 112-D features (tests/serve/test_serve_openai.cpp writes one).
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "reference"))
CLIP = "/usr/lib/python3/dist-packages/imageio/resources/images/realshort.mp4"
QUESTION = "What is in the video?"
MODEL_ARGS = ["--sampling", "uniform:4", "--pool-stride", "2", "--dtype", "float32"]
CONFIGS = [{"method": "once", "budget": 12}, {"method": "once", "budget": 24}, {"dense": True},
           {"method": "spatial-pool", "budget": 49}]


def rss_mib(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))] if s else float("nan")


def start_server(args, media, codebook):
    cmd = [args.once, "serve", "--model", args.model, "--codebook", codebook, "--media-root", media,
           "--port", "0", "--max-concurrent", str(args.max_concurrent), "--max-new-tokens", "12",
           *MODEL_ARGS]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    m = re.search(r"on (http://\S+:\d+) ", line)
    if not m:
        p.kill()
        sys.exit("bench_serve: the server did not start: " + line + p.stderr.read())
    return p, m.group(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--once", default=os.path.join(HERE, "..", "build", "default", "app", "once"))
    ap.add_argument("--model")
    ap.add_argument("--video", default=CLIP)
    ap.add_argument("--codebook", required=True,
                    help="codebook of the model's feature space (the tiny model's: 112-D)")
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--requests", type=int, default=64)
    ap.add_argument("--max-concurrent", type=int, default=4)
    ap.add_argument("--time-limit", type=float, default=300)
    ap.add_argument("--peer-requests", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    import openai
    work = tempfile.mkdtemp(prefix="bench-serve-")
    try:
        if not args.model:
            from llava_ov_video_path import build
            args.model = os.path.join(work, "model")
            build(args.model)
        codebook = args.codebook
        media = os.path.join(work, "media")
        os.makedirs(media)
        video = os.path.join(media, os.path.basename(args.video))
        shutil.copy(args.video, video)

        server, base = start_server(args, media, codebook)
        try:
            client = openai.OpenAI(base_url=base + "/v1", api_key="unused", max_retries=0,
                                   timeout=args.time_limit)
            model = client.models.list().data[0].id

            def ask(config):
                return client.chat.completions.create(
                    model=model, max_tokens=12, temperature=0, extra_body={"once": config},
                    messages=[{"role": "user", "content": [
                        {"type": "video_url", "video_url": {"url": "file://" + video}},
                        {"type": "text", "text": QUESTION}]}])

            # Warm-up: each configuration alone, its answer the reference for the load.
            expected = [ask(c).model_extra["once"]["token_ids"] for c in CONFIGS]
            rss_warm = rss_mib(server.pid)

            lock = threading.Lock()
            next_index = [0]
            latencies, stats = [], {"ok": 0, "rejected_429": 0, "failed": 0, "wrong_answers": 0}
            errors = []
            deadline = time.monotonic() + args.time_limit

            def worker():
                while time.monotonic() < deadline:
                    with lock:
                        i = next_index[0]
                        if i >= args.requests:
                            return
                        next_index[0] += 1
                    t = time.perf_counter()
                    try:
                        res = ask(CONFIGS[i % len(CONFIGS)])
                        dt = time.perf_counter() - t
                        right = res.model_extra["once"]["token_ids"] == expected[i % len(CONFIGS)]
                        with lock:
                            latencies.append(dt)
                            stats["ok"] += 1
                            stats["wrong_answers"] += 0 if right else 1
                    except openai.RateLimitError:
                        with lock:
                            stats["rejected_429"] += 1
                        time.sleep(0.05)
                    except Exception as e:  # noqa: BLE001 — every other outcome is a failure
                        with lock:
                            stats["failed"] += 1
                            errors.append(repr(e))

            t0 = time.perf_counter()
            threads = [threading.Thread(target=worker) for _ in range(args.clients)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            wall = time.perf_counter() - t0
            rss_after = rss_mib(server.pid)
            hwm = rss_mib(server.pid, "VmHWM")
        finally:
            server.terminate()
            server.wait(30)

        # The peer: one `once ask` process per question.
        peer = []
        for _ in range(args.peer_requests):
            t = time.perf_counter()
            subprocess.run([args.once, "ask", video, "--model", args.model, "--codebook", codebook,
                            "--budget", "12", "--question", QUESTION, "--max-new-tokens", "12",
                            "--json", *MODEL_ARGS], check=True, capture_output=True)
            peer.append(time.perf_counter() - t)

        p50, p95 = percentile(latencies, 50), percentile(latencies, 95)
        peer50 = statistics.median(peer) if peer else float("nan")
        out = dict(sent=next_index[0], clients=args.clients, max_concurrent=args.max_concurrent,
                   wall_s=wall, p50_s=p50, p95_s=p95, max_s=max(latencies, default=float("nan")),
                   answers_per_s=stats["ok"] / wall if wall else 0, peer_once_ask_p50_s=peer50,
                   once_ask_over_serve_p50=peer50 / p50 if p50 else float("nan"),
                   rss_warm_mib=rss_warm, rss_after_mib=rss_after,
                   rss_growth_mib=rss_after - rss_warm, rss_peak_mib=hwm, **stats,
                   errors=errors[:5])
        print(f"once serve, {args.clients} clients, {out['sent']} requests, --max-concurrent "
              f"{args.max_concurrent}: {stats['ok']} answered, {stats['rejected_429']} x 429, "
              f"{stats['failed']} failed, {stats['wrong_answers']} wrong in {wall:.1f} s")
        print(f"  latency p50 {p50 * 1000:.0f} ms  p95 {p95 * 1000:.0f} ms  max "
              f"{out['max_s'] * 1000:.0f} ms  ({out['answers_per_s']:.2f} answers/s)")
        print(f"  peer: once ask per question p50 {peer50 * 1000:.0f} ms = "
              f"{out['once_ask_over_serve_p50']:.1f} x the server's p50")
        print(f"  server RSS {rss_warm:.0f} MiB warm, {rss_after:.0f} MiB after the load "
              f"(peak {hwm:.0f} MiB)")
        if args.json:
            print(json.dumps(out))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
