"""Tables and plots from a sweep's rows: what solver papers show.

Time of a run is ``time_s``: problem build + arc consistency + solve wall clock (the back-end's
process start included), the same for every back-end; dictionary loading is shared by all
back-ends and left out. A run that did not decide counts as 2 x the time limit in PAR-2.
"""

from __future__ import annotations

import csv
import io
import math
import os
import statistics
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xwsat.bench.sweep import VERDICTS, disagreements, instance_id, same_mode
from xwsat.errors import XwsatError


@dataclass(frozen=True)
class Run:
    instance: str  # suite/grid@dictionary, plus #seed when several seeds
    backend: str
    status: str
    time_s: float | None  # None unless decided
    limit: float
    known: str | None
    before_search: bool = False  # decided by arc consistency or the no-repeat count: the
    # same for every back-end, which never ran

    @property
    def solved(self) -> bool:
        return self.status in VERDICTS

    @property
    def par2(self) -> float:
        return self.time_s if self.solved and self.time_s is not None else 2 * self.limit


def runs_of(rows: list[dict[str, Any]], per_seed: bool = False) -> list[Run]:
    """One run per (instance, back-end): with several seeds, the **worst** of them (decided
    only if every seed decided, in the longest time), so a lucky seed never counts; with
    ``per_seed`` one run per seed (instance ``#seed``)."""
    seeds = {row["seed"] for row in rows}
    runs = []
    for row in rows:
        name = instance_id(row) + (f"#{row['seed']}" if per_seed and len(seeds) > 1 else "")
        solved = row["status"] in VERDICTS and (row["status"] != "filled" or row.get("verified"))
        status = row["status"] if solved or row["status"] not in VERDICTS else "error"
        runs.append(Run(name, row["backend"], status,
                        float(row["time_s"]) if solved and "time_s" in row else None,
                        float(row["time_limit"]), row.get("known"),
                        solved and row.get("solved_by") in BEFORE_SEARCH))
    return runs if per_seed or len(seeds) <= 1 else worst_of_seeds(runs)


BEFORE_SEARCH = ("propagate", "matching")  # the shared steps every back-end's run starts with


def worst_of_seeds(runs: list[Run]) -> list[Run]:
    """Per (instance, back-end): the first undecided seed if any, else the slowest."""
    worst: dict[tuple[str, str], Run] = {}
    for r in runs:
        key = (r.instance, r.backend)
        old = worst.get(key)
        if old is None or (old.solved and (not r.solved or r.par2 > old.par2)):
            worst[key] = r
    return list(worst.values())


def backends_in(runs: list[Run]) -> list[str]:
    return list(dict.fromkeys(r.backend for r in runs))


VBS = "virtual best"


def virtual_best(runs: list[Run]) -> list[Run]:
    """Per instance, the fastest decided run of any back-end (the portfolio papers quote)."""
    best: dict[str, Run] = {}
    for r in runs:
        old = best.get(r.instance)
        if old is None or (r.solved and (not old.solved or r.par2 < old.par2)):
            best[r.instance] = r
    return [Run(r.instance, VBS, r.status, r.time_s, r.limit, r.known, r.before_search)
            for r in best.values()]


def summary(runs: list[Run]) -> list[dict[str, Any]]:
    """One line per back-end: solved, verdicts, failures, PAR-2, median solved time."""
    lines = []
    deciders: dict[str, set[str]] = {}
    for r in runs:
        if r.solved and r.backend != VBS:
            deciders.setdefault(r.instance, set()).add(r.backend)
    compared = len([b for b in backends_in(runs) if b != VBS]) > 1  # else "alone" says nothing
    for backend in backends_in(runs):
        mine = [r for r in runs if r.backend == backend]
        counts = Counter(r.status for r in mine)
        solved = sorted(r.time_s for r in mine if r.solved and r.time_s is not None)
        lines.append({
            "backend": backend, "instances": len(mine), "solved": len(solved),
            "filled": counts["filled"], "unfillable": counts["unfillable"],
            "timeout": counts["timeout"] + counts["unknown"], "memout": counts["memout"],
            "crash/error": counts["crash"] + counts["error"],
            # exhausted (an incomplete search at its end), gave-up (CP-SAT's UNKNOWN before
            # its limit), killed, interrupted: the columns add up
            "other": len(mine) - sum(counts[k] for k in ("filled", "unfillable", "timeout",
                                                         "unknown", "memout", "crash", "error")),
            "before search": sum(1 for r in mine if r.solved and r.before_search),
            "PAR-2 s": round(statistics.fmean(r.par2 for r in mine), 2),
            "median solved s": round(statistics.median(solved), 3) if solved else None,
            "total solved s": round(sum(solved), 2),
            "decided by it alone": sum(1 for r in mine if r.solved
                                       and deciders.get(r.instance) == {backend})
            if compared else None,
        })
    return lines


def versus(runs: list[Run], baseline: str) -> list[dict[str, Any]]:
    """Per-instance time ratios (back-end / baseline) on the instances both decided."""
    base = {r.instance: r for r in runs if r.backend == baseline}
    lines = []
    for backend in backends_in(runs):
        if backend == baseline:
            continue
        mine = {r.instance: r for r in runs if r.backend == backend}
        both = [i for i in mine if i in base and mine[i].solved and base[i].solved]
        ratios = [max(mine[i].time_s or 0, 1e-3) / max(base[i].time_s or 0, 1e-3) for i in both]
        lines.append({
            "backend": backend, "baseline": baseline, "both solved": len(both),
            "median ratio": round(statistics.median(ratios), 3) if ratios else None,
            "geo-mean ratio": round(math.exp(statistics.fmean(map(math.log, ratios))), 3)
            if ratios else None,
            "faster": sum(x < 1 for x in ratios), "slower": sum(x > 1 for x in ratios),
            "only this": sum(1 for i, r in mine.items()
                             if r.solved and not (i in base and base[i].solved)),
            "only baseline": sum(1 for i, r in base.items()
                                 if r.solved and not (i in mine and mine[i].solved)),
        })
    return lines


def per_instance(runs: list[Run], baseline: str | None) -> tuple[list[str], list[list[str]]]:
    """Instance x back-end cells 'status time (ratio)', for the detailed table and CSV."""
    backends = backends_in(runs)
    table: dict[str, dict[str, Run]] = {}
    known: dict[str, str | None] = {}
    for r in runs:
        table.setdefault(r.instance, {})[r.backend] = r
        known[r.instance] = r.known
    header = ["instance", "known", *backends]
    body = []
    for inst, cells in table.items():
        base = cells.get(baseline) if baseline else None
        line = [inst, known[inst] or ""]
        for b in backends:
            r = cells.get(b)
            if r is None:
                line.append("")
                continue
            text = f"{r.status} {r.time_s:.2f}" if r.solved and r.time_s is not None else r.status
            if r.before_search:
                text += " (before search)"
            elif (r.solved and base is not None and base.solved and b != baseline
                    and base.time_s and r.time_s is not None):
                text += f" (x{max(r.time_s, 1e-3) / max(base.time_s, 1e-3):.2g})"
            line.append(text)
        body.append(line)
    return header, body


def markdown_table(header: list[str], body: list[list[Any]]) -> str:
    def cell(v: Any) -> str:
        return "" if v is None else str(v)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in body]
    return "\n".join(lines)


def dict_table(lines: list[dict[str, Any]]) -> tuple[list[str], list[list[Any]]]:
    header = list(lines[0]) if lines else []
    return header, [[line[k] for k in header] for line in lines]


def csv_text(header: list[str], body: list[list[Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(body)
    return buffer.getvalue()


def _safe(name: str) -> str:
    return name.replace(":", "-").replace("/", "-")


def _two_five(value: float, _: object) -> str:
    """Minor log ticks labelled at 2 and 5 of each decade only (readable on any range)."""
    if value <= 0:
        return ""
    lead = round(value / 10 ** math.floor(math.log10(value) + 1e-9))
    return f"{value:g}" if lead in (2, 5) else ""


def cactus_plot(runs: list[Run], path_stem: Path, title: str, stamp: str = "") -> list[Path]:
    """Instances decided (x) against the time needed (y, log): one line per back-end."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    fig, ax = plt.subplots(figsize=(7, 4.5))
    limit = max(r.limit for r in runs)
    for backend in backends_in(runs):
        times = sorted(max(r.time_s or 0, 1e-3) for r in runs if r.backend == backend
                       and r.solved)
        style = {"color": "black", "linestyle": ":"} if backend == VBS else {}
        if times:
            ax.step(range(1, len(times) + 1), times, where="post", marker=".",
                    label=f"{backend} ({len(times)})", **style)
        else:
            ax.plot([], [], label=f"{backend} (0)")
    ax.axhline(limit, color="grey", linestyle="--", linewidth=0.8,
               label=f"time limit ({limit:g} s)")
    ax.set_yscale("log")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(FuncFormatter(_two_five))
    ax.set_xlabel("instances decided")
    ax.set_ylabel("time per instance (s, log)")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="best", fontsize=8)
    _stamp(fig, stamp)
    return _save(fig, path_stem)


def _stamp(fig: Any, stamp: str) -> None:
    """When and at which commit the plotted rows were measured, in the figure's corner: a
    picture copied out of its report keeps it."""
    if stamp:
        fig.text(0.995, 0.005, stamp, ha="right", va="bottom", fontsize=6, color="grey")


def scatter_plot(runs: list[Run], x_backend: str, y_backend: str, path_stem: Path,
                 title: str, stamp: str = "") -> list[Path]:
    """Per-instance times of two back-ends, log-log; undecided runs sit at 2 x the limit."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, NullFormatter

    xs = {r.instance: r for r in runs if r.backend == x_backend}
    ys = {r.instance: r for r in runs if r.backend == y_backend}
    common = [i for i in xs if i in ys]
    limit = max(r.limit for r in runs)
    low = 1e-2
    fig, ax = plt.subplots(figsize=(5.2, 5))
    styles = {"filled": ("o", "tab:blue"), "unfillable": ("x", "tab:red"),
              "undecided": ("s", "tab:grey")}
    for label, (marker, color) in styles.items():
        pts = []
        for i in common:
            x, y = xs[i], ys[i]
            verdict = x.status if x.solved else y.status if y.solved else "undecided"
            if verdict == label:
                pts.append((max(x.par2, low), max(y.par2, low)))
        if pts:
            ax.scatter(*zip(*pts), marker=marker, color=color, label=f"{label} ({len(pts)})",
                       s=22)
    top = 2 * limit * 1.3
    ax.plot([low, top], [low, top], color="black", linewidth=0.8)
    for v in (limit,):
        ax.axvline(v, color="grey", linestyle="--", linewidth=0.8)
        ax.axhline(v, color="grey", linestyle="--", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(low, top)
    ax.set_ylim(low, top)
    ax.set_xlabel(f"{x_backend} time (s; undecided at 2x limit)")
    ax.set_ylabel(f"{y_backend} time (s; undecided at 2x limit)")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        axis.set_minor_formatter(NullFormatter())
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    _stamp(fig, stamp)
    return _save(fig, path_stem)


def _save(fig: Any, stem: Path) -> list[Path]:
    """The plot as PNG and SVG beside ``stem``: a plot there now is replaced (the report has
    checked it is one it wrote, or has --force), a file that appears meanwhile never is."""
    import io

    import matplotlib.pyplot as plt

    from xwsat.outputs import write_file

    fig.tight_layout()
    paths = [stem.with_suffix(".png"), stem.with_suffix(".svg")]
    there = {path: path.is_file() for path in paths}
    for path in paths:
        if path.is_symlink() or (path.exists() and not path.is_file()):
            plt.close(fig)
            raise XwsatError(f"{path}: is not a plain file (a link, device, pipe or folder); "
                             "move it away, then report again")
    try:
        for path in paths:  # via a fresh temporary file: never half a picture, never a link
            buffer = io.BytesIO()
            svg = path.suffix == ".svg"  # the same rows, the same bytes: no date, fixed ids
            with plt.rc_context({"svg.hashsalt": "xwsat"} if svg else {}):
                fig.savefig(buffer, dpi=120, format=path.suffix[1:],
                            metadata={"Date": None} if svg else None)
            write_file(path, buffer.getvalue(), replace=there[path])
    finally:
        plt.close(fig)
    return paths


TEXT_FILES = ("report.md", "summary.csv", "versus.csv", "instances.csv")


def chosen_baseline(rows: list[dict[str, Any]], baseline: str | None) -> str:
    """``baseline``, or auto when it ran, else the first back-end; an error if it has no runs."""
    backends = backends_in(runs_of(rows))
    if baseline is None:
        baseline = "auto" if "auto" in backends else backends[0]
    if baseline not in backends:
        from xwsat.errors import XwsatError

        raise XwsatError(f"baseline {baseline!r} has no runs here (back-ends: "
                         f"{', '.join(backends)})")
    return baseline


def _mode_note(rows: list[dict[str, Any]]) -> str:
    """How the runs ran: the named back-end alone, or as plain ``fill`` (``--as-fill``: the
    upper look and the lift counted in the time), or a mix, said so; rows written before rows
    said how they ran are told by what shows in them."""
    told = {bool(row["as_fill"]) for row in rows if "as_fill" in row}
    shows = sum(1 for row in rows if "as_fill" not in row and not same_mode(row))
    if shows:
        return (f", **{shows} of the {len(rows)} runs show plain fill's upper look or lift in "
                "their time** (rows made before runs recorded how they ran, as plain fill did)")
    if not told or told == {False}:
        return ", each run the named back-end alone (no upper look, no lift)"
    if told == {True} and all("as_fill" in row for row in rows):
        return (", each run as plain fill runs it (--as-fill): on a scored list the upper "
                "look and the lift are in the time, and `solved_by` says which search filled")
    return (", **some runs as plain fill (--as-fill: the upper look and the lift in the "
            "time) and some the named back-end alone**")


def scatter_stem(baseline: str, other: str) -> str:
    """The file stem of the scatter plot of ``other`` against ``baseline``."""
    return f"scatter_{_safe(baseline)}_vs_{_safe(other)}"


def report_files(rows: list[dict[str, Any]], baseline: str) -> list[str]:
    """The names ``build_report`` writes for these rows (checked before anything is written)."""
    stems = ["cactus"] + [scatter_stem(baseline, other)
                          for other in backends_in(runs_of(rows)) if other != baseline]
    return [*TEXT_FILES, *(f"{stem}{ext}" for stem in stems for ext in (".png", ".svg"))]


def build_report(rows: list[dict[str, Any]], out_dir: Path, baseline: str | None,
                 command: str, title: str,
                 unrun: tuple[list[str], int] = ([], 0)) -> dict[str, str]:
    """Markdown and CSV texts by file name (plots are written into ``out_dir`` directly).
    ``unrun``: the run keys the folder's commands planned that have no row, and how many they
    planned in all."""
    every = runs_of(rows)
    seeds = sorted({row["seed"] for row in rows})
    backends = backends_in(every)
    baseline = chosen_baseline(rows, baseline)
    limits = sorted({r.limit for r in every})
    runs, gaps = compared_runs(every, rows)
    best = virtual_best(runs) if len(backends) > 1 else []
    sums = summary(runs + best)
    vs = versus(runs, baseline)
    header, body = per_instance(every, baseline)
    measured, stamp, mixed = provenance(rows)
    plots = [p.name for p in cactus_plot(runs + best, out_dir / "cactus", f"{title}: cactus",
                                         stamp) if p.suffix == ".png"]
    for other in backends:
        if other != baseline:
            stem = out_dir / scatter_stem(baseline, other)
            plots += [p.name for p in scatter_plot(runs, baseline, other, stem, f"{title}: "
                                                   f"{other} vs {baseline}", stamp)
                      if p.suffix == ".png"]
    problems = disagreements(rows)
    instances = len({r.instance for r in every})
    seeds_of = {b: sorted({row["seed"] for row in rows if row["backend"] == b})
                for b in backends}
    same_seeds = len({tuple(v) for v in seeds_of.values()}) == 1
    seeding = (f" x {len(seeds)} seeds" if same_seeds else
               " (seeds: " + "; ".join(f"{b} {','.join(map(str, v))}"
                                       for b, v in seeds_of.items()) + ")")
    md = [f"# {title}", "",
          f"{len(rows)} runs: {instances} instances, {len(backends)} back-ends"
          + (f"{seeding} (each figure is the **worst** seed a back-end ran: decided only if "
             f"every one of its seeds decided, in the slowest time)" if len(seeds) > 1 else "")
          + f", time limit {', '.join(f'{x:g}' for x in limits)} s. "
          f"Time = build + arc consistency + solve wall "
          f"clock (dictionary load excluded){_mode_note(rows)}; PAR-2 counts an undecided run "
          f"as 2 x the limit. "
          f"Ratios are back-end time / {baseline} time on instances both decided (< 1 = faster)."
          f" The virtual best takes, per instance, the fastest back-end that decided it."
          f" Every `filled` was verified by the independent checker, in the run and again "
          f"outside it.", "",
          "Command:", "", "```", command, "```", "", measured, ""]
    md += [line for warning in mixed for line in (warning, "")]
    before = sum(1 for r in runs if r.solved and r.before_search and r.backend == baseline)
    if before:
        one = before == 1
        md += [f"{before} instance{' was' if one else 's were'} decided by arc consistency or "
               "the no-repeat count, which every run does before its back-end: "
               f"{'it counts' if one else 'they count'} for every back-end, none of which ran "
               "(column `before search`).", ""]
    missing, planned = unrun
    if missing:
        instances_left = sorted({key.split("|", 1)[0] for key in missing})
        shown = ", ".join(instances_left[:10]) + (
            f" and {len(instances_left) - 10} more" if len(instances_left) > 10 else "")
        md += [f"**Unfinished sweep:** {len(missing)} of the {planned} runs its command "
               f"planned have no row (it was stopped before its end; run the command again to "
               f"finish): {len(instances_left)} instances not run by every back-end and seed: "
               f"{shown}.", ""]
    if gaps:
        md += [f"**Incomplete rows:** the tables, ratios and plots compare the "
               f"{instances - len(gaps)} instances every back-end ran with all its seeds; "
               f"{len(gaps)} left out (a run interrupted, or its row damaged): "
               + "; ".join(f"{inst} (no row of {', '.join(who)})"
                           for inst, who in sorted(gaps.items())), ""]
    if problems:
        md += ["**DISAGREEMENTS:**", "", *(f"- {p}" for p in problems), ""]
    else:
        md += ["No back-ends disagreed on a verdict; no verdict contradicts a known status.", ""]
    md += _peer_lines(rows)
    md += ["## Solved per back-end", "", markdown_table(*dict_table(sums)), "",
           f"## Against the baseline ({baseline})", "",
           markdown_table(*dict_table(vs)) if vs else "(no other back-end)", "",
           "## Plots", "", *(f"![{p}]({p})" for p in plots), "",
           "## Per instance", "",
           "Each cell: the verdict, its time in seconds and, in brackets, the ratio to the "
           f"baseline's time ({baseline}), or \"before search\" where arc consistency or the "
           "no-repeat count decided it.", "", markdown_table(header, body), ""]
    return {"report.md": "\n".join(md), "summary.csv": csv_text(*dict_table(sums)),
            "versus.csv": csv_text(*dict_table(vs)), "instances.csv": csv_text(header, body)}


def compared_runs(runs: list[Run], rows: list[dict[str, Any]]
                  ) -> tuple[list[Run], dict[str, list[str]]]:
    """The runs of the instances every back-end ran with every seed of the folder, and the
    others with the back-end-seeds they lack: a missing row (an interrupted sweep, a damaged
    line) must not make two back-ends' totals count different instances."""
    seeds_of: dict[str, set[int]] = {}  # a back-end's seeds: those it ran anywhere
    for row in rows:
        seeds_of.setdefault(row["backend"], set()).add(row["seed"])
    have = {(instance_id(row), row["backend"], row["seed"]) for row in rows}
    gaps: dict[str, list[str]] = {}
    for inst in dict.fromkeys(instance_id(row) for row in rows):
        lacking = [b + (f" seed {s}" if len(seeds_of[b]) > 1 else "")
                   for b in backends_in(runs) for s in sorted(seeds_of[b])
                   if (inst, b, s) not in have]
        if lacking:
            gaps[inst] = lacking
    if not gaps:
        return runs, gaps
    return [r for r in runs if r.instance.split("#")[0] not in gaps], gaps


class _Missing(dict):
    """A row's versions or machine for ``str.format_map``: a field an older row lacks is '?'."""

    def __missing__(self, key: str) -> str:
        return "?"


def provenance(rows: list[dict[str, Any]]) -> tuple[str, str, list[str]]:
    """When, at which commit, with which solvers and on which machine the rows were measured:
    (a sentence for the report, a short stamp for the plots, warnings when the rows come from
    several commits, versions or machines, which a resumed sweep after a change can mix)."""
    days = sorted({str(row.get("started", ""))[:10] for row in rows} - {""})
    when = ((days[0] if len(days) == 1 else f"{days[0]} to {days[-1]}") if days
            else "on an unknown date")

    def seen(part: str, shown: str) -> Counter:
        return Counter(shown.format_map(_Missing(row.get(part) or {})) for row in rows)

    commits = Counter(str((row.get("versions") or {}).get("git", "?")) for row in rows)
    solvers = seen("versions", "xwsat {xwsat}, Python {python}, OR-Tools {ortools}, "
                               "python-sat {python-sat}, numpy {numpy}")
    machines = seen("machine", "{cpu}, {cores} cores, {memory_mb} MiB, {os}")
    commit = ", ".join(commits)
    text = (f"Measured {when} at commit {commit} ({solvers.most_common(1)[0][0]}; machine: "
            f"{machines.most_common(1)[0][0]}).")
    warnings = [f"**Mixed {what}:** the rows come from {len(found)} ("
                + "; ".join(f"{value}: {n} rows" for value, n in found.most_common()) + ")."
                for what, found in (("commits", commits), ("solver versions", solvers),
                                    ("machines", machines)) if len(found) > 1]
    return text, f"measured {when}, commit {commit}", warnings


def _peer_lines(rows: list[dict[str, Any]]) -> list[str]:
    """How each peer ran (solver, version, model, options), as its rows recorded it."""
    setups: dict[str, dict[str, str]] = {}
    for row in rows:
        if isinstance(row.get("peer"), dict):
            setups.setdefault(row["backend"], row["peer"])
    if not setups:
        return []
    lines = ["## Peers, as run", ""]
    for backend, setup in setups.items():
        lines.append(f"- `{backend}`: " + "; ".join(f"{k}: {v}" for k, v in setup.items()))
    return [*lines, ""]


def readme_section(report_md: str, folder: Path, readme: Path) -> str:
    """The report without its per-instance table, with links made relative to ``readme``."""
    rel = Path(os.path.relpath(folder, readme.parent))
    head, _, _ = report_md.partition("## Per instance")
    lines = []
    for line in head.rstrip().splitlines():
        if line.startswith("# "):
            line = "#" + line  # one level down inside the README
        elif line.startswith("## "):
            line = "#" + line
        elif line.startswith("![") and "](" in line:
            name = line.split("](", 1)[1].rstrip(")")
            line = f"![{name}]({(rel / name).as_posix()})"
        lines.append(line)
    lines += ["", f"Per-instance times and ratios: [{(rel / 'report.md').as_posix()}]"
                  f"({(rel / 'report.md').as_posix()}); rows: `{(rel / 'rows.jsonl').as_posix()}`."]
    return "\n".join(lines)


def markers(name: str) -> tuple[str, str]:
    return f"<!-- xwsat bench {name}: start -->", f"<!-- xwsat bench {name}: end -->"


def section_of(readme_text: str, name: str) -> str | None:
    """The text between this name's markers, if they are there as one pair in order."""
    start, end = markers(name)
    at = readme_text.find(start)
    till = readme_text.find(end, at) if at >= 0 else -1
    return readme_text[at + len(start):till] if till >= 0 else None


def splice(readme_text: str, name: str, section: str) -> str:
    """Replace the block between this sweep's markers, or append it; every byte outside the
    block is kept. Markers out of order, or one without the other, are refused: whatever
    lies between them may be the user's."""
    start, end = markers(name)
    block = f"{start}\n{section}\n{end}"
    at, till = readme_text.find(start), readme_text.find(end)
    if at < 0 and till < 0:
        glue = "" if not readme_text else "\n" if readme_text.endswith("\n") else "\n\n"
        return readme_text + glue + block + "\n"
    till = readme_text.find(end, at) if at >= 0 else -1
    if at < 0 or till < 0 or readme_text.count(start) > 1:
        raise XwsatError(f"the markers '{start}' and '{end}' are not one pair in that order; "
                         "mend or remove them, then report again")
    return readme_text[:at] + block + readme_text[till + len(end):]
