"""Markdown tables from bench_gpu's JSON files (bench/gpu/run.sh report).

  report.py RESULTS_DIR  > gpu_results.md
"""
import json
import os
import sys


def ms(v):
    return "—" if v is None else f"{1000 * v:,.1f}"


def main():
    d = sys.argv[1]
    out = []
    env = os.path.join(d, "environment.txt")
    if os.path.exists(env):
        out += ["```", open(env).read().strip(), "```", ""]
    for name, title in (("failed.txt", "Failed steps"), ("skipped.txt", "Skipped steps")):
        p = os.path.join(d, name)
        if os.path.exists(p):
            out += [f"{title}: " + "; ".join(open(p).read().strip().splitlines()), ""]
    check = os.path.join(d, "check.txt")
    if os.path.exists(check):
        lines = open(check).read().strip().splitlines()
        out += [f"GPU vs CPU check: {lines[-1] if lines else 'no output'}", ""]
    p = os.path.join(d, "compress.json")
    if os.path.exists(p):
        j = json.load(open(p))
        s, r, sh = j["seconds"], j["ratios"], j["shape"]
        out += [f"### Compression, N = {sh['N']:,}, K = {sh['K']:,}, D = {sh['D']:,}, "
                f"B = {sh['B']}, {sh['dtype']} ({j.get('gpu', j['device'])}, {j['backend']})", "",
                "| | ms | ratio |", "|---|---:|---:|",
                f"| ours (assign + select/reassign/pool) | {ms(s['ours'])} | 1 |",
                f"| · assign (step 1) | {ms(s['ours_assign'])} | |",
                f"| · steps 2–5 (cached assignment) | {ms(s['ours_select_reassign_pool'])} | |",
                f"| LibTorch eager ops | {ms(s['eager_libtorch'])} | "
                f"{r['eager_over_ours']:.2f}× slower (target ≥ 1.5) |",
                f"| same-shape GEMM | {ms(s['gemm_same_shape'])} | "
                f"ours = {r['ours_over_gemm']:.2f}× GEMM (target ≤ 1.25) |", ""]
    tiles = sorted((f for f in os.listdir(d) if f.startswith("tiles-") and f.endswith(".json")),
                   key=lambda f: int(f[6:-5]))
    if tiles:
        out += ["### Compression against the score-tile height (rows per GEMM and scan)", "",
                "| tile rows | ours ms | assign ms | steps 2–5 ms | eager ms | GEMM ms | "
                "ours / GEMM | eager / ours |", "|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for f in tiles:
            j = json.load(open(os.path.join(d, f)))
            s, r = j["seconds"], j["ratios"]
            out.append(f"| {j.get('tile_rows', f[6:-5])} | {ms(s['ours'])} | "
                       f"{ms(s['ours_assign'])} | {ms(s['ours_select_reassign_pool'])} | "
                       f"{ms(s['eager_libtorch'])} | {ms(s['gemm_same_shape'])} | "
                       f"{r['ours_over_gemm']:.2f} | {r['eager_over_ours']:.2f} |")
        out.append("")
    for name in sorted(f for f in os.listdir(d) if f.startswith("e2e-") and f.endswith(".json")):
        j = json.load(open(os.path.join(d, name)))
        out += [f"### End to end, {name[4:-5]} architecture ({j['layers']} layers, hidden "
                f"{j['hidden']}), {j['frames']} frames, {j['new_tokens']} new tokens, "
                f"{j['dtype']['resolved']} ({j.get('gpu', j['device'])})", "",
                "| method | visual tokens | encode | compress | prefill | first token | "
                "per-token decode | end to end | peak reserved GiB | speedup e2e | "
                "speedup prefill | decode / HBM bound |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for r in j["runs"]:
            method = "Dense" if r["method"] == "dense" else f"ONCE B={r['budget']}"
            mode = r.get("decode_mode", "eager")
            if mode != "graph":
                method += f" ({mode} steps)"
            if r.get("decoder_kernels") == "reference":
                method += " (ATen layer ops)"
            peak = r["peak_reserved_bytes"]
            peak = "—" if peak is None or peak < 0 else f"{peak / 2**30:.1f}"
            out.append(f"| {method} | {int(r['visual_tokens']):,} | {ms(r['encode'])} | "
                       f"{ms(r['compress'])} | {ms(r['prefill'])} | {ms(r['first_token'])} | "
                       f"{ms(r['per_token_decode'])} | {ms(r['end_to_end'])} | {peak} | "
                       f"{r['speedup_end_to_end']:.2f}× | {r['speedup_prefill']:.1f}× | "
                       f"{100 * r.get('decode_bandwidth_fraction', 0):.0f} % |")
        # The captured step graph against the eager step, same prompt, same run.
        for r in j["runs"]:
            if r.get("decode_mode") == "eager":
                twin = next((t for t in j["runs"] if t.get("budget") == r.get("budget")
                             and t.get("decode_mode") != "eager"
                             and t.get("decoder_kernels") != "reference"), None)
                if twin:
                    same = twin.get("tokens") == r.get("tokens")
                    out.append(f"- {'Dense' if r['budget'] is None else 'B=' + str(r['budget'])}: "
                               f"{twin.get('decode_mode')} steps {ms(twin['per_token_decode'])} ms/token "
                               f"against eager {ms(r['per_token_decode'])} "
                               f"({r['per_token_decode'] / twin['per_token_decode']:.1f}×); "
                               f"greedy tokens {'identical' if same else 'DIFFER'}")
        # The device's fused decoder kernels against ATen's operations, same mode, same run.
        for r in j["runs"]:
            if r.get("decoder_kernels") == "reference":
                twin = next((t for t in j["runs"] if t.get("budget") == r.get("budget")
                             and t.get("decode_mode") == r.get("decode_mode")
                             and t.get("decoder_kernels") != "reference"), None)
                if twin:
                    out.append(f"- {'Dense' if r['budget'] is None else 'B=' + str(r['budget'])}: "
                               f"fused layer kernels {ms(twin['per_token_decode'])} ms/token, "
                               f"prefill {ms(twin['prefill'])}, against ATen's operations "
                               f"{ms(r['per_token_decode'])} ms/token, prefill {ms(r['prefill'])} "
                               f"({r['per_token_decode'] / twin['per_token_decode']:.2f}× "
                               f"decode); greedy tokens "
                               f"{'identical' if twin.get('tokens') == r.get('tokens') else 'differ'}")
        notes = {r.get("decode_note") for r in j["runs"] if r.get("decode_note")}
        out += [f"- decoding note: {n}" for n in sorted(notes)]
        bw = j.get("copy_bandwidth_bytes_per_s", 0) / 1e12
        out += ["", "Times in ms (medians). Video decoding is not measured (synthetic frames: "
                "no FFmpeg on the GPU machine). Decode / HBM bound: the bytes one step must read "
                f"(LLM weights {j.get('llm_weight_bytes', 0) / 2**30:.1f} GiB + KV cache) over the "
                f"per-token time, against the device copy bandwidth measured in the same run "
                f"({bw:.2f} TB/s, read + write; target ≥ 60 %).", ""]
    # `once bench` prints its own table (the CLI's columns, docs/performance.md); kept as it is.
    for name in sorted(f for f in os.listdir(d) if f.startswith("bench-") and f.endswith(".txt")):
        out += [f"### `once bench`, {name[6:-4]} architecture (bench-{name[6:-4]}.json)", "",
                "```", open(os.path.join(d, name)).read().rstrip(), "```", ""]
    print("\n".join(out))


if __name__ == "__main__":
    main()
