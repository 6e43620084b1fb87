"""Build the embedded default English dictionary ``xwsat/data/en.txt.gz`` (with WordNet clues).

Why these sources: all come from package registries (Debian apt and PyPI), so the
build is reproducible on a machine without general internet access, and both carry
licences that allow redistribution (see ``xwsat/data/NOTICE.md``).

* SCOWL via Debian ``wamerican-large`` (/usr/share/dict/american-english-large):
  a curated, spell-checker quality list of real English words. We keep the entries
  that start with a lower-case letter (proper nouns are skipped) and drop the
  possessive forms ending in ``'s`` (``children's`` would otherwise become the
  non-word CHILDRENS).
* ``wordfreq`` (PyPI), English "large" list: gives every word a frequency, used
  for the score. It also adds common fill that SCOWL lacks (names, abbreviations,
  contractions such as DONT): tokens of length >= 3 with zipf >= 3.0, plus
  2-letter tokens with zipf >= 4.0. 2-letter words from SCOWL are always kept.

* WordNet 3.0 via Debian ``wordnet-base`` (/usr/share/wordnet, WordNet licence: free to
  copy and redistribute with its notice): clues. ``wordnet_clues`` gives each lemma the
  first clause of the gloss of its commonest sense that does not contain the answer.

Normalisation: NFC, drop apostrophes, hyphens, periods and spaces, fold accents
(NFKD minus combining marks, so é -> E), upper-case; anything that is then not
pure A-Z, or not 2..21 letters long, is dropped.

Score (integer 0..100): ``round((zipf - 1) / 6 * 100)``, i.e. zipf 1..7 maps linearly
to 0..100, clamped to 0..100, with a floor of 10 so that SCOWL words that wordfreq
has never seen (zipf 0) still get a low but non-zero score. Duplicates after
normalisation keep their maximum score.

Output: gzip (mtime=0, so rebuilding gives identical bytes) UTF-8 text, one
``WORD;SCORE`` or ``WORD;SCORE;CLUE`` line per entry, sorted by WORD.

Rebuild:  apt-get install -y wamerican-large wordnet-base && python scripts/build_en_dictionary.py
"""

from __future__ import annotations

import argparse
import gzip
import math
import re
import sys
import unicodedata
from collections import Counter
from pathlib import Path

import wordfreq

SCOWL_PATH = Path("/usr/share/dict/american-english-large")
OUT_PATH = Path(__file__).resolve().parent.parent / "xwsat" / "data" / "en.txt.gz"
MIN_LEN, MAX_LEN = 2, 21
FLOOR = 10
_STRIP = re.compile(r"['’.\-\s]")
_AZ = re.compile(r"[A-Z]+")


def normalise(word: str) -> str | None:
    """Return the upper-case A-Z form of ``word``, or None if it has none."""
    w = _STRIP.sub("", unicodedata.normalize("NFC", word))
    w = "".join(c for c in unicodedata.normalize("NFKD", w) if not unicodedata.combining(c))
    w = w.upper()
    return w if _AZ.fullmatch(w) and MIN_LEN <= len(w) <= MAX_LEN else None


def score(zipf: float) -> int:
    """Map a wordfreq zipf value to 0..100 (linear over 1..7, floor FLOOR)."""
    return max(FLOOR, min(100, round((zipf - 1.0) / 6.0 * 100)))


def build() -> dict[str, int]:
    """Collect and score all entries from SCOWL and wordfreq."""
    entries: dict[str, int] = {}

    def add(word: str, s: int) -> None:
        if entries.get(word, -1) < s:
            entries[word] = s

    for line in SCOWL_PATH.read_text(encoding="utf-8").splitlines():
        raw = line.strip()
        if not raw or not raw[0].islower() or raw.endswith("'s"):
            continue
        norm = normalise(raw)
        if norm:
            add(norm, score(wordfreq.zipf_frequency(raw, "en", wordlist="large")))

    for token, freq in wordfreq.get_frequency_dict("en", wordlist="large").items():
        zipf = math.log10(freq * 1e9)
        norm = normalise(token)
        if norm and zipf >= (4.0 if len(norm) == 2 else 3.0):
            add(norm, score(zipf))
    return entries


WORDNET_DIR = Path("/usr/share/wordnet")
WORDNET_POS = ("noun", "verb", "adj", "adv")
CLUE_MAX = 110
_WORD = re.compile(r"[a-z]+")


def wordnet_clues() -> dict[str, str]:
    """A clue per normalised WordNet lemma: the first clause of a gloss of its commonest sense.

    Senses are tried in WordNet's frequency order across the parts of speech (the part of
    speech whose lemma has the most tagged senses first); a gloss that contains the answer
    (or a word starting with it: "domestic cats" for CAT) or is longer than CLUE_MAX
    characters is passed over for the next sense, up to three per part of speech.
    """
    data = {pos: (WORDNET_DIR / f"data.{pos}").read_bytes() for pos in WORDNET_POS}
    senses: dict[str, list[tuple[int, int, str, list[int]]]] = {}
    for rank, pos in enumerate(WORDNET_POS):
        for line in (WORDNET_DIR / f"index.{pos}").read_text(encoding="utf-8").splitlines():
            if line.startswith(" "):
                continue
            fields = line.split()
            lemma, n_synsets, n_pointers = fields[0], int(fields[2]), int(fields[3])
            tagged = int(fields[5 + n_pointers])
            offsets = [int(x) for x in fields[6 + n_pointers:6 + n_pointers + n_synsets]]
            senses.setdefault(lemma, []).append((-tagged, rank, pos, offsets))
    clues: dict[str, str] = {}
    for lemma in sorted(senses):
        norm = normalise(lemma.replace("_", " "))
        if norm is None or norm in clues:
            continue
        parts = set(_WORD.findall(lemma.lower()))
        for _, _, pos, offsets in sorted(senses[lemma]):
            for offset in offsets[:3]:
                end = data[pos].index(b"\n", offset)
                gloss = data[pos][offset:end].decode("utf-8").split(" | ", 1)[-1]
                clue = gloss.split(";")[0].strip().strip('"').strip()
                words = set(_WORD.findall(clue.lower()))
                shows = parts & words or any(w.startswith(q) for w in words for q in parts
                                             if len(q) >= 3)  # "domestic cats" for CAT
                if clue and len(clue) <= CLUE_MAX and not shows:
                    clues[norm] = clue[0].upper() + clue[1:]
                    break
            if norm in clues:
                break
    return clues


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=OUT_PATH)
    parser.add_argument("--no-clues", dest="clues", action="store_false",
                        help="leave out the WordNet glosses (WORD;SCORE lines only)")
    args = parser.parse_args()
    if not SCOWL_PATH.exists():
        print(
            f"error: {SCOWL_PATH} not found.\n"
            "Install the SCOWL word list with:  sudo apt-get install -y wamerican-large",
            file=sys.stderr,
        )
        return 1
    entries = build()
    clues = wordnet_clues() if args.clues else {}
    write_dictionary([f"{w};{s};{clues[w]}" if w in clues else f"{w};{s}"
                      for w, s in sorted(entries.items())], args.output)
    return 0


def write_dictionary(lines: list[str], output: Path) -> None:
    """Write sorted lines as gzip with mtime=0 (byte-reproducible) and print a summary."""
    text = "".join(line + "\n" for line in lines)
    output.parent.mkdir(parents=True, exist_ok=True)
    with (
        open(output, "wb") as fh,
        gzip.GzipFile(filename="", mode="wb", fileobj=fh, mtime=0, compresslevel=9) as gz,
    ):
        gz.write(text.encode("utf-8"))
    by_len = Counter(len(line.split(";", 1)[0]) for line in lines)
    print(f"wrote {len(lines)} entries to {output} ({output.stat().st_size} bytes)")
    print("by length: " + ", ".join(f"{n}:{by_len[n]}" for n in sorted(by_len)))


if __name__ == "__main__":
    sys.exit(main())
