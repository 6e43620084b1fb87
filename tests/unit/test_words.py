"""Dictionary formats, normalisation, scores, alphabets, and file errors."""

from __future__ import annotations

import gzip
import time
from pathlib import Path

import numpy as np
import pytest

from xwsat.errors import XwsatError
from xwsat.words import load_words, normalize_word, parse_entries

RUSSIAN = "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"


def entries(*lines: str, **kwargs: object) -> dict[str, tuple[int, str | None]]:
    found, _ = parse_entries(list(lines), "test", **kwargs)  # type: ignore[arg-type]
    return found


def test_plain_word_gets_default_score() -> None:
    assert entries("CAT") == {"CAT": (50, None)}


def test_word_and_score() -> None:
    assert entries("CAT;70") == {"CAT": (70, None)}


def test_word_score_and_clue() -> None:
    assert entries("CAT;70;Feline; a pet") == {"CAT": (70, "Feline; a pet")}


def test_word_with_empty_score_and_clue() -> None:
    assert entries("CAT;;Feline") == {"CAT": (50, "Feline")}


def test_word_with_description_after_dash() -> None:
    assert entries("ice cream — a frozen dessert") == {"ICECREAM": (50, "a frozen dessert")}


def test_word_with_description_after_tab() -> None:
    assert entries("dog\ta pet") == {"DOG": (50, "a pet")}


def test_description_may_contain_semicolon() -> None:
    assert entries("ice cream — frozen; sweet") == {"ICECREAM": (50, "frozen; sweet")}


def test_comments_and_blank_lines_are_ignored() -> None:
    assert entries("# a comment", "", "   ", "CAT") == {"CAT": (50, None)}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("cat", "CAT"),
        ("ice-cream", "ICECREAM"),
        ("o'clock", "OCLOCK"),
        ("o’clock", "OCLOCK"),
        ("new york", "NEWYORK"),
        ("cafe\u0301", "CAFÉ"),  # decomposed é composes (NFC) and stays one letter
        ("niño", "NIÑO"),
        ("ёжик", "ЁЖИК"),
    ],
)
def test_normalisation(raw: str, expected: str) -> None:
    assert normalize_word(raw) == expected
    assert list(entries(raw)) == [expected]


def test_duplicates_keep_the_highest_score() -> None:
    found = entries("CAT;30;low", "cat;80", "C-A-T;60")
    assert found["CAT"][0] == 80
    assert list(found) == ["CAT"]


def test_duplicate_with_higher_score_keeps_earlier_clue_when_it_has_none() -> None:
    assert entries("CAT;30;Feline", "CAT;80") == {"CAT": (80, "Feline")}


def test_duplicate_with_lower_score_gives_its_clue_to_the_word_kept_when_it_has_none() -> None:
    # OCEAN;70 then ocean;40;Big water lost the clue (the other order kept it)
    assert entries("OCEAN;70", "ocean;40;Big water") == {"OCEAN": (70, "Big water")}
    assert entries("OCEAN;70;Sea", "ocean;40;Big water") == {"OCEAN": (70, "Sea")}


@pytest.mark.parametrize("score", ["101", "-1", "250"])
def test_score_outside_0_100_is_an_error(score: str) -> None:
    with pytest.raises(XwsatError, match="outside 0-100"):
        entries(f"CAT;{score}")


def test_score_that_is_not_a_number_is_an_error() -> None:
    with pytest.raises(XwsatError, match="not a number"):
        entries("CAT;high")


def test_infinite_score_is_an_error() -> None:
    with pytest.raises(XwsatError):
        entries("CAT;inf")


@pytest.mark.parametrize("score", ["nan", "1_0", "\u0661\u0660", "1e1"])
def test_only_plain_decimal_scores_are_read(score: str) -> None:
    # float() read nan (then called out of range), 1_0 as 10 and Arabic-Indic digits
    with pytest.raises(XwsatError, match="is not a number"):
        entries(f"CAT;{score}")


def test_half_scores_round_up() -> None:
    # round() rounds halves to even: 45.5 was 46 and 44.5 was 44
    assert entries("CAT;44.5", "DOG;45.5")["CAT"][0] == 45
    assert entries("DOG;45.5")["DOG"][0] == 46


def test_min_score_filters_low_words() -> None:
    assert set(entries("CAT;10", "DOG;60", "EMU", min_score=50)) == {"DOG", "EMU"}


def test_words_with_digits_are_skipped() -> None:
    found, skipped = parse_entries(["CAT", "R2D2", "C3PO"], "test")
    assert found == {"CAT": (50, None)} and skipped == 2
    assert skipped.first == "line 2: 'R2D2'"  # the note shows what kind of line it was


def test_declared_alphabet_skips_words_with_other_letters() -> None:
    found, skipped = parse_entries(["CAT", "DOG", "ACT"], "test", alphabet="ACT")
    assert set(found) == {"CAT", "ACT"} and skipped == 1


def test_load_with_declared_alphabet(write) -> None:
    path = write("w.txt", "cat\ndog\nact\n")
    words = load_words(str(path), alphabet="tac")
    assert words.alphabet.letters == "TAC"
    assert words.words == ("ACT", "CAT")
    # letter codes follow the declared order: T=0, A=1, C=2
    assert words.codes_of_length(3).tolist() == [[1, 2, 0], [2, 1, 0]]


def test_alphabet_with_repeated_letters_is_an_error(write) -> None:
    path = write("w.txt", "cat\n")
    with pytest.raises(XwsatError, match="distinct"):
        load_words(str(path), alphabet="CATA")


def test_cyrillic_alphabet_of_33_letters(write) -> None:
    path = write("ru.txt", "ёж\nуж\nелка\nёлка\n")
    words = load_words(str(path), alphabet=RUSSIAN.lower())
    assert words.alphabet.size == 33
    assert words.alphabet.letters == RUSSIAN
    assert set(words.words) == {"ЁЖ", "УЖ", "ЕЛКА", "ЁЛКА"}


def test_fold_yo_merges_yo_into_ye(write) -> None:
    path = write("ru.txt", "ёж\nуж\nелка;30\nёлка;70\n")
    words = load_words(str(path), fold_yo=True)
    assert set(words.words) == {"ЕЖ", "УЖ", "ЕЛКА"}
    assert "Ё" not in words.alphabet.letters
    assert int(words.scores[words.words.index("ЕЛКА")]) == 70


def test_spanish_enye_is_kept_as_its_own_letter(write) -> None:
    path = write("es.txt", "niño\nnino\naño\n")
    words = load_words(str(path))
    assert set(words.words) == {"NIÑO", "NINO", "AÑO"}
    assert "Ñ" in words.alphabet.letters and "N" in words.alphabet.letters


def test_words_are_bucketed_by_length(write) -> None:
    path = write("w.txt", "cat\nto\ndog\nhorse\n")
    words = load_words(str(path))
    assert words.lengths() == {2: 1, 3: 2, 5: 1}
    ids = words.ids_of_length(3)
    assert sorted(words.words[i] for i in ids) == ["CAT", "DOG"]
    assert words.ids_of_length(7).dtype == np.int32 and len(words.ids_of_length(7)) == 0


def test_gzip_dictionary_loads(write) -> None:
    path = write("w.txt.gz", gzip.compress(b"cat;90\ndog\n"))
    words = load_words(str(path))
    assert set(words.words) == {"CAT", "DOG"}


def test_binary_file_is_an_error(write) -> None:
    path = write("w.bin", b"CAT\x00\x01\x02DOG\n")
    with pytest.raises(XwsatError, match="binary"):
        load_words(str(path))


def test_non_utf8_file_is_an_error(write) -> None:
    path = write("w.txt", "café\n".encode("latin-1"))
    with pytest.raises(XwsatError, match="UTF-8"):
        load_words(str(path))


@pytest.mark.parametrize("content", ["", "# only a comment\n", "123\n4-5\n"])
def test_dictionary_without_usable_words_is_an_error(write, content: str) -> None:
    path = write("w.txt", content)
    with pytest.raises(XwsatError, match="no usable words"):
        load_words(str(path))


def test_min_score_removing_every_word_is_an_error(write) -> None:
    path = write("w.txt", "cat;10\n")
    with pytest.raises(XwsatError, match="score >= 50"):
        load_words(str(path), min_score=50)


def test_missing_file_is_an_error(tmp_path) -> None:
    with pytest.raises(XwsatError, match="no such file"):
        load_words(str(tmp_path / "missing.txt"))


def test_unknown_dictionary_name_is_an_error() -> None:
    with pytest.raises(XwsatError, match="unknown dictionary"):
        load_words("klingon")


def test_embedded_english_dictionary_loads_quickly(tmp_path, monkeypatch) -> None:
    """Parsed cold in about 0.6 s of CPU here (the bound leaves room for a loaded CI
    machine, where CPU time still grows); from the word cache in under 0.1 s."""
    start = time.process_time()  # CPU time: other processes on a busy machine do not count
    words = load_words("en")
    parsed = time.process_time() - start
    assert len(words) > 50_000
    assert parsed < 1.5
    assert words.alphabet.letters == "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    monkeypatch.delenv("XWSAT_NO_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    load_words("en")  # fills the cache
    start = time.process_time()
    cached = load_words("en")
    from_cache = time.process_time() - start
    assert cached.words == words.words
    assert from_cache < 0.4


def test_the_word_cache_gives_back_the_same_list_and_follows_content(tmp_path, monkeypatch):
    from xwsat import wordcache
    from xwsat.words import load_words

    monkeypatch.delenv("XWSAT_NO_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = tmp_path / "w.txt"
    path.write_text("cat;60;a pet\ndog;40\nemu\nACE;50;one\n", encoding="utf-8")
    first = load_words(str(path))
    assert len(list((tmp_path / "cache" / "xwsat" / "words").glob("*.npz"))) == 1
    again = load_words(str(path))
    assert isinstance(again.clues, wordcache.LazyClues)
    assert again.words == first.words and dict(again.clues) == dict(first.clues)
    assert (again.scores == first.scores).all() and again.alphabet == first.alphabet
    assert all((again.codes[k] == first.codes[k]).all() for k in first.codes)
    assert load_words(str(path), min_score=45).words != first.words  # options are in the key
    path.write_text("cat\ndog\n", encoding="utf-8")  # same path, new content: a new entry
    assert load_words(str(path)).words == ("CAT", "DOG")
    for entry in (tmp_path / "cache" / "xwsat" / "words").glob("*.npz"):
        entry.write_bytes(b"damaged")
    assert load_words(str(path)).words == ("CAT", "DOG")  # a damaged entry is parsed anew


def _damaged(entry, how):
    """The cache entry ``entry`` damaged ``how``: cut short, emptied, or re-saved with arrays
    that disagree (each once made every run fail until the file was deleted)."""
    import io
    import zipfile

    import numpy as np

    data = entry.read_bytes()
    if how == "cut":
        entry.write_bytes(data[:len(data) // 3])
    elif how == "empty":
        entry.write_bytes(b"")
    elif how == "flipped":
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            offset = z.getinfo("scores.npy").header_offset + 80
        entry.write_bytes(data[:offset] + bytes([data[offset] ^ 0xFF]) + data[offset + 1:])
    else:
        with np.load(entry) as z:
            arrays = dict(z)
        arrays["scores" if how == "short" else "meta"] = (
            arrays["scores"][:-1] if how == "short" else np.frombuffer(b"[]", dtype=np.uint8))
        with open(entry, "wb") as handle:
            np.savez(handle, **arrays)


@pytest.mark.parametrize("how", ["cut", "empty", "flipped", "short", "meta"])
def test_a_damaged_cache_entry_is_parsed_anew_and_replaced(tmp_path, monkeypatch, how):
    monkeypatch.delenv("XWSAT_NO_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = tmp_path / "w.txt"
    path.write_text("cat;60;a pet\ndog;40\nemu\nACE;50;one\n", encoding="utf-8")
    first = load_words(str(path))
    (entry,) = (tmp_path / "cache" / "xwsat" / "words").glob("*.npz")
    _damaged(entry, how)
    again = load_words(str(path))
    assert again.words == first.words and (again.scores == first.scores).all()
    assert load_words(str(path)).words == first.words  # and the entry made again is good


def test_the_count_of_lines_left_out_survives_the_cache(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("XWSAT_NO_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = tmp_path / "w.txt"
    path.write_text("ZA\nBC\nZB\nAC\nR2D2\n")
    first = load_words(str(path), alphabet="ABC")
    again = load_words(str(path), alphabet="ABC")
    assert first.skipped == again.skipped == 3 and again.words == ("AC", "BC")


def test_reading_stops_at_binary_bytes_or_the_size_cap(tmp_path) -> None:
    # /dev/zero or a gzip bomb as a dictionary once filled gigabytes before any check
    from xwsat.words import decode_text, gunzip, read_bytes

    with pytest.raises(XwsatError, match="binary"):
        read_bytes(Path("/dev/zero"))
    big = tmp_path / "big.txt"
    big.write_bytes(b"word\n" * 30000)
    assert read_bytes(big) == b"word\n" * 30000
    with pytest.raises(XwsatError, match="larger than"):
        read_bytes(big, most=100_000)
    bomb = gzip.compress(b"a\n" * 100_000)
    with pytest.raises(XwsatError, match="unpacks to more than"):
        gunzip(bomb, "bomb.gz", most=50_000)
    two = gzip.compress(b"AB\n") + gzip.compress(b"CD\n")  # members one after another
    assert decode_text(two, "two.gz") == "AB\nCD\n"
    for damaged in (two[:12], two[:-3], two + b"junk"):
        with pytest.raises(XwsatError, match="damaged gzip"):
            decode_text(damaged, "x.gz")


# --- words never dropped in silence -----------------------------------------------------------

def test_every_unicode_space_folds_like_the_ascii_space() -> None:
    import sys
    import unicodedata

    spaces = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Zs"]
    assert len(spaces) >= 17
    for space in spaces:
        assert normalize_word(f"ice{space}cream") == "ICECREAM", hex(ord(space))


@pytest.mark.parametrize("line", ["ICE\u00a0CREAM", "ICE\u2009CREAM", "ICE\u202fCREAM",
                                  "ICE\u3000CREAM;50", "\ufeffICECREAM", "ICE\ufeffCREAM"])
def test_a_word_with_a_unicode_space_or_a_byte_order_mark_is_kept(line) -> None:
    found, skipped = parse_entries(["CA", line], "t")
    assert "ICECREAM" in found and skipped == 0


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32",
                                      "utf-32-le", "utf-32-be"])
def test_utf16_and_utf32_lists_read_like_utf8(tmp_path, encoding) -> None:
    text = "ICE CREAM;60;a cold dessert\nКОТ\nÉTÉ\nCA\n" * 50
    (tmp_path / "u8.txt").write_text(text, encoding="utf-8")
    (tmp_path / "wide.txt").write_bytes(text.encode(encoding))
    plain, wide = load_words(str(tmp_path / "u8.txt")), load_words(str(tmp_path / "wide.txt"))
    assert wide.words == plain.words and dict(wide.clues) == dict(plain.clues)


def test_broken_utf16_is_named_and_binary_still_refused(tmp_path) -> None:
    broken = tmp_path / "broken.txt"
    broken.write_bytes(b"\xff\xfe" + "CA\nAB\n".encode("utf-16-le") + b"\x00\xd8")
    with pytest.raises(XwsatError, match="not UTF-16 text"):
        load_words(str(broken))
    binary = tmp_path / "binary.txt"
    binary.write_bytes(bytes(range(256)) * 64)
    with pytest.raises(XwsatError, match="binary"):
        load_words(str(binary))


def test_a_line_left_out_is_always_noted(tmp_path) -> None:
    """No-break space once made ICE CREAM vanish: "unfillable", and not a word said."""
    from typer.testing import CliRunner

    from xwsat.cli import app

    grid = tmp_path / "g.txt"
    grid.write_text("........\n")
    words = tmp_path / "w.txt"
    words.write_text("ICE\u00a0CREAM\nB@D WORD\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["fill", str(grid), "--dict", str(words)])
    assert result.exit_code == 0 and "ICECREAM" in result.stdout.replace(" ", ""), result.output
    assert ("note: 1 line of the dictionary left out (not words), the first line 2: "
            "'B@D WORD'; 1 word kept") in result.stderr


@pytest.mark.parametrize("line,expected", [
    ("GALE\t12", ("GALE", 12, None)),  # a spreadsheet's WORD<tab>SCORE
    ("GALE\t12\tA strong wind", ("GALE", 12, "A strong wind")),
    ("GALE\t4.6", ("GALE", 5, None)),
    ("GALE\tA strong wind", ("GALE", 50, "A strong wind")),  # a description, as before
])
def test_a_tab_before_a_number_is_a_score(line, expected):
    entries, skipped = parse_entries([line], "t")
    word, score, clue = expected
    assert skipped == 0 and entries == {word: (score, clue)}


def test_old_mac_line_ends_break_lines():
    from xwsat.words import text_lines

    assert list(text_lines("CAT;50\rDOG;40\r")) == ["CAT;50", "DOG;40", ""]
    assert list(text_lines("CAT\r\nDOG\n")) == ["CAT", "DOG", ""]


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 8, 1 << 22])
def test_lines_split_a_few_at_a_time_are_the_same_lines(monkeypatch, chunk):
    from xwsat import words

    monkeypatch.setattr(words, "LINES_CHUNK", chunk)
    for text in ("CAT;50\nDOG;40\n", "CAT\r\nDOG\r\nEMU", "\n\nA\n\n", "A\rB\rC", "",
                 "ONE", "X;1;a clue\r\n\r\nY\n"):
        plain = text.split("\r") if "\n" not in text and "\r" in text else [
            line.removesuffix("\r") for line in text.split("\n")]
        assert list(words.text_lines(text)) == plain, text


def test_typographic_apostrophes_are_dropped():
    assert normalize_word("rock ‘n’ roll") == "ROCKNROLL" and normalize_word("donʼt") == "DONT"


def test_a_list_of_no_words_says_which_line_is_wrong(tmp_path):
    path = tmp_path / "l.csv"
    path.write_text("word,score\ncake,50\npie,40\n")
    with pytest.raises(XwsatError, match=r"3 lines left out \(not words\), the first line 1: "
                                         r"'word,score'"):
        load_words(str(path))
    path.write_text("CAKE;30\n")  # only below the minimum: said as before
    with pytest.raises(XwsatError, match=r"no usable words with score >= 40$"):
        load_words(str(path), 40)


def test_a_byte_that_is_not_utf8_is_placed_by_line(tmp_path):
    path = tmp_path / "l.txt"
    path.write_bytes(b"CAKE\nPIE\ncaf\xe9;50\n")
    with pytest.raises(XwsatError, match=r"line 3, bad byte at offset 12\); save it as UTF-8"):
        load_words(str(path))


def test_an_alphabet_too_large_names_its_list(tmp_path):
    path = tmp_path / "many.txt"
    path.write_text("".join(chr(0x3041 + i) * 3 + "\n" for i in range(70)), encoding="utf-8")
    with pytest.raises(XwsatError, match=r"many.txt: the alphabet has 70 letters"):
        load_words(str(path))


def test_a_description_after_a_plain_hyphen_is_noted_and_the_note_survives_the_cache(
        tmp_path, monkeypatch) -> None:
    """``trifle - a dessert`` is one word, TRIFLEADESSERT, as documented; it used to be read
    so without a word said."""
    from typer.testing import CliRunner

    from xwsat.cli import app
    from xwsat.workbench.dictionaries import left_out_note

    monkeypatch.delenv("XWSAT_NO_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    words = tmp_path / "w.txt"
    words.write_text("cake\ntrifle - a dessert\npie - baked\ntart \u2014 a pastry\nHIT-OR-MISS\n",
                     encoding="utf-8")
    for _ in range(2):  # parsed, then read back from the cache
        loaded = load_words(str(words))
        assert loaded.dashed == 2 and "TRIFLEADESSERT" in loaded.words and "TART" in loaded.words
        assert loaded.first_dashed == "line 2: 'trifle - a dessert' read as TRIFLEADESSERT"
    grid = tmp_path / "g.txt"
    grid.write_text("....\n")
    result = CliRunner().invoke(app, ["fill", str(grid), "--dict", str(words)])
    assert result.exit_code == 0, result.output
    assert ("note: 2 lines hold ' - ', read as one word, the first line 2: 'trifle - a "
            "dessert' read as TRIFLEADESSERT; a description goes after") in result.stderr
    assert left_out_note("w.txt", loaded).startswith("w.txt: 2 lines hold ' - '")
    plain = tmp_path / "plain.txt"
    plain.write_text("cake\ncrème-brûlée\n", encoding="utf-8")
    assert load_words(str(plain)).dashed == 0
