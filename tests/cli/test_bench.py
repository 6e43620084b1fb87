"""xwsat bench: suites, isolated runs, resumable sweeps, disagreement alarms, reports, Dask."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from xwsat.bench.execute import _recheck, child_command, run_isolated
from xwsat.bench.suites import list_suites, load_suite
from xwsat.bench.sweep import ROWS, disagreements, read_rows, task_key
from xwsat.bench.tables import splice
from xwsat.cli import app
from xwsat.errors import XwsatError

WORDS = "AB\nAC\nBD\nCD\nXY\nAAB\nABA\nBAA\nBA\n"
FILLABLE = "..\n..\n"  # AB/CD or AC/BD
UNFILLABLE = "...\n...\n"  # arc consistent, yet no fill: the back-ends must search


@pytest.fixture
def tiny_suite(tmp_path: Path) -> Path:
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "two.txt").write_text(FILLABLE)
    (folder / "three.txt").write_text(UNFILLABLE)
    (folder / "words.txt").write_text(WORDS)
    manifest = {"suite": "tiny", "source": "test", "licence": "CC0",
                "dictionaries": ["words.txt"],
                "grids": [{"file": "two.txt", "known": {"words": "filled"}},
                          {"file": "three.txt", "known": {"words": "unfillable"}}]}
    (folder / "suite.json").write_text(json.dumps(manifest))
    return folder


def bench(*args: str | Path):
    return CliRunner().invoke(app, ["bench", *map(str, args)])


def test_committed_suites_load_with_their_known_statuses() -> None:
    assert {"classic", "american", "small", "blank", "generated"} <= set(list_suites())
    classic = load_suite("classic")
    assert len(classic.instances) == 72 and {i.dictionary for i in classic.instances} == {"lex"}
    assert {i.grid for i in classic.instances if i.known == "unfillable"} == {
        "15-04", "19-05", "19-10"}
    small = {i.dictionary: i.known for i in load_suite("small").instances if i.grid == "open5"}
    assert small == {"words5_sub2": "filled", "words5_sub3": "unfillable",
                     "words5_sub4": "unfillable", "words5_sub5": "unfillable",
                     "words5_sub10": "unfillable"}
    blank = {i.grid: i.known for i in load_suite("blank").instances}
    assert blank["blank7x7"] == "unfillable" and blank["blank6x6"] == "unfillable"
    assert len(load_suite("generated").instances) == 20
    replaced = load_suite("american", ["scowl55"])
    assert {i.dictionary for i in replaced.instances} == {"scowl55"}


def test_every_suite_in_grids_names_files_that_exist() -> None:
    """``xwsat bench run NAME`` works for each suite of grids/: every grid and dictionary it
    pairs is there (a suite moved between folders keeps its relative paths right)."""
    names = list_suites()
    assert {"robust15", "robust21", "quick", "hard33", "long2", "languages"} <= set(names)
    for name in names:
        suite = load_suite(name)
        assert suite.instances, name
        for instance in suite.instances:
            assert instance.grid_path.is_file(), (name, instance.grid_path)
            assert (instance.dictionary_path in ("en", "ru", "es")
                    or Path(instance.dictionary_path).is_file()), (name, instance.dictionary_path)


def test_bad_suites_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(XwsatError, match="unknown suite"):
        load_suite("no-such-suite")
    (tmp_path / "suite.json").write_text('{"grids": [{"file": "missing.txt"}]}')
    with pytest.raises(XwsatError, match="missing"):
        load_suite(str(tmp_path))
    result = bench("no-such-suite", "--backends", "native")
    assert result.exit_code == 2 and result.stderr.startswith("xwsat: error: unknown suite")
    result = bench("small", "--backends", "native,warp")
    assert result.exit_code == 2 and "warp" in result.stderr


def test_an_empty_suite_or_a_grid_listed_twice_is_refused_before_the_folder(tiny_suite: Path,
                                                                           tmp_path: Path):
    manifest = json.loads((tiny_suite / "suite.json").read_text())
    for grids, said in (([], "no grid to run"), (["two.txt", "two.txt"], "same run twice")):
        (tiny_suite / "suite.json").write_text(json.dumps({**manifest, "grids": grids}))
        out = tmp_path / f"out{len(grids)}"
        result = bench(tiny_suite, "--backends", "native", "--out", out)
        assert result.exit_code == 2 and said in result.stderr, result.output
        assert not out.exists()


def test_tiny_sweep_runs_verifies_resumes_and_reports(tiny_suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = bench(tiny_suite, "--backends", "native,sat", "--time-limit", "20", "--out", out)
    assert result.exit_code == 0, result.output + result.stderr
    rows = read_rows(out / ROWS)
    assert len(rows) == 4
    by = {(r["grid"], r["backend"]): r for r in rows}
    for backend in ("native", "sat"):
        filled = by[("two", backend)]
        assert filled["status"] == "filled" and filled["verified"] is True
        assert filled["rechecked"] is True
        assert "".join(filled["fill"]) in ("ABCD", "ACBD")
        assert by[("three", backend)]["status"] == "unfillable"
        assert by[("three", backend)]["evidence"]["method"]
    row = rows[0]
    for field in ("times", "sizes", "versions", "machine", "wall_s", "time_s", "conflicts",
                  "nodes"):
        assert field in row
    assert row["times"]["dict_load_s"] >= 0 and row["sizes"]["slots"] > 0
    for name in ("report.md", "summary.csv", "instances.csv", "cactus.png", "cactus.svg",
                 "scatter_native_vs_sat.png", "scatter_native_vs_sat.svg"):
        assert (out / name).stat().st_size > 0, name
    report = (out / "report.md").read_text()
    assert "xwsat bench" in report and "| native | 2 | 2 |" in report

    # Resume: nothing reruns; a row cut short by a kill (last line torn) reruns alone.
    again = bench(tiny_suite, "--backends", "native,sat", "--time-limit", "20", "--out", out)
    assert again.exit_code == 0 and "4 resumed" in again.output
    lines = (out / ROWS).read_text().splitlines()
    (out / ROWS).write_text("\n".join(lines[:3]) + "\n" + lines[3][:40])
    third = bench(tiny_suite, "--backends", "native,sat", "--time-limit", "20", "--out", out)
    assert third.exit_code == 0 and "3 resumed" in third.output
    assert len(read_rows(out / ROWS)) == 4

    # --rerun STATUS runs those again; the newer row replaces the older one.
    fourth = bench(tiny_suite, "--backends", "native,sat", "--time-limit", "20", "--out", out,
                   "--rerun", "unfillable")
    assert fourth.exit_code == 0 and "2 resumed" in fourth.output
    assert len((out / ROWS).read_text().splitlines()) == 7 and len(read_rows(out / ROWS)) == 4

    # A back-end that says the opposite (an injected row) is a loud non-zero exit.
    fake = dict(read_rows(out / ROWS)[0], backend="cpsat")
    fake["status"] = "unfillable" if fake["status"] == "filled" else "filled"
    fake["verified"] = True
    fake["key"] = task_key(fake)
    with (out / ROWS).open("a") as handle:
        handle.write(json.dumps(fake) + "\n")
    alarm = bench(tiny_suite, "--backends", "native,sat", "--time-limit", "20", "--out", out)
    assert alarm.exit_code == 4
    assert "DISAGREEMENT" in alarm.stderr and "back-ends disagree" in alarm.stderr
    assert "DISAGREEMENTS" in (out / "report.md").read_text()


def test_a_run_is_the_named_back_end_alone_unless_asked_as_fill(tmp_path: Path) -> None:
    """On a scored list, plain fill's upper look filled every mac:words row (named "mac (upper
    look)") and its lift added seconds to the time: a comparison of methods compared one."""
    folder = tmp_path / "scored"
    folder.mkdir()
    (folder / "two.txt").write_text(FILLABLE)
    (folder / "words.txt").write_text("AB;50\nAC;50\nBD;50\nCD;50\nXY;10\nBA;10\n")
    (folder / "suite.json").write_text(json.dumps({
        "suite": "scored", "source": "test", "licence": "CC0", "dictionaries": ["words.txt"],
        "grids": [{"file": "two.txt", "known": {"words": "filled"}}]}))
    out = tmp_path / "out"
    alone = bench(folder, "-b", "mac:words", "-t", "20", "--out", out)
    assert alone.exit_code == 0, alone.output
    [row] = read_rows(out / ROWS)
    assert row["as_fill"] is False and row["solved_by"] == "mac:words", row["solved_by"]
    assert "the named back-end alone" in (out / "report.md").read_text()
    as_fill = bench(folder, "-b", "mac:words", "-t", "20", "--out", out, "--as-fill")
    assert as_fill.exit_code == 0 and "0 resumed" in as_fill.output, as_fill.output
    rows = {r["key"]: r for r in read_rows(out / ROWS)}
    fill_row = rows[row["key"] + "|as-fill"]
    assert fill_row["as_fill"] is True and fill_row["solved_by"] == "mac (upper look)"
    assert "some runs as plain fill" in (out / "report.md").read_text()
    # a row from before rows said how they ran: the upper look's shows, so it runs again
    legacy = {k: v for k, v in fill_row.items() if k != "as_fill"}
    legacy["key"] = row["key"]
    with (out / ROWS).open("a") as handle:
        handle.write(json.dumps(legacy) + "\n")
    again = bench(folder, "-b", "mac:words", "-t", "20", "--out", out)
    assert again.exit_code == 0 and "0 resumed" in again.output, again.output
    assert read_rows(out / ROWS)[-1]["solved_by"] == "mac:words"


def test_a_suite_corrected_since_its_rows_is_no_alarm(tiny_suite: Path, tmp_path: Path) -> None:
    # the known status was read from the rows, as the suite said when they were made: a
    # corrected suite still raised the old alarm (exit 4) on every resume
    manifest = json.loads((tiny_suite / "suite.json").read_text())
    manifest["grids"][0]["known"] = {"words": "unfillable"}  # wrong: two.txt fills
    (tiny_suite / "suite.json").write_text(json.dumps(manifest))
    out = tmp_path / "out"
    wrong = bench(tiny_suite, "-b", "native", "-t", "20", "--out", out)
    assert wrong.exit_code == 4 and "but its suite says unfillable" in wrong.stderr
    manifest["grids"][0]["known"] = {"words": "filled"}
    (tiny_suite / "suite.json").write_text(json.dumps(manifest))
    again = bench(tiny_suite, "-b", "native", "-t", "20", "--out", out)
    assert again.exit_code == 0 and "2 resumed" in again.output, again.output
    assert "DISAGREEMENT" not in (out / "report.md").read_text()
    assert bench("report", out).exit_code == 0  # a report alone reads the suite as last run


def test_a_grid_that_does_not_parse_is_refused_before_the_sweep(tiny_suite: Path,
                                                                 tmp_path: Path) -> None:
    # every run was an "error" row and the sweep exited 0
    (tiny_suite / "three.txt").write_text("..%\n...\n")
    result = bench(tiny_suite, "-b", "native", "-t", "5", "--out", tmp_path / "out")
    assert result.exit_code == 2 and "unexpected character '%'" in result.stderr
    assert not (tmp_path / "out").exists()


def test_rows_a_report_cannot_read_are_skipped_not_a_crash(tmp_path: Path) -> None:
    # KeyError: 'suite' (exit 4) from a row without its names, TypeError from a null time
    folder = tmp_path / "garbled"
    folder.mkdir()
    base = {"key": "x", "status": "filled", "time_limit": 10, "suite": "s", "grid": "g",
            "dictionary": "d", "backend": "mac", "seed": 0, "time_s": 1.0}
    bad = [{k: v for k, v in base.items() if k != "suite"}, {**base, "backend": None},
           {**base, "time_s": None}, {**base, "seed": "0"}]
    (folder / ROWS).write_text("".join(json.dumps(row) + "\n" for row in bad))
    result = bench("report", folder)
    assert result.exit_code == 2 and "none of its 4 lines is a result row" in result.stderr


def test_disagreement_checks() -> None:
    base = {"suite": "s", "grid": "g", "dictionary": "d", "seed": 0, "time_limit": 1,
            "verified": True}
    rows = [dict(base, backend="a", status="filled", key="1"),
            dict(base, backend="b", status="unfillable", key="2", known="filled"),
            dict(base, backend="c", status="timeout", key="3")]
    problems = disagreements(rows)
    assert any("disagree" in p and "filled by a (seed 0)" in p for p in problems)
    assert any("its suite says filled" in p for p in problems)
    assert disagreements(rows[:1] + rows[2:]) == []
    assert disagreements([dict(rows[0], verified=False)]) == ["1: FILLED but not verified"]


def test_readme_splice_keeps_the_rest_and_replaces_its_own_block() -> None:
    once = splice("# Results\n\nby the lead\n", "run1", "table v1")
    assert once.startswith("# Results\n\nby the lead\n") and "table v1" in once
    twice = splice(once + "\nlater text\n", "run1", "table v2")
    assert "table v1" not in twice and "table v2" in twice and twice.endswith("later text\n")
    assert twice.count("xwsat bench run1: start") == 1


def _task(tiny_suite: Path, **changes) -> dict:
    task = {"suite": "tiny", "grid": "two", "dictionary": "words", "backend": "native",
            "seed": 0, "time_limit": 10.0, "memory_mb": None, "known": None,
            "grid_path": str(tiny_suite / "two.txt"),
            "dictionary_path": str(tiny_suite / "words.txt")}
    task.update(changes)
    task["key"] = task_key(task)
    return task


def test_memout_crash_and_bad_input_are_rows(tiny_suite: Path) -> None:
    memout = run_isolated(_task(tiny_suite, memory_mb=1))
    assert memout["status"] == "memout" and memout["verified"] is False
    assert memout["time_s"] is None and memout["fill"] is None  # the keys of every row, null
    crash = run_isolated({k: v for k, v in _task(tiny_suite).items() if k != "dictionary_path"})
    assert crash["status"] == "crash" and "KeyError" in crash["message"]
    bad = run_isolated(_task(tiny_suite, grid_path=str(tiny_suite / "nope.txt")))
    assert bad["status"] == "error" and "no such file" in bad["message"]


def test_second_check_rejects_a_wrong_fill(tiny_suite: Path) -> None:
    task = _task(tiny_suite)
    good = _recheck(task, {"status": "filled", "verified": True, "fill": ["AB", "CD"]})
    assert good["status"] == "filled" and good["rechecked"] is True
    wrong = _recheck(task, {"status": "filled", "verified": True, "fill": ["AB", "XY"]})
    assert wrong["status"] == "error" and "second check" in wrong["message"]
    unverified = _recheck(task, {"status": "filled", "verified": False, "fill": ["AB", "CD"]})
    assert unverified["status"] == "error"


def test_sweep_through_an_in_process_dask_cluster(tiny_suite: Path, tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "dask"
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        result = bench(tiny_suite, "--backends", "native", "--time-limit", "20",
                       "--cluster", cluster.scheduler_address, "--out", out, "--no-report")
    assert result.exit_code == 0, result.output + result.stderr
    rows = read_rows(out / ROWS)
    assert sorted(r["status"] for r in rows) == ["filled", "unfillable"]
    assert "--cluster" in json.loads((out / "sweep.json").read_text())["commands"][0]


def test_several_seeds_count_the_worst_seed_and_sole_deciders() -> None:
    from xwsat.bench.tables import runs_of, summary

    def row(grid: str, backend: str, seed: int, status: str, time_s: float) -> dict:
        return {"suite": "s", "grid": grid, "dictionary": "d", "backend": backend, "seed": seed,
                "status": status, "verified": True, "time_s": time_s, "time_limit": 30}

    rows = [row("g1", "a", 1, "unfillable", 1.0), row("g1", "a", 2, "unfillable", 3.0),
            row("g1", "b", 1, "unfillable", 0.5), row("g1", "b", 2, "timeout", 30.0),
            row("g2", "a", 1, "filled", 2.0), row("g2", "a", 2, "filled", 1.0),
            row("g2", "b", 1, "timeout", 30.0), row("g2", "b", 2, "timeout", 30.0)]
    runs = {(r.instance, r.backend): r for r in runs_of(rows)}
    assert runs[("s/g1@d", "a")].time_s == 3.0  # the slower seed
    assert not runs[("s/g1@d", "b")].solved  # one undecided seed: undecided
    lines = {line["backend"]: line for line in summary(list(runs.values()))}
    assert lines["a"]["solved"] == 2 and lines["a"]["decided by it alone"] == 2
    assert lines["b"]["solved"] == 0 and lines["b"]["decided by it alone"] == 0
    assert len(runs_of(rows, per_seed=True)) == 8
    alone = summary([r for r in runs.values() if r.backend == "a"])
    assert alone[0]["decided by it alone"] is None  # one back-end: nothing to be alone among


def _swept(tiny_suite: Path, out: Path) -> None:
    result = bench(tiny_suite, "--backends", "native", "--time-limit", "20", "--out", out)
    assert result.exit_code == 0, result.output + result.stderr


def test_report_never_replaces_a_file_it_did_not_write(tiny_suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    _swept(tiny_suite, out)
    assert bench("report", out).exit_code == 0  # its own files, unchanged: replaced freely
    from xwsat.bench.tables import report_files

    rows = read_rows(out / ROWS)  # the guard checks exactly the files the report writes
    written = {p.name for p in out.iterdir() if not p.name.startswith(".")} - {ROWS, "sweep.json"}
    assert written == set(report_files(rows, "native"))
    (out / "summary.csv").write_text("my own table\n")
    refused = bench("report", out)
    assert refused.exit_code == 2 and "summary.csv: exists and is not" in refused.stderr
    assert (out / "summary.csv").read_text() == "my own table\n"
    assert bench("report", out, "--force").exit_code == 0
    assert (out / "summary.csv").read_text() != "my own table\n"
    # A sweep resumed over a user's report.md keeps its rows and leaves the file alone.
    (out / "report.md").write_text("notes\n")
    resumed = bench(tiny_suite, "--backends", "native", "--time-limit", "20", "--out", out)
    assert resumed.exit_code == 0 and "report not written" in resumed.stderr
    assert (out / "report.md").read_text() == "notes\n"


def test_report_readme_must_be_another_markdown_file(tiny_suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    _swept(tiny_suite, out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    for readme in (out / ROWS, out / "summary.csv", out / "report.md", out, tmp_path / "x.md"
                   / "deeper.md"):
        result = bench("report", out, "--readme", readme)
        assert result.exit_code == 2 and result.stderr.count("\n") == 1, (readme, result.stderr)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    readme = tmp_path / "NOTES.md"
    readme.write_text("# Mine\n\nkept\n")
    assert bench("report", out, "--readme", readme).exit_code == 0
    text = readme.read_text()
    assert text.startswith("# Mine\n\nkept\n") and "xwsat bench out: start" in text
    other = tmp_path / "second" / "out"  # another sweep with the same last name
    _swept(tiny_suite, other)
    assert bench("report", other, "--readme", readme).exit_code == 0
    both = readme.read_text()
    assert both.startswith(text) and "xwsat bench second/out: start" in both
    legacy = both.replace("xwsat bench second/out:", "xwsat bench out:")  # as older reports
    legacy = legacy.replace("xwsat bench out: start", "xwsat bench first: start", 1)  # named it
    legacy = legacy.replace("xwsat bench out: end", "xwsat bench first: end", 1)
    readme.write_text(legacy)
    assert bench("report", other, "--readme", readme).exit_code == 0
    migrated = readme.read_text()  # its old section is updated, not left beside a new one
    assert migrated.count("xwsat bench out: start") == 1 and "second/out: start" not in migrated


def test_a_refused_readme_leaves_the_report_as_it_was(tiny_suite: Path, tmp_path: Path) -> None:
    # the readme was checked only after the report was written: title and plots changed, exit 2
    out = tmp_path / "out"
    _swept(tiny_suite, out)
    assert bench("report", out, "--title", "Study A").exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    (tmp_path / "real.md").write_text("# mine\n")
    (tmp_path / "link.md").symlink_to(tmp_path / "real.md")
    refused = bench("report", out, "--title", "Study B", "--readme", tmp_path / "link.md")
    assert refused.exit_code == 2 and "link.md" in refused.stderr, refused.output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_a_report_cut_short_is_written_again_without_force(tiny_suite: Path, tmp_path: Path,
                                                           monkeypatch) -> None:
    """Ctrl-C while the report was written left some files new and others old; every later
    report then refused them as "not the file an earlier report wrote"."""
    import xwsat.commands.bench as bench_command

    out = tmp_path / "out"
    _swept(tiny_suite, out)
    whole = bench_command.build_report

    def stopped(*args, **kwargs):
        whole(*args, **kwargs)  # the plots are written here; the tables were not yet
        (out / "cactus.png").write_bytes(b"half a plot")
        raise KeyboardInterrupt

    monkeypatch.setattr(bench_command, "build_report", stopped)
    assert bench("report", out).exit_code != 0
    monkeypatch.setattr(bench_command, "build_report", whole)
    again = bench("report", out)
    assert again.exit_code == 0, again.output
    assert (out / "cactus.png").read_bytes() != b"half a plot"
    assert "writing" not in json.loads((out / "sweep.json").read_text())


def test_a_report_waits_for_the_sweep_writing_into_its_folder(tiny_suite: Path,
                                                              tmp_path: Path) -> None:
    from xwsat.bench.sweep import folder_lock

    out = tmp_path / "out"
    _swept(tiny_suite, out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    with folder_lock(out):  # as the sweep holds it while it adds its last rows
        result = bench("report", out)
    assert result.exit_code == 2 and "a sweep is writing into this folder" in result.stderr
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert bench("report", out).exit_code == 0


def test_seeds_out_of_range_are_bad_input(tiny_suite: Path, tmp_path: Path) -> None:
    result = bench(tiny_suite, "--backends", "native", "--seeds", "1,2147483648",
                   "--out", tmp_path / "out")
    assert result.exit_code == 2 and "--seeds must be between 0 and" in result.stderr
    assert not (tmp_path / "out").exists()
    ranged = bench(tiny_suite, "--backends", "native", "--seeds", "1-2", "--out",
                   tmp_path / "out", "--no-report")  # as grids generate takes them
    assert ranged.exit_code == 0 and "--seeds 1,2 " in json.loads(
        (tmp_path / "out" / "sweep.json").read_text())["commands"][0]


def test_a_bad_cluster_leaves_no_folder(tiny_suite: Path, tmp_path: Path) -> None:
    result = bench(tiny_suite, "--backends", "native", "--cluster", "bogus",
                   "--out", tmp_path / "out", "--time-limit", "5")
    assert result.exit_code == 2 and not (tmp_path / "out").exists()


def test_a_peer_row_says_how_the_peer_ran_and_the_report_shows_it() -> None:
    """A peer is judged by its setup (no row or report said ACE's options)."""
    from xwsat.backends.ace import AceBackend
    from xwsat.bench.execute import peer_setup
    from xwsat.bench.tables import _peer_lines

    setup = AceBackend("wdegdom").setup()
    assert "-varh=WdegOnDom" in setup["options"] and "ACE" in setup["solver"]
    assert "arc-consistent" in setup["model"] and "JVM" in setup["time"]
    assert peer_setup("mac") == {} and peer_setup("auto") == {}
    rows = [{"backend": "ace:wdegdom", "peer": setup}, {"backend": "mac"}]
    lines = _peer_lines(rows)
    assert lines[0] == "## Peers, as run" and "`ace:wdegdom`" in lines[2]
    assert "-varh=WdegOnDom" in lines[2] and not any("`mac`" in line for line in lines)


def test_report_leaves_a_sweep_record_it_cannot_read_alone(tiny_suite: Path,
                                                            tmp_path: Path) -> None:
    out = tmp_path / "out"
    _swept(tiny_suite, out)
    (out / "sweep.json").write_text("my notes, not JSON\n")
    assert bench("report", out, "--force").exit_code == 0
    assert (out / "sweep.json").read_text() == "my notes, not JSON\n"
    (out / "sweep.json").unlink()  # no record at all: the report makes its own
    assert bench("report", out, "--force").exit_code == 0
    assert bench("report", out).exit_code == 0  # and finds its hashes there next time


@pytest.mark.parametrize("entry,message", [
    ({"file": 5}, "each grid needs a 'file'"),
    ({"file": "g.txt", "dictionaries": "w.txt"}, "'dictionaries' is a list"),
    ({"file": "g.txt", "dictionaries": ["w.txt"], "known": 5}, "'known' maps"),
    ({"file": "g.txt", "dictionaries": ["w.txt"], "known": {"wamerican": "filled"}},
     "'known' names wamerican, which g.txt is not paired with"),  # was silently no check
])
def test_a_malformed_suite_entry_is_one_line(tmp_path, entry, message) -> None:
    # "file": 5 was a TypeError, a string of dictionaries was read letter by letter
    (tmp_path / "g.txt").write_text("..\n")
    (tmp_path / "w.txt").write_text("AB\n")
    (tmp_path / "suite.json").write_text(json.dumps({"suite": "x", "grids": [entry]}))
    with pytest.raises(XwsatError, match=message):
        load_suite(str(tmp_path / "suite.json"))


def test_a_known_status_keyed_by_the_file_name_is_checked(tmp_path) -> None:
    # {"lex.txt": ...} was dropped without a word, so a wrong verdict went unflagged
    (tmp_path / "g.txt").write_text("..\n")
    (tmp_path / "w.txt").write_text("AB\n")
    (tmp_path / "suite.json").write_text(json.dumps({"suite": "x", "grids": [
        {"file": "g.txt", "dictionaries": ["w.txt"], "known": {"w.txt": "unfillable"}}]}))
    assert [i.known for i in load_suite(str(tmp_path / "suite.json")).instances] == [
        "unfillable"]


def test_readme_splice_refuses_markers_out_of_order_and_keeps_every_other_byte() -> None:
    # misordered or lone markers deleted the user's text between them
    start, end = "<!-- xwsat bench r: start -->", "<!-- xwsat bench r: end -->"
    for text in (f"a\n{end}\nb\n{start}\nKEEP\n", f"a\n{start}\nKEEP\n", f"a\n{end}\nKEEP\n"):
        with pytest.raises(XwsatError, match="not one pair"):
            splice(text, "r", "table")
    crlf = "line one\r\nline two\r\n\n\n"
    once = splice(crlf, "r", "table")
    assert once.startswith(crlf) and once.endswith(f"{end}\n")
    again = splice(once + "after\r\n", "r", "table 2")
    assert again.startswith(crlf) and again.endswith(f"{end}\nafter\r\n") and "table 2" in again


def test_report_never_writes_through_a_link_among_the_plots(tiny_suite: Path,
                                                            tmp_path: Path) -> None:
    # a planted link was followed and the file it named overwritten
    out = tmp_path / "out"
    _swept(tiny_suite, out)
    precious = tmp_path / "precious.txt"
    precious.write_text("mine\n")
    (out / "cactus.png").unlink()
    (out / "cactus.png").symlink_to(precious)
    result = bench("report", out, "--force")
    assert result.exit_code == 2 and "not a plain file" in result.stderr
    assert precious.read_text() == "mine\n" and (out / "cactus.png").is_symlink()
    assert not [p for p in out.iterdir() if p.name.startswith(".cactus")]


def test_a_report_says_when_its_sweep_was_stopped_before_its_end(tiny_suite: Path,
                                                                 tmp_path: Path) -> None:
    # a Ctrl-C'd sweep's report read as the whole suite's: "3 runs: 2 instances", no warning
    out = tmp_path / "out"
    _swept(tiny_suite, out)
    assert "Unfinished sweep" not in (out / "report.md").read_text()
    lines = (out / "rows.jsonl").read_text().splitlines(keepends=True)
    (out / "rows.jsonl").write_text("".join(lines[:-1]))  # the last run never ended
    assert bench("report", out).exit_code == 0
    text = (out / "report.md").read_text()
    assert f"**Unfinished sweep:** 1 of the {len(lines)} runs its command planned" in text
    assert json.loads(lines[-1])["key"].split("|")[0] in text.split("Unfinished")[1]


def test_a_readme_that_is_not_utf8_is_one_line(tiny_suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    _swept(tiny_suite, out)
    readme = tmp_path / "latin1.md"
    readme.write_bytes(b"caf\xe9\n")
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    result = bench("report", out, "--readme", readme, "--baseline", "native", "--force")
    assert result.exit_code == 2 and "not UTF-8" in result.stderr
    assert readme.read_bytes() == b"caf\xe9\n"
    half = tmp_path / "half.md"  # a lone start marker: refused too
    half.write_text("<!-- xwsat bench out: start -->\nmine\n")
    result = bench("report", out, "--readme", half, "--force")
    assert result.exit_code == 2 and "not one pair" in result.stderr
    # exit 2 changed nothing: the report files were rewritten before the README was read
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


@pytest.mark.parametrize("name,text", [("sweep.json", '{"mine": 1}\n'), ("sweep.json", "[1, 2]\n"),
                                       ("rows.jsonl", "my own notes\n")])
def test_a_sweep_never_resumes_into_files_it_did_not_write(tiny_suite: Path, tmp_path: Path,
                                                           name: str, text: str) -> None:
    # a foreign sweep.json was edited, or crashed the run; a foreign rows.jsonl appended to
    out = tmp_path / "out"
    out.mkdir()
    (out / name).write_text(text)
    result = bench(tiny_suite, "--backends", "native", "--time-limit", "20", "--out", out)
    assert result.exit_code == 2 and "not written by a sweep" in result.stderr, result.output
    assert (out / name).read_text() == text and len(list(out.iterdir())) == 1


def test_a_resumed_sweep_reruns_a_row_whose_files_changed(tiny_suite: Path,
                                                          tmp_path: Path) -> None:
    # rows were matched by file names only: a changed dictionary kept its old verdict
    out = tmp_path / "out"
    args = [tiny_suite, "--backends", "native", "--time-limit", "20", "--out", out]
    assert bench(*args).exit_code == 0
    again = bench(*args)
    assert again.exit_code == 0 and "nothing new" in again.stdout + again.stderr
    (tiny_suite / "words.txt").write_text(WORDS + "ZZ\n")
    changed = bench(*args)
    assert changed.exit_code == 0 and "nothing new" not in changed.stdout + changed.stderr
    rows = [json.loads(line) for line in (out / ROWS).read_text().splitlines()]
    grids = {row["grid"] for row in rows}
    assert len({row["inputs"] for row in rows}) == 2 * len(grids)  # each grid, both lists


def test_rows_of_an_edited_list_are_not_compared_with_the_new_ones(tiny_suite: Path,
                                                                   tmp_path: Path) -> None:
    """One back-end on the list, the list edited, another back-end: two problems, not a
    disagreement between back-ends (nor a verdict against the literature)."""
    out = tmp_path / "out"
    first = bench(tiny_suite, "--backends", "native", "-t", "20", "--out", out)
    assert first.exit_code == 0, first.output
    (tiny_suite / "words.txt").write_text("AB\nCD\nAC\n")  # two.txt has no fill now
    second = bench(tiny_suite, "--backends", "mac", "-t", "20", "--out", out)
    assert second.exit_code in (0, 4) and "back-ends disagree" not in second.output
    table = (out / "report.md").read_text()
    assert "native" not in table.split("## Per instance")[1].split("\n\n")[1]


def test_a_known_status_is_for_the_suites_own_list_not_one_of_its_name(tiny_suite: Path,
                                                                        tmp_path: Path) -> None:
    mine = tmp_path / "mine" / "words.txt"
    mine.parent.mkdir()
    mine.write_text("AB\nCD\nAC\nBD\nCAT\nODE\nCO\nAD\nTE\n")  # three.txt fills
    result = bench(tiny_suite, "--backends", "native", "-d", mine, "-t", "20",
                   "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "literature" not in result.output


def test_a_missing_row_leaves_its_instance_out_of_every_comparison(tiny_suite: Path,
                                                                   tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert bench(tiny_suite, "--backends", "native,mac", "-t", "20", "--out", out).exit_code == 0
    lines = (out / ROWS).read_text().splitlines()
    lost = json.loads(lines[0])
    (out / ROWS).write_text("\n".join(["{not json", *lines[1:]]) + "\n")  # a damaged row
    assert bench("report", out, "--force").exit_code == 0
    report = (out / "report.md").read_text()
    assert f"1 left out (a run interrupted, or its row damaged): {lost['suite']}/" \
        f"{lost['grid']}@{lost['dictionary']} (no row of {lost['backend']})" in report
    summary = (out / "summary.csv").read_text().splitlines()
    counts = {line.split(",")[0]: line.split(",")[1:9] for line in summary[1:]}
    for backend in ("native", "mac"):
        instances, solved, filled, unfillable, *rest = map(int, counts[backend])
        assert instances == 1 and filled + unfillable + sum(rest) == instances


def test_a_folder_keeps_one_time_and_memory_limit(tiny_suite: Path, tmp_path: Path) -> None:
    # rows of a -t 20 run and a -t 30 run in one folder counted each instance twice in
    # summary.csv: resuming with other limits is refused before any run
    out = tmp_path / "out"
    assert bench(tiny_suite, "--backends", "native", "--time-limit", "20", "--out",
                 out).exit_code == 0
    before = (out / ROWS).read_bytes()
    for extra in (["--time-limit", "30"], ["--time-limit", "20", "--memory-limit", "1024"]):
        result = bench(tiny_suite, "--backends", "native", *extra, "--out", out)
        assert result.exit_code == 2, result.output
        assert "keeps one time and memory limit" in result.stderr
        assert "20 s, 4096 MiB" in result.stderr
    assert (out / ROWS).read_bytes() == before
    rows = (out / ROWS).read_text().splitlines()
    other = [json.dumps({**json.loads(line), "time_limit": 30.0, "key": json.loads(line)["key"]
                         + "|other"}) for line in rows]
    (out / ROWS).write_text("\n".join(rows + other) + "\n")  # a folder merged by hand
    report = bench("report", out)
    assert report.exit_code == 2 and "several limits" in report.stderr, report.output
    damaged = [json.dumps({**json.loads(rows[0]), "time_limit": None, "key": "x"})]
    (out / ROWS).write_text("\n".join(rows + damaged) + "\n")  # a TypeError
    assert len(read_rows(out / ROWS)) == len(rows)
    resumed = bench(tiny_suite, "--backends", "native", "--time-limit", "20", "--out", out)
    assert resumed.exit_code == 0, resumed.output


def test_an_unknown_suite_without_named_suites_says_where_they_are(monkeypatch) -> None:
    # an install without the repository's grids/ said "or one of none found"
    from xwsat.bench import suites

    monkeypatch.setattr(suites, "list_suites", lambda: [])
    with pytest.raises(XwsatError, match="in the repository's grids/ folder") as caught:
        suites.find_suite("classic-typo")
    assert "none found" not in str(caught.value)


def test_the_child_runs_this_xwsat_not_a_tree_in_the_working_directory(tmp_path: Path) -> None:
    """A bench started inside another source tree must not run that tree's code."""
    (tmp_path / "xwsat" / "bench").mkdir(parents=True)
    (tmp_path / "xwsat" / "__init__.py").write_text("raise SystemExit('shadow tree ran')\n")
    (tmp_path / "xwsat" / "bench" / "__init__.py").write_text("")
    plain = subprocess.run([sys.executable, "-m", "xwsat.bench.child"], cwd=tmp_path,
                           input="{}", capture_output=True, text=True, timeout=60)
    assert "shadow tree ran" in plain.stderr  # what ``python -m`` did: the tree came first
    ours = subprocess.run(child_command(), cwd=tmp_path, input="{}", capture_output=True,
                          text=True, timeout=60)
    assert "shadow tree ran" not in ours.stderr + ours.stdout


def test_bad_sweep_paths_are_named_in_their_one_line(tiny_suite: Path, tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x\n")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "words.txt").write_text(WORDS + "ZZ\n")
    cases = [  # each was a message that did not name the path, or named the wrong fault
        (["--out", tmp_path / "afile" / "sub"], f"{tmp_path / 'afile' / 'sub'}: cannot create"),
        (["--dict", tmp_path / "other", "--out", tmp_path / "o1"], "is a folder"),
        (["--dict", tiny_suite / "words.txt", "--dict", tmp_path / "other" / "words.txt",
          "--out", tmp_path / "o2"], "two different word lists are both named 'words'"),
    ]
    for args, message in cases:
        result = bench(tiny_suite, "--backends", "native", "-t", "5", *args)
        assert result.exit_code == 2 and message in result.stderr, result.stderr
    assert not (tmp_path / "o1").exists() and not (tmp_path / "o2").exists()


def test_a_solver_stopped_from_outside_has_unknown_counts(tiny_suite: Path, monkeypatch) -> None:
    # a SAT run ended at its limit wrote "conflicts": 0 and "variables": 0 for 10 s of search
    from dataclasses import replace as replaced

    from xwsat import pipeline
    from xwsat.bench import child
    from xwsat.outcome import Stop, stopped

    real = pipeline.fill_grid

    def ended_at_the_limit(*args, **kwargs):
        result = real(*args, **kwargs)
        return replaced(result, outcome=stopped("sat", Stop.TIME, "time limit reached"),
                        filled=None, verified=False)

    monkeypatch.setattr(pipeline, "fill_grid", ended_at_the_limit)
    task = {"dictionary_path": str(tiny_suite / "words.txt"),
            "grid_path": str(tiny_suite / "two.txt"), "backend": "native", "time_limit": 5.0,
            "seed": 0}
    row = child.execute(task)
    assert row["status"] == "timeout"
    assert row["conflicts"] is None and row["nodes"] is None
    assert row["sizes"]["variables"] is None and row["times"]["search_s"] is None
    assert row["sizes"]["slots"] > 0  # what the problem itself says is still known


def test_a_suite_name_that_is_also_a_folder_here_is_refused(tmp_path, monkeypatch) -> None:
    # ./small/suite.json was silently run in place of the suite small
    from xwsat.bench.suites import find_suite

    (tmp_path / "small").mkdir()
    (tmp_path / "small" / "suite.json").write_text('{"grids": []}')
    monkeypatch.setattr("xwsat.bench.suites.grids_root",
                        lambda: Path(__file__).resolve().parents[2] / "grids")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(XwsatError, match="give ./small for the folder"):
        find_suite("small")
    assert find_suite("./small") == Path("./small")
    assert bench("run", "small", "--seeds", "1,1").stderr.strip().endswith("--seeds lists 1 twice")


def test_the_report_says_when_and_at_which_commit_and_warns_of_mixed_rows(tiny_suite: Path,
                                                                           tmp_path: Path):
    # the report and plots carried no date, commit or machine, and pooled rows of two commits
    out = tmp_path / "out"
    assert bench(tiny_suite, "--backends", "native,mac", "-t", "20", "--out", out).exit_code == 0
    report = (out / "report.md").read_text()
    row = json.loads((out / ROWS).read_text().splitlines()[0])
    assert f"Measured {row['started'][:10]} at commit {row['versions']['git']} (xwsat" in report
    assert "Mixed" not in report
    lines = [json.loads(line) for line in (out / ROWS).read_text().splitlines()]
    searched = [line for line in lines if line["solved_by"] not in ("propagate", "matching")]
    before = report.count("(before search)")
    assert before == len(lines) - len(searched)
    searched[0]["versions"]["git"] = "0000000"
    searched[0]["solved_by"] = "propagate"  # as if decided before any back-end ran
    (out / ROWS).write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert bench("report", out, "--force").exit_code == 0
    report = (out / "report.md").read_text()
    assert "**Mixed commits:** the rows come from 2 (" in report and "0000000: 1 rows" in report
    assert report.count("(before search)") == before + 1
    assert "column `before search`" in report


def test_an_empty_item_in_a_list_option_is_refused(tiny_suite: Path, tmp_path: Path) -> None:
    # --seeds 1,,2 ran seeds 1 and 2 without a word
    for option, value in (("--seeds", "1,,2"), ("--backends", "native,")):
        result = bench(tiny_suite, option, value, "-t", "5", "--out", tmp_path / "out")
        assert result.exit_code == 2 and "has an empty item" in result.output
    assert not (tmp_path / "out").exists()


def test_a_folder_another_sweep_holds_is_refused_before_anything(tiny_suite: Path,
                                                                 tmp_path: Path) -> None:
    from xwsat.bench.sweep import folder_lock

    out = tmp_path / "out"
    assert bench(tiny_suite, "--backends", "native", "--out", out, "-t", "5",
                 "--no-report").exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    with folder_lock(out):  # as another `bench run` holds it while it writes there
        result = bench(tiny_suite, "--backends", "native,sat", "--out", out, "-t", "5")
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().splitlines() == [
        f"xwsat: error: {out}: another sweep is writing into this folder"]
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # its plan not recorded
    again = bench(tiny_suite, "--backends", "native,sat", "--out", out, "-t", "5", "--no-report")
    assert again.exit_code == 0, again.output  # the refused command let go of what it held


def test_a_row_of_an_embedded_list_is_bound_to_the_data_xwsat_carries(tmp_path: Path) -> None:
    # a list rebuilt by a newer xwsat (a score changed) made no resumed row run again
    import hashlib
    from importlib import resources

    from xwsat.bench.sweep import _inputs_digest

    grid = tmp_path / "g.txt"
    grid.write_text("..\n..\n")
    data = (resources.files("xwsat") / "data" / "es.txt.gz").read_bytes()
    digest = _inputs_digest(str(grid), "es", {})
    assert digest.endswith(f"-es:{hashlib.sha256(data).hexdigest()[:16]}")


def test_a_resumed_sweep_keeps_the_reports_baseline_and_title(tiny_suite: Path,
                                                               tmp_path: Path) -> None:
    # the sweep's own report went back to its default baseline and title, and deleted the
    # scatter plots a README made with --baseline links to
    out = tmp_path / "out"
    assert bench(tiny_suite, "-b", "native,sat", "-t", "20", "--out", out).exit_code == 0
    assert bench("report", out, "--baseline", "sat", "--title", "Study A").exit_code == 0
    plots = sorted(p.name for p in out.glob("scatter_*"))
    resumed = bench(tiny_suite, "-b", "native,sat", "-t", "20", "--out", out)
    assert resumed.exit_code == 0 and "4 resumed" in resumed.output
    report = (out / "report.md").read_text()
    assert report.startswith("# Study A") and "/ sat time" in report
    assert sorted(p.name for p in out.glob("scatter_*")) == plots


def test_a_report_of_the_same_rows_writes_the_same_pictures(tiny_suite: Path,
                                                            tmp_path: Path) -> None:
    # every SVG changed on each report (a date and random ids): noise in a published folder
    out = tmp_path / "out"
    _swept(tiny_suite, out)
    first = {p.name: p.read_bytes() for p in out.glob("*.svg")}
    assert first and bench("report", out).exit_code == 0
    assert {p.name: p.read_bytes() for p in out.glob("*.svg")} == first
