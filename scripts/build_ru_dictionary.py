"""Build the embedded default Russian dictionary ``xwsat/data/ru.txt.gz``.

Why these sources: both come from PyPI, so the build is reproducible offline, and both
allow redistribution (see ``xwsat/data/NOTICE.md``).

* ``pymorphy3`` with ``pymorphy3-dicts-ru`` (the OpenCorpora dictionary, CC BY-SA): the
  words. Russian crosswords are built from nouns in the nominative singular, so we keep
  every lexeme whose normal form is a NOUN in ``sing,nomn`` and is a common noun: tags
  Name, Surn, Patr, Orgn, Trad (proper names), Abbr, Init (abbreviations), Slng (slang,
  which in OpenCorpora includes the obscene words), Erro, Dist (misspellings) are
  dropped. Geographic names (Geox) are proper nouns too, but Russian crosswords use
  rivers, towns and countries all the time ("река в Сибири"), and the short ones rescue
  dense grids (see "Short words" below), so they are kept at a lower score.
* ``wordfreq`` (PyPI), Russian "large" list: the score of each word. Ё and Е spellings
  are counted together (the corpora mix them), i.e. the frequency of ``ёлка`` is
  freq(ёлка) + freq(елка), unless the Е spelling is another word (ЛЁТ, not ЛЕТ). The
  frequency is weighted by pymorphy's probability that the form is this noun, so
  homographs of frequent function words (ТУТ, ТОЙ) do not score like them.

Short words: OpenCorpora has few 2-3 letter common nouns (the language has few). The
measurement in ``results/languages.md`` showed that blank 4x4 and 5x5 grids depend on
them, so Geox entries of length <= 5 are included (with score capped at ``GEO_CAP``),
which adds river and town names (ОКА, ОБЬ, ДОН, УРАЛ ...) exactly as a Russian
setter would use them. Longer Geox names are included too (for themed fills) with the
same cap.

Normalisation: NFC, upper case, hyphens/spaces dropped; only words of the 33 Russian
letters (А-Я and Ё) and 2..21 letters are kept. Ё is kept as its own letter; xwsat's
``--fold-yo`` folds it into Е at load time.

Score (integer 0..100): ``round((zipf - 1) / 6 * 100)`` clamped, floor 10 (the same
mapping as English); Geox entries at most ``GEO_CAP``.

Output: gzip (mtime=0) UTF-8 text, ``WORD;SCORE`` lines sorted by WORD.

Rebuild:  python scripts/build_ru_dictionary.py   (about a minute: it walks 5M word forms)
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_en_dictionary import score, write_dictionary  # noqa: E402

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


def build(geography: bool = True) -> dict[str, int]:
    """Nominative singular common nouns (plus capped geographic names) with scores."""
    import pymorphy3
    import wordfreq

    freqs = wordfreq.get_frequency_dict("ru", wordlist="large")
    morph = pymorphy3.MorphAnalyzer(lang="ru")
    entries: dict[str, int] = {}
    for word, tag, _normal, _para, index in morph.dictionary.iter_known_words():
        if index != 0 or tag.POS != "NOUN" or "sing" not in tag or "nomn" not in tag:
            continue
        if any(t in tag for t in DROPPED_TAGS):
            continue
        norm = normalise(word)
        if norm is None:
            continue
        s = frequency_score(word, freqs, morph)
        if "Geox" in tag:
            if not geography:
                continue
            s = min(s, GEO_CAP)
        if entries.get(norm, -1) < s:
            entries[norm] = s
    return entries


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=OUT_PATH)
    parser.add_argument("--without-geography", action="store_true",
                        help="leave out Geox names (the baseline of the short-word measurement)")
    args = parser.parse_args()
    entries = build(geography=not args.without_geography)
    write_dictionary([f"{w};{s}" for w, s in sorted(entries.items())], args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
