"""A certificate verifies only for the grid, words and rules it was made for (tampering fails)."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest
import tallies
from typer.testing import CliRunner

from xwsat.cli import app
from xwsat.errors import XwsatError
from xwsat.evidence.certificate import certify, sha256_file
from xwsat.evidence.recheck import recheck
from xwsat.grid import parse_grid
from xwsat.problem import build_problem
from xwsat.words import build_wordlist

UNFILLABLE = ("...\n...\n", ["AAB", "ABA", "BAA", "AB", "BA"])
OTHER_UNFILLABLE = ("..\n..\n", ["AB", "CD"])


@pytest.fixture
def certificate(tmp_path, make_words) -> Path:
    grid, words = UNFILLABLE
    built = build_problem(parse_grid(grid), make_words(words))
    folder = tmp_path / "cert"
    # the whole formula: the slots a refutation needs (here the three 2-letter downs, which
    # have two words) would still be refuted in the edited grids below
    run = certify(built, folder, "grid.txt", 30, proof="search", core=False)
    assert run.checked is True
    return folder


def rehash(folder: Path) -> None:
    """What a forger does after editing files: make the manifest's hashes match again."""
    manifest = json.loads((folder / "manifest.json").read_text())
    for name in manifest["files"]:
        manifest["files"][name]["sha256"] = sha256_file(folder / name)
    (folder / "manifest.json").write_text(json.dumps(manifest))


def test_an_untampered_certificate_verifies_and_names_its_question(certificate) -> None:
    lines, verdict = recheck(certificate, "auto", 30)
    assert verdict == "verified"
    assert "    ..." in lines and any("words: 5 " in line for line in lines)


def test_any_unsatisfiable_formula_is_not_a_certificate(tmp_path) -> None:
    folder = tmp_path / "forged"
    folder.mkdir()
    (folder / "formula.cnf").write_text("p cnf 1 2\n1 0\n-1 0\n")
    (folder / "proof.drat").write_text("")
    files = {n: {"sha256": sha256_file(folder / n)} for n in ("formula.cnf", "proof.drat")}
    (folder / "manifest.json").write_text(json.dumps({"result": "unfillable", "files": files}))
    lines, verdict = recheck(folder, "auto", 30)
    assert verdict == "rejected" and lines[-1].startswith("NOT VERIFIED")


def test_the_trivial_formula_with_the_real_grid_and_words_is_rejected(certificate) -> None:
    (certificate / "formula.cnf").write_text("p cnf 1 2\n1 0\n-1 0\n")
    (certificate / "proof.drat").write_text("")
    rehash(certificate)
    lines, verdict = recheck(certificate, "auto", 30)
    assert verdict == "rejected" and "not the encoding" in lines[-1]


@pytest.mark.parametrize("method", ["cdcl", "mac"])
def test_a_proof_of_rat_steps_and_a_deletion_is_rejected(certificate, method) -> None:
    # Fresh variables x, y: "x", "y -x" (both RAT), delete "y -x", "-y" (RAT once no clause has
    # y), "0". dratify's RAT check accepted it against any formula.
    text = (certificate / "formula.cnf").read_text()
    n = int(next(line for line in text.splitlines() if line.startswith("p")).split()[2])
    x, y = n + 1, n + 2
    (certificate / "proof.drat").write_text(f"{x} 0\n{y} -{x} 0\nd {y} -{x} 0\n-{y} 0\n0\n")
    manifest = json.loads((certificate / "manifest.json").read_text())
    manifest["proof"]["method"] = method
    (certificate / "manifest.json").write_text(json.dumps(manifest))
    rehash(certificate)
    lines, verdict = recheck(certificate, "auto", 30)
    assert verdict == "rejected", lines


@pytest.mark.parametrize("brk", ["\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e"])
def test_clauses_hidden_in_a_comment_line_are_rejected(certificate, brk) -> None:
    # The comparison skips comment lines up to each newline; a checker that also breaks lines
    # at other characters would read these two clauses, refute the formula at its root, and
    # accept a proof that is only "0".
    cnf = certificate / "formula.cnf"
    cnf.write_text(f"c a comment{brk}1 0{brk}-1 0\n" + cnf.read_text())
    (certificate / "proof.drat").write_text("0\n")
    rehash(certificate)
    lines, verdict = recheck(certificate, "auto", 30)
    assert verdict == "rejected", lines


@pytest.mark.parametrize("edit", ["grid", "words", "repeats", "min_length", "alphabet"])
def test_changing_the_question_breaks_the_certificate(certificate, edit) -> None:
    manifest = json.loads((certificate / "manifest.json").read_text())
    if edit == "grid":
        (certificate / "grid.txt").write_text("....\n....\n")
    elif edit == "words":
        (certificate / "words.txt.gz").write_bytes(gzip.compress(b"AB\nBA\nAAB\nABA\nBAA\nBBB\n"))
    elif edit == "repeats":
        manifest["rules"]["allow_repeats"] = True
    elif edit == "min_length":
        manifest["rules"]["min_length"] = 3
    else:
        manifest["rules"]["alphabet"] = "ABC"
    (certificate / "manifest.json").write_text(json.dumps(manifest))
    rehash(certificate)
    lines, verdict = recheck(certificate, "auto", 30)
    assert verdict == "rejected", lines


def test_a_certificate_for_another_grid_is_refused_when_yours_is_given(certificate, tmp_path,
                                                                         make_words) -> None:
    grid, words = OTHER_UNFILLABLE
    other = tmp_path / "other"
    certify(build_problem(parse_grid(grid), make_words(words)), other, "o.txt", 30,
            proof="search")
    mine = parse_grid(UNFILLABLE[0])
    _, verdict = recheck(other, "auto", 30, grid=mine)
    assert verdict == "rejected"
    _, verdict = recheck(other, "auto", 30, words=tuple(UNFILLABLE[1]))
    assert verdict == "rejected"
    _, verdict = recheck(certificate, "auto", 30, grid=mine, words=tuple(UNFILLABLE[1]))
    assert verdict == "verified"


def test_a_manifest_cannot_point_outside_the_folder(certificate) -> None:
    manifest = json.loads((certificate / "manifest.json").read_text())
    manifest["files"]["../../../../etc/hostname"] = {"sha256": "0" * 64}
    (certificate / "manifest.json").write_text(json.dumps(manifest))
    lines, verdict = recheck(certificate, "auto", 30)
    assert verdict == "rejected" and "outside the folder" in lines[-1]


def test_cli_check_proof_exit_codes(certificate, tmp_path) -> None:
    grid = tmp_path / "g.txt"
    grid.write_text(UNFILLABLE[0])
    words = tmp_path / "w.txt"
    words.write_text("\n".join(UNFILLABLE[1]) + "\n")
    runner = CliRunner()
    ok = runner.invoke(app, ["check-proof", str(certificate), "--grid", str(grid),
                             "--dict", str(words)])
    assert ok.exit_code == 1 and "VERIFIED" in ok.stdout, ok.output
    words.write_text("\n".join([*UNFILLABLE[1], "BBA"]) + "\n")
    other = runner.invoke(app, ["check-proof", str(certificate), "--dict", str(words)])
    assert other.exit_code == 4 and "another word list" in other.stdout
    assert "only in yours: BBA" in other.stdout  # what differs, not only the certificate's side
    missing = runner.invoke(app, ["check-proof", str(tmp_path / "nowhere")])
    assert missing.exit_code == 2


def test_certificate_folder_must_be_new_or_empty(tmp_path, make_words) -> None:
    grid, words = UNFILLABLE
    folder = tmp_path / "cert"
    folder.mkdir()
    (folder / "fill.txt").write_text("my own grid\n")
    g = tmp_path / "g.txt"
    g.write_text(grid)
    w = tmp_path / "w.txt"
    w.write_text("\n".join(words) + "\n")
    result = CliRunner().invoke(app, ["prove", str(g), "--dict", str(w), "--certificate",
                                      str(folder)])
    assert result.exit_code == 2 and "not empty" in result.stderr
    assert (folder / "fill.txt").read_text() == "my own grid\n"
    assert sorted(p.name for p in folder.iterdir()) == ["fill.txt"]


# --- every tamper class: NOT VERIFIED (exit 4), never exit 1 -----------------------------------

# Arc consistent, unfillable, and its proof needs its lemmas (unit propagation alone does not
# refute the formula): tampering with the proof's lines can then be seen.
DEEP = ("...\n...\n...\n", ["AAB", "ACB", "BAB", "BAC", "BBB", "BBC", "CBA", "CCA", "CCC"])


def _certified(folder: Path, grid: str, words: list[str]) -> Path:
    built = build_problem(parse_grid(grid), build_wordlist({w: (50, None) for w in words}))
    assert certify(built, folder, "grid.txt", 30, proof="search").checked is True
    return folder


@pytest.fixture(scope="module")
def originals(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("originals")
    deep = _certified(base / "deep", *DEEP)
    assert len(proof_lemmas(deep)) >= 6
    return deep, _certified(base / "other", *OTHER_UNFILLABLE)


@pytest.fixture
def deep(originals, tmp_path) -> Path:
    return Path(shutil.copytree(originals[0], tmp_path / "deep"))


@pytest.fixture
def other(originals, tmp_path) -> Path:
    return Path(shutil.copytree(originals[1], tmp_path / "other"))


def proof_lemmas(folder: Path) -> list[str]:
    return (folder / "proof.drat").read_text().splitlines()


def _formula(folder: Path) -> Path:
    return next(p for p in (folder / "formula.cnf", folder / "formula.cnf.gz") if p.exists())


def _edit_formula(folder: Path, edit) -> None:
    path = _formula(folder)
    lines = path.read_text().splitlines()
    head = [i for i, line in enumerate(lines) if line.startswith("p cnf")][0]
    path.write_text("\n".join(edit(lines, head)) + "\n")


def _words(folder: Path) -> list[str]:
    return gzip.decompress((folder / "words.txt.gz").read_bytes()).decode().split()


def _set_words(folder: Path, words: list[str]) -> None:
    (folder / "words.txt.gz").write_bytes(gzip.compress(("\n".join(words) + "\n").encode()))


def _manifest(folder: Path, change) -> None:
    manifest = json.loads((folder / "manifest.json").read_text())
    change(manifest)
    (folder / "manifest.json").write_text(json.dumps(manifest))


def _swap(folder: Path, other: Path, names: list[str]) -> None:
    for name in names:
        (folder / name).write_bytes((other / name).read_bytes())


TAMPERS = {
    # the proof
    "proof: only the empty clause": lambda f, o: (f / "proof.drat").write_text("0\n"),
    "proof: emptied": lambda f, o: (f / "proof.drat").write_text(""),
    "proof: lemmas reversed": lambda f, o: (f / "proof.drat").write_text(
        "\n".join(reversed(proof_lemmas(f))) + "\n"),
    "proof: first half deleted": lambda f, o: (f / "proof.drat").write_text(
        "\n".join(proof_lemmas(f)[len(proof_lemmas(f)) // 2:]) + "\n"),
    "proof: last lemma moved first": lambda f, o: (f / "proof.drat").write_text(
        "\n".join([proof_lemmas(f)[-1], *proof_lemmas(f)[:-1]]) + "\n"),
    "proof: a literal negated": lambda f, o: (f / "proof.drat").write_text(
        "\n".join([" ".join(str(-int(x)) if i == 0 else x
                            for i, x in enumerate(proof_lemmas(f)[0].split())),
                   *proof_lemmas(f)[1:]]) + "\n"),
    "proof: the empty clause removed": lambda f, o: (f / "proof.drat").write_text(
        "\n".join(line for line in proof_lemmas(f) if line.strip() != "0") + "\n"),
    "proof: binary garbage": lambda f, o: (f / "proof.drat").write_bytes(b"\xff\x00\x80 0\n"),
    # the formula
    "formula: a clause removed": lambda f, o: _edit_formula(
        f, lambda lines, h: lines[:h + 1] + lines[h + 2:]),
    "formula: a clause added": lambda f, o: _edit_formula(
        f, lambda lines, h: lines[:h + 1] + ["1 0"] + lines[h + 1:]),
    "formula: a unit contradiction added": lambda f, o: _edit_formula(
        f, lambda lines, h: lines[:h + 1] + ["1 0", "-1 0"] + lines[h + 1:]),
    "formula: header count changed": lambda f, o: _edit_formula(
        f, lambda lines, h: [*lines[:h], lines[h] + "0", *lines[h + 1:]]),
    "formula: a literal negated": lambda f, o: _edit_formula(
        f, lambda lines, h: [*lines[:h + 1], " ".join(str(-int(x)) if x != "0" else x
                                                    for x in lines[h + 1].split()),
                             *lines[h + 2:]]),
    # the question
    "grid: a letter placed": lambda f, o: (f / "grid.txt").write_text("A..\n...\n...\n"),
    "grid: a row removed": lambda f, o: (f / "grid.txt").write_text("...\n...\n"),
    "grid: a block placed": lambda f, o: (f / "grid.txt").write_text("...\n.#.\n...\n"),
    "grid: binary": lambda f, o: (f / "grid.txt").write_bytes(b"\xff\xfe\x00"),
    "words: one added": lambda f, o: _set_words(f, [*_words(f), "ABC"]),
    "words: one removed": lambda f, o: _set_words(f, _words(f)[1:]),
    "words: reordered": lambda f, o: _set_words(f, list(reversed(_words(f)))),
    "words: not gzip": lambda f, o: (f / "words.txt.gz").write_text("AAB\n"),
    # the manifest
    "manifest: repeats allowed": lambda f, o: _manifest(
        f, lambda m: m["rules"].update(allow_repeats=True)),
    "manifest: min_length 4": lambda f, o: _manifest(
        f, lambda m: m["rules"].update(min_length=4)),
    "manifest: alphabet widened": lambda f, o: _manifest(
        f, lambda m: m["rules"].update(alphabet="ABCD")),
    "manifest: rules removed": lambda f, o: _manifest(f, lambda m: m.pop("rules")),
    "manifest: rules a list": lambda f, o: _manifest(f, lambda m: m.update(rules=[1])),
    "manifest: result fillable": lambda f, o: _manifest(f, lambda m: m.update(
        result="fillable")),
    "manifest: files a list": lambda f, o: _manifest(f, lambda m: m.update(files=["x"])),
    "manifest: a file with a NUL": lambda f, o: _manifest(
        f, lambda m: m["files"].update({"a\x00b": {"sha256": "0"}})),
    "manifest: not JSON": lambda f, o: (f / "manifest.json").write_text("{not json"),
    "manifest: nested deep": lambda f, o: (f / "manifest.json").write_text("[" * 100_000),
    "manifest: a list": lambda f, o: (f / "manifest.json").write_text("[]"),
    # files from another certificate
    "swap: formula and proof": lambda f, o: _swap(f, o, ["formula.cnf", "proof.drat"]),
    "swap: proof": lambda f, o: _swap(f, o, ["proof.drat"]),
    "swap: grid and words": lambda f, o: _swap(f, o, ["grid.txt", "words.txt.gz"]),
    "swap: manifest": lambda f, o: _swap(f, o, ["manifest.json"]),
}
REHASHABLE = [name for name in TAMPERS if not name.startswith("manifest: ")
              or name in ("manifest: repeats allowed", "manifest: min_length 4",
                          "manifest: alphabet widened", "manifest: rules removed",
                          "manifest: rules a list")]


def check_proof(*args: object):
    return CliRunner().invoke(app, ["check-proof", *map(str, args)])


def tally(result, rehashed: bool) -> None:
    kind = "rehashed" if rehashed else "as edited"
    tallies.add("tampered certificates", {f"{kind}: tried": 1,
                                          f"{kind}: exit {result.exit_code}": 1})


@pytest.mark.parametrize("name", list(TAMPERS))
def test_a_tampered_certificate_is_not_verified(deep, other, name) -> None:
    TAMPERS[name](deep, other)
    result = check_proof(deep)
    tally(result, False)
    assert result.exit_code == 4, (name, result.output)
    assert "NOT VERIFIED" in result.stdout and "Traceback" not in result.output


@pytest.mark.parametrize("name", REHASHABLE)
def test_a_tampered_certificate_with_matching_hashes_is_not_verified(deep, other, name) -> None:
    """The forger also fixes the manifest's hashes: the rebuilt formula still catches it."""
    TAMPERS[name](deep, other)
    if (deep / "manifest.json").is_file():
        rehash(deep)
    result = check_proof(deep)
    tally(result, True)
    assert result.exit_code == 4, (name, result.output)
    assert "NOT VERIFIED" in result.stdout


def test_another_certificate_entire_is_refused_for_your_grid_and_words(deep, other,
                                                                       tmp_path) -> None:
    for name in ("formula.cnf", "proof.drat", "grid.txt", "words.txt.gz", "variables.txt",
                 "manifest.json"):
        (deep / name).write_bytes((other / name).read_bytes())
    grid, words = tmp_path / "mine.txt", tmp_path / "mine-words.txt"
    grid.write_text(DEEP[0])
    words.write_text("\n".join(DEEP[1]) + "\n")
    result = check_proof(deep, "--grid", grid, "--dict", words)
    assert result.exit_code == 4 and "another grid" in result.stdout, result.output
    assert check_proof(deep).exit_code == 1  # it is a valid certificate, of the other grid


def _cli(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


def test_a_dictionary_with_other_letters_is_another_dictionary(tmp_path) -> None:
    """The certified list's own alphabet never filters the user's words: a list that adds words
    with a new letter (and fills the grid) is not the certified one (the
    recorded alphabet dropped them and the check said VERIFIED)."""
    (tmp_path / "g.txt").write_text("..\n..\n")
    (tmp_path / "few.txt").write_text("BC\nAC\n")
    (tmp_path / "more.txt").write_text("BC\nAC\nÑA\nÑB\n")  # ÑA/BC, ÑB/AC fill it
    assert _cli("fill", tmp_path / "g.txt", "-d", tmp_path / "more.txt").exit_code == 0
    assert _cli("prove", tmp_path / "g.txt", "-d", tmp_path / "few.txt", "--certificate",
                tmp_path / "c").exit_code == 1
    result = _cli("check-proof", tmp_path / "c", "--grid", tmp_path / "g.txt", "--dict",
                  tmp_path / "more.txt")
    assert result.exit_code == 4 and "another word list" in result.output


@pytest.mark.parametrize("option,words,said", [
    (["--min-score", "50"], "ZA;90\nBC;90\nZB;10\nAC;90\n", "only words scored 50 or more"),
    (["--alphabet", "ABCDEFGHIJKLMNOPQRSTUVWXY"], "ZA;90\nBC;90\nZB;10\nAC;90\n",
     "declared alphabet ABCDEFGHIJKLMNOPQRSTUVWXY"),
    (["--fold-yo"], "ДЁ\nЕН\nДЕ\nЁН\n", "Ё read as Е"),
])
def test_a_verdict_on_a_filtered_list_says_so_first(tmp_path, option, words, said) -> None:
    """A certificate made with a word filter answers for the filtered list only; the verdict's
    first line names the filter and how many of the user's words remain."""
    (tmp_path / "g.txt").write_text("..\n..\n")
    (tmp_path / "w.txt").write_text(words)
    assert _cli("fill", tmp_path / "g.txt", "-d", tmp_path / "w.txt").exit_code == 0
    assert _cli("prove", tmp_path / "g.txt", "-d", tmp_path / "w.txt", *option,
                "--certificate", tmp_path / "c").exit_code == 1
    result = _cli("check-proof", tmp_path / "c", "--grid", tmp_path / "g.txt", "--dict",
                  tmp_path / "w.txt")
    assert result.exit_code == 1
    verdict = next(line for line in result.output.splitlines() if "VERIFIED" in line)
    assert said in verdict and "your 4 words are" in verdict


def test_a_manifest_s_word_filter_is_its_word_until_your_list_confirms_it(tmp_path) -> None:
    """The manifest is not trusted: a minimum score written into it after the fact is said as
    the manifest's claim, and against your own list it is another question (exit 4), not bad
    input. Files the check does not read are said so, and a grid given alone is confirmed."""
    grid, words = tmp_path / "g.txt", tmp_path / "w.txt"
    grid.write_text(UNFILLABLE[0])
    words.write_text("\n".join(UNFILLABLE[1]) + "\n")
    folder = tmp_path / "cert"
    assert _cli("prove", grid, "-d", words, "--certificate", folder, "--proof-method",
                "search").exit_code == 1
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["rules"]["min_score"] = 90
    (folder / "manifest.json").write_text(json.dumps(manifest))
    alone = _cli("check-proof", folder, "--grid", grid)
    assert alone.exit_code == 1, alone.output
    assert "VERIFIED: no fill exists for your grid and the words kept in the folder (pass " \
           "--dict" in alone.output
    assert "the manifest says the word list was made with: only words scored 90 or more " \
           "(not checked" in alone.output
    assert "sha256 ok: variables.txt (kept for reading: not part of the check)" in alone.output
    assert "sha256 ok: formula.cnf\n" in alone.output
    yours = _cli("check-proof", folder, "--grid", grid, "--dict", words)
    assert yours.exit_code == 4 and yours.output.startswith("NOT VERIFIED: the certificate's "
                                                            "rules (only words scored 90")


def test_the_verified_line_names_rules_other_than_the_defaults(tmp_path) -> None:
    # slots of one cell made this ring unfillable, but the headline said only "your grid and
    # dictionary", which fill it with the default rules
    grid, words = tmp_path / "ring.txt", tmp_path / "w.txt"
    grid.write_text("...\n.#.\n...\n")
    words.write_text("CAT\nTOE\nCUB\nBYE\nA\n")
    folder = tmp_path / "cert"
    runner = CliRunner()
    made = runner.invoke(app, ["prove", str(grid), "-d", str(words), "--min-length", "1",
                               "--certificate", str(folder)])
    assert made.exit_code == 1, made.output
    checked = runner.invoke(app, ["check-proof", str(folder), "--grid", str(grid), "--dict",
                                  str(words)])
    head = next(line for line in checked.output.splitlines() if line.startswith("VERIFIED"))
    assert checked.exit_code == 1 and "with slots of 1+ cells:" in head


def test_the_users_rules_bind_the_certificate(certificate) -> None:
    # a certificate whose manifest says "slots of 2+ cells" (the default, not said in the
    # verdict) is refused for a user who fills with slots of 3+ cells, or with repeats allowed
    runner = CliRunner()
    for stated, refused in ((["--min-length", "3"], "slots of 2+ cells, not 3+"),
                            (["--allow-repeats"], "repeated words forbidden")):
        result = runner.invoke(app, ["check-proof", str(certificate), *stated])
        assert result.exit_code == 4 and refused in result.output, result.output
    same = runner.invoke(app, ["check-proof", str(certificate), "--min-length", "2",
                               "--no-repeats"])
    assert same.exit_code == 1 and "VERIFIED" in same.output, same.output


# --- bounded memory, whatever the folder holds ------------------------------------------------

def _bomb(path: Path, line: bytes, size: int) -> None:
    """A gzip file of ``size`` bytes of ``line`` repeated, written in pieces (a few MB)."""
    block = line * ((1 << 20) // len(line))
    pack = __import__("zlib").compressobj(1, wbits=31)
    with open(path, "wb") as out:
        for _ in range(size // len(block) + 1):
            out.write(pack.compress(block))
        out.write(pack.flush())


def test_a_proof_naming_a_huge_variable_is_refused_at_once(certificate) -> None:
    """Fifteen bytes once sized the checker's arrays for 2**30 variables (6 GB in 15 s)."""
    import subprocess
    import sys
    import time

    (certificate / "proof.drat").write_text("1073741823 0\n0\n")
    rehash(certificate)
    xwsat = Path(sys.executable).with_name("xwsat")
    started = time.monotonic()
    done = subprocess.run([xwsat, "check-proof", certificate, "-t", "60", "--memory-limit",
                           "700"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 4, done.stdout + done.stderr
    assert "variable 1,073,741,823, beyond the formula's" in done.stdout, done.stdout
    assert time.monotonic() - started < 30


def test_a_formula_naming_a_huge_variable_sizes_nothing(tmp_path) -> None:
    from xwsat.evidence import rup_check

    formula, proof = tmp_path / "f.cnf", tmp_path / "p.drat"
    formula.write_text("p cnf 1073741823 1\n1073741823 0\n")
    proof.write_text("0\n")
    with pytest.raises(XwsatError, match="holds only 1 literals"):
        rup_check.check_files(str(formula), str(proof))


def _packed(folder: Path, name: str) -> Path:
    """The folder's ``name`` (a formula or proof) to be replaced by a gzip file, listed."""
    plain = name[:-3]
    for old in (plain, name):
        (folder / old).unlink(missing_ok=True)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["files"] = {n: v for n, v in manifest["files"].items() if n not in (plain, name)}
    manifest["files"][name] = {"sha256": ""}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder / name


@pytest.mark.parametrize("name", ["proof.drat.gz", "formula.cnf.gz"])
def test_a_gzip_bomb_in_a_certificate_is_refused_at_the_cap(certificate, name,
                                                            monkeypatch) -> None:
    """A 1 MB proof.drat.gz unpacking to 1.2 GB of comments once took the checker past 5 GB;
    the cap of every input (here lowered to 8 MiB, for speed) now holds in every reader."""
    from xwsat.evidence import proof_files

    monkeypatch.setattr(proof_files, "MAX_TEXT_BYTES", 8 << 20)
    _bomb(_packed(certificate, name), b"c " + b"x" * 61 + b"\n", 16 << 20)
    rehash(certificate)
    lines, verdict = recheck(certificate, "auto", 60)
    assert verdict == "rejected" and "more than 8 MiB" in lines[-1], lines


@pytest.mark.slow
def test_a_word_list_bomb_in_a_certificate_is_refused_at_the_cap(certificate) -> None:
    _bomb(certificate / "words.txt.gz", b"ABC\n", 600 << 20)  # 1.8 GB once: past 5 GB
    rehash(certificate)
    lines, verdict = recheck(certificate, "auto", 60)
    assert verdict == "rejected" and "more than 512 MiB" in lines[-1], lines


def _peak_mb(argv: list[object]) -> tuple[int, str]:
    """The command's exit code and the largest resident set of its processes (MB)."""
    import subprocess
    import sys

    probe = ("import resource, subprocess, sys; done = subprocess.run(sys.argv[1:], "
             "capture_output=True, text=True); print(done.returncode, resource.getrusage("
             "resource.RUSAGE_CHILDREN).ru_maxrss // 1024); print(done.stdout)")
    xwsat = Path(sys.executable).with_name("xwsat")
    done = subprocess.run([sys.executable, "-c", probe, xwsat, *map(str, argv)],
                          capture_output=True, text=True, timeout=600)
    code, peak = done.stdout.split("\n", 1)[0].split()
    return int(code), done.stdout + f"peak {peak} MB"


@pytest.mark.slow
def test_a_proof_padded_with_comments_verifies_in_little_memory(certificate) -> None:
    """300 MB of comments in a valid proof verified at a 1.1 GB peak: the parent held the text
    and its lines. Streamed, and the comments dropped as they pass, no process holds them."""
    proof = certificate / "proof.drat"
    steps = proof.read_text()
    block = ("c " + "x" * 98 + "\n") * 10_000
    with open(proof, "w") as out:
        for _ in range(300):  # 300 MB
            out.write(block)
        out.write(steps)
    rehash(certificate)
    code, said = _peak_mb(["check-proof", certificate, "-t", "300"])
    assert code == 1 and "VERIFIED" in said, said
    assert int(said.rsplit("peak ", 1)[1].split()[0]) < 400, said


def test_a_manifest_entry_that_is_a_link_is_rejected(certificate) -> None:
    grid = certificate / "grid.txt"
    kept = certificate.parent / "grid-copy.txt"
    shutil.copy(grid, kept)
    grid.unlink()
    grid.symlink_to(kept)  # the same bytes, through a link: still not the folder's own file
    lines, verdict = recheck(certificate, "auto", 30)
    assert verdict == "rejected" and "grid.txt is a link" in lines[-1], lines


def test_a_manifest_entry_that_is_a_pipe_is_named_so_not_missing(certificate) -> None:
    import os

    proof = certificate / "proof.drat"
    proof.unlink()
    os.mkfifo(proof)  # read, it would wait forever; it is refused before
    lines, verdict = recheck(certificate, "auto", 30)
    assert verdict == "rejected" and "proof.drat is not a plain file" in lines[-1], lines


def test_comment_lines_are_dropped_exactly_however_the_text_is_cut() -> None:
    """The streamed reader drops comment lines piece by piece: cut anywhere, the text left is
    the text's non-comment lines, byte for byte (what each checker parses)."""
    import random
    import re

    from xwsat.evidence.proof_files import START, _strip_comments

    rng = random.Random(7)
    for _ in range(3000):
        lines = [rng.choice(["c note", "1 2 0", "c", "-3 0", "", "d 1 0", "cx 1", "12 c"])
                 for _ in range(rng.randint(0, 10))]
        text = ("\n".join(lines) + rng.choice(["", "\n"])).encode()
        kept = b"".join(line for line in re.findall(rb"[^\n]*\n|[^\n]+$", text)
                        if not line.startswith(b"c"))
        cuts = sorted(rng.sample(range(len(text) + 1), min(rng.randint(0, 5), len(text) + 1)))
        state, out = START, []
        for a, b in zip([0, *cuts], [*cuts, len(text)]):
            if a < b:
                piece, state = _strip_comments(text[a:b], state)
                out.append(piece)
        assert b"".join(out) == kept, (text, cuts)


def test_a_dead_runs_staging_folder_is_cleared_and_a_live_one_named(tmp_path):
    """SIGKILL leaves ``.staging-PID``: the next run removes it when that process is gone (it
    was refused as "not empty" while the folder looked empty); a live one's is named."""
    import os

    from xwsat.errors import XwsatError
    from xwsat.evidence.certificate import prepare_folder

    dead = tmp_path / "dead"
    (dead / ".staging-999999999").mkdir(parents=True)
    (dead / ".staging-999999999" / "formula.cnf").write_text("p cnf 1 1\n")
    prepare_folder(dead)
    assert not any(dead.iterdir())
    live = tmp_path / "live"
    (live / f".staging-{os.getpid()}").mkdir(parents=True)
    with pytest.raises(XwsatError, match=rf"it holds \.staging-{os.getpid()}"):
        prepare_folder(live)
