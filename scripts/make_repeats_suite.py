"""Write grids/repeats/: grids where the no-repeat rule is the whole difficulty.

Separate slots of one length (rows of slots with blocks between them) and a word list of that
length, drawn with a seed from wamerican: with one word fewer than slots the grid is unfillable
by counting alone, with as many it is fillable (any order of the words). The ``forced``
variants hang a 2-letter down slot off the first cell of every slot, and the 2-letter words all
start with S: only after arc consistency do the slots' candidates shrink to the S-words, one
fewer than the slots. Run from the repository's top folder:

    python scripts/make_repeats_suite.py
"""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

OUT = Path("grids/repeats")
SOURCE = Path("grids/dictionaries/wamerican.txt")
PER_ROW = 3
OTHERS = 100  # words not starting with S in a forced list: candidates until arc consistency


def separate_rows(length: int, n: int, forced: bool) -> list[str]:
    """n slots of ``length``, PER_ROW to a row; with ``forced``, a 2-cell down slot below each
    slot's first cell."""
    row = "#".join(["." * length] * PER_ROW)
    under = "#".join(["." + "#" * (length - 1)] * PER_ROW)
    rows: list[str] = []
    for r in range(n // PER_ROW):
        rows.append(row)
        if forced:
            rows.append(under)
        if r < n // PER_ROW - 1:
            rows.append("#" * len(row))
    return rows


def words_of(length: int) -> list[str]:
    text = SOURCE.read_text(encoding="utf-8").split()
    return sorted({w.lower() for w in text if len(w) == length and w.isascii() and w.isalpha()})


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    grids = []
    for length in (3, 4):
        pool = words_of(length)
        for n in (9, 12, 18, 24):
            for forced in (False, True):
                name = f"{'forced' if forced else 'separate'}{length}x{n}"
                (OUT / f"{name}.txt").write_text("\n".join(separate_rows(length, n, forced))
                                                 + "\n", encoding="utf-8")
                dictionaries, known = [], {}
                for seed in (1, 2):
                    rng = random.Random(f"{name}-{seed}")
                    for count, verdict in ((n - 1, "unfillable"), (n, "filled")):
                        if forced:  # count S-words, and other words of the length
                            s_words = [w for w in pool if w[0] == "s"]
                            chosen = rng.sample(s_words, count)
                            others = rng.sample([w for w in pool if w[0] != "s"], OTHERS)
                            words = others + chosen
                            words += ["s" + c for c in string.ascii_lowercase]
                        else:
                            words = rng.sample(pool, count)
                        stem = f"{name}_w{count}_s{seed}"
                        (OUT / f"{stem}.txt").write_text("\n".join(sorted(words)) + "\n",
                                                         encoding="utf-8")
                        dictionaries.append(f"{stem}.txt")
                        known[stem] = verdict
                grids.append({"file": f"{name}.txt", "dictionaries": dictionaries,
                              "known": known})
    suite = {
        "suite": "repeats",
        "description": "Grids where the no-repeat rule is the whole difficulty: 9-24 separate "
                       "slots of 3 or 4 letters with one word fewer than slots (unfillable) or "
                       "as many (fillable); the forced variants need arc consistency first "
                       "(results/hard/repeats/).",
        "source": "scripts/make_repeats_suite.py (this project), words from wamerican",
        "licence": "grids: generated, CC0; word lists: SCOWL via Debian wamerican "
                   "(../dictionaries/LICENSE-scowl.txt)",
        "grids": grids,
    }
    (OUT / "suite.json").write_text(json.dumps(suite, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
