"""Embedded Russian and Spanish dictionaries, dictionary info and export (library and CLI)."""

from __future__ import annotations

import gzip
import hashlib
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from xwsat.cli import app
from xwsat.word_stats import dict_info, export_lines, format_info
from xwsat.words import build_wordlist, load_words

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


@pytest.fixture(scope="module")
def ru():
    return load_words("ru")


@pytest.fixture(scope="module")
def es():
    return load_words("es")


def test_russian_has_33_letters_with_yo(ru):
    assert ru.alphabet.size == 33
    assert set(ru.alphabet.letters) == set("АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ")
    assert {"ЁЖ", "ЁЛКА", "ДОМ", "ВОДА", "ОКА"} <= set(ru.words)


def test_russian_keeps_nominative_singular_common_nouns(ru):
    words = set(ru.words)
    assert "ДОМА" not in words or "ДОМ" in words  # no case forms as such
    assert "КОШКИ" not in words and "ИДТИ" not in words and "БЫСТРО" not in words
    assert "ПЕТРОВ" not in words and "ИЛЬИЧ" not in words  # surnames, patronymics dropped
    assert {"ИВАН", "ОКА", "САНИ"} <= words  # first names, rivers, pluralia tantum kept


def test_russian_fold_yo_gives_32_letters():
    folded = load_words("ru", fold_yo=True)
    assert folded.alphabet.size == 32 and "ЕЛКА" in set(folded.words)


def test_russian_scores_follow_frequency(ru):
    score = dict(zip(ru.words, ru.scores.tolist()))
    assert score["ДОМ"] > score["ЁЖ"] > 0
    flagged = {w for w, s in score.items() if s < 10}  # slurs and obscenities, below the rest
    assert score["ДОМ"] > 60 and max(score.values()) <= 100
    assert {"ЖИД", "ПИЗДА", "ШАЛАВА"} <= flagged and {score[w] for w in flagged} == {5}
    assert score["ИВАН"] <= 30 and score["ОКА"] <= 30  # names capped below common nouns


def test_spanish_slurs_and_obscenities_are_flagged_below_every_word(es):
    score = dict(zip(es.words, es.scores.tolist()))
    assert score["MARICON"] == score["MIERDA"] == score["COJONES"] == 5
    assert score["ZORRA"] > 5 and score["CAPULLO"] > 5  # the vixen and the bud stay
    assert min(s for s in score.values() if s != 5) >= 10


def test_spanish_keeps_enye_and_folds_accents(es):
    letters = set(es.alphabet.letters)
    assert "Ñ" in letters and not letters & set("ÁÉÍÓÚÜ")
    assert es.alphabet.size == 27
    assert {"NIÑO", "CANCION", "AÑO", "SI"} <= set(es.words)


def test_spanish_adds_frequent_verb_forms_but_not_english(es):
    words = set(es.words)
    assert "HABLAMOS" in words
    assert "THE" not in words and "YOU" not in words


def test_dict_info_counts(es):
    info = dict_info(es)
    assert info.words == len(es) and sum(info.by_length.values()) == len(es)
    assert sum(info.score_bands.values()) == len(es)
    assert info.alphabet == es.alphabet.letters
    assert "27 letters" in format_info(info)


def test_export_reloads_to_the_same_list(tmp_path):
    words = build_wordlist({"ÁRBOL": (40, "planta; leñosa"), "ÑU": (60, None)}, None, "t")
    lines = export_lines(words)
    assert lines == ["ÁRBOL;40;planta; leñosa", "ÑU;60"]
    path = tmp_path / "x.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    again = load_words(str(path))
    assert again.words == words.words and again.clues == words.clues
    assert again.scores.tolist() == words.scores.tolist()


def test_cli_dict_info_and_export(tmp_path):
    small = tmp_path / "small.txt"
    small.write_text("ёж;40\nдом;80;здание\nкот\n", encoding="utf-8")
    result = runner.invoke(app, ["dict", "info", str(small), "--json"])
    assert result.exit_code == 0, result.output
    assert '"words": 3' in result.output and '"clues": 1' in result.output
    assert '"alphabet_size": 7' in result.output
    out = tmp_path / "ru60.txt"
    result = runner.invoke(app, ["dict", "export", "ru", "--min-score", "60", "--out", str(out)])
    assert result.exit_code == 0, result.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert "ДОМ;75" in lines or any(line.startswith("ДОМ;") for line in lines)
    assert all(int(line.split(";")[1]) >= 60 for line in lines)


def test_cli_dict_bad_input_is_one_line(tmp_path):
    result = runner.invoke(app, ["dict", "info", "xx"])
    assert result.exit_code == 2
    result = runner.invoke(app, ["dict", "export", "es", "--out", str(tmp_path / "no" / "x")])
    assert result.exit_code == 2


def test_embedded_files_are_deterministic_gzip():
    for name in ("ru.txt.gz", "es.txt.gz"):
        data = (resources.files("xwsat") / "data" / name).read_bytes()
        assert data[4:8] == b"\0\0\0\0"  # mtime 0: rebuilding gives the same bytes
        text = gzip.decompress(data).decode("utf-8").splitlines()
        assert text == sorted(text) and all(line.count(";") == 1 for line in text[:1000])


def test_spanish_keeps_its_enye():
    """Web text types ESPAÑA as ESPANA: the typed-without-Ñ twin of a common word is left out,
    a real word that differs by its Ñ is not."""
    words = set(load_words("es").words)
    assert {"ESPAÑA", "SEÑOR", "NIÑO", "MAÑANA", "AÑOS"} <= words
    assert not {"ESPANA", "SENOR", "NINO", "MANANA", "ESPANOL"} & words
    assert {"CANAS", "CAÑAS", "CAMPANAS", "ANO", "PENA", "PEÑA"} <= words


@pytest.mark.slow
def test_spanish_build_is_byte_reproducible(tmp_path):
    out = tmp_path / "es.txt.gz"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_es_dictionary.py"), "-o",
                    str(out)], check=True, capture_output=True)
    embedded = (resources.files("xwsat") / "data" / "es.txt.gz").read_bytes()
    assert hashlib.sha256(out.read_bytes()).digest() == hashlib.sha256(embedded).digest()


def test_english_carries_wordnet_clues():
    en = load_words("en")
    assert len(en.clues) > 50_000
    clue = {en.words[i]: c for i, c in en.clues.items()}
    assert "instrument" in clue["OBOE"]
    assert all(w.lower() not in c.lower().split() for w, c in list(clue.items())[:5000])


def test_english_flags_the_compounds_that_passed_as_fill():
    # SHITLOAD (50) came up in a suggested pattern's fill at --min-score 50
    en = load_words("en")
    score = dict(zip(en.words, en.scores.tolist()))
    assert score["SHITLOAD"] == score["DIPSHIT"] == score["MINDFUCK"] == 5
    assert score["SKYSCRAPER"] == 60 and score["SCRAPBOOK"] == 60  # SCRAP is no CRAP
