"""Word lists as users keep them: the formats and examples of docs/word-lists.md, score scales,
stacked lists (the first listed wins), bans, and certificates over a stacked list."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from xwsat.cli import app
from xwsat.errors import XwsatError
from xwsat.word_stack import parse_list_spec, stacked_words

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "word-lists.md"
runner = CliRunner()
_BLOCK = re.compile(r"```wordlist (\S+)\n(.*?)```\nRead as: (.*?)\n", re.DOTALL)
_STACKED = re.compile(r"Stacked, `(.*?)` reads as: (.*?)\n\n", re.DOTALL)


def scores_of(text: str) -> dict[str, int]:
    """``CAKE 100, PIE 70`` -> {"CAKE": 100, "PIE": 70}."""
    pairs = (item.rsplit(" ", 1) for item in " ".join(text.split()).split(", "))
    return {word: int(score) for word, score in pairs}


def as_read(words) -> dict[str, int]:
    return {w: int(s) for w, s in zip(words.words, words.scores)}


@pytest.fixture()
def doc_lists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """The doc's example lists written as the files they name, in a scratch folder."""
    monkeypatch.chdir(tmp_path)
    blocks = _BLOCK.findall(DOC.read_text(encoding="utf-8"))
    for spec, body, _ in blocks:
        Path(re.sub(r":\d+(-\d+)?$", "", spec)).write_text(body, encoding="utf-8")
    return [(spec, expected) for spec, _, expected in blocks]


def test_every_example_list_of_the_doc_reads_as_it_says(doc_lists):
    assert len(doc_lists) >= 5
    for spec, expected in doc_lists:
        words, _ = stacked_words([spec])
        assert as_read(words) == scores_of(expected), spec


def test_every_stacking_example_of_the_doc_reads_as_it_says(doc_lists):
    examples = _STACKED.findall(DOC.read_text(encoding="utf-8"))
    assert len(examples) >= 2
    for command, expected in examples:
        args = command.split()
        specs = [args[i + 1] for i, a in enumerate(args) if a == "--dict"]
        bans = [args[i + 1] for i, a in enumerate(args) if a == "--ban"]
        words, _ = stacked_words(specs, ban=bans)
        assert as_read(words) == scores_of(expected), command


def test_the_first_listed_wins_score_and_clue(tmp_path):
    mine, big = tmp_path / "mine.txt", tmp_path / "big.txt"
    mine.write_text("cake;10;my clue\nzebra;40\n", encoding="utf-8")
    big.write_text("CAKE;90;their clue\nPIE;70;pastry\n", encoding="utf-8")
    words, notes = stacked_words([str(mine), str(big)])
    read = as_read(words)
    assert read == {"CAKE": 10, "PIE": 70, "ZEBRA": 40} and notes == []
    clues = {words.words[i]: clue for i, clue in words.clues.items()}
    assert clues == {"CAKE": "my clue", "PIE": "pastry"}
    assert as_read(stacked_words([str(big), str(mine)])[0])["CAKE"] == 90
    kept = as_read(stacked_words([str(mine), str(big)], min_score=20)[0])
    assert "CAKE" not in kept  # the personal low score stands, so --min-score drops it


def test_stacking_over_the_embedded_list_keeps_its_words(tmp_path):
    mine = tmp_path / "mine.txt"
    mine.write_text("zzyzx;50\nhouse;1\n", encoding="utf-8")
    en, _ = stacked_words(["en"])
    both, _ = stacked_words([f"{mine}:50", "en"])
    read = as_read(both)
    assert read["ZZYZX"] == 100 and read["HOUSE"] == 2
    assert len(both) == len(en) + ("ZZYZX" not in set(en.words))


def test_ban_removes_words_and_notes_unknown_ones(tmp_path):
    base = tmp_path / "base.txt"
    base.write_text("CAKE\nPIE\n", encoding="utf-8")
    words, notes = stacked_words([str(base)], ban=["pie", "Kiwi"])
    assert words.words == ("CAKE",) and notes == ["--ban KIWI: no word list has it"]
    with pytest.raises(XwsatError, match="--ban '4x4'"):
        stacked_words([str(base)], ban=["4x4"])
    with pytest.raises(XwsatError, match="no usable words once the banned"):
        stacked_words([str(base)], ban=["cake", "pie"])


@pytest.mark.parametrize("spec, message", [
    ("{list}:50-10", "a score scale runs from low to high"),
    ("{list}:0-0", "a score scale runs from low to high"),
    ("{dir}/nowhere.txt:50", "no such file"),
    ("{list}:40", "score 50 is outside 0-40"),
])
def test_bad_scales_are_one_line_errors(tmp_path, spec, message):
    listed = tmp_path / "l.txt"
    listed.write_text("cake;50\n", encoding="utf-8")
    grid = tmp_path / "g.txt"
    grid.write_text("....\n", encoding="utf-8")
    text = spec.format(list=listed, dir=tmp_path)
    result = runner.invoke(app, ["info", str(grid), "--dict", text])
    assert result.exit_code == 2 and message in result.output, result.output
    assert "Traceback" not in result.output


def test_a_score_above_100_names_the_scale_option(tmp_path):
    listed = tmp_path / "l.txt"
    listed.write_text("cake;120\n", encoding="utf-8")
    with pytest.raises(XwsatError, match=r"outside 0-100 \(give the list's scale"):
        stacked_words([str(listed)])
    assert as_read(stacked_words([f"{listed}:0-120"])[0]) == {"CAKE": 100}


def test_a_file_named_like_a_scale_is_a_file(tmp_path):
    odd = tmp_path / "list:50"
    odd.write_text("cake;80\n", encoding="utf-8")
    assert parse_list_spec(str(odd)).scale is None
    assert as_read(stacked_words([str(odd)])[0]) == {"CAKE": 80}


SQUARE = "...\n...\n...\n"
FIRST_ROWS = ["TEN", "TAN", "TEA", "TAR"]  # the first across entry of each of the 4 fills


def test_certificate_over_stacked_lists_with_bans_rechecks(tmp_path):
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("CAT\nARE\nTEN\nACE\nERA\nATE\nTAN\nNET\nEAT\nTEA\nART\nRAT\n")
    second.write_text("ANT\nTAR\nCAR\nERE\nAGE\nGEE\nTOE\nONE\nEON\nNEE\nOAT\nCOT\n")
    grid = tmp_path / "g.txt"
    grid.write_text(SQUARE)
    stack = ["--dict", str(first), "--dict", str(second)]
    filled = runner.invoke(app, ["fill", str(grid), *stack, "--json"])
    assert filled.exit_code == 0 and json.loads(filled.output)["grid"][0] in FIRST_ROWS
    bans = [a for word in FIRST_ROWS for a in ("--ban", word)]
    cert = tmp_path / "cert"
    proved = runner.invoke(app, ["prove", str(grid), *stack, *bans, "--certificate", str(cert),
                                 "-t", "60"])
    assert proved.exit_code == 1, proved.output
    kept = gzip.decompress((cert / "words.txt.gz").read_bytes()).decode().split()
    assert len(kept) == 20 and "CAT" in kept and "COT" in kept and "TEN" not in kept
    checked = runner.invoke(app, ["check-proof", str(cert)])
    assert checked.exit_code == 1 and "VERIFIED" in checked.stdout, checked.output
    # from the user's own files, given as prove was given them: the bans come from the manifest
    own = runner.invoke(app, ["check-proof", str(cert), "--grid", str(grid), *stack])
    assert own.exit_code == 1 and "banned words TEN, TAN, TEA, TAR left out" in own.stdout, \
        own.output
    one = runner.invoke(app, ["check-proof", str(cert), "--grid", str(grid), "--dict",
                              str(first)])
    assert one.exit_code == 4 and "NOT VERIFIED" in one.stdout, one.output


def test_certificate_over_a_scaled_list_rechecks_with_its_scale(tmp_path):
    words = tmp_path / "s.txt"
    words.write_text("".join(f"{w};{s}\n" for w, s in [("CAT", 50), ("ARE", 10), ("TEN", 50),
                                                       ("ACE", 50), ("ERA", 50), ("ATE", 50)]))
    grid = tmp_path / "g.txt"
    grid.write_text(SQUARE)
    cert = tmp_path / "cert"
    spec = f"{words}:50"
    proved = runner.invoke(app, ["prove", str(grid), "--dict", spec, "--min-score", "30",
                                 "--certificate", str(cert), "-t", "60"])
    assert proved.exit_code == 1, proved.output
    checked = runner.invoke(app, ["check-proof", str(cert), "--grid", str(grid), "--dict", spec])
    assert checked.exit_code == 1 and "VERIFIED" in checked.stdout, checked.output


def test_cli_fill_never_uses_a_banned_word(tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("CAT\nARE\nTEN\nACE\nERA\nATE\nTAN\nNET\nEAT\nTEA\nART\nRAT\n"
                     "ANT\nTAR\nCAR\nERE\nAGE\nGEE\nTOE\nONE\nEON\nNEE\nOAT\nCOT\n")
    grid = tmp_path / "g.txt"
    grid.write_text(SQUARE)
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--ban", "tea",
                                 "--ban", "kiwi", "--json"])
    assert result.exit_code == 0, result.output
    # the 4 fills are 2 pairs of transposes; TEA is in one pair, TEN in the other
    assert json.loads(result.stdout)["grid"] in (["TEN", "ARE", "RAT"], ["TAR", "ERA", "NET"])
    assert "--ban KIWI: no word list has it" in result.stderr
    both = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--ban", "tea",
                               "--ban", "TEN"])
    assert both.exit_code == 1 and "UNFILLABLE" in both.stdout
    for command in ("fill", "prove"):  # a word both locked and banned: the user settles it
        clash = runner.invoke(app, [command, str(grid), "-d", str(words), "--lock", "1A=tea",
                                    "--ban", "TEA"])
        assert clash.exit_code == 2 and "TEA is also banned" in clash.output, clash.output


def test_fill_refuses_a_ban_of_a_word_the_grid_keeps(tmp_path):
    """A banned word standing whole in the grid, outside --region or given, would be kept or
    make the grid unfillable; either way the user is told, not handed it back."""
    words = tmp_path / "w.txt"
    words.write_text("CAT\nARE\nTEN\nACE\nERA\nATE\nTAN\nNET\nEAT\nTEA\nART\nRAT\n")
    filled = tmp_path / "f.txt"
    filled.write_text("CAT\nARE\nTEN\n")
    region = runner.invoke(app, ["fill", str(filled), "-d", str(words), "--region", "1,1-1,3",
                                 "--ban", "ten"])
    assert region.exit_code == 2, region.output
    assert "--ban TEN: 5A outside --region already holds it" in region.output
    given = tmp_path / "g.txt"
    given.write_text("CAT\n...\n...\n")
    plain = runner.invoke(app, ["fill", str(given), "-d", str(words), "--ban", "CAT"])
    assert plain.exit_code == 2 and "1A in the grid already holds it" in plain.output
    # prove answered "unfillable: no dictionary word matches CAT", as if CAT were no word
    proved = runner.invoke(app, ["prove", str(given), "-d", str(words), "--ban", "cat"])
    assert proved.exit_code == 2 and "1A in the grid already holds it" in proved.output


def test_json_records_name_the_lists_with_their_scales(tmp_path):
    """The record's ``dictionary`` is the file a certificate hashes; ``lists`` is what was
    given, scale and stacking included, so the run can be told again."""
    words = tmp_path / "s.txt"
    words.write_text("".join(f"{w};{s}\n" for w, s in [("CAT", 50), ("ARE", 40), ("TEN", 50),
                                                       ("ACE", 50), ("ERA", 50), ("ATE", 50)]))
    grid = tmp_path / "g.txt"
    grid.write_text(SQUARE)
    specs = [f"{words}:50", "en"]
    args = [str(grid), "--dict", specs[0], "--dict", specs[1], "--json", "-t", "30"]
    for command in ("fill", "prove"):
        result = runner.invoke(app, [command, *args])
        assert result.exit_code in (0, 1), result.output
        assert json.loads(result.stdout)["lists"] == specs


def test_a_ban_and_a_stacked_list_follow_the_spanish_lists_folding(tmp_path):
    """The embedded Spanish list folds accents but Ñ: CANCIÓN, banned or stacked over it, is
    its CANCION (not a second spelling beside it)."""
    banned, notes = stacked_words(["es"], ban=["canción"])
    assert "CANCION" not in banned.words and not notes
    mine = tmp_path / "mine.txt"
    mine.write_text("canción;90\nárbol;80\n", encoding="utf-8")
    both, _ = stacked_words([str(mine), "es"])
    scores = as_read(both)
    assert scores["CANCION"] == 90 and "CANCIÓN" not in scores and "Ó" not in both.alphabet.letters
    grid = tmp_path / "g.txt"
    grid.write_text("CANCI.N\n")
    clash = runner.invoke(app, ["fill", str(grid), "-d", "es", "--ban", "canción", "--lock",
                                "1A=CANCION"])
    assert clash.exit_code == 2 and "also banned" in clash.output, clash.output


@pytest.mark.parametrize("suffix", [":-5-50", ":0-50.5", ":abc"])
def test_a_malformed_scale_is_named_as_one(tmp_path, suffix):
    words = tmp_path / "s.txt"
    words.write_text("CAT;50\n")
    with pytest.raises(XwsatError, match="a score scale is whole numbers"):
        parse_list_spec(f"{words}{suffix}")
    with pytest.raises(XwsatError, match="give a word list"):
        parse_list_spec("")


def test_dict_info_and_export_read_a_scale(tmp_path):
    words = tmp_path / "k.txt"
    words.write_text("CAKE;600\nECLAIR;300\nORT;1000\n")
    info = runner.invoke(app, ["dict", "info", f"{words}:0-1000", "--json"])
    assert info.exit_code == 0, info.output
    out = tmp_path / "out.txt"
    exported = runner.invoke(app, ["dict", "export", f"{words}:1000", "--out", str(out)])
    assert exported.exit_code == 0, exported.output
    assert out.read_text().split() == ["CAKE;60", "ECLAIR;30", "ORT;100"]


def test_a_given_letter_in_no_entry_needs_no_word(tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("CAKE\nPIES\n")
    grid = tmp_path / "g.txt"
    grid.write_text("Q#....\n")
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["grid"][0][0] == "Q"


def test_a_grid_letter_the_list_writes_without_its_accent_is_said(tmp_path):
    # BALÉ in the grid was filled and written as BALE without a word
    words = tmp_path / "w.txt"
    words.write_text("BALE\nBA\nAL\nLE\nEB\n", encoding="utf-8")
    grid = tmp_path / "g.txt"
    grid.write_text("BALÉ\n", encoding="utf-8")
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words)])
    assert result.exit_code == 0, result.output
    assert "the grid's letters read as the word list writes them: É as E" in result.stderr


def fill_from(tmp_path: Path, grid_text: str, list_text: str, *options: str):
    """``fill`` of a grid from a list, both written here."""
    grid, listed = tmp_path / "grid.txt", tmp_path / "list.txt"
    grid.write_text(grid_text, encoding="utf-8")
    listed.write_text(list_text, encoding="utf-8")
    return CliRunner().invoke(app, ["fill", str(grid), "-d", str(listed), "-q", *options])


def test_a_word_mixing_latin_and_cyrillic_letters_is_said(tmp_path):
    # КOТ with a Latin O was taken in silence: it looks like КОТ and no grid spells it
    result = fill_from(tmp_path, "...\n", "КОТ;50\nКOТ;50\nТОК;40\nCAT;30\n")
    assert result.exit_code == 0, result.output
    assert "note: 1 word mixes Latin and Cyrillic letters (КOТ)" in result.stderr
    assert "mix" not in fill_from(tmp_path, "...\n", "КОТ;50\nТОК;40\n").stderr
    listed = tmp_path / "list.txt"  # and where a list is vetted before any fill
    listed.write_text("КОТ;50\nКOТ;50\n", encoding="utf-8")
    for command in (["dict", "info", str(listed)], ["dict", "export", str(listed), "--out", "-"]):
        vetted = runner.invoke(app, command)
        assert vetted.exit_code == 0, vetted.output
        assert "note: 1 word mixes Latin and Cyrillic letters (КOТ)" in vetted.stderr, command


def test_a_slot_left_without_words_by_the_cut_says_so(tmp_path):
    # "no dictionary word matches F...U" where FONDU is in the list, scored below the minimum
    # or banned
    listed = "FONDU;30\nFOCUS;60\n"
    low = fill_from(tmp_path, "F...U\n", listed, "--min-score", "40")
    assert low.exit_code == 1, low.output
    assert "slot 1A: no word scored 40 or more matches F...U" in low.stdout
    banned = fill_from(tmp_path, "F...U\n", listed, "--ban", "fondu")
    assert banned.exit_code == 1, banned.output
    assert "slot 1A: no dictionary word matches F...U but the banned FONDU" in banned.stdout
    both = fill_from(tmp_path, "F...U\n", listed, "--ban", "fondu", "--min-score", "40")
    assert both.exit_code == 1, both.output  # FONDU is below the cut anyway: not named
    assert "slot 1A: no word scored 40 or more matches F...U\n" in both.stdout


def test_a_given_yo_read_as_ye_under_fold_yo_is_said(tmp_path):
    result = fill_from(tmp_path, "ЁЖ.\n", "ЕЖИ;50\n", "--fold-yo")
    assert result.exit_code == 0, result.output
    assert "--fold-yo: the grid's letters read as the word list writes them: Ё as Е" in \
        result.stderr
