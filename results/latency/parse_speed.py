"""CPU time to parse each embedded dictionary with the word cache off (a first run, or
``XWSAT_NO_CACHE=1``), and to load it from the cache, median of ``--reps`` runs in this process.

    python results/latency/parse_speed.py [--reps 5] [--against REV]

``--against REV`` also times the parser of ``xwsat/words.py`` at git revision REV on the same
text in the same run (parse and index only, the part the cache skips), for a ratio.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path

from xwsat import words as current
from xwsat.words import EMBEDDED, load_words


def cpu(spec: str) -> float:
    start = time.process_time()
    load_words(spec)
    return time.process_time() - start


def parse_cpu(module, spec: str) -> float:
    """CPU seconds of ``module``'s text-to-word-list path (decode, split, parse, index)."""
    raw = (resources.files("xwsat") / "data" / EMBEDDED[spec]).read_bytes()
    start = time.process_time()
    text = module.decode_text(raw, spec)
    entries, _ = module.parse_entries(module.text_lines(text), spec)
    module.build_wordlist(entries, None, spec)
    return time.process_time() - start


def old_module(rev: str):
    source = subprocess.run(["git", "show", f"{rev}:xwsat/words.py"], capture_output=True,
                            text=True, check=True).stdout
    path = Path(tempfile.mkdtemp()) / "words_old.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("words_old", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["words_old"] = module
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--against", default="")
    args = parser.parse_args()
    if args.against:
        old = old_module(args.against)
        print(f"| list | parser at {args.against} (CPU s) | now (CPU s) | ratio |")
        print("|---|---|---|---|")
        for spec in EMBEDDED:
            before, now = [], []
            for _ in range(args.reps):  # alternating, so load falls on both alike
                before.append(parse_cpu(old, spec))
                now.append(parse_cpu(current, spec))
            b, n = statistics.median(before), statistics.median(now)
            print(f"| {spec} | {b:.2f} | {n:.2f} | {n / b:.2f} |", flush=True)
        print()
    print("| list | words | parse, no cache (CPU s) | from the cache (CPU s) |")
    print("|---|---|---|---|")
    for spec in EMBEDDED:
        os.environ["XWSAT_NO_CACHE"] = "1"
        cold = [cpu(spec) for _ in range(args.reps)]
        del os.environ["XWSAT_NO_CACHE"]
        with tempfile.TemporaryDirectory() as folder:
            os.environ["XDG_CACHE_HOME"] = folder
            load_words(spec)  # fills the cache
            warm = [cpu(spec) for _ in range(args.reps)]
        print(f"| {spec} | {len(load_words(spec)):,} | {statistics.median(cold):.2f} | "
              f"{statistics.median(warm):.3f} |", flush=True)


if __name__ == "__main__":
    main()
