"""Time limits and signals: every long command returns within its --time-limit (plus a little),
a signal leaves no process behind, and Ctrl-C is exit 3 whatever stage it lands in.

The default tests are in-process or short; the ``slow`` ones measure every long command on a
hard grid with -t 2 and -t 5 and send every signal to ``prove`` and ``bench`` (their figures go
to ``XWSAT_TALLIES``, see tests/tallies.py).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
import tallies
from typer.testing import CliRunner

from xwsat import guard
from xwsat.cli import app
from xwsat.commands import common
from xwsat.outcome import Stop

ROOT = Path(__file__).resolve().parents[2]
XWSAT = shutil.which("xwsat", path=os.path.dirname(sys.executable)) or "xwsat"
HARD = ROOT / "grids" / "hard" / "g15-s8-018.txt"  # undecided for minutes by every back-end
UNFILLABLE_HARD = ROOT / "grids" / "hard" / "g15-s8-001.txt"  # mac: unfillable in ~2 s
BIG = ROOT / "grids" / "dictionaries" / "wamerican-large.txt.gz"
OVERRUN_S = 1.0  # the most a command may run past its limit; docs/limits.md says about half

# three 2-letter words for the three downs: counting words does not decide it, a search does
UNFILLABLE = ("...\n...\n", "AAB\nABA\nBAA\nAB\nBA\nBB\n")


@pytest.fixture
def unfillable(tmp_path) -> tuple[Path, Path]:
    grid, words = tmp_path / "g.txt", tmp_path / "w.txt"
    grid.write_text(UNFILLABLE[0])
    words.write_text(UNFILLABLE[1])
    return grid, words


def run(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


def timed(argv: list[str], timeout: float = 120) -> tuple[subprocess.CompletedProcess, float]:
    start = time.monotonic()
    proc = subprocess.run([XWSAT, *argv], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT)
    return proc, time.monotonic() - start


def alive(pid: int) -> bool:
    """Running (a zombie counts as gone: it holds no memory and runs nothing)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def descendants(pid: int) -> list[int]:
    """The processes below ``pid``, read from /proc here rather than through
    ``xwsat.guard.descendants``: the check that nothing is left must not trust the code that
    does the killing."""
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                ppid = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            tree.setdefault(ppid, []).append(int(entry))
    found, stack = [], list(tree.get(pid, []))
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(tree.get(current, []))
    return found


def gone_within(pids: list[int], seconds: float) -> list[int]:
    """The pids still running after waiting up to ``seconds`` (a big process takes a moment)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(alive(p) for p in pids):
            return []
        time.sleep(0.1)
    return [p for p in pids if alive(p)]


def interrupt_after(seconds: float) -> threading.Timer:
    """Ctrl-C (SIGINT to this process) in ``seconds``, as a user would press it."""
    timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    return timer


@pytest.fixture
def ctrl_c_raises():
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


# --- the watch, the grace, the fork ------------------------------------------------------------

def test_the_watch_raises_at_its_deadline_then_only_after_a_pause() -> None:
    start = time.monotonic()
    raised: list[float] = []
    with guard.watch(0.3):
        for _ in range(2):
            try:
                while time.monotonic() - start < 5:
                    sum(range(1000))
            except guard.LimitReached as exc:
                raised.append(time.monotonic() - start)
                assert exc.message == "time limit of 0.3 s reached"
    assert len(raised) == 2
    assert 0.3 <= raised[0] < 0.45, raised  # at the deadline, not a tick later
    assert raised[1] - raised[0] >= guard.AGAIN_S - 0.05  # a stage that caught it may finish


def test_the_watch_names_the_users_limit_not_its_slack(monkeypatch) -> None:
    monkeypatch.setattr(common, "STARTED", time.monotonic())
    with pytest.raises(guard.LimitReached, match="time limit of 0.2 s reached"), \
            common.limited(0.2):
        while True:
            sum(range(1000))


def test_a_limit_that_comes_while_forking_is_delivered_after_it() -> None:
    """A handler run inside fork's hooks has its exception swallowed: the limit would be lost."""
    start = time.monotonic()
    with pytest.raises(guard.LimitReached), guard.watch(0.05):
        with guard.held_signals():
            time.sleep(0.3)  # the deadline passes here: deferred, not raised
        time.sleep(5)
    assert 0.3 <= time.monotonic() - start < 0.5


def test_a_termination_while_forking_is_delivered_after_it() -> None:
    previous = signal.signal(signal.SIGTERM, guard._terminated)
    try:
        with pytest.raises(KeyboardInterrupt):
            with guard.held_signals():
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(0.1)
            time.sleep(5)
    finally:
        signal.signal(signal.SIGTERM, previous)


class _SlowToFinalise:
    """A finaliser that is running when a signal comes: Python swallows what its handler
    raises there and prints a traceback (seen once in CI, from a garbage-collector callback)."""

    def __init__(self, signum: int | None = None) -> None:
        self.signum = signum

    def __del__(self) -> None:
        if self.signum is not None:
            os.kill(os.getpid(), self.signum)
        time.sleep(0.3)


_NO_UNRAISABLE = pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")


@_NO_UNRAISABLE  # under pytest a swallowed exception is a warning, not a traceback on stderr
def test_a_limit_that_comes_in_a_finaliser_is_raised_again_at_once(capfd) -> None:
    start = time.monotonic()
    with pytest.raises(guard.LimitReached), guard.watch(0.05):
        _SlowToFinalise()  # dropped at once: the deadline passes inside its finaliser
        time.sleep(5)
    assert time.monotonic() - start < 0.3  # was 0.55: the watch's next raise, after a pause
    assert "Traceback" not in capfd.readouterr().err


@_NO_UNRAISABLE
def test_ctrl_c_that_comes_in_a_finaliser_is_raised_again_at_once(capfd) -> None:
    previous = signal.signal(signal.SIGINT, guard._terminated)
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt), guard.watch(60):
            _SlowToFinalise(signal.SIGINT)
            time.sleep(5)  # the Ctrl-C was lost here before: the command ran on
    finally:
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - start < 0.3
    assert "Traceback" not in capfd.readouterr().err
    assert sys.unraisablehook is not guard._lost  # the watch put back the hook it found


@_NO_UNRAISABLE
def test_ctrl_c_in_a_finaliser_as_the_watch_ends_is_not_lost() -> None:
    previous = signal.signal(signal.SIGINT, guard._terminated)
    try:
        with pytest.raises(KeyboardInterrupt), guard.watch(60):
            _SlowToFinalise(signal.SIGINT)  # the last thing the watched work does
    finally:
        signal.signal(signal.SIGINT, previous)


class _RaisesOnFinalise:
    def __del__(self) -> None:
        raise KeyboardInterrupt  # a library's finaliser in a child, under the parent's watch


def _finalise_then_answer() -> str:
    _RaisesOnFinalise()
    time.sleep(0.2)
    return "ok"


def test_a_forked_child_does_not_take_the_parents_watch_hook() -> None:
    # the child inherited the hook, whose 1 ms alarm then killed it (SIGALRM's default there)
    with guard.watch(60):
        finished = guard.run_function(_finalise_then_answer, (), 10)
    assert finished.value == "ok", finished


def test_the_watch_does_not_nest() -> None:
    with guard.watch(60), pytest.raises(RuntimeError), guard.watch(1):
        pass
    assert sys.unraisablehook is not guard._lost


def test_a_stage_gets_the_time_left_less_the_grace(monkeypatch) -> None:
    monkeypatch.setattr(common, "STARTED", time.monotonic() - 1.0)
    left = common.budget(3.0).for_child()
    assert 3.0 - 1.0 - guard.GRACE_S - 0.1 < left <= 3.0 - 1.0 - guard.GRACE_S
    assert common.budget(0.5).for_child() == 0.1  # past the deadline: a token, never negative


def test_a_command_called_in_process_gives_each_stage_its_whole_limit(monkeypatch) -> None:
    monkeypatch.setattr(common, "STARTED", None)
    assert common.budget(3.0).for_child() == 3.0
    assert common.budget(3.0).left() == 3.0


def test_a_budget_says_when_work_stops_and_when_its_child_is_killed() -> None:
    budget = guard.Budget(2.0, started=100.0)
    assert budget.deadline == 102.0
    assert budget.kill_at() == 102.0 + guard.GRACE_S
    assert budget.stop_at(0.3) == 101.7
    assert guard.Budget(0.1, started=100.0).stop_at(0.3) == 100.0  # never before its start
    assert guard.Budget(None, started=100.0).kill_at() is None
    assert guard.Budget(None).for_child() is None


def test_a_budget_s_margin_never_leaves_less_than_its_floor() -> None:
    spent = guard.Budget(1.0, started=time.monotonic() - 5.0)
    assert spent.left() == 0.0
    assert spent.with_margin(guard.REPORT_S) == 0.1
    assert spent.with_margin(guard.REPORT_S, floor=0.0) == 0.0


def test_within_a_command_no_stage_starts_after_ctrl_c() -> None:
    with guard.one_command():
        assert guard.run_function(time.sleep, (0,), 5).ok
        guard.interruption(KeyboardInterrupt())
        with pytest.raises(KeyboardInterrupt):
            guard.run_function(time.sleep, (0,), 5)
    assert guard.run_function(time.sleep, (0,), 5).ok  # the next command, or a library caller
    guard.interruption(KeyboardInterrupt())
    assert guard.run_function(time.sleep, (0,), 5).ok


# --- time-outs and Ctrl-C in the commands (in-process) -----------------------------------------

def _slow_recheck(*args: object) -> dict:
    time.sleep(60)
    return {}


def test_check_proof_out_of_time_is_3_not_4(unfillable, tmp_path, monkeypatch) -> None:
    grid, words = unfillable
    folder = tmp_path / "cert"
    assert run("prove", grid, "--dict", words, "--certificate", folder).exit_code == 1
    import xwsat.evidence.recheck as recheck

    monkeypatch.setattr(recheck, "rebuild_and_compare", _slow_recheck)
    start = time.monotonic()
    result = run("check-proof", folder, "--time-limit", "1")
    assert result.exit_code == 3, result.output
    assert "UNDECIDED" in result.stdout and time.monotonic() - start < 1 + OVERRUN_S + 1


def _slow_cores(*args: object, **options: object):
    time.sleep(60)
    yield from ()


def test_ctrl_c_during_the_explanation_is_3_with_a_message(unfillable, monkeypatch,
                                                             ctrl_c_raises) -> None:
    import xwsat.evidence.cores as cores

    monkeypatch.setattr(cores, "successive_cores", _slow_cores)
    grid, words = unfillable
    timer = interrupt_after(1.5)
    try:
        result = run("prove", grid, "--dict", words, "--explain", "-t", "30")
    finally:
        timer.cancel()
    assert result.exit_code == 3, result.output
    assert "UNFILLABLE" in result.stdout and result.stderr.strip() == "xwsat: interrupted"
    timer = interrupt_after(1.5)
    try:
        as_json = run("prove", grid, "--dict", words, "--explain", "-t", "30", "--json")
    finally:
        timer.cancel()
    record = json.loads(as_json.stdout)  # the verdict stands, and the record says it stopped
    assert as_json.exit_code == 3 and record["status"] == "unfillable"
    assert record["stop"] == "interrupted"


def test_ctrl_c_after_a_first_explanation_shows_it_not_minimal_then_is_3(
        unfillable, monkeypatch, ctrl_c_raises) -> None:
    import xwsat.evidence.cores as cores

    real = cores.successive_cores

    def first_then_slow(*args: object, **options: object):
        yield replace(next(iter(real(*args, **options))), minimal=False)
        time.sleep(60)

    monkeypatch.setattr(cores, "successive_cores", first_then_slow)
    grid, words = unfillable
    timer = interrupt_after(1.5)
    try:
        result = run("prove", grid, "--dict", words, "--explain", "-t", "30", "--json")
    finally:
        timer.cancel()
    assert result.exit_code == 3, result.output
    record = json.loads(result.stdout)
    assert record["status"] == "unfillable"
    assert record["explanation"]["minimal"] is False
    assert record["explanation"]["stopped"] == "interrupted"
    assert record["stop"] == "interrupted"  # on top too, as every stopped command says it
    assert record["explanation"]["slots"] and result.stderr.strip() == "xwsat: interrupted"


def _slow_proof(self, *args: object) -> None:
    time.sleep(60)


def test_ctrl_c_during_a_certificate_is_3_and_leaves_nothing(unfillable, tmp_path, monkeypatch,
                                                               ctrl_c_raises) -> None:
    from xwsat.evidence.producers import SearchProducer

    monkeypatch.setattr(SearchProducer, "prove", _slow_proof)
    grid, words = unfillable
    folder = tmp_path / "cert"
    timer = interrupt_after(1.5)
    try:
        result = run("prove", grid, "--dict", words, "--certificate", folder,
                     "--proof-method", "search", "-t", "30")
    finally:
        timer.cancel()
    assert result.exit_code == 3, result.output
    assert "interrupted" in result.output
    assert not folder.exists()  # the run made it, and nothing was answered: all gone
    assert not list(tmp_path.glob("**/.staging-*"))


def _slow_refutation(*args: object) -> None:
    time.sleep(60)


def test_ctrl_c_while_finding_the_needed_slots_is_3_and_leaves_nothing(
        unfillable, tmp_path, monkeypatch, ctrl_c_raises) -> None:
    import xwsat.evidence.slot_core as slot_core

    monkeypatch.setattr(slot_core, "_refuted", _slow_refutation)  # the seeds' searches, at once
    grid, words = unfillable
    folder = tmp_path / "cert"
    timer = interrupt_after(1.5)
    start = time.monotonic()
    try:
        result = run("prove", grid, "--dict", words, "--certificate", folder, "-t", "30")
    finally:
        timer.cancel()
    assert result.exit_code == 3, result.output
    assert "interrupted" in result.output and time.monotonic() - start < 10
    assert not folder.exists()
    assert not list(tmp_path.glob("**/.staging-*"))


# --- the real thing, short ---------------------------------------------------------------------

def test_a_hard_fill_returns_within_its_limit() -> None:
    proc, seconds = timed(["fill", str(HARD), "--dict", str(BIG), "-b", "sat", "-t", "1.5"])
    assert proc.returncode == 3, proc.stderr
    assert seconds < 1.5 + OVERRUN_S
    assert len(proc.stderr.strip().splitlines()) <= 1 and "Traceback" not in proc.stderr


def test_a_hard_fill_searches_for_most_of_its_limit() -> None:
    # the command's and the race's margins once added up: `fill -t 3` gave up at about 2.1 s
    proc, seconds = timed(["fill", str(HARD), "--dict", str(BIG), "-t", "3"])
    assert proc.returncode == 3, proc.stderr
    assert 3.0 - 0.6 < seconds < 3.0 + OVERRUN_S


def test_a_certificate_out_of_time_is_3_and_leaves_no_folder(tmp_path) -> None:
    folder = tmp_path / "cert"
    proc, seconds = timed(["prove", str(HARD), "--dict", str(BIG), "--certificate",
                           str(folder), "-t", "1.5"])
    assert proc.returncode == 3, proc.stderr
    assert seconds < 1.5 + OVERRUN_S
    assert not folder.exists()


def _start_prove(extra: list[str] | None = None) -> tuple[subprocess.Popen, list[int]]:
    """``xwsat prove`` on the hard grid, once its solver children run."""
    proc = subprocess.Popen([XWSAT, "prove", str(HARD), "--dict", str(BIG), "-t", "60",
                             *(extra or [])], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=ROOT)
    children: list[int] = []
    deadline = time.monotonic() + 30
    while len(children) < 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
        children = descendants(proc.pid)
    assert children, "prove started no solver"
    return proc, children


def test_sigterm_stops_prove_with_3_and_no_process_left() -> None:
    proc, children = _start_prove()
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 3, err
    assert "interrupted" in out + err
    assert gone_within(children, 5) == []


def test_a_second_stop_signal_at_once_is_the_same_stop() -> None:
    """coreutils' timeout sends SIGINT to the process, then to its group: the second one cut
    short the answer the first one was ending with (no record came 5 times in 15)."""
    with guard.one_command():
        with pytest.raises(KeyboardInterrupt):
            guard._terminated(signal.SIGINT, None)
        try:
            guard._terminated(signal.SIGINT, None)  # ignored: within REPEAT_S of the first
        except KeyboardInterrupt:
            pytest.fail("a second SIGINT at once raised again")
        guard._interrupted["signalled"] -= guard.REPEAT_S
        with pytest.raises(KeyboardInterrupt):  # later, a new Ctrl-C stops the wrap-up too
            guard._terminated(signal.SIGINT, None)
    with guard.one_command(), pytest.raises(KeyboardInterrupt):  # each command starts afresh
        guard._terminated(signal.SIGINT, None)


def test_two_quick_sigints_still_give_the_json_record() -> None:
    proc, children = _start_prove(["--json"])
    proc.send_signal(signal.SIGINT)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 3, err
    assert json.loads(out)["status"] == "unknown", (out, err)
    assert gone_within(children, 5) == []


@pytest.mark.parametrize("stop", [guard.LimitReached(Stop.TIME, "time limit of 1 s reached"),
                                  KeyboardInterrupt()])
def test_a_stop_outside_any_stage_still_prints_the_json_record(stop, unfillable,
                                                               monkeypatch) -> None:
    """A limit that fires in the command's own work (writing a certificate's formula, building
    an automaton) reached the command line with no record on stdout."""
    import xwsat.commands.prove as prove_command

    def stopped(*args: object, **kwargs: object) -> None:
        raise stop

    monkeypatch.setattr(prove_command, "fill_grid", stopped)
    grid, words = unfillable
    result = run("prove", grid, "--dict", words, "--json")
    assert result.exit_code == 3, result.output
    record = json.loads(result.stdout)
    assert record["status"] == "unknown"
    assert record["stop"] == ("timeout" if isinstance(stop, guard.LimitReached)
                              else "interrupted")
    plain = run("prove", grid, "--dict", words)  # without --json: the one line, as before
    assert plain.exit_code == 3 and plain.stdout == ""


def test_a_generator_stopped_early_says_undecided_in_its_record(tmp_path) -> None:
    """generate's records say "undecided" where the solvers' say "unknown"; the stand-in
    record of a limit that fires before the command's own used to say "unknown" (the command's
    name was read from where Click no longer keeps it)."""
    result = run("generate", "--size", "15x15", "-t", "0.01", "--backend", "native", "--json")
    assert result.exit_code == 3, result.output
    assert json.loads(result.stdout)["status"] == "undecided"


def test_a_stop_after_the_json_record_adds_no_second_record(write, tmp_path,
                                                          monkeypatch) -> None:
    """Ctrl-C while fill writes its --out file, after its record is on stdout: one record."""
    import xwsat.commands.fill as fill_command

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(fill_command, "write_answer", interrupted)
    grid, words = write("g.txt", "..\n..\n"), write("w.txt", "AB\nCD\nAC\nBD\n")
    result = run("fill", grid, "--dict", words, "--json", "-o", tmp_path / "out.txt")
    assert result.exit_code == 3, result.output
    assert json.loads(result.stdout)["status"] == "filled"  # one document: no stand-in after it


# --- slow: every long command, every signal ----------------------------------------------------

def _long_commands(tmp: Path, certificate: Path) -> dict[str, list[str]]:
    hard, big, unf = str(HARD), str(BIG), str(UNFILLABLE_HARD)
    words = tmp / "ff300.txt"
    if not words.exists():
        import random

        rng = random.Random(1)
        pool = [w for w in (ROOT / "grids/dictionaries/wamerican.txt").read_text().split()
                if w.isalpha() and 4 <= len(w) <= 10]
        words.write_text("".join(f"{w};50;clue for {w}\n" for w in rng.sample(pool, 300)))
    cases = {f"{cmd} -b {b}": [cmd, hard, "--dict", big, "-b", b]
             for cmd in ("fill", "prove") for b in ("sat", "cpsat", "mac", "native", "auto")}
    cases.update({
        "fill --optimize": ["fill", str(ROOT / "grids/small/amer15.txt"), "--dict", big,
                            "--optimize"],
        "prove --certificate": ["prove", hard, "--dict", big, "--certificate",
                                str(tmp / "cert-{t}")],
        "prove -b mac --certificate (unfillable)": ["prove", unf, "--dict", big, "-b", "mac",
                                                    "--certificate", str(tmp / "cert-u-{t}")],
        "prove -b mac --explain (unfillable)": ["prove", unf, "--dict", big, "-b", "mac",
                                                "--explain"],
        "prove --cross-check": ["prove", unf, "--dict", big, "-b", "mac", "--cross-check"],
        "count": ["count", hard, "--dict", big],
        "plan": ["plan", hard, "--dict", big],
        "info": ["info", hard, "--dict", big],
        "encode": ["encode", hard, "--dict", big, "-o", str(tmp / "f-{t}.cnf")],
        "check-proof": ["check-proof", str(certificate)],
        "generate -b native": ["generate", "--size", "15x15", "--dict", big, "-b", "native"],
        "generate (pattern first)": ["generate", "--size", "15x15", "--dict", big, "--min-score",
                                     "40"],
        "generate -b sat": ["generate", "--size", "15x15", "--dict", big, "-b", "sat"],
        "generate -b cpsat": ["generate", "--size", "15x15", "--dict", big, "-b", "cpsat"],
        "freeform": ["freeform", str(words)],
        "freeform --method greedy": ["freeform", str(words), "--method", "greedy",
                                     "--boards", "1000000"],
    })
    return cases


@pytest.fixture(scope="module")
def big_certificate(tmp_path_factory) -> Path:
    """A certificate whose formula takes long to rebuild: the hard grid made unfillable by a
    given letter (the proof is short, the 3-million-clause formula is not)."""
    tmp = tmp_path_factory.mktemp("bigcert")
    rows = HARD.read_text().split()
    rows[2] = "QQQ" + rows[2][3:]  # 15 letters across row 3: no word starts QQQ
    grid = tmp / "g.txt"
    grid.write_text("\n".join(rows) + "\n")
    folder = tmp / "cert"
    proc, _ = timed(["prove", str(grid), "--dict", str(BIG), "--certificate", str(folder),
                     "-t", "600"], timeout=700)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    return folder


COMMANDS = ["fill -b sat", "fill -b cpsat", "fill -b mac", "fill -b native", "fill -b auto",
            "prove -b sat", "prove -b cpsat", "prove -b mac", "prove -b native", "prove -b auto",
            "fill --optimize", "prove --certificate", "prove -b mac --certificate (unfillable)",
            "prove -b mac --explain (unfillable)", "prove --cross-check", "count", "plan", "info",
            "encode", "check-proof", "generate -b native", "generate (pattern first)",
            "generate -b sat",
            "generate -b cpsat", "freeform", "freeform --method greedy"]


@pytest.mark.slow
@pytest.mark.parametrize("limit", [2.0, 5.0])
@pytest.mark.parametrize("name", COMMANDS)
def test_every_long_command_returns_within_its_limit(name, limit, tmp_path_factory,
                                                      big_certificate) -> None:
    tmp = tmp_path_factory.getbasetemp() / "limits"
    tmp.mkdir(exist_ok=True)
    argv = [a.replace("{t}", f"{limit:g}") for a in _long_commands(tmp, big_certificate)[name]]
    proc, seconds = timed([*argv, "-t", f"{limit:g}"])
    over = seconds - limit
    tallies.put("limits", f"{name} -t {limit:g}", {"seconds": round(seconds, 2),
                                                   "over": round(over, 2),
                                                   "exit": proc.returncode})
    assert proc.returncode in (0, 1, 3), proc.stderr[-500:]
    assert "Traceback" not in proc.stderr
    assert over < OVERRUN_S, (name, seconds)
    if "check-proof" in name:
        assert proc.returncode == 3  # out of time is undecided, never "not verified"
    for folder in tmp.glob("cert*"):
        assert not list(folder.glob(".staging-*"))


def _start_bench(out: Path) -> tuple[subprocess.Popen, list[int]]:
    proc = subprocess.Popen([XWSAT, "bench", str(ROOT / "grids/hard"), "--dict", str(BIG),
                             "-b", "auto", "-t", "60", "--out", str(out), "--no-report"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    children: list[int] = []
    deadline = time.monotonic() + 60
    while len(children) < 3 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
        children = descendants(proc.pid)  # the run's process and its solvers
    assert children, "bench started no run"
    return proc, children


@pytest.mark.slow
@pytest.mark.parametrize("target", ["prove", "bench"])
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP", "SIGINT", "SIGKILL"])
def test_a_signal_leaves_no_process_behind(target, name, tmp_path) -> None:
    number = getattr(signal, name)
    proc, children = (_start_prove() if target == "prove" else
                      _start_bench(tmp_path / "bench"))
    time.sleep(1.0)
    children = sorted(set(children) | set(descendants(proc.pid)))
    proc.send_signal(number)
    out, err = proc.communicate(timeout=60)
    left = gone_within(children, 10)
    tallies.put("signals", f"{target} {name}", {"children": len(children), "left": len(left),
                                                "exit": proc.returncode})
    assert left == []
    if number == signal.SIGKILL:
        assert proc.returncode == -signal.SIGKILL
    else:
        assert proc.returncode == 3, err
        assert "interrupted" in out + err and "Traceback" not in err


@pytest.mark.slow
@pytest.mark.parametrize("stage,delay", [("explain", 8.0), ("certificate encoding", 4.0),
                                         ("certificate check", 11.0)])  # its check: 5-18 s
def test_ctrl_c_in_a_later_stage_is_3_and_leaves_no_staging(stage, delay, tmp_path) -> None:
    folder = tmp_path / "cert"
    extra = ["--explain"] if stage == "explain" else ["--certificate", str(folder)]
    proc = subprocess.Popen([XWSAT, "prove", str(UNFILLABLE_HARD), "--dict", str(BIG), "-b",
                             "mac", "-t", "300", *extra], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    time.sleep(delay)
    children = descendants(proc.pid)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    left = gone_within(children, 10)
    staging = list(tmp_path.glob("**/.staging-*"))
    tallies.put("signals", f"prove Ctrl-C during {stage}", {
        "children": len(children), "left": len(left), "exit": proc.returncode,
        "staging_left": len(staging)})
    assert proc.returncode == 3, out + err
    assert "interrupted" in out + err and "Traceback" not in err
    assert left == [] and staging == []


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("time") is None and not Path("/usr/bin/time").exists(),
                    reason="needs /usr/bin/time")
@pytest.mark.parametrize("side", [200, 50])
def test_the_largest_grids_stay_within_a_gigabyte(side, tmp_path) -> None:
    """200x200 is refused at once; 50x50 (the largest taken) of 4-letter squares, the worst
    shape for memory, runs in well under a gigabyte per process."""
    rows = ["#" * side if r % 5 == 4 else ("....#" * side)[:side] for r in range(side)]
    grid = tmp_path / "g.txt"
    grid.write_text("\n".join(rows) + "\n")
    start = time.monotonic()
    proc = subprocess.run(["/usr/bin/time", "-v", XWSAT, "fill", str(grid), "-t", "20"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    seconds = time.monotonic() - start
    rss_kb = int(next(line.split(":")[1] for line in proc.stderr.splitlines()
                      if "Maximum resident set size" in line))
    tallies.put("large grids", f"{side}x{side}", {"exit": proc.returncode,
                                                  "max_rss_mb": rss_kb // 1024,
                                                  "seconds": round(seconds, 1)})
    assert rss_kb < 1024 * 1024
    if side > 50:
        assert proc.returncode == 2 and seconds < 5
    else:
        assert proc.returncode in (0, 1, 3)


def _counts_then_hangs(n: int) -> int:
    guard.report_partial(n - 1)
    guard.report_partial(n)
    time.sleep(60)
    return -1


def test_a_stopped_child_keeps_the_best_it_sent() -> None:
    # count printed "at least 0" after Ctrl-C whatever it had counted
    finished = guard.run_function(_counts_then_hangs, (7,), 0.5, "counting")
    assert finished.stop is Stop.TIME and finished.partial == 7


def test_an_interrupted_child_keeps_the_best_it_sent() -> None:
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        finished = guard.run_function(_counts_then_hangs, (9,), 30.0, "counting")
    finally:
        timer.cancel()
    assert finished.stop is Stop.INTERRUPTED and finished.partial == 9
