"""The workbench's figures and screenshots (results/workbench/), from a real ``xwsat serve``.

    python scripts/workbench_study.py screenshots results/workbench
    python scripts/workbench_study.py figures results/workbench [--words300k PATH]

``screenshots`` drives the page in the system's headless Chromium (Playwright) through the
states a constructor meets; ``figures`` speaks the page's WebSocket protocol directly and
measures: insight latency per edit (median, 95th percentile), time from "autofill" to the first
complete fill on the five NYT-style patterns, the server's memory with each embedded word list
loaded, and twenty quick edits in a row. Nothing here computes what the library does.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import subprocess
import tempfile
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from xwsat.formats import read_grid
from xwsat.words import normalize_word
from xwsat.workbench.launch import descendants, rss_mib, running_server

NYT = sorted(Path("/work/shared/benchmarks/american").glob("2020*_empty.txt"))
GRID15 = Path("grids/american/20201005_empty.txt")
GRID21 = Path("grids/robust21/g21-s21-000.txt")
WHY_GRID = Path("grids/american/20201124_empty.txt")  # level 50 the highest with en: why not 60
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


# --- the WebSocket protocol ------------------------------------------------------------------
class Page:
    """One page's socket: send edits, read messages."""

    def __init__(self, address: str) -> None:
        from websockets.sync.client import connect

        self.address = address
        self.ws = connect(address.replace("http://", "ws://") + "ws", max_size=None)
        self.state = self.next("state")
        self.session = self.state["session"]

    def send(self, **message: object) -> None:
        self.ws.send(json.dumps(message))

    def act(self, **action: object) -> None:
        self.send(type="action", action=action)

    def next(self, message_type: str, timeout: float = 120.0, **match: object) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            message = json.loads(self.ws.recv(timeout=max(0.05, deadline - time.monotonic())))
            if message["type"] == "error":
                raise RuntimeError(message["message"])
            if message["type"] == message_type and all(message.get(k) == v
                                                       for k, v in match.items()):
                if message_type == "state":
                    self.state = message
                return message

    def open(self, path: Path) -> None:
        import httpx

        response = httpx.post(f"{self.address}api/{self.session}/open?name={path.name}",
                              content=path.read_bytes(), timeout=120)
        response.raise_for_status()
        self.next("state")

    def upload(self, path: Path) -> None:
        import httpx

        response = httpx.post(f"{self.address}api/{self.session}/dictionary?name={path.name}",
                              content=path.read_bytes(), timeout=600)
        response.raise_for_status()
        self.next("state")

    def close(self) -> None:
        self.ws.close()


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def latency(page: Page, grid: Path, edits: int, seed: int) -> dict:
    """Round trip from an edit to its state (what the page waits for), and the server's own
    time for the insight, over ``edits`` letters typed into and cleared from random cells."""
    page.open(grid)
    pattern = read_grid(grid)
    cells = [i for i in range(pattern.height * pattern.width) if pattern.is_white(i)]
    rng = random.Random(seed)
    typed: list[int] = []
    trips, server = [], []
    for step in range(edits):
        if typed and (len(typed) > 12 or rng.random() < 0.3):
            cell, letter = typed.pop(rng.randrange(len(typed))), ""
        else:  # an empty cell: every edit changes the grid (an edit that does not is not sent)
            cell = rng.choice([c for c in cells if c not in typed])
            letter = rng.choice("AEIOURSTLN")
            typed.append(cell)
        started = time.perf_counter()
        page.act(type="letter", cell=cell, letter=letter)
        state = page.next("state")
        trips.append((time.perf_counter() - started) * 1000)
        server.append(state["insight"].get("ms", state["ms"]))
        del step
    return {"grid": grid.name, "edits": edits,
            "round_trip_ms": {"median": round(statistics.median(trips), 1),
                              "p95": round(_percentile(trips, 0.95), 1)},
            "insight_ms": {"median": round(statistics.median(server), 1),
                           "p95": round(_percentile(server, 0.95), 1)}}


def first_fill(page: Page, grid: Path) -> dict:
    """Seconds from "autofill" to the first complete (verified) fill on the page, then to the
    second: the first fill with its weakest entries lifted (``xwsat.quality.lift``)."""
    page.open(grid)
    started = time.perf_counter()
    page.send(type="autofill", region=None)
    row: dict = {"grid": grid.name, "seconds": None}
    while True:
        message = page.next("job", kind="autofill", timeout=120)
        result = message["result"]
        if "letters" in result:
            seconds = round(time.perf_counter() - started, 2)
            if row["seconds"] is None:
                row.update(seconds=seconds, search_s=result.get("first_s"),
                           total=result.get("total"))
            else:
                row.update(lifted_s=seconds, lifted_total=result.get("total"))
                return row
        if message["final"]:
            return row if row["seconds"] is not None else {
                **row, "status": result.get("status"),
                "why": result.get("why") or result.get("stopped")}


def quick_edits(page: Page, process: subprocess.Popen, grid: Path) -> dict:
    """Twenty edits sent at once: the answers the page receives for a grid already gone
    (it ignores them; there should be none), and the most processes alive meanwhile."""
    page.open(grid)
    pattern = read_grid(grid)
    cells = [i for i in range(pattern.height * pattern.width) if pattern.is_white(i)][:20]
    most, stale, states = 0, 0, 0
    for cell in cells:
        page.act(type="letter", cell=cell, letter="E")
        most = max(most, len(descendants(process.pid)))
    last_rev = None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        message = json.loads(page.ws.recv(timeout=30))
        most = max(most, len(descendants(process.pid)))
        if message["type"] == "state":
            states += 1
            last_rev = message["rev"]
        elif message["type"] == "job":
            if message["rev"] != last_rev:
                stale += 1
            if message["kind"] == "decide" and message["final"] and message["rev"] == last_rev:
                break
    time.sleep(1.0)
    return {"edits": len(cells), "states_sent": states, "stale_answers": stale,
            "most_processes": most, "left_after_1s": len(descendants(process.pid))}


def memory(address: str, process: subprocess.Popen) -> dict:
    """The server's resident memory before any page, then with each embedded list loaded."""
    rows = {"idle": round(rss_mib(process.pid), 1)}
    page = Page(address)
    for name in ("en", "ru", "es"):
        page.send(type="dictionary", name=name, min_score=0)
        page.next("state")
        rows[f"+{name}"] = round(rss_mib(process.pid), 1)
    page.close()
    return rows


def words300k(source: Path, folder: Path) -> Path:
    """A plain word list from a system dictionary (normalised, letters A-Z only)."""
    kept = set()
    for line in source.read_text(encoding="utf-8", errors="replace").splitlines():
        word = normalize_word(line, fold_accents=True)
        if word.isascii() and word.isalpha() and 2 <= len(word) <= 21:
            kept.add(word)
    path = folder / f"{source.name}.txt"
    path.write_text("\n".join(sorted(kept)) + "\n")
    return path


def figures(out: Path, extra: Path | None, edits: int) -> None:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    load = Path("/proc/loadavg").read_text().split()[:3]
    rows: dict = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "commit": commit,
                  "load_before": load}
    with running_server() as (address, process):
        rows["memory_mib"] = memory(address, process)
        page = Page(address)
        rows["latency"] = [{"words": "en", **latency(page, GRID15, edits, 1)},
                           {"words": "en", **latency(page, GRID21, edits, 1)}]
        rows["first_fill"] = [first_fill(page, grid) for grid in NYT]
        rows["quick_edits"] = quick_edits(page, process, GRID15)
        if extra is not None:
            with tempfile.TemporaryDirectory() as folder:
                listing = words300k(extra, Path(folder))
                page.upload(listing)
                size = page.state["dictionary"]["words"]
                rows["memory_mib"][f"+{extra.name}"] = round(rss_mib(process.pid), 1)
                for grid in (GRID15, GRID21):
                    rows["latency"].append({"words": f"{extra.name} ({size:,})",
                                            **latency(page, grid, edits, 1)})
        page.close()
    rows["load_after"] = Path("/proc/loadavg").read_text().split()[:3]
    out.mkdir(parents=True, exist_ok=True)
    (out / "figures.json").write_text(json.dumps(rows, indent=1) + "\n")
    print(json.dumps(rows, indent=1))


# --- screenshots -----------------------------------------------------------------------------
@contextlib.contextmanager
def opened_page(out: Path, height: int) -> Iterator[Any]:
    """The workbench of a fresh ``xwsat serve`` in headless Chromium, ready to drive."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    with running_server() as (address, _), sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page(viewport={"width": 1320, "height": height})
        page.goto(address)
        page.wait_for_function("window.xwsat && window.xwsat.view")
        yield page
        browser.close()


def screenshots(out: Path) -> None:
    with opened_page(out, 980) as page:

        def shot(name: str) -> None:
            time.sleep(0.4)
            page.screenshot(path=str(out / name))
            print(out / name)

        def cell(index: int) -> None:
            page.click(f"#grid [data-cell='{index}']")

        def drag(start: int, end: int) -> None:
            script = ("(c) => { const r = document.querySelector(`#grid [data-cell='${c}']`)"
                      ".getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }")
            page.mouse.move(*page.evaluate(script, start))
            page.mouse.down()
            page.mouse.move(*page.evaluate(script, end))
            page.mouse.up()

        # 1: a pattern opened, a word typed that no entry can take: its slot turns red
        page.set_input_files("#open-file", str(GRID15))
        page.wait_for_function("window.xwsat.view.stats.blocks > 0")
        cell(15)
        for key in "OLEQX":
            page.keyboard.press(key)
        page.wait_for_selector("#grid .dead-outline")
        shot("01_red_slot.png")
        for _ in range(5):
            page.keyboard.press("Control+z")
        page.wait_for_function("!window.xwsat.view.doc.rows[1].includes('Q')")
        # 2: two theme entries locked (outside the dictionary), the shared piece flagged
        for count, (slot_cell, word) in enumerate(((76, "chocolatecakes"),
                                                   (136, "cheesecakebars")), start=1):
            cell(slot_cell)
            page.fill("#theme-word", word)
            page.click("#lock")
            page.wait_for_function(f"window.xwsat.view.doc.locks.length === {count}")
        page.wait_for_function("window.xwsat.ui.decide && window.xwsat.ui.decide.final",
                               timeout=60000)
        shot("02_locked_theme.png")
        # 3: autofill around them: the best fill so far, while the optimiser improves it
        page.click("#fill-all")
        page.wait_for_function("window.xwsat.ui.suggestion", timeout=60000)
        shot("03_autofill_best_so_far.png")
        page.wait_for_function("window.xwsat.ui.autofill.final", timeout=60000)
        page.click("#accept-all")
        page.wait_for_function("!window.xwsat.view.doc.rows.join('').includes('.')")
        page.wait_for_function("window.xwsat.ui.decide && window.xwsat.ui.decide.final",
                               timeout=60000)
        shot("04_accepted.png")
        # 5: back to the open grid (undo), an entry selected: its candidates, ranked and marked
        page.keyboard.press("Control+z")
        page.wait_for_function("window.xwsat.view.doc.rows[0].startsWith('...')")
        cell(0)
        page.keyboard.press("ArrowRight")  # across: 1A
        page.wait_for_function("document.querySelectorAll('#candidates li.fillable').length > 2",
                               timeout=90000)
        shot("05_candidates_marked.png")
        # 6: a corner that cannot be filled: the search proves it, the core is highlighted
        page.set_input_files("#open-file", str(GRID15))
        page.wait_for_function("window.xwsat.view.doc.locks.length === 0")
        for index, letter in ((17, "K"), (46, "Y"), (62, "K")):
            cell(index)
            page.keyboard.press(letter)
        page.wait_for_function("window.xwsat.ui.core && window.xwsat.ui.core.length > 0",
                               timeout=60000)
        cell(32)
        shot("06_unfillable_core.png")
        page.click("[data-tab=puzzle]")
        page.click("#certificate")
        page.wait_for_function("window.xwsat.ui.certificate && window.xwsat.ui.certificate.final",
                               timeout=120000)
        shot("07_certificate_checked.png")


def pattern_screenshots(out: Path) -> None:
    """08-09: theme entries typed on a blank 15x15, patterns suggested around them, one used."""
    with opened_page(out, 1400) as page:
        for first, word in ((30, "ACCOMPLISHMENTS"), (108, "AFTERNOON"),
                            (180, "ADMINISTRATIONS")):
            page.click(f"#grid [data-cell='{first}']")
            for key in word:
                page.keyboard.press(key)
        page.wait_for_function("window.xwsat.view.doc.rows[12] === 'ADMINISTRATIONS'")
        page.fill("#min-score", "25")
        page.press("#min-score", "Tab")  # one change event: the list at score 25 and up
        page.wait_for_function("window.xwsat.view.dictionary.min_score === 25")
        time.sleep(1)
        page.click("#suggest")
        page.wait_for_function("window.xwsat.ui.patterns && window.xwsat.ui.patterns.final",
                               timeout=120000)
        time.sleep(0.4)
        page.screenshot(path=str(out / "08_suggested_patterns.png"), full_page=True)
        page.click("#patterns button")
        page.wait_for_function("window.xwsat.view.stats.blocks > 0")
        time.sleep(0.4)
        page.screenshot(path=str(out / "09_pattern_used.png"), full_page=True)


def autofilled(page: Any, grid: Path) -> None:
    """Open ``grid`` in the page and autofill it, to the end of the search's improvements."""
    page.set_input_files("#open-file", str(grid))
    page.wait_for_function("window.xwsat.view.stats.blocks > 0")
    page.click("#fill-all")
    page.wait_for_function("window.xwsat.ui.autofill && window.xwsat.ui.autofill.final",
                           timeout=60000)


def why_screenshot(out: Path) -> None:
    """10: autofill on a pattern whose level above has no fill: the fill, then why not higher
    (the entries that cannot all reach that level, shaded)."""
    with opened_page(out, 980) as page:
        autofilled(page, WHY_GRID)
        time.sleep(0.4)
        page.screenshot(path=str(out / "10_why_not_higher.png"))
        print(out / "10_why_not_higher.png", page.inner_text("#fill-status"))


def ban_screenshot(out: Path) -> None:
    """11: a word of the suggested fill banned for the puzzle, from its entry: the grid is
    refilled without it, and the ban is listed under the autofill buttons."""
    with opened_page(out, 980) as page:
        autofilled(page, GRID15)
        page.click("#grid [data-cell='0']")
        page.locator("#ban-entry").click()
        page.wait_for_function("window.xwsat.view.dictionary.bans.length === 1")
        page.wait_for_function("window.xwsat.ui.autofill && window.xwsat.ui.autofill.final "
                               "&& window.xwsat.ui.autofill.letters", timeout=60000)
        time.sleep(0.4)
        page.screenshot(path=str(out / "11_banned_word.png"))
        print(out / "11_banned_word.png", page.evaluate("window.xwsat.view.dictionary.bans"),
              page.inner_text("#fill-status"))


def main() -> None:
    warnings.filterwarnings("ignore", category=DeprecationWarning)  # websockets' direct connect
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=["screenshots", "patterns", "why", "ban", "figures"])
    parser.add_argument("out", type=Path)
    parser.add_argument("--words300k", type=Path, default=None,
                        help="a system word list to measure with as well, e.g. "
                             "/usr/share/dict/american-english-huge")
    parser.add_argument("--edits", type=int, default=60)
    options = parser.parse_args()
    if options.what == "screenshots":
        screenshots(options.out)
    elif options.what == "patterns":
        pattern_screenshots(options.out)
    elif options.what == "why":
        why_screenshot(options.out)
    elif options.what == "ban":
        ban_screenshot(options.out)
    else:
        figures(options.out, options.words300k, options.edits)


if __name__ == "__main__":
    main()
