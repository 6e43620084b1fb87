"""Fill quality against other fillers: each tool fills each grid from the same scored list under
the same time limit, and a row records the fill's level (lowest score), its entries per score
and its weak entries (below the list's top score). Then tables per list and a picture.

    python scripts/quality_bench.py run --list stwl=/tmp/stwl.txt:40 --list en=en:0 \\
        --out results/quality/rows.jsonl
    python scripts/quality_bench.py report results/quality/rows.jsonl results/quality

Tools: ``xwsat`` (plain ``fill``), ``xwsat-optimize`` (``fill --optimize``), ``qxw``
(``fill -b qxw``: Qxw's own filler on the list cut at the minimum score; it reads no scores),
``blacksquare`` (its Rust filler, ``Crossword.fill`` with the list and ``score_filter`` at the
minimum score; needs ``pip install blacksquare``), ``crosshare`` (Crosshare's autofiller run by
node through ``scripts/crosshare_autofill.ts`` in the folder given by ``--crosshare``; its
seconds are the search's, after its word database is built). Each run is a child process under
``flock /work/measure.lock`` when that file exists (not with ``--no-lock``). A list is
``NAME=PATH:MIN_SCORE``; ``en`` as PATH is the embedded list (exported once to a scratch file
for the peers).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NYT = sorted(Path("/work/shared/benchmarks/american").glob("2020*_empty.txt"))
GRIDS15 = [*NYT, ROOT / "grids/small/amer15.txt",
           *(ROOT / "grids/robust15" / f"{n}.txt"
             for n in ("g15-s11-008", "g15-s12-004", "g15-s13-008"))]
GRIDS21 = [ROOT / "grids/robust21/g21-s21-003.txt", ROOT / "grids/robust21/g21-s21-006.txt",
           ROOT / "grids/classic/21-01.txt"]
TOOLS = ("xwsat", "xwsat-optimize", "blacksquare", "crosshare", "qxw")
CUTS = {"stwl": "30,40,50", "en": "40,50,60"}  # a list's scores -> Crosshare's tiers 0-3
LOCK = Path("/work/measure.lock")
NO_LOCK = "--no-lock" in sys.argv  # when other measurements hold the lock for long


def read_scores(path: str) -> dict[str, int]:
    scores: dict[str, int] = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        word, _, rest = line.partition(";")
        if word:
            scores[word.strip().upper()] = int(float(rest.split(";")[0] or 50))
    return scores


def _run(command: list[str], seconds: float) -> tuple[str, float, int | None]:
    """stdout, wall seconds and exit code (None: killed at the guard) of one child; the
    seconds are timed inside the lock, so waiting for it does not count."""
    timed = [sys.executable, __file__, "timed", *command]
    if LOCK.exists() and not NO_LOCK:
        timed = ["flock", str(LOCK), *timed]
    try:
        done = subprocess.run(timed, capture_output=True, text=True, timeout=seconds + 600)
    except subprocess.TimeoutExpired:
        return "", seconds, None
    wall = float((done.stderr.strip().splitlines() or ["nan"])[-1].split()[-1])
    return done.stdout, wall, done.returncode


def timed(command: list[str]) -> None:
    """Run ``command``, pass its stdout on, and end stderr with its wall seconds."""
    started = time.monotonic()
    done = subprocess.run(command, stdout=sys.stdout, stderr=subprocess.DEVNULL)
    print(f"wall {time.monotonic() - started:.3f}", file=sys.stderr)
    sys.exit(done.returncode)


def xwsat_words(grid: Path, dictionary: str, min_score: int, seconds: float,
                extra: list[str]) -> tuple[list[str] | None, float, dict]:
    command = [shutil.which("xwsat") or "xwsat", "fill", str(grid), "-d", dictionary,
               "--min-score", str(min_score), "-t", str(seconds), "--json", *extra]
    out, wall, _ = _run(command, seconds)
    try:
        record = json.loads(out)
    except json.JSONDecodeError:
        return None, wall, {"status": "crash"}
    words = [w["word"] for w in record.get("words") or []] or None
    info = {"status": record.get("status")}
    if "optimize" in record:
        keep = ("level", "proven", "next_level", "ceiling", "undecided", "at_level",
                "fewest_at_level", "optimal", "steps")
        info["optimize"] = {k: record["optimize"].get(k) for k in keep}
    return words, wall, info


BLACKSQUARE_CHILD = """
import sys, json
from blacksquare import Crossword, WordList
grid, path, low, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
rows = [r.strip() for r in open(grid, encoding="utf-8") if r.strip()]
wl = WordList(path)
cw = Crossword(grid=[["#" if c == "#" else " " for c in r] for r in rows], word_list=wl)
top = max(wl.get_score(w) for w in wl.words)
res = cw.fill(timeout=seconds, score_filter=low / top if low else None, show_progress=False)
print(json.dumps(None if res is None else [w.value for w in res.iterwords()]))
"""


def blacksquare_words(grid: Path, path: str, min_score: int, top: int,
                      seconds: float) -> tuple[list[str] | None, float, dict]:
    out, wall, code = _run([sys.executable, "-c", BLACKSQUARE_CHILD, str(grid), path,
                            str(min_score / top), str(seconds)], seconds)
    try:
        words = json.loads(out.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        return None, wall, {"status": "crash" if code else "unknown"}
    return words, wall, {"status": "filled" if words else "unknown"}


def crosshare_words(folder: Path, grid: Path, path: str, min_score: int, cuts: str,
                    seconds: float) -> tuple[list[str] | None, float, dict]:
    out, wall, code = _run(["env", "-C", str(folder), "node", "--import", "tsx",
                            str(folder / "crosshare_autofill.ts"),
                            str(grid), path, str(min_score), str(seconds), cuts], seconds + 60)
    try:
        found = json.loads(out.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        return None, wall, {"status": "crash" if code else "unknown"}
    if not found["rows"]:
        return None, found["search_s"], {"status": "unknown"}
    rows = found["rows"]
    runs = ["".join(r) for r in rows] + ["".join(col) for col in zip(*rows)]
    words = [w for line in runs for w in line.split("#") if len(w) >= 2]
    return words, found["search_s"], {"status": "filled", "completed": found["completed"]}


def row(tool: str, grid: Path, name: str, words: list[str] | None, wall: float, info: dict,
        scores: dict[str, int], top: int, seconds: float) -> dict:
    entry = {"tool": tool, "grid": grid.stem, "list": name, "limit_s": seconds,
             "seconds": round(wall, 2), "date": time.strftime("%Y-%m-%d", time.gmtime()),
             **info}
    if words:
        got = [scores.get(w.upper().replace(" ", ""), -1) for w in words]
        tiers = Counter(got)
        entry.update({"filled": True, "entries": len(got), "level": min(got),
                      "at_level": tiers[min(got)], "weak": sum(s < top for s in got),
                      "total": sum(got), "tiers": {str(k): v for k, v in sorted(tiers.items())}})
    else:
        entry["filled"] = False
    return entry


def run(args: argparse.Namespace) -> None:
    scratch = Path(tempfile.mkdtemp(prefix="quality-"))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    grids = [(g, args.time15) for g in GRIDS15] + [(g, args.time21) for g in GRIDS21]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                            capture_output=True).stdout.strip()
    with out.open("a", encoding="utf-8") as rows:
        for spec in args.list:
            name, _, rest = spec.partition("=")
            source, _, low = rest.rpartition(":")
            path = source
            if source in ("en", "ru", "es"):  # the peers read a file
                path = str(scratch / f"{source}.txt")
                subprocess.run(["xwsat", "dict", "export", source, "-o", path], check=True)
                plain = read_scores(path)  # WORD;SCORE only: the peers read no clues
                Path(path).write_text("".join(f"{w};{v}\n" for w, v in plain.items()),
                                      encoding="utf-8")
            scores = read_scores(path)
            top = max(scores.values())
            for grid, seconds in grids:
                for tool in args.tools:
                    if tool == "qxw" and seconds > args.time15:
                        continue  # Qxw reads no scores and fills no big list in time
                    if tool == "blacksquare":
                        words, wall, info = blacksquare_words(grid, path, int(low), top, seconds)
                    elif tool == "crosshare":
                        cuts = CUTS.get(name.rstrip("0123456789"), CUTS["en"])
                        words, wall, info = crosshare_words(Path(args.crosshare), grid, path,
                                                            int(low), cuts, seconds)
                    else:
                        extra = {"xwsat": [], "xwsat-optimize": ["--optimize"],
                                 "qxw": ["-b", "qxw"]}[tool]
                        words, wall, info = xwsat_words(grid, source, int(low), seconds, extra)
                    line = row(tool, grid, name, words, wall, info, scores, top, seconds)
                    line["load"] = os.getloadavg()[0]
                    line["commit"] = commit
                    rows.write(json.dumps(line) + "\n")
                    rows.flush()
                    print(f"{name} {grid.stem} {tool}: level {line.get('level')} weak "
                          f"{line.get('weak')} in {line['seconds']} s", file=sys.stderr)
    shutil.rmtree(scratch, ignore_errors=True)


def _bars(plt, rows: list[dict], grids: list[str], tools: list[str], measure: str, label: str,
          title: str, path: Path) -> None:
    """One bar per grid and tool; an x where the tool found no fill."""
    fig, ax = plt.subplots(figsize=(max(8, len(grids) * 0.9), 4.5))
    width = 0.8 / len(tools)
    for k, tool in enumerate(tools):
        xs, ys, missing = [], [], []
        for i, grid in enumerate(grids):
            r = next((x for x in rows if x["grid"] == grid and x["tool"] == tool), None)
            if r is not None and r["filled"]:
                xs.append(i + k * width)
                ys.append(r[measure])
            elif r is not None:
                missing.append(i + k * width)
        bars = ax.bar(xs, ys, width, label=tool, color=f"C{k}")
        ax.bar_label(bars, fontsize=6)  # a 0 shows as 0, not as a missing bar
        ax.plot(missing, [0.5] * len(missing), "x", color=f"C{k}", markersize=8)
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(grids))], grids, rotation=45,
                  ha="right", fontsize=8)
    ax.set_ylabel(label)
    ax.set_title(title)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))  # beside the bars
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def report(args: argparse.Namespace) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [json.loads(x) for x in Path(args.rows).read_text(encoding="utf-8").splitlines()]
    folder = Path(args.folder)
    tools = [t for t in TOOLS if any(r["tool"] == t for r in rows)]
    lines = []
    for name in dict.fromkeys(r["list"] for r in rows):
        mine = [r for r in rows if r["list"] == name]
        grids = list(dict.fromkeys(r["grid"] for r in mine))
        lines += [f"### {name}", "", "level / entries at that level / weak (below the top "
                  "score) / seconds; '-' no fill in the limit", "",
                  "| grid | " + " | ".join(tools) + " |", "|---" * (len(tools) + 1) + "|"]
        for grid in grids:
            cells = []
            for tool in tools:
                r = next((x for x in mine if x["grid"] == grid and x["tool"] == tool), None)
                if r is None:
                    cells.append("")
                elif not r["filled"]:
                    cells.append(f"- ({r['status']}, {r['seconds']} s)")
                else:
                    proof = r.get("optimize", {})
                    mark = " proven" if proof.get("proven") else ""
                    cells.append(f"{r['level']}{mark} / {r['at_level']} / {r['weak']} / "
                                 f"{r['seconds']} s")
            lines.append(f"| {grid} | " + " | ".join(cells) + " |")
        lines.append("")
        dates = sorted({r["date"] for r in mine if "date" in r} | set(args.measured or []))
        commits = sorted({r["commit"] for r in mine if "commit" in r})
        stamp = f"measured {', '.join(dates)} at {', '.join(commits)}" if dates else (
            f"measured at {', '.join(commits)}")
        for measure, label in (("weak", "weak entries (below the top score)"),
                               ("level", "level reached (lowest score in the fill)")):
            _bars(plt, mine, grids, tools, measure, label,
                  f"{name}: {label.split(' (')[0]} per grid, per tool (x: no fill in the limit)"
                  f"\n{stamp}", folder / f"{measure}_{name}.png")
    (folder / "tables.md").write_text("\n".join(lines), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="verb", required=True)
    go = sub.add_parser("run")
    go.add_argument("--list", action="append", required=True, help="NAME=PATH:MIN_SCORE")
    go.add_argument("--tools", nargs="+", default=list(TOOLS), choices=TOOLS)
    go.add_argument("--time15", type=float, default=20.0)
    go.add_argument("--time21", type=float, default=60.0)
    go.add_argument("--crosshare", default="/tmp/crosshare",
                    help="folder with Crosshare's lib/, node_modules and the driver")
    go.add_argument("--out", required=True)
    go.add_argument("--no-lock", action="store_true",
                    help="run without the measurement lock (the rows keep the load)")
    show = sub.add_parser("report")
    show.add_argument("rows")
    show.add_argument("folder")
    show.add_argument("--measured", nargs="*", help="dates of rows that carry none")
    if sys.argv[1:2] == ["timed"]:  # internal: one measured child, inside the lock
        timed(sys.argv[2:])
    args = parser.parse_args()
    (run if args.verb == "run" else report)(args)


if __name__ == "__main__":
    main()
