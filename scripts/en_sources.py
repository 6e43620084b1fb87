"""Read the sources of the English list into one record of evidence per entry.

Why a record of evidence rather than a score: each source says something different about an
entry (SCOWL: how common a spelling is among dictionary words; wordfreq: how often it is written;
WordNet: whether it is a lexicalised word or phrase, how many senses it has, whether it is
archaic, a taxonomic name or offensive), and ``en_levels`` weighs them together in one place.

All sources are package-registry data (Debian ``wamerican*``, ``wbritish-large``,
``wordnet-base``; PyPI ``wordfreq`` and ``better-profanity``); their licences are in
``xwsat/data/NOTICE.md``.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

DICT_DIR = Path("/usr/share/dict")
# SCOWL size levels of Debian's lists: 50 common words ... 95 every word SCOWL knows.
SCOWL_LISTS = (("american-english", 50), ("american-english-large", 70),
               ("american-english-huge", 80), ("american-english-insane", 95))
BRITISH_LIST = "british-english-large"
WORDNET_DIR = Path("/usr/share/wordnet")
WORDNET_POS = ("noun", "verb", "adj", "adv")
MIN_LEN, MAX_LEN = 2, 21

# WordNet usage domains (";u" pointers) and lexicographer files that mark a sense.
OFFENSIVE_USAGE = {"u06717170", "u06718862", "u07124340"}  # disparagement, slur, obscenity
ARCHAIC_USAGE = {"u07073447"}  # archaism
TAXONOMY_LEX = {"noun.animal", "noun.plant"}
# topic domains (";c" pointers) of the sciences: chemistry, computer science, biology, physics,
# botany, mathematics, statistics, medicine (two), genetics, anatomy, geology, astronomy,
# zoology, physiology, linguistics, grammar, logic, biochemistry, pathology, pharmacology,
# microbiology
TECHNICAL_TOPICS = {"06084469", "06128570", "06037666", "06090869", "06066555", "06000644",
                    "06018465", "06043075", "00612160", "06075527", "06057539", "06115701",
                    "06095022", "06083243", "06080522", "06172789", "06174404", "06163751",
                    "06079620", "06060845", "06054892", "06077648"}
TECHNICAL_LEX = {"noun.substance", "noun.body", "noun.process"}
LEX_FILES = (
    "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal", "noun.artifact",
    "noun.attribute", "noun.body", "noun.cognition", "noun.communication", "noun.event",
    "noun.feeling", "noun.food", "noun.group", "noun.location", "noun.motive", "noun.object",
    "noun.person", "noun.phenomenon", "noun.plant", "noun.possession", "noun.process",
    "noun.quantity", "noun.relation", "noun.shape", "noun.state", "noun.substance", "noun.time",
    "verb.body", "verb.change", "verb.cognition", "verb.communication", "verb.competition",
    "verb.consumption", "verb.contact", "verb.creation", "verb.emotion", "verb.motion",
    "verb.perception", "verb.possession", "verb.social", "verb.stative", "verb.weather", "adj.ppl"
)
SS_TYPE_NUMBER = {"n": 1, "v": 2, "a": 3, "r": 4, "s": 5}

# "'s" after these is a contraction (IT'S -> ITS, LET'S -> LETS), after any other word mostly a
# possessive (WOMEN'S -> WOMENS, not an entry)
CONTRACTED = {"it", "that", "he", "she", "there", "what", "who", "here", "let", "where", "how",
              "when", "why", "everybody", "everyone", "somebody", "someone", "nobody", "one",
              "this", "life", "nothing", "something", "everything", "name"}
_STRIP = re.compile(r"['’.\-\s_]")
_AZ = re.compile(r"[A-Z]+")
_MARKER = re.compile(r"\([a-z]+\)$")  # adjective position markers: "galore(ip)"


def normalise(word: str) -> str | None:
    """Return the upper-case A-Z form of ``word``, or None if it has none."""
    w = _STRIP.sub("", unicodedata.normalize("NFC", word))
    w = "".join(c for c in unicodedata.normalize("NFKD", w) if not unicodedata.combining(c))
    w = w.upper()
    return w if _AZ.fullmatch(w) and MIN_LEN <= len(w) <= MAX_LEN else None


@dataclass(frozen=True)
class Sense:
    """One WordNet sense of an entry, as the clue chooser and the scorer need it."""

    tagged: int  # times this sense was tagged in the SemCor corpus (cntlist.rev)
    capitalised: bool  # written with a capital in this synset (a proper noun: Erie, Cola)
    taxonomy: bool  # a plant or animal sense named by a capitalised lemma or a "genus of" gloss
    archaic: bool
    offensive: bool
    rank: tuple[int, int]  # (part of speech, WordNet's own order of the lemma's senses)
    pos: str
    lex: str  # WordNet's lexicographer file: noun.food, verb.motion, ...
    synset: str  # part of speech and offset: one synset reached through two spellings counts once
    technical: bool  # in a scientific topic domain (chemistry, medicine, ...) or such a file
    gloss: str


@dataclass
class Evidence:
    """What the sources say about one normalised entry."""

    zipf: float = 0.0  # wordfreq, English "large" list (0: never seen)
    scowl: int | None = None  # SCOWL level of a lower-case spelling (50 common .. 95 rare)
    scowl_proper: int | None = None  # SCOWL level of a capitalised spelling (names, places)
    british: bool = False  # in the British list only (colour, travelling)
    abbreviation: bool = False  # SCOWL spells it in capitals only (NOAA, HDL)
    words: int = 1  # words in its WordNet lemma (LAST STRAW: 2)
    lemma: str = ""  # the WordNet lemma as written ("last_straw"), for the clue filter
    senses: list[Sense] = field(default_factory=list)
    profane: bool = False  # on the profanity list

    @property
    def scowl_level(self) -> int | None:
        levels = [lv for lv in (self.scowl, self.scowl_proper) if lv is not None]
        return min(levels) if levels else None


def read_lines(path: Path) -> Iterator[str]:
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            yield line.rstrip("\n")


def add_scowl(entries: dict[str, Evidence], dict_dir: Path = DICT_DIR) -> None:
    """SCOWL levels from Debian's four American lists, and the British-only spellings."""
    american: set[str] = set()
    for name, level in SCOWL_LISTS:
        for raw in read_lines(dict_dir / name):
            norm = None if raw.endswith("'s") else normalise(raw)
            if norm is None:
                continue
            american.add(norm)
            ev = entries.setdefault(norm, Evidence())
            if raw.isupper() and len(raw) > 1:
                ev.abbreviation = ev.scowl is None and ev.scowl_proper is None
            elif raw[:1].isupper():
                ev.scowl_proper = min(ev.scowl_proper or level, level)
                ev.abbreviation = False
            else:
                ev.scowl = min(ev.scowl or level, level)
                ev.abbreviation = False
    for raw in read_lines(dict_dir / BRITISH_LIST):
        norm = None if raw.endswith("'s") or raw[:1].isupper() else normalise(raw)
        if norm is not None and norm not in american:
            entries.setdefault(norm, Evidence(scowl=70)).british = True


def add_wordfreq(entries: dict[str, Evidence], min_zipf: float) -> None:
    """wordfreq's zipf value for every entry it knows; new entries only from ``min_zipf`` up."""
    import wordfreq

    for token, freq in wordfreq.get_frequency_dict("en", wordlist="large").items():
        possessive = token.endswith(("'s", "’s")) and token[:-2] not in CONTRACTED
        norm = None if possessive else normalise(token)
        if norm is None:
            continue
        zipf = math.log10(freq * 1e9)
        if norm in entries:
            entries[norm].zipf = max(entries[norm].zipf, zipf)
        elif zipf >= min_zipf + (1.0 if len(norm) == 2 else 0.0):
            entries[norm] = Evidence(zipf=zipf)


def sense_counts(wordnet_dir: Path) -> dict[tuple[str, int, int, int], int]:
    """SemCor tag counts per (lemma, synset type, lexicographer file, lex id), from cntlist.rev."""
    counts: dict[tuple[str, int, int, int], int] = {}
    for line in read_lines(wordnet_dir / "cntlist.rev"):
        key, _, count = line.split()
        lemma, rest = key.split("%", 1)
        ss_type, lex_file, lex_id = rest.split(":")[:3]
        ss = 3 if ss_type == "5" else int(ss_type)  # satellites count as adjectives
        counts[(lemma, ss, int(lex_file), int(lex_id))] = int(count)
    return counts


def parse_synset(line: str) -> tuple[str, str, list[tuple[str, int]], set[str], str]:
    """(lexicographer file, synset type, [(word, lex id)], domain offsets, gloss); the domains
    are those of the ";u" (usage) and ";c" (topic) pointers, usage ones prefixed with "u"."""
    head, _, gloss = line.partition(" | ")
    fields = head.split()
    lex_file, ss_type, n_words = LEX_FILES[int(fields[1])], fields[2], int(fields[3], 16)
    words = [(_MARKER.sub("", fields[4 + 2 * i]), int(fields[5 + 2 * i], 16))
             for i in range(n_words)]
    at = 4 + 2 * n_words
    n_pointers = int(fields[at])
    domains = {("u" if fields[at + 1 + 4 * i] == ";u" else "") + fields[at + 2 + 4 * i]
               for i in range(n_pointers) if fields[at + 1 + 4 * i] in (";u", ";c")}
    return lex_file, ss_type, words, domains, gloss.strip()


def add_wordnet(entries: dict[str, Evidence], wordnet_dir: Path = WORDNET_DIR) -> None:
    """Every WordNet lemma (words, phrases, proper nouns) with its senses in WordNet's order."""
    counts = sense_counts(wordnet_dir)
    for pos_rank, pos in enumerate(WORDNET_POS):
        data = (wordnet_dir / f"data.{pos}").read_bytes()
        for line in read_lines(wordnet_dir / f"index.{pos}"):
            if line.startswith(" "):
                continue
            fields = line.split()
            lemma, n_synsets, n_pointers = fields[0], int(fields[2]), int(fields[3])
            norm = normalise(lemma.replace("_", " "))
            if norm is None:
                continue
            ev = entries.setdefault(norm, Evidence())
            words = len(re.split(r"[_\-]", lemma))
            if not ev.lemma or words > ev.words:  # ice_cream rather than icecream: its words
                ev.lemma, ev.words = lemma, words  # are the ones a clue must not show
            offsets = fields[6 + n_pointers:6 + n_pointers + n_synsets]
            for order, offset in enumerate(offsets):
                start = int(offset)
                line_text = data[start:data.index(b"\n", start)].decode("utf-8")
                lex_file, ss_type, words, domains, gloss = parse_synset(line_text)
                written = next((w for w, _ in words if w.lower() == lemma), lemma)
                lex_id = next((i for w, i in words if w.lower() == lemma), 0)
                ss = 3 if ss_type == "s" else SS_TYPE_NUMBER[ss_type]
                tagged = counts.get((lemma, ss, LEX_FILES.index(lex_file), lex_id), 0)
                taxonomy = lex_file in TAXONOMY_LEX and (
                    written[:1].isupper() or gloss.startswith(("genus", "family", "order")))
                sense = Sense(
                    tagged=tagged, capitalised=written[:1].isupper(), taxonomy=taxonomy,
                    archaic=bool(domains & ARCHAIC_USAGE),
                    offensive=bool(domains & OFFENSIVE_USAGE),
                    rank=(pos_rank, order), pos=pos, lex=lex_file, synset=pos + offset,
                    technical=lex_file in TECHNICAL_LEX or bool(domains & TECHNICAL_TOPICS),
                    gloss=gloss)
                known = next((i for i, s in enumerate(ev.senses) if s.synset == sense.synset), None)
                if known is None:
                    ev.senses.append(sense)
                elif sense.tagged > ev.senses[known].tagged:
                    ev.senses[known] = sense


def add_profanity(entries: dict[str, Evidence], words: Iterable[str]) -> None:
    """Mark the entries on a profanity list (leetspeak and spellings not in the list skipped)."""
    for raw in words:
        norm = normalise(raw.strip())
        if norm is not None and norm in entries:
            entries[norm].profane = True


def profanity_words() -> list[str]:
    """The word list of the ``better-profanity`` package (MIT), read as data."""
    from importlib import resources

    text = (resources.files("better_profanity") / "profanity_wordlist.txt").read_text("utf-8")
    return text.splitlines()
