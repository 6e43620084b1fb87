"""Run the hostile inputs and races of results/reliability/ against the ``xwsat`` on the path
(or ``--xwsat``), each in a scratch folder, and print one Markdown row per attack: the exit code,
the wall clock, the peak resident set of the largest process (``wait4``), and whether it held.

Each command runs under an address-space ceiling (``--ceiling-mb``, default 3000) so that a
version that does not hold fails there instead of taking the machine's memory. Run from the
repository's top folder:

    python scripts/attacks.py                  # every attack
    python scripts/attacks.py --only proof-    # those whose name starts so
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
GRID4 = "....\n....\n....\n....\n"


@dataclass
class Ran:
    code: int
    seconds: float
    peak_mb: float
    out: str


@dataclass
class Attack:
    name: str
    what: str
    run: Callable[[Path, Callable[..., Ran]], tuple[Ran, bool]]  # (folder, runner) -> held


def runner(xwsat: str, ceiling_mb: int) -> Callable[..., Ran]:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ceiling_mb << 20, ceiling_mb << 20))

    def run(*argv: object, cwd: Path, during: Callable[[], None] | None = None,
            at: float = 0.0, timeout: float = 300) -> Ran:
        started = time.monotonic()
        child = subprocess.Popen([xwsat, *map(str, argv)], cwd=cwd, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True, preexec_fn=limit)
        if during is not None:
            threading.Timer(at, during).start()
        out: list[str] = []
        reader = threading.Thread(target=lambda: out.append(child.stdout.read()))
        reader.start()
        deadline = started + timeout
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                child.kill()
            time.sleep(0.02)
        reader.join()
        child.returncode = os.waitstatus_to_exitcode(status)
        return Ran(child.returncode, time.monotonic() - started, usage.ru_maxrss / 1024,
                   out[0] if out else "")
    return run


# --- building the inputs -----------------------------------------------------------------------

def certificate(folder: Path, run: Callable[..., Ran]) -> Path:
    """A real certificate: a 4x4 open grid and 300 four-letter words of wamerican (seed 3),
    unfillable, proved by the compiled search (about 4,900 variables)."""
    words = [w.strip().upper() for w in (TOP / "grids/dictionaries/wamerican.txt").open()
             if len(w.strip()) == 4 and w.strip().isascii() and w.strip().isalpha()]
    random.seed(3)
    (folder / "g4.txt").write_text(GRID4)
    (folder / "w4.txt").write_text("\n".join(random.sample(words, 300)) + "\n")
    made = run("prove", "g4.txt", "--dict", "w4.txt", "--certificate", "cert", "-t", "120",
               cwd=folder)
    if made.code != 1:
        raise SystemExit(f"could not make the certificate: {made.out[-300:]}")
    return folder / "cert"


def rehash(cert: Path, drop: tuple[str, ...] = ()) -> None:
    """What a forger does: list the folder's files with their hashes in the manifest."""
    manifest = json.loads((cert / "manifest.json").read_text())
    names = [n for n in manifest["files"] if n not in drop and (cert / n).exists()]
    names += [p.name for p in cert.iterdir() if p.name not in names and p.name != "manifest.json"]
    manifest["files"] = {n: {"sha256": _streamed_hash(cert / n)} for n in names}
    (cert / "manifest.json").write_text(json.dumps(manifest))


def _streamed_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def bomb(path: Path, line: bytes, size: int) -> None:
    block = line * ((1 << 20) // len(line))
    pack = zlib.compressobj(9, wbits=31)
    with open(path, "wb") as out:
        for _ in range(size // len(block)):
            out.write(pack.compress(block))
        out.write(pack.flush())


def forged(folder: Path, run: Callable[..., Ran], edit: Callable[[Path], None]) -> Path:
    cert = folder / "forged"
    shutil.copytree(folder.parent / "base" / "cert", cert)
    edit(cert)
    return cert


# --- the attacks -------------------------------------------------------------------------------

def out_race(folder: Path, run: Callable[..., Ran]) -> tuple[Ran, bool]:
    precious = folder / "precious.txt"
    mine = "a file another program wrote during the run\n"
    ran = run("fill", TOP / "grids/american/20201128_empty.txt", "-d", "en", "--optimize",
              "-t", "8", "-o", precious, cwd=folder,
              during=lambda: precious.write_text(mine), at=4.0)
    return ran, ran.code == 2 and precious.read_text() == mine


def check(cert_edit: Callable[[Path], None], *options: str, want: tuple[int, ...] = (4,),
          said: str = "") -> Callable[[Path, Callable[..., Ran]], tuple[Ran, bool]]:
    """check-proof on the real certificate edited so: held when the exit is one of ``want``,
    the output says ``said`` (when it is a verdict) and no process passed 1 GB."""
    def attack(folder: Path, run: Callable[..., Ran]) -> tuple[Ran, bool]:
        cert = forged(folder, run, cert_edit)
        ran = run("check-proof", cert, *options, cwd=folder)
        return ran, (ran.code in want and (said in ran.out or ran.code == 3)
                     and ran.peak_mb < 1024)
    return attack


def huge_literal(cert: Path) -> None:
    (cert / "proof.drat").write_text("1073741823 0\n0\n")
    rehash(cert)


def proof_bomb(cert: Path) -> None:
    (cert / "proof.drat").unlink()
    bomb(cert / "proof.drat.gz", b"c " + b"x" * 61 + b"\n", 1200 << 20)
    rehash(cert, drop=("proof.drat",))


def formula_bomb(cert: Path) -> None:
    (cert / "formula.cnf").unlink()
    bomb(cert / "formula.cnf.gz", b"c " + b"x" * 61 + b"\n", 1200 << 20)
    rehash(cert, drop=("formula.cnf",))


def words_bomb(cert: Path) -> None:
    bomb(cert / "words.txt.gz", b"ABCD\n", 1800 << 20)
    rehash(cert)


def padded(cert: Path) -> None:
    steps = (cert / "proof.drat").read_text()
    block = ("c " + "x" * 98 + "\n") * 10_000
    with open(cert / "proof.drat", "w") as out:
        for _ in range(300):
            out.write(block)
        out.write(steps)
    rehash(cert)


def system_link(cert: Path) -> None:
    (cert / "hostname").symlink_to("/etc/hostname")
    rehash(cert)


def words_case(text: bytes, rows: str) -> Callable[[Path, Callable[..., Ran]], tuple[Ran, bool]]:
    def attack(folder: Path, run: Callable[..., Ran]) -> tuple[Ran, bool]:
        (folder / "g.txt").write_text(rows)
        (folder / "w.txt").write_bytes(text)
        ran = run("fill", "g.txt", "--dict", "w.txt", cwd=folder)
        return ran, ran.code == 0
    return attack


def long_path(option: str, length: int, want: int) -> Callable[[Path, Callable[..., Ran]],
                                                                 tuple[Ran, bool]]:
    def attack(folder: Path, run: Callable[..., Ran]) -> tuple[Ran, bool]:
        (folder / "g.txt").write_text("..\n")
        (folder / "w.txt").write_text("AB\nCD\n")
        name = "x" * (length - 4) + ".txt"
        argv = ["fill", "g.txt", "--dict", "w.txt"]
        argv = [*argv, "--out", name] if option == "--out" else [*argv[:3], name]
        ran = run(*argv, cwd=folder)
        one_line = len([ln for ln in ran.out.splitlines() if ln.startswith("xwsat:")]) <= 1
        written = want != 0 or (folder / name).is_file()
        return ran, ran.code == want and one_line and written
    return attack


def oversized(path: Path, side: int) -> Path:
    """A ``side`` x ``side`` open puzzle in the format of ``path``'s extension (.ipuz, .json,
    .puz), its size declared as a real file declares it (also used by the tests)."""
    if path.suffix == ".ipuz":
        path.write_text(json.dumps({"version": "http://ipuz.org/v2",
                                    "kind": ["http://ipuz.org/crossword#1"],
                                    "dimensions": {"width": side, "height": side},
                                    "puzzle": [[0] * side] * side}))
    elif path.suffix == ".json":
        path.write_text(json.dumps({"pattern": ["." * side] * side}))
    else:
        import puz

        board = puz.Puzzle()
        board.width = board.height = side
        board.solution, board.fill = "A" * side * side, "-" * side * side
        path.write_bytes(board.tobytes())
    return path


def big_puzzle(ext: str) -> Callable[[Path, Callable[..., Ran]], tuple[Ran, bool]]:
    def attack(folder: Path, run: Callable[..., Ran]) -> tuple[Ran, bool]:
        ran = run("fill", oversized(folder / f"big{ext}", 3000), cwd=folder)
        return ran, ran.code == 2 and ran.seconds < 3
    return attack


def json_line_break(folder: Path, run: Callable[..., Ran]) -> tuple[Ran, bool]:
    (folder / "g.json").write_text(json.dumps({"pattern": ["..\n..", ".."]}))
    ran = run("info", "g.json", "--dict", "en", cwd=folder)
    return ran, ran.code == 2


ATTACKS = [
    Attack("out-race", "`fill --optimize -t 8 -o precious.txt`, the file created 4 s in",
           out_race),
    Attack("proof-literal", "proof.drat `1073741823 0` / `0`, hashes fixed up; check-proof",
           check(huge_literal, "-t", "60", said="beyond the formula")),
    Attack("proof-literal-t5", "the same, `check-proof -t 5` (undecided at the limit also holds)",
           check(huge_literal, "-t", "5", want=(3, 4), said="beyond the formula")),
    Attack("proof-bomb", "proof.drat.gz unpacking to 1.2 GB of comment lines",
           check(proof_bomb, "-t", "60", said="512 MiB")),
    Attack("formula-bomb", "formula.cnf.gz unpacking to 1.2 GB of comment lines",
           check(formula_bomb, "-t", "60", said="512 MiB")),
    Attack("words-bomb", "words.txt.gz unpacking to 1.8 GB",
           check(words_bomb, "-t", "60", said="512 MiB")),
    Attack("proof-padded", "a valid proof padded with 300 MB of comment lines",
           check(padded, "-t", "300", want=(1,), said="VERIFIED")),
    Attack("proof-memory-limit", "`check-proof --memory-limit 1024` on the real certificate",
           check(lambda cert: None, "-t", "60", "--memory-limit", "1024", want=(1,),
                 said="VERIFIED")),
    Attack("manifest-link", "a manifest entry that is a link to /etc/hostname",
           check(system_link, "-t", "60", said="link")),
    Attack("words-nbsp", "`ICE<U+00A0>CREAM` the only 8-letter word, 1x8 grid",
           words_case("ICE\u00a0CREAM\n".encode(), "........\n")),
    Attack("words-thin-space", "`ICE<U+2009>CREAM`", words_case("ICE\u2009CREAM\n".encode(),
                                                                "........\n")),
    Attack("words-bom-inside", "`\\ufeffCA` on a later line, 1x2 grid",
           words_case("ZZZ\n\ufeffCA\n".encode(), "..\n")),
    Attack("words-utf16", "a UTF-16 list (with its byte order mark)",
           words_case("AB\nCD\n".encode("utf-16"), "..\n")),
    Attack("words-utf16-no-bom", "a UTF-16 big-endian list without a mark",
           words_case("AB\nCD\n".encode("utf-16-be"), "..\n")),
    Attack("out-300", "a 300-character `--out` name", long_path("--out", 300, 2)),
    Attack("dict-300", "a 300-character `--dict` name", long_path("--dict", 300, 2)),
    Attack("out-254", "a legal 254-character `--out` name", long_path("--out", 254, 0)),
    Attack("ipuz-3000", "a 3000x3000 .ipuz", big_puzzle(".ipuz")),
    Attack("json-3000", "a 3000x3000 .json", big_puzzle(".json")),
    Attack("json-row-newline", "a .json row holding `\\n`", json_line_break),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--xwsat", default=shutil.which("xwsat", path=str(Path(
        sys.executable).parent)) or "xwsat")
    parser.add_argument("--only", default="", help="attacks whose name starts with this")
    parser.add_argument("--ceiling-mb", type=int, default=3000)
    args = parser.parse_args()
    run = runner(args.xwsat, args.ceiling_mb)
    print("| attack | what | exit | seconds | peak MB | held |\n|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="xwsat-attacks-") as scratch:
        base = Path(scratch) / "base"
        base.mkdir()
        chosen = [a for a in ATTACKS if a.name.startswith(args.only)]
        if any(a.run.__qualname__.startswith("check") for a in chosen):
            certificate(base, run)
        for attack in chosen:
            folder = Path(scratch) / attack.name
            folder.mkdir()
            ran, held = attack.run(folder, run)
            print(f"| {attack.name} | {attack.what} | {ran.code} | {ran.seconds:.1f} | "
                  f"{ran.peak_mb:.0f} | {'held' if held else 'NOT HELD'} |", flush=True)
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
