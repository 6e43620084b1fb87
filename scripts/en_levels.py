"""Weigh the evidence about an English entry into a crossword score level, and pick its clue.

The score answers "would a constructor use this entry", in a few levels (``LEVELS``) rather
than a continuous frequency, so that a fill restricted to the upper levels is clean and a search
for the highest minimum score has few steps to climb. The weighing works on a zipf-like scale
(``quality``): how often the entry is written (wordfreq), raised for entries common in SCOWL's
smaller lists and for lexicalised phrases with several senses in WordNet, lowered for rare SCOWL
levels, British-only spellings, archaic senses, taxonomic names and derived forms no dictionary
lists as a lemma (RECIPROCALNESS). Offensive entries get ``FLAGGED``, below every level.
The weights and thresholds were chosen once against half of the entries of a constructors'
list (see ``scripts/measure_en_against_yardstick.py``); the build never reads that list.
"""

from __future__ import annotations

import re

from en_sources import Evidence, Sense

# score: meaning (what ``xwsat dict info`` and docs/dictionaries.md say)
LEVELS = {
    60: "lively, common: a constructor would happily use it",
    50: "fine fill",
    40: "acceptable fill",
    30: "poor fill: rare, technical or an odd form",
    20: "avoid: obscure",
    10: "obscure: kept so that hard grids and proofs see the whole language",
}
LOWEST = 10
FLAGGED = 5  # offensive: below every level, so a fill uses it only when nothing else fits
THRESHOLDS = ((3.6, 60), (3.0, 50), (2.4, 40), (1.8, 30), (1.2, 20))
# The list's size. A proof that a grid cannot be filled grows steeply with the candidates per
# slot, and an obscure tail gives a constructor little. So entries scored TAIL or below are kept
# only if they are common spellings (``common``: SCOWL's large list or wordfreq's common words,
# the make-up of the frequency-scored list this one replaced), and per length at most
# SIZE_SHARE of that list's size (PREVIOUS_SIZES, 120,854 words in all) is kept: the entries of
# the highest levels, by quality within a level. At nine tenths, one hard 15x15 that list fills
# (robust15 g15-s12-001) had no fill at all; at the same size it fills again, and the hard
# grids' proofs stay within their limits (results/dictionaries).
TAIL = 20
SIZE_SHARE = 1.0
PREVIOUS_SIZES = {
    2: 273, 3: 1835, 4: 4167, 5: 7665, 6: 12220, 7: 16752, 8: 18419, 9: 17558, 10: 14562,
    11: 10742, 12: 7212, 13: 4443, 14: 2450, 15: 1333, 16: 648, 17: 346, 18: 129, 19: 71,
    20: 19, 21: 10,
}
MAX_PER_LENGTH = {n: int(SIZE_SHARE * size) for n, size in PREVIOUS_SIZES.items()}

SCOWL_BONUS = {50: 0.6, 70: 0.2, 80: -0.2, 95: -0.5, None: -0.4}
DERIVED = ("NESS", "NESSES", "LY", "ISM", "ISMS", "IST", "ISTS", "ABLE", "LESS", "FUL",
           "ITY", "MENT", "MENTS", "ITIES")
ALWAYS_FLAGGED = frozenset([
    "ARSE", "ARSEHOLE", "AUTOEROTIC", "BLOWJOB", "BOOBS", "BUSTY", "DILDO", "FISTED", "FISTING",
    "FUCKHEAD", "GRINGO", "HITLER", "HOER", "HOMO", "HOOTERS", "MAMS", "NYMPHO", "PEDOPHILE",
    "PEDOPHILIA", "PISSER", "POON", "QUEERS", "RAPER", "RAPING", "RIMMING", "SHAGGING", "SHITHEAD",
    "SMEGMA", "TITS", "TITTIES", "TITTY", "TWAT", "TWATS", "WANKER", "BESTIALITY", "BITCH", "CLIT",
    "CLITORIS", "CUM", "CUNNILINGUS", "CUNT", "DOGGING", "DOUCHE", "EJACULATE", "EJACULATION",
    "ERECTION", "FAGGED", "FART", "FELLATIO", "FINGERING", "FORESKIN", "FUCKER", "GODDAM",
    "GODDAMN", "GODDAMNED", "HOOKER", "HORNY", "INCEST", "MASOCHIST", "MASTURBATE", "MASTURBATION",
    "MOLEST", "ORGASM", "PENILE", "PENIS", "PERVERSION", "PIMP", "PISS", "PISSED", "PORN", "PORNO",
    "PORNOGRAPHY", "PROSTITUTE", "PUSSY", "RAPE", "RAPED", "RAPIST", "RETARD", "RETARDED",
    "SCROTUM", "SEMEN", "SHITTING", "SHITTY", "SLUT", "SMUT", "SMUTTY", "SPERM", "TESTICLE",
    "VAGINA", "VULVA", "WANK", "WHORE", "WHOREHOUSE", "FUCKING", "SHIT", "SHITS", "SHITTED",
    "FAG", "FAGS", "FAGGOT", "FAGGING", "FAGOT", "FAGOTS", "CHINK", "COON", "DYKE", "DYKES",
    "POLACK", "TOSSER", "SHITLOAD", "APESHIT", "DIPSHIT", "DIPSHITS", "DOGSHIT", "SHITFACED",
    "TAKEASHIT", "BULLSHITTERS", "FUCKEDUP", "MINDFUCK", "FAGGOTUP", "SLUTTISH"
])
FORMS = ("S", "ED", "ING")
ABBREVIATION = 0.6
SHORT_NAME = 0.4
INFLECTED = 0.3  # the bonus of a regular inflection of a WordNet lemma
PHRASE_BASE = 2.0
LONG = 0.12  # per letter beyond 8: long entries need stronger evidence to rank high
DRY_PHRASE_LEX = {"noun.plant", "noun.animal", "noun.body", "noun.substance", "noun.state",
                  "noun.process", "noun.shape", "noun.relation", "noun.quantity", "noun.Tops"}
INFLECTIONS = (("S", ""), ("ES", ""), ("IES", "Y"), ("ED", "E"), ("ED", ""), ("IED", "Y"),
               ("ING", ""), ("ING", "E"), ("ER", ""), ("ER", "E"), ("EST", ""), ("EST", "E"),
               ("IER", "Y"), ("IEST", "Y"))


def common(word: str, ev: Evidence) -> bool:
    """A spelling in SCOWL's large list (size level 70 or below, lower case) or one wordfreq
    sees often (zipf 3, or 4 for two letters): what a spell checker or a reader knows."""
    return (ev.scowl or 99) <= 70 or ev.zipf >= (4.0 if len(word) == 2 else 3.0)


def base_of(word: str, lemmas: set[str]) -> str | None:
    """The WordNet lemma ``word`` inflects regularly (DOGS -> DOG, STOPPED -> STOP), if any."""
    for suffix, repl in INFLECTIONS:
        if word.endswith(suffix) and len(word) > len(suffix) + 1:
            stem = word[: -len(suffix)]
            if stem + repl in lemmas:
                return stem + repl
            if suffix[0] in "EI" and len(stem) > 2 and stem[-1] == stem[-2] and stem[:-1] in lemmas:
                return stem[:-1]
    return None


def word_quality(ev: Evidence, word: str, base: Evidence | None) -> float:
    """A single word's quality on the zipf scale (about 1 rare .. 7 the commonest words)."""
    q = (ev.zipf or 0.5) + SCOWL_BONUS[ev.scowl_level]
    if ev.senses:
        q += 0.3 + 0.1 * min(len(ev.senses) - 1, 4)
    elif base is not None:
        q += INFLECTED  # a regular inflection of a lemma (SCOWL and wordfreq also hold forms
        # such as JUSTEST, so the form's own frequency still decides)
    elif word.endswith(DERIVED):
        q -= 0.5
    elif ev.scowl_level is None:
        q -= 0.4  # neither a dictionary word nor a lemma: abbreviations, foreign words, names
    if ev.abbreviation:
        q -= ABBREVIATION
    elif ev.scowl is None and ev.scowl_proper is not None and len(word) <= 4:
        q -= SHORT_NAME  # ODER, ERIS: crosswordese more than lively fill
    return q


def phrase_quality(ev: Evidence) -> float:
    """A WordNet phrase's quality: wordfreq cannot count phrases, so senses and parts speak."""
    import wordfreq

    parts = [p for p in re.split(r"[_\-]", ev.lemma) if p]
    weakest = min(wordfreq.zipf_frequency(p, "en", wordlist="large") for p in parts)
    q = PHRASE_BASE + 0.5 * min(len(ev.senses) - 1, 3) + 0.25 * max(-2.0, min(weakest - 3.5, 1.5))
    if any(s.tagged for s in ev.senses):
        q += 0.4
    if any(s.pos in ("verb", "adv") for s in ev.senses):
        q += 0.4  # phrasal verbs and adverbial phrases: TAKEOFF, ATLAST
    if all(s.lex in DRY_PHRASE_LEX for s in ev.senses):
        q -= 0.8  # names of plants, organs, substances, conditions: SEAASTER, GUMARABIC
    return q


def quality(ev: Evidence, word: str, base: Evidence | None) -> float:
    """Quality of any entry, with the penalties that apply to words and phrases alike."""
    phrase = ev.words > 1 and ev.zipf == 0
    q = phrase_quality(ev) if phrase else word_quality(ev, word, base)
    if ev.senses and all(s.archaic for s in ev.senses):
        q -= 1.0
    if ev.senses and all(s.taxonomy for s in ev.senses):
        q -= 1.0
    if ev.british:
        q -= 0.7
    return q - LONG * max(0, len(word) - 8)


def level(q: float) -> int:
    """The score level of a quality value."""
    return next((lv for cut, lv in THRESHOLDS if q >= cut), LOWEST)


def everyday(ev: Evidence, word: str) -> bool:
    """A dictionary word whose two commonest senses are clean (ASS, COCK, DRUNK), unless it is
    in ``ALWAYS_FLAGGED`` (everyday words too, but not breakfast-table fill)."""
    senses = ordered_senses(ev)
    return ((ev.scowl_level or 99) <= 70 and bool(senses) and word not in ALWAYS_FLAGGED
            and not any(s.offensive for s in senses[:2]))


def offensive(ev: Evidence, word: str) -> bool:
    """Flagged: every WordNet sense is marked offensive (KIKE; not TACO, whose commonest sense
    WordNet does not tell), or the entry is on the profanity list and is no everyday word."""
    if ev.senses and all(s.offensive for s in ev.senses):
        return True
    return ev.profane and not everyday(ev, word)


def flagged_entries(entries: dict[str, Evidence], lemmas: set[str]) -> set[str]:
    """The offensive entries; an inflection without senses of its own is judged by its lemma
    (PIMPS as PIMP; ASSES, on the profanity list, kept as ASS is)."""
    flagged = set()
    for word, ev in entries.items():
        base = None if ev.senses else base_of(word, lemmas)
        if word in ALWAYS_FLAGGED or base in ALWAYS_FLAGGED:  # TITS, not judged as TIT is
            hit = True
        elif base is None:
            hit = offensive(ev, word)
        else:
            lemma = entries[base]
            hit = offensive(lemma, base) or (ev.profane and not everyday(lemma, base))
        if hit:
            flagged.add(word)
    return flagged


def ordered_senses(ev: Evidence) -> list[Sense]:
    """Senses in the order a crossword clue would use them: offensive senses last, tagged
    (frequent) senses first, then lower-case senses before proper nouns when the entry is a
    common word (COLA the drink before Cola the genus; ETNA the volcano before the burner, as
    SCOWL lists Etna in a smaller list than etna), taxonomic names and units of measure (EMU the
    bird before the electromagnetic unit) after, then WordNet's order."""
    common = (ev.scowl or 99) <= (ev.scowl_proper or 99) and any(not s.capitalised
                                                                  for s in ev.senses)
    return sorted(ev.senses, key=lambda s: (s.offensive, -s.tagged, common and s.capitalised,
                                            s.taxonomy, s.lex == "noun.quantity", s.rank))
