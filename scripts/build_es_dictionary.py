"""Build the embedded default Spanish dictionary ``xwsat/data/es.txt.gz``.

Why these sources: both come from package registries (Debian apt and PyPI), so the
build is reproducible offline, and both allow redistribution (``xwsat/data/NOTICE.md``).

* Debian ``wspanish`` (/usr/share/dict/spanish, public domain): 86,000 lower-case
  Spanish words with their inflections (plurals, feminines, many verb forms). All are
  kept; Spanish crosswords use every part of speech.
* ``wordfreq`` (PyPI), Spanish "large" list: the score of each word, and the frequent
  words that wspanish lacks (wspanish calls itself "not at all intended to be complete":
  it misses most conjugated verb forms, e.g. HABLAMOS). A wordfreq token is added when
  its zipf is >= 3.0 (>= 4.0 for two letters) *and* it is more frequent in Spanish than
  in English, which keeps out the English words that Spanish web text quotes (THE, YOU).

Normalisation: NFC, upper case, accents folded (Á -> A, Ü -> U) but Ñ kept as its own
letter (Spanish alphabetises it after N), spaces/hyphens/apostrophes dropped; only the
27 letters A-Z and Ñ and 2..21 letters are kept. Spellings that fold together (SÍ, SI)
are one entry whose score sums their frequencies. A web-text token that is a common word with Ñ
typed as N (ESPANA, SENOR, NINO, MANANA) is left out when wspanish lacks it and the spelling
with Ñ scores ``ENYE_GAP`` or more above it.

Score (integer 0..100): ``round((zipf - 1) / 6 * 100)`` clamped, floor 10
(``zipf_score.py``, shared with Russian).

Output: gzip (mtime=0) UTF-8 text, ``WORD;SCORE`` lines sorted by WORD.

Rebuild:  apt-get install -y wspanish && python scripts/build_es_dictionary.py
"""

from __future__ import annotations

import argparse
import itertools
import math
import re
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_en_dictionary import write_dictionary  # noqa: E402
from offensive_words import ES, flag  # noqa: E402
from zipf_score import score  # noqa: E402

WSPANISH_PATH = Path("/usr/share/dict/spanish")
OUT_PATH = Path(__file__).resolve().parent.parent / "xwsat" / "data" / "es.txt.gz"
MIN_LEN, MAX_LEN = 2, 21
_STRIP = re.compile(r"['’.\-\s]")
_ES = re.compile(r"[A-ZÑ]+")
_VOWEL = re.compile(r"[AEIOU]")  # every Spanish word of two letters or more has one
ENYE_GAP = 25  # score points (a zipf of 1.5: 30 times rarer) that make N a mistyped Ñ


def normalise(word: str) -> str | None:
    """Upper-case A-Z and Ñ with other accents folded, or None."""
    w = _STRIP.sub("", unicodedata.normalize("NFC", word)).upper()
    kept = []
    for ch in w:
        if ch == "Ñ":
            kept.append(ch)
        else:
            kept.append("".join(c for c in unicodedata.normalize("NFD", ch)
                                if not unicodedata.combining(c)))
    w = "".join(kept)
    return w if _ES.fullmatch(w) and MIN_LEN <= len(w) <= MAX_LEN else None


def build(wordfreq_additions: bool = True) -> dict[str, int]:
    """wspanish words plus frequent Spanish wordfreq tokens, scored by folded frequency."""
    import wordfreq

    freqs = wordfreq.get_frequency_dict("es", wordlist="large")
    folded: dict[str, float] = defaultdict(float)
    for token, freq in freqs.items():
        norm = normalise(token)
        if norm:
            folded[norm] += freq
    words: set[str] = set()
    for line in WSPANISH_PATH.read_text(encoding="utf-8").splitlines():
        raw = line.strip()
        if raw and raw[0].islower():
            norm = normalise(raw)
            if norm:
                words.add(norm)
    spelled = set(words)  # wspanish's own: never taken for a typing without Ñ
    if wordfreq_additions:
        for token, freq in freqs.items():
            norm = normalise(token)
            zipf = math.log10(freq * 1e9)
            if norm and zipf >= (4.0 if len(norm) == 2 else 3.0) and (
                zipf > wordfreq.zipf_frequency(token, "en", wordlist="large")
            ):
                words.add(norm)
    words = {w for w in words if _VOWEL.search(w)}  # vowel-less tokens: PDF, KM, RT, HTTP
    entries = {}
    for word in words:
        freq = folded.get(word, 0.0)
        entries[word] = score(math.log10(freq * 1e9) if freq > 0 else 0.0)
    for word in [w for w in entries if w not in spelled and _typed_without_enye(w, entries)]:
        del entries[word]
    return entries


def _typed_without_enye(word: str, entries: dict[str, int]) -> bool:
    """Whether ``word`` (a web-text token, not in wspanish) is a word with Ñ typed as N: the
    spelling with Ñ is in the list and scored ENYE_GAP or more above it (ESPANA 37 against
    ESPAÑA 76). A real word that differs by its Ñ is about as frequent as its twin (CANAS 40,
    CAÑAS 43; CAMPANAS 46, CAMPAÑAS 57), so it stays."""
    at = [i for i, ch in enumerate(word) if ch == "N"]
    for k in range(1, len(at) + 1):
        for chosen in itertools.combinations(at, k):
            twin = "".join("Ñ" if i in chosen else ch for i, ch in enumerate(word))
            if entries.get(twin, -1) >= entries[word] + ENYE_GAP:
                return True
    return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=OUT_PATH)
    parser.add_argument("--wspanish-only", action="store_true",
                        help="no wordfreq additions (the baseline of the coverage measurement)")
    args = parser.parse_args()
    if not WSPANISH_PATH.exists():
        print(f"error: {WSPANISH_PATH} not found.\n"
              "Install the word list with:  sudo apt-get install -y wspanish", file=sys.stderr)
        return 1
    entries = build(wordfreq_additions=not args.wspanish_only)
    entries = flag(entries, ES)  # slurs and obscenities, as en flags them
    write_dictionary([f"{w};{s}" for w, s in sorted(entries.items())], args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
