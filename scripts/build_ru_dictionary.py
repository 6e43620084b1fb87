"""Build the embedded default Russian dictionary ``xwsat/data/ru.txt.gz``.

Why these sources: both come from PyPI, so the build is reproducible offline, and both
allow redistribution (see ``xwsat/data/NOTICE.md``).

* ``pymorphy3`` with ``pymorphy3-dicts-ru`` (the OpenCorpora dictionary, CC BY-SA): the
  words. Russian crosswords are built from nouns in the nominative, so we keep lexemes
  whose normal form is a NOUN in ``nomn``, of four kinds (``--kinds``):
  ``common`` (singular common nouns), ``plural`` (pluralia tantum: САНИ, ЩИ, ДРОВА),
  ``geo`` (geographic names, Geox: ОКА, ОБЬ, УРАЛ: "река в Сибири") and ``names`` (first
  names, Name: ИВАН, ОЛЯ: "мужское имя"). Surnames and patronymics (Surn, Patr),
  organisations and trade marks (Orgn, Trad), abbreviations (Abbr, Init), slang (Slng,
  which in OpenCorpora holds the obscene words) and misspellings (Erro, Dist) are dropped.
* ``wordfreq`` (PyPI), Russian "large" list: the score of each word. Ё and Е spellings
  are counted together (the corpora mix them), i.e. the frequency of ``ёлка`` is
  freq(ёлка) + freq(елка), unless the Е spelling is another word (ЛЁТ, not ЛЕТ). The
  frequency is weighted by pymorphy's probability that the form is this noun, so
  homographs of frequent function words (ТУТ, ТОЙ) do not score like them.

Short words (measured, ``results/languages/README.md``): common nouns alone (with or without
geographic names and pluralia tantum) leave Russian with 628 three-letter and 2,234
four-letter words against English's 1,835 and 4,167, and 6 of 13 American-style 15x15
and larger grids stayed undecided in 60 s. First names add 186 three-letter and 1,102
four-letter words, the way Russian setters use them, and all 6 then filled. So the
default includes all four kinds; geographic names and first names are capped at
``GEO_CAP`` so a fill prefers common nouns, and ``--min-score 31`` leaves them out.

Normalisation: NFC, upper case, hyphens/spaces dropped; only words of the 33 Russian
letters (А-Я and Ё) and 2..21 letters are kept. Ё is kept as its own letter; xwsat's
``--fold-yo`` folds it into Е at load time.

Score (integer 0..100): ``round((zipf - 1) / 6 * 100)`` clamped, floor 10
(``zipf_score.py``, shared with Spanish); geographic and first names at most ``GEO_CAP``.

Output: gzip (mtime=0) UTF-8 text, ``WORD;SCORE`` lines sorted by WORD.

Rebuild:  python scripts/build_ru_dictionary.py   (a minute or two: it walks 5M word forms)
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_en_dictionary import write_dictionary  # noqa: E402
from offensive_words import RU, flag  # noqa: E402
from zipf_score import score  # noqa: E402

OUT_PATH = Path(__file__).resolve().parent.parent / "xwsat" / "data" / "ru.txt.gz"
MIN_LEN, MAX_LEN = 2, 21
GEO_CAP = 30
DROPPED_TAGS = ("Name", "Surn", "Patr", "Orgn", "Trad", "Abbr", "Init", "Slng", "Erro", "Dist")
_STRIP = re.compile(r"[-\s'’.]")
_RU = re.compile(r"[А-ЯЁ]+")


def normalise(word: str) -> str | None:
    """Upper-case Russian letters only (Ё kept), or None."""
    w = _STRIP.sub("", unicodedata.normalize("NFC", word)).upper()
    return w if _RU.fullmatch(w) and MIN_LEN <= len(w) <= MAX_LEN else None


def frequency_score(word: str, freqs: dict[str, float], morph: object) -> int:
    """Score from wordfreq, weighted by how often the surface form is this noun.

    A corpus counts surface forms: ТУТ is nearly always the adverb, not the mulberry tree,
    so the frequency is multiplied by pymorphy's probability that the form is a NOUN of
    this lexeme (any case). An Ё word also counts its Е spelling unless that spelling is
    itself another dictionary word (ЛЁТ must not inherit the frequency of ЛЕТ).
    """
    lower = word.lower()
    freq = freqs.get(lower, 0.0)
    plain = lower.replace("ё", "е")
    if plain != lower and plain not in morph.dictionary.words:  # type: ignore[attr-defined]
        freq += freqs.get(plain, 0.0)
    weight = sum(
        p.score for p in morph.parse(lower)  # type: ignore[attr-defined]
        if p.tag.POS == "NOUN" and p.normal_form.replace("ё", "е") == plain
    )
    freq *= min(1.0, weight)
    zipf = math.log10(freq * 1e9) if freq > 0 else 0.0
    return score(zipf)


KINDS = ("common", "geo", "plural", "names")
DEFAULT_KINDS = KINDS


def kind_of(tag: object) -> str | None:
    """Which kind of crossword noun a normal form is, or None when it is not one."""
    if tag.POS != "NOUN" or "nomn" not in tag:  # type: ignore[attr-defined]
        return None
    if "plur" in tag and "Pltm" not in tag:  # type: ignore[operator]
        return None
    if "Name" in tag and not any(t in tag for t in ("Surn", "Patr")):  # type: ignore[operator]
        return "names"
    if any(t in tag for t in DROPPED_TAGS):  # type: ignore[operator]
        return None
    if "Geox" in tag:  # type: ignore[operator]
        return "geo"
    return "plural" if "Pltm" in tag else "common"  # type: ignore[operator]


def build(kinds: tuple[str, ...] = DEFAULT_KINDS) -> dict[str, int]:
    """Nominative nouns of the chosen kinds with scores (geo and names capped)."""
    import pymorphy3
    import wordfreq

    freqs = wordfreq.get_frequency_dict("ru", wordlist="large")
    morph = pymorphy3.MorphAnalyzer(lang="ru")
    entries: dict[str, int] = {}
    for word, tag, _normal, _para, index in morph.dictionary.iter_known_words():
        kind = kind_of(tag) if index == 0 else None
        if kind is None or kind not in kinds:
            continue
        norm = normalise(word)
        if norm is None:
            continue
        s = frequency_score(word, freqs, morph)
        if kind in ("geo", "names"):
            s = min(s, GEO_CAP)
        if entries.get(norm, -1) < s:
            entries[norm] = s
    return entries


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=OUT_PATH)
    parser.add_argument("--kinds", default=",".join(DEFAULT_KINDS),
                        help=f"comma-separated kinds of nouns among {', '.join(KINDS)} "
                        "(the measurement in results/languages/README.md compares them)")
    args = parser.parse_args()
    kinds = tuple(k.strip() for k in args.kinds.split(",") if k.strip())
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown:
        parser.error(f"unknown kinds {unknown}; choose among {', '.join(KINDS)}")
    entries = build(kinds)
    entries = flag(entries, RU)  # slurs and obscenities, as en flags them
    write_dictionary([f"{w};{s}" for w, s in sorted(entries.items())], args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
