"""Puzzle files: every format round-trips (Latin, Cyrillic, Ñ), bad files fail in one line."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from xwsat.cli import app
from xwsat.errors import XwsatError
from xwsat.formats import Puzzle, read_grid, read_puzzle, render_puzzle, render_svg
from xwsat.formats.jsonfile import read_json
from xwsat.grid import extract_slots, parse_grid

runner = CliRunner()

CASES = {
    "latin": ("C..#\n....\n#...\n", "CAT#\nOBOE\n#ALE\n"),
    "cyrillic": ("Ё..#\n....\n#...\n", "ЁЖИ#\nДОМА\n#ЕЛЬ\n"),
    "enye": ("Ñ..#\n....\n#...\n", "ÑOS#\nARTE\n#ALA\n"),
}


def puzzle(case: str) -> Puzzle:
    pattern, solution = CASES[case]
    return Puzzle(parse_grid(pattern), parse_grid(solution), {"1A": "first ; clue", "6A": "last"},
                  "Test", "xwsat")


def write(path: Path, data: str | bytes) -> Path:
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return path


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("ext", [".ipuz", ".json", ".puz"])
def test_round_trip(tmp_path, case, ext):
    p = puzzle(case)
    if ext == ".puz" and case == "cyrillic":
        with pytest.raises(XwsatError, match="do not fit"):
            render_puzzle(p, "x.puz")
        return
    path = write(tmp_path / f"x{ext}", render_puzzle(p, f"x{ext}"))
    back = read_puzzle(path)
    assert back.pattern == p.pattern  # blocks and the given letter
    assert back.solution == p.solution
    assert back.clues == p.clues
    assert back.title == "Test"
    assert read_grid(path) == p.pattern


@pytest.mark.parametrize("case", sorted(CASES))
def test_text_round_trip(tmp_path, case):
    p = puzzle(case)
    path = write(tmp_path / "x.txt", render_puzzle(p, "x.txt"))
    assert read_grid(path) == p.solution
    blank = write(tmp_path / "p.txt", p.pattern.to_text())
    assert read_grid(blank) == p.pattern


def test_ipuz_is_valid_and_numbered():
    import ipuz

    text = render_puzzle(puzzle("cyrillic"), "x.ipuz")
    data = ipuz.read(text)
    assert data["puzzle"][0][0] == {"cell": 1, "value": "Ё"}
    assert data["puzzle"][1][0] == 4 and data["puzzle"][0][3] == "#"
    assert [n for n, _ in data["clues"]["Down"]] == [1, 2, 3, 5]
    assert data["solution"][1] == ["Д", "О", "М", "А"]
    assert data["charset"].startswith("АБВГДЕЁЖ")  # a solver app must let the user type them
    assert "Ñ" in ipuz.read(render_puzzle(puzzle("enye"), "x.ipuz"))["charset"]
    assert "charset" not in ipuz.read(render_puzzle(puzzle("latin"), "x.ipuz"))  # A-Z: default


def test_puz_is_readable_by_puzpy_with_checksums():
    import puz

    p = puz.load(render_puzzle(puzzle("enye"), "x.puz"))
    assert p.solution == "ÑOS.ARTE.ALA"
    assert p.fill == "Ñ--.----.---"
    numbering = p.clue_numbering()
    assert [c["num"] for c in numbering.across] == [1, 4, 6]
    assert numbering.across[0]["clue"] == "first ; clue"


def test_puz_clues_with_typography_are_spelt_in_its_one_byte_encoding():
    """Curly quotes, dashes and ellipses are common in clues; a .puz holds ISO-8859-1 only, so
    they are spelt in ASCII (the write failed after the search)."""
    import puz

    base = puzzle("enye")
    clued = Puzzle(base.pattern, base.solution, {"1A": "Café “quoted” — dash…", "6A": "Ωmega"},
                   "Tést – title", "xwsat")
    p = puz.load(render_puzzle(clued, "x.puz"))
    assert p.clues[0] == 'Café "quoted" -- dash...' and p.title == "Tést - title"
    assert "?mega" in p.clues


def test_puz_needs_a_full_solution_and_says_which_square_is_empty():
    with pytest.raises(XwsatError, match="row 1, column 1 is empty$"):
        render_puzzle(Puzzle(parse_grid("...\n...\n")), "x.puz")
    # a square boxed in by blocks cannot be filled: "complete solution" gave no way out
    with pytest.raises(XwsatError, match="row 3, column 1 is empty and in no entry: make it"):
        render_puzzle(Puzzle(parse_grid("ABC\n###\n.#.\n")), "x.puz")
    with pytest.raises(XwsatError, match="every square is a block"):
        render_puzzle(Puzzle(parse_grid("###\n###\n")), "x.puz")


def test_svg_numbers_letters_and_highlights():
    p = puzzle("cyrillic")
    slots = extract_slots(p.pattern)
    svg = render_svg(p.solution, p.numbering(), highlight_slots=[slots[0]])
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert ">Ж</text>" in svg and ">5</text>" in svg
    assert svg.count('fill-opacity="0.8"') == 3  # the three cells of 1A
    blank = render_svg(p.pattern, p.numbering(), show_letters=False)
    assert ">Ж</text>" not in blank and ">1</text>" in blank


def test_html_embeds_the_puzzle():
    html = render_puzzle(puzzle("enye"), "x.html")
    assert html.startswith("<!DOCTYPE html>") and "ÑOS#" in html and "first ; clue" in html
    assert "<script src" not in html and "http" not in html.split("<script")[1].split("</")[0]


def test_html_shows_the_credits_and_notes_escaped():
    shown = replace(puzzle("latin"), author="Ann <Bo>", copyright="© 2026", notes="A & B")
    html = render_puzzle(shown, "x.html")
    assert '<div id="credits">Ann &lt;Bo&gt; · © 2026</div>' in html
    assert '<p id="notes">A &amp; B</p>' in html
    assert 'id="credits"' not in render_puzzle(replace(puzzle("latin"), author=""), "x.html")


@pytest.mark.parametrize("case,heading", [("latin", "Across"), ("cyrillic", "По горизонтали"),
                                          ("enye", "Horizontales")])
def test_html_headings_follow_the_letters_when_no_list_names_the_language(case, heading):
    assert f">{heading}<" in render_puzzle(puzzle(case), "x.html")
    assert ">Across<" in render_puzzle(puzzle(case), "x.html", "en")  # a named list wins


@pytest.mark.parametrize("name,data,message", [
    ("bad.ipuz", "{not json", "not a valid ipuz"),
    ("bad.ipuz", json.dumps({"version": "http://ipuz.org/v2", "kind": ["x"]}), "not a crossword"),
    ("bad.puz", b"\x00garbage" * 10, "not a valid .puz"),
    ("bad.json", "[1, 2]", "must be an object"),
    ("bad.txt", "..x\n.#\n", "different widths"),
])
def test_bad_files_fail_in_one_line(tmp_path, name, data, message):
    path = write(tmp_path / name, data)
    with pytest.raises(XwsatError, match=message):
        read_grid(path)
    result = runner.invoke(app, ["fill", str(path), "--dict", str(tmp_path / "none.txt")])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


@pytest.fixture()
def tiny_dict(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("CAT;60;Feline\nOBOE;50;Reed\nALE;40;Beer\nCO\nABA\nTOL\nEE\n",
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("ext", [".txt", ".json", ".ipuz", ".puz", ".svg", ".html"])
def test_fill_out_picks_format_by_extension(tmp_path, tiny_dict, ext):
    grid = write(tmp_path / "g.ipuz", render_puzzle(Puzzle(parse_grid(CASES["latin"][0])),
                                                     "g.ipuz"))
    out = tmp_path / f"filled{ext}"
    result = runner.invoke(app, ["fill", str(grid), "--dict", str(tiny_dict), "--out", str(out),
                                 "--backend", "cpsat", "--allow-repeats"])
    assert result.exit_code == 0, result.output
    assert out.exists()
    if ext in (".json", ".ipuz", ".puz"):
        back = read_puzzle(out)
        assert back.solution is not None and back.solution.rows[0].startswith("CAT")
        assert back.clues.get("1A") == "Feline"


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="needs chromium for the browser test")
@pytest.mark.parametrize("case", ["enye", "cyrillic", "hostile"])
def test_html_page_works_in_headless_chromium(tmp_path, case):
    lang = {"enye": "es", "cyrillic": "ru", "hostile": "en"}[case]  # localised buttons
    shown = puzzle("latin" if case == "hostile" else case)
    if case == "hostile":  # clues that would end or re-open the script element if unescaped
        shown = Puzzle(shown.pattern, shown.solution,
                       {"1A": "<!--<script>", "6A": "</script><b>&amp;"}, "<!--", "</title>")
    page = write(tmp_path / "p.html", render_puzzle(shown, "p.html", lang))
    profile = tmp_path / "profile"
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
               "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}",
               "--dump-dom", page.as_uri() + "#selftest"]
    dom = subprocess.run(command, capture_output=True, text=True, timeout=90).stdout
    assert "<title>SELFTEST PASS" in dom, dom[-2000:]
    assert "FAIL" not in dom.split('id="selftest"')[1]


def test_convert_between_formats_with_dictionary_clues(tmp_path, tiny_dict):
    solved = write(tmp_path / "s.txt", "CAT#\nOBOE\n#ALE\n")
    out = tmp_path / "s.puz"
    result = runner.invoke(app, ["convert", str(solved), str(out), "--dict", str(tiny_dict)])
    assert result.exit_code == 0, result.output
    back = read_puzzle(out)
    assert back.solution == parse_grid("CAT#\nOBOE\n#ALE\n")
    assert back.pattern.rows[0] == "...#" and back.clues["1A"] == "Feline"
    again = tmp_path / "s.ipuz"
    assert runner.invoke(app, ["convert", str(out), str(again)]).exit_code == 0
    assert read_puzzle(again).clues == back.clues
    bad = runner.invoke(app, ["convert", str(out), str(tmp_path / "s.doc")])
    assert bad.exit_code == 2 and "unknown output format" in bad.output
    # an all-block grid was taken as a complete solution, which .ipuz drops: "would not read back"
    blocks = write(tmp_path / "b.txt", "###\n###\n")
    assert runner.invoke(app, ["convert", str(blocks), str(tmp_path / "b.ipuz")]).exit_code == 0
    assert read_puzzle(tmp_path / "b.ipuz").pattern.rows == ("###", "###")
    # a text grid holds no clues: it said "wrote s.txt (..., 3 clues)" and dropped them
    plain = runner.invoke(app, ["convert", str(again), str(tmp_path / "plain.txt")])
    assert plain.exit_code == 0 and "0 clues" in plain.stdout, plain.output
    assert "clues not written" in plain.stderr


@pytest.mark.parametrize("ext", [".ipuz", ".json", ".puz"])
def test_copyright_and_notes_go_across_every_format(tmp_path, ext):
    # convert kept only title, author and clues: a constructor's copyright line and notes
    # vanished on the way to another format
    base = puzzle("latin")
    p = Puzzle(base.pattern, base.solution, base.clues, "T", "A", copyright="(c) 2026 Me",
               notes="N.B.")
    first = write(tmp_path / f"x{ext}", render_puzzle(p, f"x{ext}"))
    for other in (".ipuz", ".json", ".puz"):
        out = tmp_path / f"y{other}"
        result = runner.invoke(app, ["convert", str(first), str(out), "--force"])
        assert result.exit_code == 0, result.output
        back = read_puzzle(out)
        assert (back.copyright, back.notes, back.author) == ("(c) 2026 Me", "N.B.", "A")


def test_json_keeps_the_shortest_entry_length(tmp_path):
    # a fill with --min-length 3 leaves 2-cell runs without an entry; converting its .json
    # renumbered with 2-letter entries and put the clues on the wrong ones
    grid, solution = parse_grid("...\n..#\n"), parse_grid("CAT\nOX#\n")
    p = Puzzle(grid, solution, {"1A": "Feline"}, "T", min_length=3)
    first = write(tmp_path / "x.json", render_puzzle(p, "x.json"))
    back = read_puzzle(first)
    assert back.min_length == 3 and [s.name for s in back.slots] == ["1A"]
    svg = tmp_path / "x.svg"
    assert runner.invoke(app, ["convert", str(first), str(svg)]).exit_code == 0
    again = tmp_path / "y.json"
    assert runner.invoke(app, ["convert", str(first), str(again)]).exit_code == 0
    assert json.loads(again.read_text(encoding="utf-8"))["entries"][0]["clue"] == "Feline"


def test_ipuz_keeps_its_clues_on_the_entries_it_numbered(tmp_path):
    # ipuz has no field for the shortest entry: its cell numbers say it; read at 2 letters,
    # PETTY's clue went to a 2-letter run and PETTY was left unclued
    grid, solution = parse_grid(".....\n..#..\n.....\n"), parse_grid("HADES\nAB#EA\nPETTY\n")
    p = Puzzle(grid, solution, {"1A": "Underworld", "5A": "Small-minded"}, "T", min_length=3)
    first = write(tmp_path / "x.ipuz", render_puzzle(p, "x.ipuz"))
    back = read_puzzle(first)
    assert back.min_length == 3 and back.clues == p.clues
    assert [s.name for s in back.slots] == ["1A", "5A", "1D", "2D", "3D", "4D"]
    page = tmp_path / "x.html"
    assert runner.invoke(app, ["convert", str(first), str(page)]).exit_code == 0
    for name, command in (("x.puz", "convert"), ("y.puz", "fill")):  # no .puz form: said first
        out = tmp_path / name
        args = [command, str(first), str(out)] if command == "convert" else \
            [command, str(first), "--out", str(out)]
        said = runner.invoke(app, args)
        assert said.exit_code == 2 and f"{out}: .puz clues every run of 2" in said.output
        assert not out.exists()


def test_fill_and_info_take_the_shortest_entry_from_the_file(tmp_path):
    grid = tmp_path / "g.json"
    grid.write_text(render_puzzle(Puzzle(parse_grid("...\n..#\n"), min_length=3), "g.json"))
    info = runner.invoke(app, ["info", str(grid), "--json"])
    assert [s["name"] for s in json.loads(info.stdout)["slots"]] == ["1A"], info.output
    given = runner.invoke(app, ["info", str(grid), "--json", "--min-length", "2"])
    assert len(json.loads(given.stdout)["slots"]) == 4  # the command line wins


def test_a_solvers_wrong_letter_in_a_puz_is_not_a_given(tmp_path):
    import puz

    data = render_puzzle(puzzle("latin"), "x.puz")
    p = puz.load(data)
    fill = list(p.fill)
    fill[1], fill[2] = "X", "T"  # a wrong guess where the solution has A; a right one (T)
    p.fill = "".join(fill)
    back = read_puzzle(write(tmp_path / "x.puz", p.tobytes()))
    assert back.pattern.rows[0] == "C.T#"  # C was given, T agrees with the solution, X does not


@pytest.mark.parametrize("ext", [".ipuz", ".json", ".puz"])
def test_circled_cells_go_across_every_format_and_are_drawn(tmp_path, ext):
    # a theme's circles (.puz GEXT, ipuz shapebg) were dropped by every conversion
    base = puzzle("latin")
    p = Puzzle(base.pattern, base.solution, base.clues, "T", circles=frozenset({1, 5, 10}))
    first = write(tmp_path / f"x{ext}", render_puzzle(p, f"x{ext}"))
    assert read_puzzle(first).circles == {1, 5, 10}
    for other in (".ipuz", ".json", ".puz", ".svg", ".html"):
        out = tmp_path / f"y{other}"
        result = runner.invoke(app, ["convert", str(first), str(out), "--force"])
        assert result.exit_code == 0, result.output
        if other == ".svg":
            assert out.read_text(encoding="utf-8").count("<circle") == 3
        elif other == ".html":
            assert '"circles": [1, 5, 10]' in out.read_text(encoding="utf-8")
        else:
            assert read_puzzle(out).circles == {1, 5, 10}


def test_a_page_that_cannot_check_its_answers_says_so(tmp_path):
    # a --min-length 3 fill leaves cells in no entry without a letter: the solving page then has
    # no solution to check against, which it did without a word
    p = Puzzle(parse_grid("...\n..#\n"), parse_grid("CAT\n..#\n"), {"1A": "Feline"}, "T",
               min_length=3)
    source = write(tmp_path / "x.json", render_puzzle(p, "x.json"))
    result = runner.invoke(app, ["convert", str(source), str(tmp_path / "x.html")])
    assert result.exit_code == 0, result.output
    assert "note: 2 white cells of the solution have no letter (in no entry)" in result.output
    # a cell of an entry without a letter (a digit there in a .puz) is no cell in no entry
    part = Puzzle(parse_grid("...\n...\n"), parse_grid("CAT\nA.E\n"))
    source = write(tmp_path / "p.json", render_puzzle(part, "p.json"))
    result = runner.invoke(app, ["convert", str(source), str(tmp_path / "p.html")])
    assert "1 white cell of the solution has no letter (in an entry)" in result.output
    full = write(tmp_path / "y.json", render_puzzle(puzzle("latin"), "y.json"))
    quiet = runner.invoke(app, ["convert", str(full), str(tmp_path / "y.html")])
    assert quiet.exit_code == 0 and "note:" not in quiet.output


def test_a_puz_that_cannot_hold_a_clue_says_so(tmp_path) -> None:
    # clue text outside ISO-8859-1 became '?' without a word
    from typer.testing import CliRunner

    from xwsat.cli import app

    grid, words = tmp_path / "g.txt", tmp_path / "w.txt"
    grid.write_text("..\n..\n")
    words.write_text("AB;50;日本 one\nCD;50;two 日\nAC;50;three\nBD;50;four\n", encoding="utf-8")
    runner = CliRunner()
    puz = runner.invoke(app, ["fill", str(grid), "-d", str(words), "-o", str(tmp_path / "f.puz")])
    assert puz.exit_code == 0 and "a .puz cannot hold" in puz.stderr
    ipuz = runner.invoke(app, ["fill", str(grid), "-d", str(words), "-o",
                               str(tmp_path / "f.ipuz")])
    assert ipuz.exit_code == 0 and "cannot hold" not in ipuz.stderr


def _convert_notes(source: Path, tmp_path: Path) -> list[str]:
    result = runner.invoke(app, ["convert", str(source), str(tmp_path / "out.ipuz"), "--force"])
    assert result.exit_code == 0, result.output
    return [line for line in result.stderr.splitlines() if line.startswith("note:")]


def test_what_a_reader_cannot_keep_is_said_not_dropped(tmp_path):
    # a scrambled .puz solution, a digit or a rebus in a .puz solution, an
    # .ipuz solution letter on a block or block on an open cell, all lost without a word
    import puz

    data = render_puzzle(puzzle("latin"), "x.puz")
    assert _convert_notes(write(tmp_path / "plain.puz", data), tmp_path) == []
    locked = puz.load(data)
    locked.lock_solution(1234)
    notes = _convert_notes(write(tmp_path / "locked.puz", locked.tobytes()), tmp_path)
    assert len(notes) == 1 and "scrambled" in notes[0]
    digit = puz.load(data)
    digit.solution = "C1" + digit.solution[2:]
    notes = _convert_notes(write(tmp_path / "digit.puz", digit.tobytes()), tmp_path)
    assert len(notes) == 1 and "digit or symbol instead of a letter: 1," in notes[0]
    rebus = puz.load(data)  # cell 1 holds AXE: the solution string keeps its first letter
    rebus.extensions[puz.Extensions.Rebus] = bytes([0, 2] + [0] * 10)
    rebus.extensions[puz.Extensions.RebusSolutions] = b" 1:AXE;"
    rebus._extensions_order.extend([puz.Extensions.Rebus, puz.Extensions.RebusSolutions])
    notes = _convert_notes(write(tmp_path / "rebus.puz", rebus.tobytes()), tmp_path)
    assert len(notes) == 1 and "rebus cells (several letters in one square): 1," in notes[0]
    doc = json.loads(render_puzzle(puzzle("latin"), "x.ipuz"))
    doc["solution"][1][1] = "#"  # a block where the puzzle has an open cell
    notes = _convert_notes(write(tmp_path / "hole.ipuz", json.dumps(doc)), tmp_path)
    assert len(notes) == 1 and "solution blocks on the puzzle's open cells: 1," in notes[0]
    doc = json.loads(render_puzzle(puzzle("latin"), "x.ipuz"))
    doc["solution"][0][3] = "Z"  # row 1, column 4 is a block
    notes = _convert_notes(write(tmp_path / "z.ipuz", json.dumps(doc)), tmp_path)
    assert len(notes) == 1 and "letters on the puzzle's blocks: 1," in notes[0]


@pytest.mark.parametrize("ext", [".svg", ".html", ".png"])
def test_a_picture_or_page_given_as_a_grid_is_refused_by_its_kind(ext):
    from xwsat.formats import puzzle_from_bytes

    with pytest.raises(XwsatError, match=f"does not read \\{ext} files"):
        puzzle_from_bytes(b"<svg>...</svg>\n" * 3, "grid" + ext)


@pytest.mark.parametrize("edit,message", [
    (lambda d: d["pattern"].__setitem__(0, "#" + d["pattern"][0][1:]), "row 1, column 1"),
    (lambda d: d["solution"].pop(), "the solution is 4x2, the pattern 4x3"),
    (lambda d: d["pattern"].__setitem__(1, "X" + d["pattern"][1][1:]), "'X' in the pattern"),
])
def test_a_json_whose_solution_disagrees_with_its_pattern_is_refused(edit, message):
    data = json.loads(render_puzzle(puzzle("latin"), "x.json"))
    edit(data)
    with pytest.raises(XwsatError, match=message):
        read_json(json.dumps(data), "x.json")


@pytest.mark.parametrize("ext", [".json", ".ipuz", ".svg", ".html", ".puz"])
def test_a_lone_surrogate_in_a_title_or_clue_is_written_as_a_replacement_character(ext):
    """JSON can spell "\\ud800", which no UTF-8 file can hold: it failed the write after the
    whole search (exit 4)."""
    data = json.loads(render_puzzle(puzzle("latin"), "x.json"))
    data["title"] = "bad \\ud800 title"
    data["entries"][0]["clue"] = "clue \\udfff"
    read = read_json(json.dumps(data), "x.json")
    written = render_puzzle(read, f"x{ext}")
    assert written  # (.puz writes "?" for what Latin-1 lacks)


def test_a_puzzle_file_of_tens_of_megabytes_is_refused_before_it_is_read(tmp_path):
    """Hundreds of MB of blank lines took 16 s and 4 GB, past every limit, to say "empty"."""
    from xwsat.formats import MAX_PUZZLE_BYTES

    for name in ("big.txt", "big.puz"):
        path = tmp_path / name
        path.write_bytes(b"\n" * (MAX_PUZZLE_BYTES + 1))
        with pytest.raises(XwsatError, match="larger than 64 MiB; not a puzzle"):
            read_puzzle(path)
    blank = tmp_path / "blank.txt"
    blank.write_bytes(b"\n" * (8 << 20))
    with pytest.raises(XwsatError, match="the grid is empty"):
        read_puzzle(blank)


def _ipuz(tmp_path: Path, name: str, edit) -> Path:
    doc = json.loads(render_puzzle(puzzle("latin"), "x.ipuz"))
    edit(doc)
    return write(tmp_path / name, json.dumps(doc, ensure_ascii=False))


def test_an_ipuz_with_bars_is_refused_rather_than_read_as_other_entries(tmp_path):
    # bars were ignored: the entries read ran past them, and the fill had other lengths
    def bar(doc):
        doc["puzzle"][1][2] = {"cell": 0, "style": {"barred": "L"}}

    with pytest.raises(XwsatError, match="row 2, column 3 has bars; .* not barred grids"):
        read_puzzle(_ipuz(tmp_path, "bars.ipuz", bar))


def test_ipuz_clues_follow_the_cells_their_numbers_label(tmp_path):
    # a file numbering its cells its own way had its clues put on other entries by number
    grid, solution = parse_grid("...\n...\n...\n"), parse_grid("CAT\nARE\nBEE\n")
    doc = json.loads(render_puzzle(Puzzle(grid, solution), "x.ipuz"))
    doc["puzzle"] = [[1, 2, 3], [5, 0, 0], [4, 0, 0]]
    doc["clues"] = {"Across": [[1, "Feline"], [5, "Exist"], [4, "Buzzer"]],
                    "Down": [[1, "Taxi"]]}
    back = read_puzzle(write(tmp_path / "own.ipuz", json.dumps(doc)))
    assert back.clues == {"1A": "Feline", "4A": "Exist", "5A": "Buzzer", "1D": "Taxi"}
    assert any("do not follow standard numbering" in note for note in back.dropped)


def test_ipuz_reads_decomposed_letters_gives_and_bare_clues(tmp_path):
    def edit(doc):
        doc["solution"][0][0] = "N\u0303"  # Ñ as N and a combining tilde (macOS editors)
        doc["puzzle"][0][0] = {"cell": 1, "value": "N\u0303"}
        doc["solution"][1][1] = None  # a given letter where the solution says nothing
        doc["puzzle"][1][1] = {"cell": 0, "value": "B"}
        doc["clues"]["Across"] = ["first", "second", "third"]  # texts alone, in order

    back = read_puzzle(_ipuz(tmp_path, "x.ipuz", edit))
    assert back.pattern.cell(0) == "Ñ" and back.solution.cell(0) == "Ñ"
    assert back.solution.cell(5) == "B"
    across = [s.name for s in back.slots if s.direction == "A"]
    assert [back.clues[n] for n in across] == ["first", "second", "third"]

    def clash(doc):
        doc["puzzle"][1][1] = {"cell": 0, "value": "Z"}

    with pytest.raises(XwsatError, match="row 2, column 2: the given letter 'Z' is not the"):
        read_puzzle(_ipuz(tmp_path, "clash.ipuz", clash))


def test_clues_for_entries_the_grid_lacks_are_dropped_and_said(tmp_path):
    # convert refused the file as "would not read back"; fill dropped the clue silently
    doc = json.loads(render_puzzle(puzzle("latin"), "x.json"))
    doc["entries"].append({"slot": "99A", "clue": "no such"})
    source = write(tmp_path / "x.json", json.dumps(doc))
    result = runner.invoke(app, ["convert", str(source), str(tmp_path / "y.json")])
    assert result.exit_code == 0, result.output
    assert "clues for entries the grid does not have: 1 (99A), dropped" in result.stderr


def test_an_ipuz_far_larger_than_declared_is_refused_before_validation(tmp_path):
    doc = json.loads(render_puzzle(puzzle("latin"), "x.ipuz"))
    doc["puzzle"] = [[0] * 400 for _ in range(400)]
    with pytest.raises(XwsatError, match="not 4x3 as declared"):
        read_puzzle(write(tmp_path / "liar.ipuz", json.dumps(doc)))


def test_puz_gz_and_nul_in_notes_and_a_one_cell_json(tmp_path):
    import gzip

    import puz

    data = render_puzzle(replace(puzzle("latin"), notes="a\x00b"), "x.puz")
    assert puz.load(data).notes == "ab"  # the NUL broke the file's checksums
    back = read_puzzle(write(tmp_path / "x.puz.gz", gzip.compress(data)))
    assert back.solution == puzzle("latin").solution
    one = Puzzle(parse_grid("A\n"))
    assert read_puzzle(write(tmp_path / "one.json", render_puzzle(one, "one.json"))) == one


def test_fill_keeps_the_locked_entries_of_a_json_puzzle(tmp_path):
    # the workbench's locks were dropped by the command line: the fill could replace them
    words = write(tmp_path / "w.txt", "AB\nCD\nAC\nBD\nEF\nGH\nEG\nFH\n")
    for locked, seed in (("AB", "0"), ("AB", "1"), ("EF", "0"), ("EF", "1")):
        other = "CD" if locked == "AB" else "GH"
        grid = write(tmp_path / "g.json", render_puzzle(Puzzle(
            parse_grid("..\n..\n"), parse_grid(f"{locked}\n{other}\n"),
            locked=frozenset({"1A"})), "g.json"))
        out = tmp_path / "out.json"
        result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--seed", seed,
                                     "--out", str(out), "--force"])
        assert result.exit_code == 0, result.output
        assert f"its locked entries stay: 1A={locked}" in result.stderr
        kept = {e["slot"]: e for e in json.loads(out.read_text())["entries"]}
        assert kept["1A"]["answer"] == locked and kept["1A"]["locked"] is True


def test_fill_and_prove_keep_the_banned_words_of_a_json_puzzle(tmp_path):
    """The workbench's bans, saved in its .json, were dropped by the command line: a fill
    could hand back a word the constructor had banned for this puzzle."""
    words = write(tmp_path / "w.txt", "AB\nCD\nAC\nBD\nEF\nGH\nEG\nFH\n")
    grid = write(tmp_path / "g.json", render_puzzle(Puzzle(
        parse_grid("..\n..\n"), bans=("AB", "XY")), "g.json"))
    assert read_puzzle(grid).bans == ("AB", "XY")
    out = tmp_path / "out.json"
    for seed in ("0", "1", "2"):
        result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--seed", seed,
                                     "--out", str(out), "--force", "--json"])
        assert result.exit_code == 0, result.output
        assert "its banned words stay out: AB, XY" in result.stderr
        assert json.loads(result.stdout)["grid"] in (["EF", "GH"], ["EG", "FH"])
        assert json.loads(out.read_text())["bans"] == ["AB", "XY"]  # kept for the next run
    proved = runner.invoke(app, ["prove", str(grid), "-d", str(words), "--ban", "EF"])
    assert proved.exit_code == 1 and "UNFILLABLE" in proved.stdout, proved.output
    locked = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--lock", "1A=AB"])
    assert locked.exit_code == 0 and "so allowed: AB" in locked.stderr, locked.output
    for bad in ('"AB"', '[3]', '[""]'):
        text = json.loads(grid.read_text())
        broken = write(tmp_path / "bad.json", json.dumps({**text, "bans": json.loads(bad)}))
        refused = runner.invoke(app, ["fill", str(broken), "-d", str(words)])
        assert refused.exit_code == 2 and "'bans' must list" in refused.output, bad


def test_a_json_puzzle_keeps_the_list_it_was_made_with_through_a_fill(tmp_path):
    words = write(tmp_path / "w.txt", "AB\nCD\nAC\nBD\n")
    grid = write(tmp_path / "g.json", render_puzzle(Puzzle(
        parse_grid("..\n..\n"), word_list=("en", 50)), "g.json"))
    assert read_puzzle(grid).word_list == ("en", 50)
    out = tmp_path / "out.json"
    result = runner.invoke(app, ["fill", str(grid), "-d", str(words), "--out", str(out)])
    assert result.exit_code == 0, result.output
    # the .json written names the list this fill used (a record, not the input's)
    assert json.loads(out.read_text())["word_list"] == {"name": "w.txt", "min_score": 0}
    for bad in ('"en"', '{"name": "en", "min_score": 101}', '{"min_score": 3}'):
        text = json.loads(grid.read_text())
        broken = write(tmp_path / "bad.json", json.dumps({**text, "word_list": json.loads(bad)}))
        assert read_puzzle(broken).word_list is None  # a record only: not read, not refused
        filled = runner.invoke(app, ["fill", str(broken), "-d", str(words)])
        assert filled.exit_code == 0, (bad, filled.output)


def test_a_json_puzzles_own_lock_beats_its_own_ban(tmp_path):
    # a file whose locked entry it also banned was refused by fill, prove and candidates
    # ("OPAL is also banned")
    words = write(tmp_path / "w.txt", "AB\nCD\nAC\nBD\nEF\nGH\nEG\nFH\n")
    both = write(tmp_path / "both.json", render_puzzle(Puzzle(
        parse_grid("..\n..\n"), parse_grid("EF\nGH\n"), locked=frozenset({"1A"}),
        bans=("EF",)), "both.json"))
    for command in (["fill"], ["prove"], ["candidates", "3A"]):
        result = runner.invoke(app, [*command[:1], str(both), *command[1:], "-d", str(words)])
        assert result.exit_code in (0, 3), result.output
        assert "so allowed: EF" in result.stderr


def test_prove_keeps_the_locked_entries_of_a_json_puzzle(tmp_path):
    """prove read a workbench .json's locked entry as given letters: a theme word the list
    lacks made it say "unfillable" where fill, keeping the lock, fills the grid."""
    words = write(tmp_path / "w.txt", "CD\nQC\nZD\n")
    grid = write(tmp_path / "g.json", render_puzzle(Puzzle(
        parse_grid("QZ\n..\n"), locked=frozenset({"1A"})), "g.json"))
    for command in ("fill", "prove"):
        result = runner.invoke(app, [command, str(grid), "-d", str(words)])
        assert result.exit_code == 0 and "QZ\n" in result.stdout.replace(" ", ""), result.output
        assert "its locked entries stay: 1A=QZ" in result.stderr


def test_convert_to_standard_output_is_refused_by_name(tmp_path):
    source = write(tmp_path / "g.txt", "..\n..\n")
    result = runner.invoke(app, ["convert", str(source), "-"])
    assert result.exit_code == 2 and "convert writes a file, not standard output" in result.output


def test_a_puzzle_file_named_as_a_text_grid_is_told_by_its_content(tmp_path):
    # an .ipuz named .txt was "the grid is 33x132"; a .puz named .txt "a binary file"
    ipuz = write(tmp_path / "p.txt", render_puzzle(puzzle("latin"), "x.ipuz"))
    with pytest.raises(XwsatError, match="looks like JSON, not a text grid"):
        read_puzzle(ipuz)
    puz = write(tmp_path / "q.txt", render_puzzle(puzzle("latin"), "x.puz"))
    with pytest.raises(XwsatError, match="looks like an Across Lite puzzle; name it .puz"):
        read_puzzle(puz)


def test_an_ipuz_rebus_keeps_its_first_letter_as_a_puz_rebus_does(tmp_path):
    # a rebus in an .ipuz solution was an error where the same .puz was read with a note
    def edit(doc):
        doc["solution"][0][0] = "CAT"

    back = read_puzzle(_ipuz(tmp_path, "rebus.ipuz", edit))
    assert back.solution.cell(0) == "C"
    assert any("rebus cells (several letters in one square): 1" in n for n in back.dropped)


def test_ipuz_clue_markup_is_kept_in_ipuz_and_spelt_out_in_puz_and_html(tmp_path):
    # a .puz showed "<i>Feline</i> pet" and "Long &amp; ago" as they were
    def edit(doc):
        numbers = [entry[0] for entry in doc["clues"]["Across"]]
        texts = ["<i>Feline</i> pet", "R&amp;B &lt;3", "AT&T, x < y"]
        doc["clues"]["Across"] = [[n, t] for n, t in zip(numbers, texts, strict=True)]

    source = _ipuz(tmp_path, "m.ipuz", edit)
    notes = []
    for ext in (".puz", ".html", ".ipuz"):
        result = runner.invoke(app, ["convert", str(source), str(tmp_path / f"out{ext}")])
        assert result.exit_code == 0, result.output
        notes.append("HTML markup" in result.stderr)
    assert notes == [True, True, False]
    across = sorted((s.name for s in puzzle("latin").slots if s.direction == "A"),
                    key=lambda n: int(n[:-1]))
    puz_clues = read_puzzle(tmp_path / "out.puz").clues
    assert [puz_clues[n] for n in across] == ["Feline pet", "R&B <3", "AT&T, x < y"]
    assert "<i>" not in (tmp_path / "out.html").read_text()
    assert "Feline pet" in (tmp_path / "out.html").read_text()
    ipuz_clues = read_puzzle(tmp_path / "out.ipuz").clues
    assert [ipuz_clues[n] for n in across] == ["<i>Feline</i> pet", "R&amp;B &lt;3", "AT&T, x < y"]


def test_a_letter_with_no_one_letter_capital_is_named_in_puz_and_ipuz(tmp_path):
    # a .puz holding ß was refused as "cell 'SS' is not ... one letter"
    import puz

    p = puz.Puzzle()
    p.width, p.height, p.solution, p.fill, p.clues = 3, 1, "A\u00dfE", "---", ["x"]
    source = tmp_path / "sz.puz"
    source.write_bytes(p.tobytes())
    with pytest.raises(XwsatError, match="column 2: letter 'ß' has no single upper-case form"):
        read_puzzle(source)

    def edit(doc):
        doc["solution"][0][1] = "\u00df"

    with pytest.raises(XwsatError, match="letter 'ß' has no single upper-case form"):
        read_puzzle(_ipuz(tmp_path, "sz.ipuz", edit))
