#!/usr/bin/env python3
"""A Hugging Face hub cache written by huggingface_hub itself, offline, and the folders it was
made from (tests/security/test_hub_cache.cpp and test_special_files.cpp,
tests/models/test_qwen3_5_folder_sampling.cpp, tests/widgets/session/test_model_folder_hub.cpp).

Builds the tiny LLaVA-OneVision and Qwen3.5 models of the whole-path suites
(llava_ov_video_path.build, qwen3_5_video_path.build: published geometry, narrow and shallow),
each saved by transformers' save_pretrained twice: whole (model.safetensors) and sharded
(max_shard_size 200KB: model.safetensors.index.json and model-0000i-of-0000n.safetensors). The
four folders are served by a local stand-in for the Hub (the routes huggingface_hub calls:
/api/models/REPO/revision/main, /api/models/REPO/tree/COMMIT, HEAD and GET of
/REPO/resolve/COMMIT/FILE, with the Hub's headers: X-Repo-Commit, ETag = the git blob SHA-1,
X-Linked-Etag = the SHA-256 and X-Linked-Size for LFS files), and `snapshot_download` of the
installed huggingface_hub downloads them into OUT/hub, so the cache is byte for byte what
`hf download` writes: blobs/ named by etag, snapshots/COMMIT/FILE relative symlinks to
../../blobs/ETAG, refs/main holding the commit. Then, offline (HF_HUB_OFFLINE=1, a fresh
process), transformers' AutoConfig.from_pretrained and snapshot_download(local_files_only=True)
must find every repository by its id, as a transformers user's code would.

usage: hub_cache.py OUT
writes OUT/src/NAME/ (the saved folders), OUT/hub/ (the cache) and OUT/hub.json:
{"cache": OUT/hub, "repos": {"once-test/NAME": {"source", "snapshot", "backbone", "sharded",
"commit"}}} with NAME in llava-ov-tiny, llava-ov-tiny-sharded, qwen3.5-tiny,
qwen3.5-tiny-sharded.
"""
import hashlib
import http.server
import json
import os
import subprocess
import sys
import threading

ORG = "once-test"
LFS_SUFFIXES = (".safetensors", ".bin", ".pt")  # the Hub's default .gitattributes, in part


def git_blob_sha1(data):
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


class Repo:
    def __init__(self, folder):
        self.folder = folder
        self.files = {}
        for root, _, names in os.walk(folder):
            for n in sorted(names):
                path = os.path.join(root, n)
                rel = os.path.relpath(path, folder)
                with open(path, "rb") as f:
                    data = f.read()
                lfs = rel.endswith(LFS_SUFFIXES)
                self.files[rel] = {"data": data, "oid": git_blob_sha1(data),
                                   "sha256": hashlib.sha256(data).hexdigest() if lfs else None}
        listing = "".join(f"{k} {v['oid']}\n" for k, v in sorted(self.files.items()))
        self.commit = hashlib.sha1(listing.encode()).hexdigest()

    def tree(self):
        out = []
        for rel, f in sorted(self.files.items()):
            e = {"type": "file", "oid": f["oid"], "size": len(f["data"]), "path": rel}
            if f["sha256"]:
                e["lfs"] = {"oid": f["sha256"], "size": len(f["data"]), "pointerSize": 134}
            out.append(e)
        return out


REPOS = {}


class Hub(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body=b"", headers=None, head=False):
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def route(self, head):
        path = self.path.split("?")[0]
        if path.startswith("/api/models/"):
            rest = path[len("/api/models/"):]
            for rid, repo in REPOS.items():
                if rest == f"{rid}/revision/main":
                    body = {"id": rid, "sha": repo.commit,
                            "siblings": [{"rfilename": k} for k in sorted(repo.files)]}
                    return self.reply(200, json.dumps(body).encode(),
                                      {"Content-Type": "application/json"}, head)
                if rest.startswith(f"{rid}/tree/"):
                    return self.reply(200, json.dumps(repo.tree()).encode(),
                                      {"Content-Type": "application/json"}, head)
            return self.reply(404, b"{}", {"X-Error-Code": "RepoNotFound"}, head)
        for rid, repo in REPOS.items():
            prefix = f"/{rid}/resolve/"
            if path.startswith(prefix):
                rev, _, rel = path[len(prefix):].partition("/")
                f = repo.files.get(rel)
                if f is None or rev not in ("main", repo.commit):
                    return self.reply(404, b"", {"X-Error-Code": "EntryNotFound"}, head)
                headers = {"X-Repo-Commit": repo.commit, "ETag": '"%s"' % f["oid"],
                           "Accept-Ranges": "bytes"}
                if f["sha256"]:
                    headers["X-Linked-Etag"] = '"%s"' % f["sha256"]
                    headers["X-Linked-Size"] = str(len(f["data"]))
                return self.reply(200, f["data"], headers, head)
        return self.reply(404, b"", {}, head)

    def do_HEAD(self):
        self.route(True)

    def do_GET(self):
        self.route(False)


def build_models(src):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import torch
    torch.set_num_threads(2)
    import llava_ov_video_path
    import qwen3_5_video_path
    out = {}
    for name, backbone, build in (("llava-ov-tiny", "llava-onevision", llava_ov_video_path.build),
                                  ("qwen3.5-tiny", "qwen3.5", qwen3_5_video_path.build)):
        whole = os.path.join(src, name)
        model, proc = build(whole)
        sharded = whole + "-sharded"
        model.save_pretrained(sharded, max_shard_size="200KB")
        proc.save_pretrained(sharded)
        assert os.path.exists(os.path.join(sharded, "model.safetensors.index.json")), sharded
        out[name] = (whole, backbone, False)
        out[name + "-sharded"] = (sharded, backbone, True)
    return out


def check_offline(cache, repo_ids):
    """transformers' and huggingface_hub's own offline lookup, in a fresh process."""
    code = ("import json, sys\n"
            "from huggingface_hub import snapshot_download\n"
            "from transformers import AutoConfig\n"
            "out = {}\n"
            "for r in sys.argv[1:]:\n"
            "    snap = snapshot_download(r, local_files_only=True)\n"
            "    AutoConfig.from_pretrained(r)\n"
            "    out[r] = snap\n"
            "print(json.dumps(out))\n")
    env = dict(os.environ, HF_HUB_OFFLINE="1", HF_HUB_CACHE=cache)
    env.pop("HF_ENDPOINT", None)
    r = subprocess.run([sys.executable, "-c", code] + repo_ids, env=env, capture_output=True,
                       text=True, check=True)
    return json.loads(r.stdout.strip().splitlines()[-1])


def main():
    out = os.path.abspath(sys.argv[1])
    cache = os.path.join(out, "hub")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hub)
    # huggingface_hub reads its settings when imported (transformers imports it): set them first.
    os.environ.update(HF_ENDPOINT=f"http://127.0.0.1:{server.server_address[1]}",
                      HF_HUB_CACHE=cache, HF_HUB_DISABLE_XET="1", HF_HUB_DISABLE_TELEMETRY="1",
                      HF_HUB_DISABLE_PROGRESS_BARS="1")
    os.environ.pop("HF_HUB_OFFLINE", None)
    built = build_models(os.path.join(out, "src"))
    for name, (folder, _, _) in built.items():
        REPOS[f"{ORG}/{name}"] = Repo(folder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    from huggingface_hub import snapshot_download
    for rid in REPOS:
        snapshot_download(rid)
    server.shutdown()
    found = check_offline(cache, sorted(REPOS))
    result = {"cache": cache, "repos": {}}
    for name, (folder, backbone, sharded) in built.items():
        rid = f"{ORG}/{name}"
        result["repos"][rid] = {"source": folder, "snapshot": found[rid], "backbone": backbone,
                                "sharded": sharded, "commit": REPOS[rid].commit}
    with open(os.path.join(out, "hub.json"), "w") as f:
        json.dump(result, f, indent=1)
    print(json.dumps(result))


if __name__ == "__main__":
    sys.exit(main())
