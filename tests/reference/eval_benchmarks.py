"""References for the evaluation harness (core/eval, `once eval`).

make OUT DEMO.mp4          small benchmarks in the four public annotation formats, videos copied
                           from the demo video (two distinct names per benchmark)
parse IN.json OUT.json     the lmms-eval answer parsers on test strings (ports of
                           lmms_eval/tasks/{mvbench,egoschema,videomme,longvideobench}/utils.py)
score BENCH ANNOT RESULTS.jsonl BOOT SEED OUT.json
                           correctness re-derived from each record's prediction with those
                           parsers, and accuracy (overall, per task) with the SplitMix64
                           question bootstrap of core/eval/report.cpp
"""
import json
import os
import re
import shutil
import sys

import numpy as np

from splitmix import MASK64, SplitMix


# ---- parsers (lmms-eval) ----
def mvbench_process(answer):
    periodStrip = re.compile(r"(?!<=\d)(\.)(?!\d)")
    commaStrip = re.compile(r"(\d)(\,)(\d)")
    punct = [";", r"/", "[", "]", '"', "{", "}", "(", ")", "=", "+", "\\", "_", "-", ">", "<",
             "@", "`", ",", "?", "!"]

    def processPunctuation(inText):
        outText = inText
        for p in punct:
            if (p + " " in inText or " " + p in inText) or (re.search(commaStrip, inText) != None):
                outText = outText.replace(p, "")
            else:
                outText = outText.replace(p, " ")
        outText = periodStrip.sub("", outText, re.UNICODE)
        return outText

    option_regex = re.compile(r"^([A-E])\.\s*(.+)$", re.IGNORECASE)
    match = option_regex.match(answer.strip())
    if match:
        return match.group(1).upper()
    answer = answer.replace("\n", " ").replace("\t", " ").strip()
    answer = processPunctuation(answer)
    answer = answer.strip("'").strip('"').strip(")").strip("(").strip().lower()
    letter_match = re.search(r"\b([A-E])\b", answer, re.IGNORECASE)
    if letter_match:
        return letter_match.group(1).upper()
    return answer


def egoschema_parse(pred, options):
    option = [f"{chr(65 + i)}. {o}" for i, o in enumerate(options)]
    option_strs = [opt if opt.endswith(".") else opt + "." for opt in option]
    option_sents = [opt.split(". ")[1] if ". " in opt else opt for opt in option_strs]
    option_inds = [opt.split(". ")[0] if ". " in opt else opt for opt in option_strs]
    for idx, s in enumerate(option_strs):
        if pred == s:
            return chr(65 + idx)
    for idx, s in enumerate(option_sents):
        if pred == s:
            return chr(65 + idx)
    for idx, s in enumerate(option_inds):
        if pred == s or pred == s.replace(".", ""):
            return chr(65 + idx)
    return ""


def videomme_parse(s):
    s = s.strip()
    answer_prefixes = ["The best answer is", "The correct answer is", "The answer is",
                       "The answer", "The best option is" "The correct option is",
                       "Best answer:" "Best option:"]
    for p in answer_prefixes:
        s = s.replace(p, "")
    if len(s.split()) > 10 and not re.search("[ABCD]", s):
        return ""
    m = re.search(r"[ABCD]", s)
    return "" if m is None else m[0]


def fnv1a(text):
    h = 1469598103934665603
    for c in text.encode():
        h = ((h ^ c) * 1099511628211) & MASK64
    return h


def lvb_parse(response, n_options, qid):
    s = response.strip()
    for p in ["The best answer is", "The correct answer is", "The answer is", "The answer",
              "The best option is", "The correct option is", "Best answer:", "Best option:"]:
        s = s.replace(p, "")
    m = re.search(r"[ABCDE]", s)
    if m is not None:
        return m[0]
    # lmms-eval: random.choice(all_choices); here seeded by the question id (see the C++).
    return chr(65 + SplitMix(fnv1a(qid)).below(n_options))


# ---- benchmarks ----
def make(out, demo):
    os.makedirs(out, exist_ok=True)
    vids = os.path.join(out, "videos")

    def video(rel):
        p = os.path.join(vids, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        shutil.copyfile(demo, p)

    # MVBench: json/<task>.json; videos in the task's lmms-eval DATA_LIST folder.
    mv = os.path.join(out, "mvbench")
    os.makedirs(mv, exist_ok=True)
    json.dump([{"video": "a.mp4", "question": "What moves?", "candidates": ["cat", "dog", "car"],
                "answer": "dog"},
               {"video": "b.mp4", "question": "Which color?", "candidates": ["red", "blue"],
                "answer": "red"}], open(os.path.join(mv, "action_count.json"), "w"))
    json.dump([{"video": "a.mp4", "question": "Is it moving?", "candidates": ["yes", "no"],
                "answer": "no"}], open(os.path.join(mv, "object_shuffle.json"), "w"))
    video("mvbench/perception/videos/a.mp4")
    video("mvbench/perception/videos/b.mp4")

    # EgoSchema: questions.json + subset_answers.json; one question without an answer.
    eg = os.path.join(out, "egoschema")
    os.makedirs(eg, exist_ok=True)
    qs = []
    for i, uid in enumerate(["u1", "u2", "u3", "u4"]):
        q = {"q_uid": uid, "google_drive_id": "x", "question": f"What does c do {i}?"}
        for k in range(5):
            q[f"option {k}"] = f"c does thing {k}"
        qs.append(q)
    json.dump(qs, open(os.path.join(eg, "questions.json"), "w"))
    json.dump({"u1": 0, "u2": 3, "u4": 1}, open(os.path.join(eg, "subset_answers.json"), "w"))
    for uid in ["u1", "u2", "u4"]:
        video(f"egoschema/{uid}.mp4")

    # Video-MME: JSON Lines export of the parquet.
    vm = os.path.join(out, "videomme.jsonl")
    with open(vm, "w") as f:
        for i, (vid, task) in enumerate([("v1", "Counting Problem"), ("v1", "OCR Problems"),
                                          ("v2", "Counting Problem")]):
            f.write(json.dumps({"video_id": "001", "duration": "short", "domain": "Knowledge",
                                "sub_category": "Astronomy", "videoID": vid,
                                "question_id": f"{vid}-{i}", "task_type": task,
                                "question": f"How many {i}?",
                                "options": ["A. one", "B. two", "C. three", "D. four"],
                                "answer": "ABCD"[i % 4]}) + "\n")
    video("videomme/v1.mp4")
    video("videomme/v2.mp4")

    # LongVideoBench: lvb_val.json.
    lvb = os.path.join(out, "lvb_val.json")
    json.dump([{"video_id": "w1", "video_path": "w1.mp4", "id": "w1_0", "question": "Where?",
                "candidates": ["here", "there", "nowhere"], "correct_choice": 1,
                "question_category": "S2E", "duration_group": 15},
               {"video_id": "w2", "video_path": "w2.mp4", "id": "w2_0", "question": "When?",
                "candidates": ["now", "later", "never", "soon"], "correct_choice": 3,
                "question_category": "E2O", "duration_group": 15},
               {"video_id": "w1", "video_path": "w1.mp4", "id": "w1_1", "question": "Who?",
                "candidates": ["me", "you"], "correct_choice": 0,
                "question_category": "S2E", "duration_group": 15}], open(lvb, "w"))
    video("longvideobench/w1.mp4")
    video("longvideobench/w2.mp4")


def parse(inp, out):
    cases = json.load(open(inp))
    opts = ["c does thing 0", "c does thing 1", "c does thing 2", "c does thing 3",
            "c does thing 4"]
    res = {"mvbench": [mvbench_process(s) for s in cases],
           "egoschema": [egoschema_parse(s, opts) for s in cases],
           "videomme": [videomme_parse(s) for s in cases],
           "longvideobench": [lvb_parse(s, 4, f"q{i}") for i, s in enumerate(cases)]}
    json.dump(res, open(out, "w"))


def load_questions(bench, annot):
    """question id → (options, answer letter) from the annotation files written by make()."""
    q = {}
    if bench == "mvbench":
        for name in sorted(os.listdir(annot)):
            if name.endswith(".json"):
                for i, r in enumerate(json.load(open(os.path.join(annot, name)))):
                    q[f"{name[:-5]}/{i}"] = (r["candidates"],
                                            chr(65 + r["candidates"].index(r["answer"])))
    elif bench == "egoschema":
        ans = json.load(open(os.path.join(annot, "subset_answers.json")))
        for r in json.load(open(os.path.join(annot, "questions.json"))):
            if r["q_uid"] in ans:
                q[r["q_uid"]] = ([r[f"option {k}"] for k in range(5)], chr(65 + ans[r["q_uid"]]))
    elif bench == "videomme":
        for line in open(annot):
            r = json.loads(line)
            q[r["question_id"]] = (r["options"], r["answer"])
    else:
        for r in json.load(open(annot)):
            q[r["id"]] = (r["candidates"], chr(65 + r["correct_choice"]))
    return q


def score(bench, annot, results, boot, seed, out):
    qs = load_questions(bench, annot)
    cells = {}
    mismatches = []
    for line in open(results):
        r = json.loads(line)
        opts, ans = qs[r["question_id"]]
        pred = r["prediction"]
        if bench == "mvbench":
            parsed = mvbench_process(pred)
        elif bench == "egoschema":
            parsed = egoschema_parse(pred, opts)
        elif bench == "videomme":
            parsed = videomme_parse(pred)
        else:
            parsed = lvb_parse(pred, len(opts), r["question_id"])
        ok = parsed == ans
        if ok != r["correct"] or ans != r["answer"]:
            mismatches.append(r["question_id"])
        label = r["method"] + ("{" + ",".join(f"{k}={v}" for k, v in sorted(r["params"].items()))
                               + "}" if r["params"] else "")
        budget = r["budget"] if r["budget"] is not None else 0
        for task in ["overall", r["task"]]:
            cells.setdefault((label, budget, task), {})[r["question_id"]] = ok
    acc = []
    for (label, budget, task), d in sorted(cells.items()):
        c = np.array([d[k] for k in sorted(d)], dtype=np.float64)
        n = len(c)
        rng = SplitMix(seed)
        draws = []
        for _ in range(boot):
            idx = [rng.below(n) for _ in range(n)]
            draws.append(100.0 * c[idx].sum() / n)
        lo, hi = (np.percentile(draws, [2.5, 97.5]) if boot else (100 * c.mean(),) * 2)
        acc.append({"method": label, "budget": budget, "task": task, "questions": n,
                    "correct": int(c.sum()), "accuracy_pct": 100.0 * c.mean(),
                    "ci95": [float(lo), float(hi)]})
    json.dump({"accuracy": acc, "mismatches": mismatches}, open(out, "w"))


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "make":
        make(sys.argv[2], sys.argv[3])
    elif cmd == "parse":
        parse(sys.argv[2], sys.argv[3])
    elif cmd == "score":
        score(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6]),
              sys.argv[7])
