"""The English list's build logic (scripts/en_sources.py, en_levels.py, build_en_dictionary.py)
and its measurement against a yardstick, on small made-up data: no Debian word lists needed."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
sys.path.insert(0, str(SCRIPTS))

import build_en_dictionary as build  # noqa: E402
import en_levels as levels  # noqa: E402
import en_sources as sources  # noqa: E402
import measure_en_against_yardstick as measure  # noqa: E402
from en_sources import Evidence, Sense  # noqa: E402

from xwsat.words import load_words  # noqa: E402


def sense(gloss: str, *, tagged: int = 0, capitalised: bool = False, taxonomy: bool = False,
          offensive: bool = False, rank: int = 0, lex: str = "noun.artifact") -> Sense:
    return Sense(tagged=tagged, capitalised=capitalised, taxonomy=taxonomy, archaic=False,
                 offensive=offensive, rank=(0, rank), pos="noun", lex=lex, technical=False,
                 synset=f"noun{rank}", gloss=gloss)


def test_normalise_folds_to_a_to_z():
    assert sources.normalise("last_straw".replace("_", " ")) == "LASTSTRAW"
    assert sources.normalise("café") == "CAFE" and sources.normalise("it's") == "ITS"
    assert sources.normalise("x") is None and sources.normalise("3d") is None


def test_scowl_levels_names_abbreviations_and_british_spellings(tmp_path):
    lists = {"american-english": "cat\nErie\nNOAA\ndog's\n",
             "american-english-large": "cat\nErie\nNOAA\ncamlet\n",
             "american-english-huge": "cat\ncamlet\naniler\n",
             "american-english-insane": "cat\ncamlet\naniler\ngeneal\n",
             "british-english-large": "cat\ncolour\n"}
    for name, text in lists.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    entries: dict[str, Evidence] = {}
    sources.add_scowl(entries, tmp_path)
    assert entries["CAT"].scowl == 50 and entries["CAMLET"].scowl == 70
    assert entries["ANILER"].scowl == 80 and entries["GENEAL"].scowl == 95
    assert entries["ERIE"].scowl is None and entries["ERIE"].scowl_proper == 50
    assert entries["NOAA"].abbreviation and not entries["CAT"].abbreviation
    assert entries["COLOUR"].british and not entries["CAT"].british
    assert "DOGS" not in entries  # possessives are no entries


def test_parse_synset_reads_words_domains_and_gloss():
    line = ("02921029 06 n 02 etna 0 Bunsen_burner 1 002 @ 03517899 n 0000 ;u 07073447 n 0000 "
            "| a gas burner used in laboratories; has an air valve  ")
    lex, ss_type, words, domains, gloss = sources.parse_synset(line)
    assert lex == "noun.artifact" and ss_type == "n"
    assert words == [("etna", 0), ("Bunsen_burner", 1)]
    assert domains == {"u07073447"} and gloss.startswith("a gas burner")


def test_sense_counts_key_by_lemma_type_file_and_id(tmp_path):
    (tmp_path / "cntlist.rev").write_text("cola%1:13:00:: 1 4\nfast%5:00:00:quick:00 2 7\n")
    counts = sources.sense_counts(tmp_path)
    assert counts[("cola", 1, 13, 0)] == 4 and counts[("fast", 3, 0, 0)] == 7


def test_base_of_finds_regular_inflections():
    lemmas = {"DOG", "STOP", "SPICE", "SPIC", "FRISKY", "SING", "SINGE"}
    assert levels.base_of("DOGS", lemmas) == "DOG"
    assert levels.base_of("STOPPED", lemmas) == "STOP"
    assert levels.base_of("SPICED", lemmas) == "SPICE"  # not the slur
    assert levels.base_of("FRISKIER", lemmas) == "FRISKY"
    assert levels.base_of("SINGING", lemmas) == "SING"
    assert levels.base_of("RECIPROCALNESS", lemmas) is None


def test_levels_are_few_and_ordered():
    assert levels.level(9.0) == 60 and levels.level(0.0) == levels.LOWEST == 10
    assert [levels.level(cut) for cut, _ in levels.THRESHOLDS] == [60, 50, 40, 30, 20]
    assert min(levels.LEVELS) > levels.FLAGGED


def test_common_words_outrank_rare_forms_abbreviations_and_derivations():
    common = Evidence(zipf=4.5, scowl=50, senses=[sense("a thing")])
    rare = Evidence(zipf=1.5, scowl=95)
    derived = Evidence(zipf=1.5, scowl=95)
    abbreviation = Evidence(zipf=3.2, abbreviation=True)
    plain = Evidence(zipf=3.2, scowl=50)
    q = levels.quality
    assert q(common, "OCEAN", None) > q(plain, "PLAIN", None) > q(abbreviation, "NOAA", None)
    assert q(rare, "ANILER", None) > q(derived, "RECIPROCALNESS", None)
    assert levels.level(q(common, "OCEAN", None)) == 60
    assert levels.level(q(derived, "RECIPROCALNESS", None)) == 10
    long_word = Evidence(zipf=3.2, scowl=50)
    assert q(long_word, "CHARACTERIZATION", None) < q(plain, "PLAIN", None)


def test_each_length_keeps_its_highest_entries_up_to_its_limit():
    ranked = {"OBOE": (50, 3.2), "ERNE": (40, 2.5), "ANIL": (10, 0.3), "AGAR": (40, 2.9),
              "OX": (10, 0.1), "ICECREAM": (20, 1.5)}
    kept = build.capped(ranked, {4: 3, 2: 0})
    assert kept == {"OBOE", "AGAR", "ERNE", "ICECREAM"}  # no limit for 8 letters


def test_archaic_and_taxonomic_senses_lower_the_score():
    plain = Evidence(zipf=2.5, scowl=70, senses=[sense("a coterie")])
    archaic = Evidence(zipf=2.5, scowl=70, senses=[
        Sense(tagged=0, capitalised=False, taxonomy=False, archaic=True, offensive=False,
              rank=(0, 0), pos="noun", lex="noun.group", technical=False, synset="noun0",
              gloss="a coterie")])
    genus = Evidence(zipf=2.5, scowl=70, senses=[sense("genus of trees", taxonomy=True)])
    q = levels.quality
    assert q(archaic, "GALERE", None) < q(plain, "GALERE", None)
    assert q(genus, "COLA", None) < q(plain, "COLA", None)


def test_offensive_entries_are_flagged_everyday_words_kept():
    entries = {
        "ASS": Evidence(scowl=50, profane=True, senses=[sense("a pompous fool"),
                                                         sense("a hardy animal", rank=1)]),
        "ASSES": Evidence(scowl=50, profane=True),
        "PIMP": Evidence(scowl=50, profane=True, senses=[sense("someone who procures")]),
        "PIMPS": Evidence(scowl=50),
        "KIKE": Evidence(scowl=95, senses=[sense("a slur", offensive=True)]),
        "TACO": Evidence(scowl=50, senses=[sense("a slur", offensive=True),
                                           sense("a tortilla", rank=1)]),
        "XYZZY": Evidence(zipf=3.0, profane=True),
    }
    lemmas = {"ASS", "PIMP", "KIKE", "TACO"}
    flagged = levels.flagged_entries(entries, lemmas)
    assert flagged == {"PIMP", "PIMPS", "KIKE", "XYZZY"}
    # a listed inflection is flagged though its lemma is clean: TITS was scored 60 as TIT is
    entries.update(TIT=Evidence(scowl=50, senses=[sense("a small bird")]),
                   TITS=Evidence(scowl=50, profane=True))
    flagged = levels.flagged_entries(entries, lemmas | {"TIT"})
    assert "TITS" in flagged and "TIT" not in flagged


def test_clue_senses_follow_crossword_use():
    cola = Evidence(scowl=50, scowl_proper=50, lemma="cola", senses=[
        sense("large genus of African trees", capitalised=True, taxonomy=True),
        sense("carbonated drink flavored with extract from kola nuts", rank=1)])
    assert build.clue_for(cola).startswith("Carbonated drink")
    etna = Evidence(scowl=95, scowl_proper=50, lemma="etna", senses=[
        sense("an active volcano in Sicily", capitalised=True),
        sense("a gas burner used in laboratories", rank=1)])
    etna.senses.reverse()
    assert build.clue_for(etna) == "An active volcano in Sicily"
    cat = Evidence(scowl=50, lemma="cat", senses=[
        sense("feline mammal usually having thick soft fur: domestic cats; wildcats", tagged=9)])
    assert build.clue_for(cat) == "Feline mammal usually having thick soft fur"
    shows = Evidence(scowl=50, lemma="last_straw", senses=[sense("the last one; a straw")])
    assert build.clue_for(shows) is None


def test_long_glosses_are_cut_at_a_joint():
    gloss = ("voracious snakelike marine or freshwater fishes with smooth slimy usually scaleless "
             "skin and having a continuous vertical fin but no ventral fins")
    assert build.shortened(gloss) == "voracious snakelike marine or freshwater fishes"
    assert build.shortened("short") == "short"


def test_spearman_and_halves():
    assert measure.spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert measure.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert measure.ranks(measure.np.array([5.0, 1.0, 5.0])).tolist() == [2.5, 1.0, 2.5]
    assert measure.half_of("OBOE") == measure.half_of("OBOE")
    halves = {measure.half_of(w) for w in ("OBOE", "ERIE", "ALOE", "AREA", "ETNA", "ORE")}
    assert halves == {"tuning", "held-out"}


def test_grade_counts_top_tier_and_lacking_entries():
    tiers = {"OBOE": 50, "ERNE": 40}
    row = measure.grade(["OBOE", "ERNE", "XQZ"], tiers)
    assert row["top_share"] == round(1 / 3, 4)
    assert row["lacking"] == ["XQZ"] and row["lower"] == ["ERNE:40"]


def test_embedded_english_uses_the_levels():
    en = load_words("en")
    allowed = set(levels.LEVELS) | {levels.FLAGGED}
    assert set(en.scores.tolist()) <= allowed
    score = dict(zip(en.words, en.scores.tolist()))
    assert score["OCEAN"] == 60 and "RECIPROCALNESS" not in score
    assert score["LASTSTRAW"] >= 20 and score["BITCH"] == levels.FLAGGED
    lengths = Counter(len(w) for w in en.words)
    assert all(n <= levels.MAX_PER_LENGTH[length] for length, n in lengths.items())
    assert len(en) > 100_000
