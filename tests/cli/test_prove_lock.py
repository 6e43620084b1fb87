"""``prove --lock``: a themed grid proven as the constructor locked it, and its certificate
bound to the locked entries (``check-proof`` places them again and re-checks)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from xwsat.cli import app

THREE = "...\n...\n...\n"
# blank, the square has two fills (rows AAA DBD DDA and ADD ABD ADA); arc consistency alone
# refutes none of the locks below that leave no fill
WORDS = ["AAA", "ABD", "ACA", "ADA", "ADD", "BAC", "DBD", "DCB", "DDA", "DDB"]


@pytest.fixture
def square(tmp_path) -> tuple[Path, Path]:
    grid, words = tmp_path / "g.txt", tmp_path / "w.txt"
    grid.write_text(THREE)
    words.write_text("\n".join(WORDS) + "\n")
    return grid, words


def invoke(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


def certified(square: tuple[Path, Path], folder: Path, lock: str) -> Path:
    """The folder of a checked certificate that the square, ``lock`` placed, has no fill."""
    grid, words = square
    assert invoke("prove", grid, "--dict", words, "--lock", lock, "--certificate", folder,
                  "--proof-method", "mac").exit_code == 1
    return folder


@pytest.mark.parametrize("lock,code", [("1A=AAA", 0), ("1A=ADA", 1), ("1A=AAD", 1),
                                       ("4A=DAD", 0), ("1D=ADD", 0), ("1D=DBD", 1)])
def test_prove_lock_decides_the_grid_as_locked(square, lock, code) -> None:
    # AAD and DAD are no dictionary words: theme entries, allowed in their own slot only
    grid, words = square
    result = invoke("prove", grid, "--dict", words, "--lock", lock, "--json")
    assert result.exit_code == code, result.output
    record = json.loads(result.stdout)
    assert record["status"] == ("filled" if code == 0 else "unfillable")
    if code == 0:  # the verified fill holds the locked entry
        name, word = lock.split("=")
        assert {"slot": name, "word": word} in [{"slot": e["slot"], "word": e["word"]}
                                                for e in record["words"]]


@pytest.mark.parametrize("lock", ["1A=ADA", "1A=AAD"])
def test_a_certificate_made_with_lock_rechecks(square, tmp_path, lock) -> None:
    grid, words = square
    folder = tmp_path / "cert"
    result = invoke("prove", grid, "--dict", words, "--lock", lock, "--certificate", folder,
                    "--proof-method", "mac")
    assert result.exit_code == 1, result.output
    assert "UNFILLABLE: certificate checked" in result.stdout
    manifest = json.loads((folder / "manifest.json").read_text())
    name, word = lock.split("=")
    assert manifest["rules"]["locked"] == {name: word}
    assert manifest["rules"]["placed_only"] == ([] if word in WORDS else [word])
    for extra in ([], ["--grid", grid, "--dict", words]):
        check = invoke("check-proof", folder, *extra)
        assert check.exit_code == 1, check.output
        assert f"with the entries {lock} locked" in check.stdout
        assert f"locked entries: {lock}" in check.stdout


def test_check_proof_refuses_a_locked_certificate_for_a_dictionary_with_the_theme_word(
        square, tmp_path) -> None:
    grid, words = square
    folder = tmp_path / "cert"
    assert invoke("prove", grid, "--dict", words, "--lock", "1A=AAD", "--certificate", folder,
                  "--proof-method", "mac").exit_code == 1
    other = tmp_path / "other.txt"
    other.write_text("\n".join([*WORDS, "AAD"]) + "\n")  # AAD a word: it may fill 1D too
    check = invoke("check-proof", folder, "--grid", grid, "--dict", other)
    assert check.exit_code == 4, check.output
    assert "NOT VERIFIED: the certificate's locked words are not the ones your dictionary " \
        "lacks" in check.stdout


def test_a_manifest_whose_placed_only_word_was_not_locked_is_rejected(square, tmp_path) -> None:
    folder = certified(square, tmp_path / "cert", "1A=ADA")
    path = folder / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["rules"]["placed_only"] = ["ABD"]  # a dictionary word kept out of every slot
    path.write_text(json.dumps(manifest))
    check = invoke("check-proof", folder)
    assert check.exit_code == 4 and "NOT VERIFIED" in check.stdout, check.output


@pytest.mark.parametrize("lock,message", [("9A=ABC", "the grid has no slot 9A"),
                                          ("1A=ABCD", "slot 1A has 3 cells")])
def test_a_bad_lock_is_a_one_line_error(square, lock, message) -> None:
    grid, words = square
    result = invoke("prove", grid, "--dict", words, "--lock", lock)
    assert result.exit_code == 2
    assert result.stderr.startswith("xwsat: error: ") and message in result.stderr


def test_a_slot_locked_twice_is_named(square) -> None:
    grid, words = square
    result = invoke("fill", grid, "--dict", words, "--lock", "1A=ABC", "--lock", "1a=ABD")
    assert result.exit_code == 2
    assert result.stderr.strip() == ("xwsat: error: --lock '1a=ABD': slot 1A is locked twice "
                                     "(also to ABC); keep one of the two")


def test_a_count_certificate_with_a_theme_word_rechecks(tmp_path) -> None:
    # the count offered a locked word the list lacks to every slot of its length, so the
    # certificate's own recount failed (exit 4) where the prover's count held
    grid, words, folder = tmp_path / "g.txt", tmp_path / "w.txt", tmp_path / "cert"
    grid.write_text("...\n...\n...\n")
    # the three downs start with Q and two words do: the count refutes (QQQ fits none of them)
    words.write_text("QAB\nQCD\nACA\nCAC\nBDB\nDBD\n")
    result = invoke("prove", grid, "--dict", words, "--lock", "1A=QQQ", "--certificate",
                    folder, "--json")
    assert result.exit_code == 1, result.output
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["proof"]["format"].startswith("xwsat-count/")
    assert manifest["rules"]["placed_only"] == ["QQQ"]
    for extra in ([], ["--grid", grid, "--dict", words]):
        check = invoke("check-proof", folder, *extra)
        assert check.exit_code == 1 and "VERIFIED" in check.stdout, check.output


def test_a_lock_the_folders_grid_does_not_hold_is_not_verified(tmp_path) -> None:
    """A manifest can say "1A=ABAFT locked" over a grid without ABAFT: the word, a theme word
    offered to its own slot only, then fits none, and the two slots "cannot" be filled with
    ABATE alone, where the grid as locked fills (ABAFT, ABATE). check-proof said VERIFIED."""
    import gzip
    import hashlib

    from xwsat.evidence.count_certificate import GIVEN, recount
    from xwsat.grid import parse_grid

    grid, words, folder = tmp_path / "g.txt", tmp_path / "w.txt", tmp_path / "cert"
    grid.write_text(".....\n#####\n.....\n")
    words.write_text("ABATE\n")
    assert invoke("prove", grid, "--dict", words, "--lock", "1A=ABAFT").exit_code == 0
    assert invoke("prove", grid, "--dict", words, "--certificate", folder).exit_code == 1
    kept = ("ABAFT", "ABATE")  # the forger's folder: honest files, but for another question
    with gzip.open(folder / "words.txt.gz", "wt") as handle:
        handle.write("\n".join(kept) + "\n")
    counted = recount(parse_grid(grid.read_text(), "g"), kept, "ABEFT", 2, False, GIVEN,
                      placed_only=("ABAFT",))
    (folder / "count.txt").write_text(counted.text(["1A", "2A"], GIVEN))
    path = folder / "manifest.json"
    manifest = json.loads(path.read_text())
    assert manifest["proof"]["format"].startswith("xwsat-count/")
    manifest["rules"].update(alphabet="ABEFT", locked={"1A": "ABAFT"}, placed_only=["ABAFT"])
    for name in manifest["files"]:
        data = (folder / name).read_bytes()
        manifest["files"][name] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    path.write_text(json.dumps(manifest))
    check = invoke("check-proof", folder)
    assert check.exit_code == 4, check.output
    assert "the manifest locks 1A=ABAFT, and grid.txt does not hold that word in 1A" in \
        check.stdout


def test_check_proof_never_places_a_lock_over_a_letter_of_your_grid(square, tmp_path) -> None:
    _, words = square
    folder = certified(square, tmp_path / "cert", "1A=ADA")
    mine = tmp_path / "mine.txt"
    mine.write_text("D..\n...\n...\n")  # prove --lock 1A=ADA refuses this grid
    check = invoke("check-proof", folder, "--grid", mine, "--dict", words)
    assert check.exit_code == 4, check.output
    assert "your grid has D at row 1, column 1, not A" in check.stdout


def test_a_file_the_manifest_does_not_list_is_never_read(square, tmp_path) -> None:
    # check-proof read a formula, a proof or a word list the manifest does not bind by hash,
    # a link to elsewhere included, where the docs say it reads only the files listed
    folder = certified(square, tmp_path / "cert", "1A=ADA")
    path = folder / "manifest.json"
    honest = json.loads(path.read_text())
    for name in ("words.txt.gz", "grid.txt", next(n for n in honest["files"]
                                                    if n.startswith("proof."))):
        manifest = json.loads(json.dumps(honest))
        del manifest["files"][name]
        path.write_text(json.dumps(manifest))
        check = invoke("check-proof", folder)
        assert check.exit_code == 4, check.output
        assert "NOT VERIFIED: the manifest does not list" in check.stdout, name


def test_gzip_data_under_a_plain_name_is_said_so(square, tmp_path) -> None:
    # "proof.drat: not ASCII text" and "formula.cnf is not the encoding ...": true, and no help
    import gzip
    import hashlib

    folder = certified(square, tmp_path / "cert", "1A=ADA")
    path = folder / "manifest.json"
    manifest = json.loads(path.read_text())
    name = next(n for n in manifest["files"] if n.startswith("proof.") and n.endswith(".drat"))
    packed = gzip.compress((folder / name).read_bytes())
    (folder / name).write_bytes(packed)
    manifest["files"][name] = {"bytes": len(packed), "sha256": hashlib.sha256(packed).hexdigest()}
    path.write_text(json.dumps(manifest))
    check = invoke("check-proof", folder)
    assert check.exit_code == 4 and "holds gzip data, but its name does not end in .gz" in \
        check.stdout, check.output
