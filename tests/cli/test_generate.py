"""xwsat generate: the line automaton, both back-ends against brute force, the checker, the CLI."""

from __future__ import annotations

import itertools
import json
import threading
import time

import pytest
from typer.testing import CliRunner

from xwsat.cli import app
from xwsat.generate.automaton import build_line_automaton
from xwsat.generate.generator import generate
from xwsat.generate.grid_check import check_generated
from xwsat.generate.spec import GenerateSpec
from xwsat.outcome import Status

AB_WORDS = ["AB", "BA", "AAB", "ABA", "BBA", "AA"]


def valid_line(line: str, words: set[str], min_length: int) -> bool:
    return all(not p or (len(p) >= min_length and p in words) for p in line.split("#"))


@pytest.mark.parametrize("length,min_length", [(3, 2), (4, 2), (5, 2), (5, 3)])
def test_automaton_accepts_exactly_the_valid_lines(make_words, length, min_length) -> None:
    words = make_words(AB_WORDS)
    auto = build_line_automaton(words, length, min_length)
    symbols = {"A": 0, "B": 1, "#": 2}
    for line in itertools.product("AB#", repeat=length):
        text = "".join(line)
        assert auto.accepts([symbols[ch] for ch in text]) == valid_line(
            text, set(AB_WORDS), min_length), text


def test_minimised_automaton_is_smaller_than_the_trie(make_words) -> None:
    words = make_words(["CATS", "BATS", "RATS", "HATS", "MATS", "CAT", "BAT", "RAT"])
    auto = build_line_automaton(words, 4, 3)
    assert auto.dawg_states < auto.trie_nodes / 2


def brute_force_count(spec: GenerateSpec, words: set[str]) -> int:
    """Every grid over A, B and block that the independent checker accepts (rows that are not
    valid lines on their own are skipped: the checker would reject them anyway)."""
    rows_ok = ["".join(r) for r in itertools.product("AB#", repeat=spec.width)
               if valid_line("".join(r), words, spec.min_length)]
    count = 0
    for rows in itertools.product(rows_ok, repeat=spec.height):
        if all(ch == "#" for row in rows for ch in row):
            continue
        if not check_generated(rows, words, spec.min_length, spec.max_blocks, spec.symmetry,
                               spec.allow_repeats):
            count += 1
    return count


SPECS = [
    GenerateSpec(3, 3, symmetry="none", max_blocks=0, min_length=2),
    GenerateSpec(3, 3, symmetry="none", max_blocks=2, min_length=2),
    GenerateSpec(3, 3, symmetry="none", max_blocks=3, min_length=2),
    GenerateSpec(3, 3, max_blocks=3, min_length=2, symmetry="rotational"),
    GenerateSpec(3, 3, max_blocks=4, min_length=2, symmetry="mirror"),
    GenerateSpec(3, 2, symmetry="none", max_blocks=1, min_length=2, allow_repeats=True),
    GenerateSpec(3, 2, symmetry="none", max_blocks=2, min_length=3),
]


_COUNTS: dict[int, int] = {}


@pytest.mark.parametrize("backend", ["native", "cpsat", "sat"])
@pytest.mark.parametrize("number", range(len(SPECS)))
def test_backends_agree_with_brute_force(make_words, backend, number) -> None:
    spec = SPECS[number]
    words = make_words(AB_WORDS)
    if number not in _COUNTS:
        _COUNTS[number] = brute_force_count(spec, set(AB_WORDS))
    exists = _COUNTS[number] > 0
    result = generate(spec, words, backend, time_limit=20)
    assert result.status is (Status.FILLED if exists else Status.UNFILLABLE), \
        result.outcome.message
    if exists:
        assert result.verified
        assert check_generated(result.rows, set(AB_WORDS), spec.min_length, spec.max_blocks,
                               spec.symmetry, spec.allow_repeats) == []


def test_lazy_connectivity_cut_finds_a_connected_grid(make_words) -> None:
    # Only short words and a row of blocks would split 3x3 into islands; cuts must repair that.
    words = make_words(["AB", "BA", "AA", "BB"])
    spec = GenerateSpec(3, 3, symmetry="none", max_blocks=5, min_length=2, allow_repeats=True)
    for backend in ("native", "cpsat", "sat"):
        result = generate(spec, words, backend, time_limit=20)
        assert result.status is Status.FILLED
        assert check_generated(result.rows, {"AB", "BA", "AA", "BB"}, 2, 5,
                               allow_repeats=True) == []


def test_givens_and_theme_are_kept(make_words) -> None:
    words = make_words(["CAT", "ACT", "TAC", "ATE", "EAT", "TEA", "ETA", "CATE", "TACE"])
    givens = {0: "T", 8: "#"}
    spec = GenerateSpec(3, 3, symmetry="none", max_blocks=3, min_length=3, allow_repeats=True,
                        givens=givens, theme=("TEA",))
    result = generate(spec, words, "cpsat", time_limit=20)
    assert generate(spec, words, "sat", time_limit=20).status == result.status
    if result.status is Status.FILLED:
        assert result.rows[0][0] == "T" and result.rows[2][2] == "#"
        assert check_generated(result.rows, set(words.words), 3, 3, allow_repeats=True,
                               givens=["T..", "...", "..#"], theme=["TEA"]) == []
    else:
        assert result.status is Status.UNFILLABLE
    native = generate(GenerateSpec(3, 3, symmetry="none", max_blocks=3, min_length=3,
                                   allow_repeats=True, givens=givens), words, "native",
                      time_limit=20)
    assert native.status.definitive
    if native.rows:
        assert native.rows[0][0] == "T" and native.rows[2][2] == "#"


def test_checker_reports_each_broken_rule() -> None:
    words = {"CAT", "ARE", "TEN", "AT", "CA"}
    square = ["CAT", "ARE", "TEN"]            # reads the same down: every word twice
    assert check_generated(square, words, allow_repeats=True) == []
    assert any("appears 2 times" in p for p in check_generated(square, words))
    assert any("not a dictionary word" in p for p in check_generated(
        ["CAT", "ARE", "TNE"], words, allow_repeats=True))
    assert any("shorter" in p for p in check_generated(["CA#", "ARE", "TEN"], words,
                                                       allow_repeats=True))
    split = ["CAT", "###", "CAT"]
    assert any("connected" in p for p in check_generated(split, words, 1, allow_repeats=True))
    assert any("cap" in p for p in check_generated(split, words, 1, 2, allow_repeats=True))
    assert any("symmetry" in p for p in check_generated(["#AT", "ARE", "TEN"], words, 2,
                                                        symmetry="rotational",
                                                        allow_repeats=True))
    assert any("given" in p for p in check_generated(square, words, allow_repeats=True,
                                                     givens=["D..", "...", "..."]))
    assert any("theme" in p for p in check_generated(square, words, allow_repeats=True,
                                                     theme=["DOG"]))


def test_native_honours_the_time_limit_and_a_stop(make_words) -> None:
    words = make_words(AB_WORDS)
    stop = threading.Event()
    stop.set()
    result = generate(GenerateSpec(3, 3, symmetry="none", max_blocks=2, min_length=2), words,
                      "native", 5, stop=stop)
    assert result.status is not Status.ERROR
    started = time.monotonic()
    result = generate(GenerateSpec(3, 3, symmetry="none", max_blocks=2, min_length=2), words,
                      "cpsat", 5, stop=stop)
    assert time.monotonic() - started < 5


def invoke(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def test_cli_generate_json_is_verified(write) -> None:
    words = write("w.txt", "\n".join(AB_WORDS) + "\n")
    result = invoke("generate", "--size", "3x3", "--dict", words, "--min-length", "2",
                    "--blocks", "3", "--symmetry", "none", "--json", "--quiet")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["status"] == "generated" and data["verified"] and data["stop"] is None
    assert check_generated(data["grid"], set(AB_WORDS), 2, 3) == []
    assert data["pattern"] == ["".join("#" if ch == "#" else "." for ch in row)
                               for row in data["grid"]]
    assert {w["word"] for w in data["words"]} <= set(AB_WORDS)


def test_cli_generate_pattern_only_and_out(write, tmp_path) -> None:
    words = write("w.txt", "\n".join(AB_WORDS) + "\n")
    out = tmp_path / "p.txt"
    result = invoke("generate", "--size", "3x3", "--dict", words, "--min-length", "2",
                    "--blocks", "3", "--backend", "cpsat", "--pattern-only", "--out", out, "-q",
                    "--symmetry", "none")
    assert result.exit_code == 0, result.output
    assert set(out.read_text()) <= {".", "#", "\n"}
    assert result.stdout.splitlines()[0].startswith("GENERATED by cpsat")


def test_cli_generate_impossible_exits_1(write) -> None:
    words = write("w.txt", "AB\nBA\n")
    result = invoke("generate", "--size", "3x3", "--dict", words, "--min-length", "2",
                    "--blocks", "0", "-q")
    assert result.exit_code == 1, result.output
    assert "IMPOSSIBLE" in result.stdout


@pytest.mark.parametrize("args,message", [
    (["--size", "3by3"], "--size"),
    (["--size", "3x3", "--blocks", "2", "--block-ratio", "0.1"], "not both"),
    (["--size", "3x3", "--symmetry", "diagonal"], "--symmetry"),
    (["--size", "3x3", "--backend", "mac"], "--backend"),
    (["--size", "3x3", "--block-ratio", "2"], "--block-ratio"),
    (["--size", "3x3", "--dict", "/no/such/file.txt"], "no such file"),
    (["--size", "3x3", "--theme", "BA", "--backend", "native"], "cpsat"),
    ([], "--size"),
])
def test_cli_generate_bad_input_is_one_line(write, args, message) -> None:
    words = write("w.txt", "\n".join(AB_WORDS) + "\n")
    full = ["generate", "--min-length", "2", *args]
    if "--dict" not in args:
        full += ["--dict", str(words)]
    result = invoke(*full)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("xwsat: error: ") and message in lines[0]


def test_cli_given_grid_must_match_size(write) -> None:
    words = write("w.txt", "\n".join(AB_WORDS) + "\n")
    given = write("g.txt", "A..\n...\n")
    result = invoke("generate", "--size", "3x3", "--given", given, "--dict", words)
    assert result.exit_code == 2 and "not the --size" in result.stderr
    result = invoke("generate", "--given", given, "--dict", words, "--min-length", "2",
                    "--allow-repeats", "--json", "-q")
    assert result.exit_code in (0, 1), result.output
    data = json.loads(result.stdout)
    if data["grid"]:
        assert data["grid"][0][0] == "A"


@pytest.mark.parametrize(("rows", "extra", "message"), [
    ("##...\n##...\n.....\n.....\n.....\n", ["--blocks", "2", "--symmetry", "none"],
     "places 4 blocks, more than the 2"),
    ("##...\n##...\n.....\n.....\n.....\n", ["--blocks", "6", "--symmetry", "rotational"],
     "places 8 blocks with their mirrors"),
    ("#....\n.....\n.....\n.....\n....A\n", ["--symmetry", "rotational"],
     "letter A in its rotational mirror"),
])
def test_cli_given_that_breaks_the_cap_or_symmetry_is_bad_input(write, rows, extra,
                                                                  message) -> None:
    """Before, the search ran and said only 'native exhausted the search'."""
    words = write("w.txt", "\n".join(AB_WORDS) + "\n")
    given = write("g.txt", rows)
    result = invoke("generate", "--given", given, "--dict", words, "-q", *extra)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], lines


def test_cli_generate_writes_a_puz_file(write, tmp_path) -> None:
    pytest.importorskip("xwsat.formats")
    puz = pytest.importorskip("puz")
    words = write("w.txt", "".join(f"{w};50;clue for {w.lower()}\n" for w in AB_WORDS))
    out = tmp_path / "grid.puz"
    result = invoke("generate", "--size", "3x3", "--dict", words, "--min-length", "2",
                    "--blocks", "3", "--out", out, "-q", "--symmetry", "none")
    assert result.exit_code == 0, result.output
    loaded = puz.load(out.read_bytes())
    assert (loaded.width, loaded.height) == (3, 3)
    assert all(text.startswith("clue for ") for text in loaded.clues)


def test_trie_and_dawg_automata_accept_the_same_lines(make_words) -> None:
    words = make_words(AB_WORDS)
    dawg = build_line_automaton(words, 4, 2)
    trie = build_line_automaton(words, 4, 2, minimise=False)
    assert dawg.n_states < trie.n_states
    for line in itertools.product(range(3), repeat=4):
        assert dawg.accepts(list(line)) == trie.accepts(list(line))


def test_a_grid_too_small_for_the_default_shortest_word_says_which_default() -> None:
    # "--min-length must be between 1 and the longer side" puzzled a user who never gave it
    result = CliRunner().invoke(app, ["generate", "--size", "2x2", "-d", "en", "-t", "5"])
    assert result.exit_code == 2
    assert "--min-length 3 (the shortest word; 3 unless given)" in result.output


def test_a_given_grid_is_read_by_its_extension(tmp_path) -> None:
    # --given read every file as a text grid: a .json or .ipuz one was "448x1"
    given = tmp_path / "given.json"
    given.write_text(json.dumps({"pattern": ["T..", "...", "..."]}))
    words = tmp_path / "w.txt"
    words.write_text("TEA\nEAT\nATE\nTAE\nETA\nAET\n")
    result = CliRunner().invoke(app, ["generate", "--size", "3x3", "--given", str(given),
                                      "--dict", str(words), "--allow-repeats", "-t", "20"])
    assert result.exit_code == 0, result.output
    assert result.output.split("\n\n")[1].split()[0] == "T"


def test_default_is_rotational_and_draws_a_pattern_first() -> None:
    from xwsat.grid import parse_grid
    from xwsat.grid_patterns import cheater_cap, check_pattern, word_ceiling
    from xwsat.pattern_stats import pattern_stats

    result = CliRunner().invoke(app, ["generate", "--size", "9x9", "-d", "en", "-t", "60",
                                      "--json", "-q"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["status"], data["backend"], data["symmetry"]) == (
        "generated", "patterns", "rotational")
    grid = parse_grid("\n".join(data["grid"]) + "\n")
    assert check_pattern([[ch == "#" for ch in row] for row in grid.rows]) == []
    stats = pattern_stats(grid)
    assert stats.words <= word_ceiling(9) and len(stats.cheaters) <= cheater_cap(9)


def test_patterns_backend_outside_its_reach_is_bad_input() -> None:
    result = CliRunner().invoke(app, ["generate", "--size", "9x9", "-d", "en", "--backend",
                                      "patterns", "--symmetry", "mirror"])
    assert result.exit_code == 2 and "--backend patterns needs" in result.stderr


def test_the_automatons_rows_are_those_numpys_unique_gives():
    """The rows are made unique through one integer key per row (numpy's unique by rows was
    one 1.4 s C call on a 21x21, past the time limit): the same rows, in the same order."""
    import numpy as np

    from xwsat.generate.automaton import _unique_rows

    rng = np.random.default_rng(0)
    rows = np.stack([rng.integers(0, 500, 4000), rng.integers(0, 27, 4000),
                     rng.integers(0, 500, 4000)], axis=1).astype(np.int32)
    assert np.array_equal(_unique_rows(rows, 500, 27), np.unique(rows, axis=0))


def test_given_letters_and_theme_read_as_the_list_writes_them(tmp_path) -> None:
    # fill read Ú as U in the embedded Spanish list; generate refused the same given grid
    given = tmp_path / "g.txt"
    given.write_text("ñandú\n.....\n.....\n.....\n.....\n", encoding="utf-8")
    result = invoke("generate", "--given", given, "--dict", "es", "-t", "30", "--json", "-q")
    assert result.exit_code == 0, result.output
    assert "Ú as U" in result.stderr
    assert json.loads(result.stdout)["grid"][0] == "ÑANDU"


@pytest.mark.parametrize("args, compiled", [
    (["generate", "--size", "5x5", "-t", "5", "--dict", "en"], True),
    (["generate", "--size", "5x5", "-t", "5", "--dict", "en", "-b", "native"], False),
    (["grids", "suggest", "THEME", "-t", "5"], True),
])
def test_the_compiled_search_is_built_before_the_clock(monkeypatch, tmp_path, args, compiled):
    # on a fresh install each pattern's search (8-10 s) was killed while it compiled the
    # search (about 70 s, once): every pattern undecided, run after run, until a fill ran
    from xwsat.commands import generate as generate_command
    from xwsat.commands import grids

    asked: list[list[str]] = []
    for module in (generate_command, grids):
        monkeypatch.setattr(module, "compile_first", lambda specs, **_: asked.append(specs))
    if "THEME" in args:
        theme = tmp_path / "theme.txt"
        theme.write_text("OCEAN\n" + ".....\n" * 4, encoding="utf-8")
        args = [str(theme) if a == "THEME" else a for a in args]
    CliRunner().invoke(app, args)
    assert bool(asked) == compiled


def test_generate_names_the_file_it_wrote(tmp_path):
    out = tmp_path / "mini.ipuz"
    result = CliRunner().invoke(app, ["generate", "--size", "5x5", "--symmetry", "none", "-t",
                                      "30", "-q", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.is_file() and result.stdout.rstrip().endswith(f"wrote {out}")


def test_a_run_left_with_nothing_says_what_the_patterns_gave(make_words, monkeypatch) -> None:
    # a Russian 21x21 ran out of time saying only that: its patterns, nearly all proven
    # unfillable from the list, went unmentioned once the line generator took over
    import xwsat.generate.pattern_first as pattern_first
    from xwsat.commands.generate import describe
    from xwsat.generate.cpsat_lines import SolveReport

    def none_filled(spec, words, deadline, seed, progress=None) -> SolveReport:
        return SolveReport(None, False, "no pattern filled in 9 tried", {
            "patterns_tried": 9, "patterns_unfillable": 7, "patterns_undecided": 2})

    monkeypatch.setattr(pattern_first, "solve", none_filled)
    spec = GenerateSpec(5, 5, max_blocks=5, min_length=3)
    result = generate(spec, make_words(["ABC", "BCA", "CAB"]), "auto", 1.0)
    assert result.rows is None and result.outcome.method == "native"
    assert result.outcome.stats.extra["patterns_unfillable"] == 7  # kept past the hand-over
    text = describe(result, spec, False)
    assert ("patterns: 9 drawn and searched, 7 proven unfillable from this list, 2 undecided"
            in text and "a smaller size or a larger list" in text), text
