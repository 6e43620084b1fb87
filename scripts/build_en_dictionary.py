"""Build the embedded default English dictionary ``xwsat/data/en.txt.gz``: entries a crossword
constructor would use, scored in a few levels, with WordNet clues.

Why these sources: all come from package registries (Debian apt and PyPI), so the build is
reproducible on a machine without general internet access, and all carry licences that allow
redistribution (``xwsat/data/NOTICE.md``):

* SCOWL via Debian ``wamerican`` (size level 50), ``-large`` (70), ``-huge`` (80) and
  ``-insane`` (95), and ``wbritish-large``: which spellings are dictionary words, and how common
  (the size level), which are names (capitalised) or abbreviations (in capitals), which are
  British only.
* ``wordfreq`` (PyPI), English "large" list: how often each word is written; it also brings
  frequent names, abbreviations and contractions (IT'S -> ITS) that SCOWL lacks.
* WordNet 3.0 via Debian ``wordnet-base``: lemmas, including phrases (last_straw -> LASTSTRAW)
  and proper nouns, their senses in frequency order, usage marks (archaic, offensive) and
  topics; the clues are its glosses.
* ``better-profanity`` (PyPI): a profanity list, to flag offensive entries.

Entries (``keep``): every SCOWL word up to level 70 and name up to level 70, every WordNet
lemma but rare taxonomic names and the weakest phrases, SCOWL level 80 words that wordfreq has
seen (zipf >= 2), and wordfreq words with zipf >= 3 (>= 4 for two letters). Scores:
``en_levels`` weighs the evidence into the levels 60/50/40/30/20/10, and 5 for offensive
entries.

Normalisation: NFC, drop apostrophes, hyphens, periods, underscores and spaces, fold accents,
upper-case; anything not pure A-Z or not 2..21 letters long is dropped.

Output: gzip (mtime=0, so rebuilding gives identical bytes) UTF-8 text, one ``WORD;SCORE`` or
``WORD;SCORE;CLUE`` line per entry, sorted by WORD.

Rebuild:  apt-get install -y wamerican wamerican-large wamerican-huge wamerican-insane
          wbritish-large wordnet-base && pip install wordfreq==3.1.1 better-profanity==0.7.0
          && python scripts/build_en_dictionary.py
"""

from __future__ import annotations

import argparse
import gzip
import re
import sys
from collections import Counter
from pathlib import Path

from en_levels import (
    FLAGGED,
    MAX_PER_LENGTH,
    TAIL,
    base_of,
    common,
    flagged_entries,
    level,
    ordered_senses,
    quality,
)
from en_sources import (
    DICT_DIR,
    SCOWL_LISTS,
    WORDNET_DIR,
    Evidence,
    add_profanity,
    add_scowl,
    add_wordfreq,
    add_wordnet,
    profanity_words,
)

OUT_PATH = Path(__file__).resolve().parent.parent / "xwsat" / "data" / "en.txt.gz"
NEW_WORD_ZIPF = 3.0  # wordfreq words the other sources lack come in from here
CLUE_MAX = 80
_WORD = re.compile(r"[a-z]+")
_ASIDE = re.compile(r"\([^()]*\)")
_TOPIC = re.compile(r"^\([^()]*\) (?=[a-z])")  # "(medicine) the treatment of ..."
_JOINT = re.compile(r",|;| (?:who|which|that|with|having|used|especially|usually) ")


def keep(ev: Evidence) -> bool:
    """Whether an entry belongs in the list at all (its score says how good it is)."""
    if (ev.senses and all(s.taxonomy for s in ev.senses) and ev.zipf < 2.5
            and (ev.scowl or 99) > 70):
        return False  # Latin genus and family names (not DATURA, a garden word too)
    if ev.senses or (ev.scowl_level or 99) <= 70 or ev.zipf >= NEW_WORD_ZIPF:
        return True
    return ev.scowl == 80 and ev.zipf >= 2.0


def gather(dict_dir: Path = DICT_DIR, wordnet_dir: Path = WORDNET_DIR) -> dict[str, Evidence]:
    """The evidence of every source about every entry any of them names."""
    entries: dict[str, Evidence] = {}
    add_scowl(entries, dict_dir)
    add_wordnet(entries, wordnet_dir)
    add_wordfreq(entries, NEW_WORD_ZIPF)
    add_profanity(entries, profanity_words())
    return entries


def score_entries(entries: dict[str, Evidence]) -> dict[str, int]:
    """The score level of every kept entry: the obscure tail only where it is a common
    spelling (``common``), at most ``MAX_PER_LENGTH`` entries per length."""
    lemmas = {w for w, ev in entries.items() if ev.senses and ev.words == 1}
    flagged = flagged_entries(entries, lemmas)
    ranked: dict[str, tuple[int, float]] = {}
    for word, ev in entries.items():
        if not keep(ev):
            continue
        base = None if ev.senses else base_of(word, lemmas)
        q = quality(ev, word, entries[base] if base else None)
        if level(q) <= TAIL and not common(word, ev):
            continue  # an obscure tail (RECIPROCALNESS, SEA ASTER) adds little fill, much proof
        ranked[word] = (level(q), q)
    kept = capped(ranked, MAX_PER_LENGTH)
    return {w: FLAGGED if w in flagged else ranked[w][0] for w in kept}


def capped(ranked: dict[str, tuple[int, float]], limits: dict[int, int]) -> set[str]:
    """Per length, the ``limits[length]`` entries of highest (level, quality), word order
    breaking ties; an offensive entry competes at the level its quality earns (it stays in the
    list, flagged, as in the list this one replaced)."""
    by_length: dict[int, list[str]] = {}
    for word in ranked:
        by_length.setdefault(len(word), []).append(word)
    kept = set()
    for length, words in by_length.items():
        words.sort(key=lambda w: (-ranked[w][0], -ranked[w][1], w))
        kept.update(words[: limits.get(length, len(words))])
    return kept


def shortened(clue: str) -> str:
    """A gloss longer than CLUE_MAX without its asides in parentheses ("birth control by the use
    of devices or drugs"), then cut at its first joint past 20 characters (EEL: "voracious
    snakelike marine or freshwater fishes", not the whole anatomy)."""
    if len(clue) <= CLUE_MAX:
        return clue
    clue = " ".join(_ASIDE.sub(" ", clue).split())
    if len(clue) <= CLUE_MAX:
        return clue
    cuts = [m.start() for m in _JOINT.finditer(clue) if 20 <= m.start() <= CLUE_MAX]
    return clue[: cuts[0]] if cuts else clue


def blanked(clue: str, parts: set[str], phrase: bool) -> str | None:
    """The clue with a noun phrase's longer words as blanks ("frozen dessert containing ___ and
    sugar" for ICE CREAM), or None if it gives the answer away (a single word's own word, a
    short part such as OUT, or a part inside another word)."""
    long_parts = sorted(p for p in parts if len(p) >= 4)
    if phrase and long_parts:
        clue = re.sub(r"\b(" + "|".join(map(re.escape, long_parts)) + r")s?\b", "___", clue,
                      flags=re.IGNORECASE)
    words = set(_WORD.findall(clue.lower()))
    shows = parts & words or any(w.startswith(p) for w in words for p in parts if len(p) >= 3)
    return None if shows or clue.count("___") >= len(parts) else clue


def clue_for(ev: Evidence) -> str | None:
    """The first clause of the gloss of the sense a crossword would use (``ordered_senses``)
    that does not give the answer away (CAT: not "domestic cats") and is short enough."""
    parts = set(_WORD.findall(ev.lemma.lower()))
    for sense in ordered_senses(ev):
        clue = sense.gloss.split(";")[0].strip().strip('"').strip()
        if ":" in clue:  # "feline mammal ...: domestic cats; wildcats" for CAT
            clue = clue.split(":")[0].strip()
        clue = _TOPIC.sub("", shortened(clue))
        found = blanked(clue, parts, ev.words > 1 and sense.pos == "noun") if clue else None
        if found and len(found) <= CLUE_MAX:
            return found[0].upper() + found[1:]
    return None


def build_lines(entries: dict[str, Evidence], clues: bool = True) -> list[str]:
    """``WORD;SCORE`` or ``WORD;SCORE;CLUE`` per kept entry, sorted by word."""
    lines = []
    for word, score in sorted(score_entries(entries).items()):
        clue = clue_for(entries[word]) if clues else None
        lines.append(f"{word};{score};{clue}" if clue else f"{word};{score}")
    return lines


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
    by_score = Counter(int(line.split(";")[1]) for line in lines)
    clued = sum(line.count(";") >= 2 for line in lines)
    print(f"wrote {len(lines)} entries to {output} ({output.stat().st_size} bytes), "
          f"{clued} with clues")
    print("by length: " + ", ".join(f"{n}:{by_len[n]}" for n in sorted(by_len)))
    print("by score: " + ", ".join(f"{s}:{by_score[s]}" for s in sorted(by_score)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=OUT_PATH)
    parser.add_argument("--no-clues", dest="clues", action="store_false",
                        help="leave out the WordNet glosses (WORD;SCORE lines only)")
    args = parser.parse_args()
    missing = [str(p) for p in [*(DICT_DIR / name for name, _ in SCOWL_LISTS),
                                WORDNET_DIR / "data.noun"] if not p.exists()]
    if missing:
        print(f"error: {', '.join(missing)} not found. Install the sources with:\n"
              "  apt-get install -y wamerican wamerican-large wamerican-huge wamerican-insane "
              "wbritish-large wordnet-base", file=sys.stderr)
        return 1
    write_dictionary(build_lines(gather(), args.clues), args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
