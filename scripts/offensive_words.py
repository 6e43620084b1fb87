"""Slurs and obscenities of the embedded Spanish and Russian lists, scored ``FLAGGED``.

As in ``en`` (``en_levels.ALWAYS_FLAGGED``, which this file applies to ``en`` too, so that a
word added there is flagged without a rebuild): a word here stays in the list, since a grid may
need it, but at a score below every other word, so a fill takes it only when nothing else fits
and ``--min-score 10`` leaves it out. Listed by hand, inflections included; a word with an
everyday sense a puzzle would use (ZORRA the vixen, POLLA the pullet, VERGA the spar,
MARIQUITA the ladybird) is not.
The build scripts apply the list; run this file to apply it to the lists as they are:

    python scripts/offensive_words.py
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_en_dictionary import write_dictionary  # noqa: E402
from en_levels import ALWAYS_FLAGGED, FLAGGED  # noqa: E402


def _listed(text: str) -> frozenset[str]:
    return frozenset(text.split())


ES = _listed("""
PUTA PUTAS PUTO PUTOS PUTITA PUTITAS PUTERO PUTEROS HIJOPUTA HIJOPUTAS MIERDA MIERDAS COÑO COÑOS
MARICON MARICONES MARICONA MARICONAS MARICA MARICAS JODER JODIDO JODIDA JODIDOS JODIDAS
JODETE CABRON CABRONA CABRONES CABRONAS GILIPOLLAS GILIPOLLEZ GILIPOLLECES CULERO CULEROS
CHINGAR CHINGADA CHINGADAS CHINGADO CHINGADOS CHINGADERA PENDEJO PENDEJOS PENDEJA PENDEJAS
SUDACA SUDACAS NEGRATA NEGRATAS MAMON MAMONA MAMONES FOLLAR FOLLADA FOLLADO BOLLERA BOLLERAS
FOLLANDO JODE JODIENDO COJONES COÑAZO MAMADA PAJERO BOLUDO BOLUDA PELOTUDO
""")

RU = _listed("""
ЖИД ЖИДЫ ЖИДОВКА ЖИДЯРА ХАЧ ХАЧИК ЧУРКА ХОХОЛ КАЦАП ПИЗДА ХУЙ БЛЯДЬ СУКА МУДАК ПИДОР ПИДОРАС
ЗАЛУПА ГОВНО МАНДА ЕБЛАН ДОЛБОЁБ ДОЛБОЕБ УЁБОК УЕБОК ШЛЮХА ШАЛАВА ЖОПА ПЕДЕРАСТ
""")

FLAGS = {"es": ES, "ru": RU, "en": ALWAYS_FLAGGED}
DATA = Path(__file__).resolve().parent.parent / "xwsat" / "data"


def flag(entries: dict[str, int], words: frozenset[str]) -> dict[str, int]:
    """``entries`` with each word of ``words`` it holds scored ``FLAGGED``."""
    return {w: (FLAGGED if w in words else s) for w, s in entries.items()}


def main() -> int:
    for lang, words in FLAGS.items():
        path = DATA / f"{lang}.txt.gz"
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            lines = fh.read().split("\n")[:-1]  # WORD;SCORE[;CLUE], in the file's own order
        rows = [line.split(";", 2) for line in lines]
        flagged = flag({row[0]: int(row[1]) for row in rows}, words)
        changed = sum(flagged[row[0]] != int(row[1]) for row in rows)
        print(f"{lang}: {changed} entries flagged")
        write_dictionary([";".join([row[0], str(flagged[row[0]]), *row[2:]]) for row in rows],
                         path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
