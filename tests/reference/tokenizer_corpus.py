"""Deterministic tokenizer parity corpus: English, Chinese, emoji, code, numbers, whitespace
runs, contractions, other scripts, combining marks (NFC) and special tokens. Importable
(`corpus(n, seed)`) and runnable: `tokenizer_corpus.py OUT.jsonl [N]` writes one JSON string a
line, so lines may hold newlines, tabs and trailing spaces."""
import json
import random
import sys
import unicodedata

WORDS = ("the a of and to in is you that it he was for on are as with his they I at be this "
         "have from or one had by word but not what all were we when your can said there use an "
         "each which she do how their if will up other about out many then them these so some "
         "her would make like him into time has look two more write go see number no way could "
         "people my than first water been call who oil its now find long down day did get come "
         "made may part Video LLM token codebook ONCE Qwen SigLIP budget HTTPServer getX "
         "camelCase snake_case URL iPhone naïve café résumé coöperate").split()
CONTRACTIONS = ["'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", "'T", "'RE", "'Ll", "'D",
                "’s", "'x"]
PUNCT = list(".,;:!?-—–()[]{}\"'…/\\@#$%^&*_+=<>|~`")
ZH_PUNCT = list("，。！？；：「」『』（）《》、…—")
EMOJI = ["😀", "😂", "🥲", "👍🏽", "👨‍👩‍👧‍👦", "🇨🇳", "🇺🇸", "❤️", "✨", "🔥", "🚀", "🧑🏿‍💻",
         "🏳️‍🌈", "☕", "⌚", "🤖", "🎉", "1️⃣", "#️⃣", "🫠"]
OTHER = ["Привет мир", "Γειά σου Κόσμε", "こんにちは世界", "カタカナ", "안녕하세요", "مرحبا بالعالم",
         "שלום עולם", "नमस्ते दुनिया", "สวัสดีชาวโลก", "Xin chào thế giới", "ﬁﬂ ligatures",
         "ＦＵＬＬＷＩＤＴＨ１２３", "x² + y³ = z⁴", "Ⅻ ⅷ ½ ¾ ①②", "١٢٣ ४५६ ๗๘๙", "ſtraße STRASSE",
         "e\u0301 a\u0308 n\u0303 A\u030a", "\u1100\u1161\u11a8", "Å Ω K", "zero\u200bwidth",
         "nbsp\u00a0here", "ideo\u3000space", "en\u2003em\u2002", "line\u2028sep", "tab\there",
         "mongol\u180evowel", "nel\u0085next", "emoji\ufe0fvs", "bom\ufeffmark"]
CODE = [
    "def f(x):\n    return x ** 2  # square\n",
    "for (int i = 0; i < n; ++i) {\n\tsum += a[i];\n}\n",
    "#include <vector>\nstd::vector<int> v{1, 2, 3};",
    "if __name__ == '__main__':\n    main()",
    "SELECT * FROM users WHERE id = 42;",
    "const re = /\\s+(?!\\S)/g; // lookahead",
    "x=[i*i for i in range(10)]\r\n",
    "    \n\n\t\t  \r\n   ",
    "<div class=\"a\">Hello &amp; bye</div>",
    "fn main() -> Result<(), Box<dyn Error>> { Ok(()) }",
    "{\"key\": [1, 2.5, -3e10, null, true]}",
    "    if (a && b || !c) { return; }     ",
]
SPECIAL = ["<|im_start|>", "<|im_end|>", "<|endoftext|>", "<image>", "<video>"]


def chinese(r):
    s = "".join(chr(r.randint(0x4E00, 0x9FA5)) for _ in range(r.randint(1, 12)))
    common = "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坏兴切团"
    body = "".join(r.choice(common) if r.random() < 0.8 else c for c in s)
    out = []
    for ch in body:
        out.append(ch)
        if r.random() < 0.15:
            out.append(r.choice(ZH_PUNCT))
    if r.random() < 0.3:
        out.append(r.choice(["ONCE", "GPU", "2024年", "Qwen2", " ", "  "]))
    return "".join(out)


def english(r):
    words = []
    for _ in range(r.randint(1, 16)):
        w = r.choice(WORDS)
        if r.random() < 0.1:
            w = w.upper()
        if r.random() < 0.1:
            w += r.choice(CONTRACTIONS)
        if r.random() < 0.15:
            w += r.choice(PUNCT)
        words.append(w)
    sep = r.choice([" ", " ", " ", "  ", "\t"])
    return sep.join(words)


def number(r):
    kinds = [lambda: str(r.randint(0, 10 ** r.randint(1, 15))),
             lambda: f"{r.uniform(-1e6, 1e6):.{r.randint(0, 6)}f}",
             lambda: f"{r.randint(1, 999):,}{r.randint(100, 999)},{r.randint(100, 999)}",
             lambda: f"{r.randint(1990, 2030)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
             lambda: f"v{r.randint(0, 9)}.{r.randint(0, 99)}.{r.randint(0, 999)}",
             lambda: f"{r.random():.3e}", lambda: f"0x{r.randint(0, 2**32):X}",
             lambda: f"+1 ({r.randint(100, 999)}) {r.randint(100, 999)}-{r.randint(1000, 9999)}"]
    return " ".join(r.choice(kinds)() for _ in range(r.randint(1, 5)))


def whitespace(r):
    parts = []
    for _ in range(r.randint(1, 6)):
        parts.append(r.choice([" " * r.randint(1, 40), "\t" * r.randint(1, 5), "\n" * r.randint(1, 4),
                               "\r\n", " \n ", "\u3000", "\u00a0", r.choice(WORDS)]))
    return "".join(parts)


def emoji(r):
    return "".join(r.choice(EMOJI) + (r.choice(WORDS) + " " if r.random() < 0.4 else "")
                   for _ in range(r.randint(1, 6)))


def mixed(r):
    gens = [english, chinese, number, whitespace, emoji, lambda r: r.choice(CODE),
            lambda r: r.choice(OTHER), lambda r: r.choice(SPECIAL)]
    return r.choice(["", " ", "\n", "  "]).join(r.choice(gens)(r) for _ in range(r.randint(2, 5)))


def random_unicode(r):
    # Arbitrary assigned code points: the regex classes must agree beyond common text. Code
    # points unassigned in Python's Unicode version are skipped: newer Unicode data (Oniguruma's)
    # may call them letters while PCRE2's older data does not.
    out = []
    while len(out) < r.randint(1, 20):
        c = chr(r.choice([r.randint(0x20, 0x7E), r.randint(0xA0, 0x2FFF), r.randint(0x3000, 0xD7FF),
                          r.randint(0xE000, 0xFFFD), r.randint(0x10000, 0x1FAFF)]))
        if unicodedata.category(c) != "Cn":
            out.append(c)
    return "".join(out)


def corpus(n=12000, seed=1234):
    r = random.Random(seed)
    gens = [(english, 25), (chinese, 15), (emoji, 8), (lambda r: r.choice(CODE), 8), (number, 10),
            (whitespace, 8), (lambda r: r.choice(OTHER), 6), (mixed, 15), (random_unicode, 5)]
    names, weights = zip(*gens)
    lines = [g(r) for g in r.choices(names, weights, k=n)]
    return [ln for ln in lines]


if __name__ == "__main__":
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 12000
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        for line in corpus(n):
            f.write(json.dumps(line, ensure_ascii=False) + "\n")
