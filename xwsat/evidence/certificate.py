"""Checked certificates of unfillability: DIMACS + DRAT proof + manifest, verified by a checker.

The CNF is the complete `sat` encoding (encodings/cnf.md) of the *unpruned* problem with the
no-repeat clauses added eagerly: arc consistency is not trusted, the proof covers it. A proof
producer (``xwsat.evidence.producers``: the compiled MAC search, the Python MAC search or a
proof-logging CDCL solver) refutes it in a child process under the time limit; a DRUP checker
that shares no code with any producer (xwsat's trail checker, ``rup_check``, or dratify) replays
the proof from the files as written, in another child. The folder also keeps the grid and the
normalised word list, so ``check-proof`` can rebuild the formula and bind the proof to its
question (``xwsat.evidence.recheck``).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable, Iterable, Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

from xwsat import __version__ as xwsat_version
from xwsat.backends.base import fill_from_choice
from xwsat.encode.cnf import CNF, dimacs_text
from xwsat.encode.legend import variable_map
from xwsat.encode.solver_files import CNF_ENCODING, cnf_comments, complete_cnf
from xwsat.errors import XwsatError
from xwsat.evidence.count_certificate import (
    COUNT_FILE,
    COUNT_FORMAT,
    GIVEN,
    CountRefutation,
    count_check,
    count_refutation,
    count_text,
    fitting_words,
    patterns_of,
    slots_of,
)
from xwsat.evidence.drat_check import check_in_parts, checker_engine, checker_label, parts_for
from xwsat.evidence.producers import ProofProducer, ProofRun, producer
from xwsat.evidence.slot_core import refute_in_turn, restricted, shrink_with_seed
from xwsat.exit_codes import ExitCode
from xwsat.guard import Finished, Tick, interruption, memory_watched, run_all, run_function
from xwsat.outcome import Evidence, Outcome, Status, Stop, stopped
from xwsat.outputs import move_new, write_file
from xwsat.problem import Built, FillProblem, fill_letters
from xwsat.verify import check_fill

if TYPE_CHECKING:
    from collections.abc import Sequence

    from xwsat.evidence.explain import Explanation

FORMAT = "xwsat-certificate/1"
COUNT = "count"  # the proof "method" of a certificate of the no-repeat count
CORE_SHARE = 0.25  # of the time limit, at most, for finding the slots the refutation needs
SEED_SLACK_S = 5.0  # the shrink's seeds: once one answered in t s, the others get max(this, t)
WRAP_UP_MIN_S = 0.3  # kept back from the check, at least, for the files written after it
# more (21-10 x lex: a seed refutes the grid in tens of seconds, another not in 750 s). Which
# seeds answer in time depends on the clock only past this floor: on the hard 15x15 grids every
# seed answers within it, so the slots kept and the proof stay the same run to run.
COMPRESS_BYTES = 8 << 20  # files above this are written gzip-compressed
GRID_FILE = "grid.txt"  # the grid the formula encodes (normalised), for check-proof
WORDS_FILE = "words.txt.gz"  # the normalised word list the formula was built from


@dataclass
class CertificateRun:
    """The outcome (UNFILLABLE: proof written, ``checked`` says whether the checker accepted it;
    FILLED: a verified fill in ``fill``), the folder and its manifest."""

    outcome: Outcome
    directory: Path
    manifest: dict = field(default_factory=dict)
    checked: bool | None = None

    @property
    def exit_code(self) -> ExitCode:
        """As any verdict, except that an unchecked proof is no verdict (undecided) and a
        rejected one an error."""
        if self.outcome.status is Status.UNFILLABLE and self.checked is not True:
            return ExitCode.ERROR if self.checked is False else ExitCode.UNDECIDED
        return self.outcome.status.exit_code


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def dictionary_facts(built: Built) -> dict:
    """The dictionary's identity: the normalised word list's hash (what the CNF was built from)
    and, for a file, the file's own hash."""
    words = built.words
    facts = {"source": words.source, "words": len(words),
             "normalised_sha256": sha256_bytes("\n".join(words.words).encode("utf-8")),
             "alphabet": words.alphabet.letters}
    if words.source and not words.source.startswith("embedded:") and Path(words.source).is_file():
        facts["file_sha256"] = sha256_file(Path(words.source))
    return facts


def _compressed_copy(path: Path) -> Path:
    """A gzip copy of ``path`` when it is large (the original is left for the caller to
    remove: a check may still be reading it), else ``path`` itself."""
    if path.stat().st_size <= COMPRESS_BYTES:
        return path
    target = path.with_name(path.name + ".gz")
    with open(path, "rb") as src, gzip.open(target, "wb", compresslevel=6) as dst:
        shutil.copyfileobj(src, dst, 1 << 20)
    return target


def question_rules(*, min_length: int, min_score: int, allow_repeats: bool,
                   fold_yo: bool = False, alphabet_declared: str | None = None,
                   banned: Iterable[str] = (), locked: Mapping[str, str] | None = None,
                   placed_only: Iterable[str] = ()) -> dict:
    """The question a certificate answers, as its manifest records it (``rules``) for
    ``check-proof`` to rebuild the same formula from the user's own files: one builder for the
    command line and the workbench. ``locked``: slot name -> word, placed again by the check;
    ``placed_only``: those words the list lacks, offered to their own slot only."""
    banned = list(banned)
    return {"min_length": min_length, "min_score": min_score, "allow_repeats": allow_repeats,
            "fold_yo": fold_yo,
            "alphabet_declared": alphabet_declared,  # "alphabet" is the list's own, derived
            **({"banned": banned} if banned else {}),
            **({"locked": dict(locked), "placed_only": sorted(placed_only)} if locked else {})}


def certify(built: Built, directory: Path, grid_source: str, time_limit: float,
            proof: ProofProducer | CountRefutation | str = "auto", engine: str = "auto",
            rules: dict | None = None,
            on_tick: Tick | None = None, seed: int = 0, core: bool = True,
            slots: Sequence[str] | None = None) -> CertificateRun:
    """Write and check a certificate for ``built`` in ``directory`` (new or empty), all within
    ``time_limit`` seconds. ``proof`` is a producer, a ``--proof-method`` name, or the count
    that refutes the grid (``xwsat.evidence.count_certificate``: no proof file). With ``core``
    the formula keeps only the slots a refutation needs (``xwsat.evidence.slot_core``), when
    the compiled search finds fewer than all in a quarter of the time; ``slots`` (names)
    chooses them instead (an explanation's own certificate).

    Files appear only when the run ends with an answer: they are staged in a hidden folder and
    moved in at the end, the manifest last; an unanswered run leaves nothing behind.
    """
    directory = prepare_folder(directory)
    created = not directory.exists()
    stage = directory / f".staging-{os.getpid()}"
    try:
        directory.mkdir(exist_ok=True)
        stage.mkdir()
        if isinstance(proof, CountRefutation):
            run = _certify_count(built, directory, stage, grid_source, rules or {}, proof)
        else:
            if isinstance(proof, str):
                proof = producer(proof, n_slots=built.problem.n_slots)
            run = _certify(built, directory, stage, grid_source, time_limit, proof, engine,
                           rules or {}, on_tick, seed, core, slots)
    except OSError as exc:  # a full disk, a folder that turned read-only: bad ground, not a bug
        _discard(directory, stage, created)
        raise XwsatError(f"{directory}: cannot write the certificate ({exc.strerror or exc})"
                         ) from None
    except BaseException:
        _discard(directory, stage, created)
        raise
    if not (directory / "manifest.json").exists():
        _discard(directory, stage, created)
    else:
        shutil.rmtree(stage, ignore_errors=True)
    return run


def choose_proof(built: Built, backend: str, method: str = "auto", solver: str = "cadical195",
                 checker: str = "auto", core: bool = True) -> ProofProducer | CountRefutation:
    """The proof a certificate of ``built`` uses: ``backend``'s own kind of proof, or the count
    that refutes the grid (no proof file; a DRAT one grows as N!) unless a proof method, a
    checker or the whole formula (``core`` False) was asked for."""
    from xwsat.backends.registry import is_auto
    from xwsat.evidence.producers import producer_for_backend

    proof = producer_for_backend(backend, method, solver, built.problem.n_slots)
    if (method, checker) == ("auto", "auto") and core and is_auto(backend):
        counted = count_refutation(built.problem)
        if counted is not None:
            return counted
    return proof


def prepare_folder(directory: Path) -> Path:
    """Check, before any work, that ``directory`` can take a certificate: its parent exists and
    it is new or empty. A folder holding anything is refused: xwsat never deletes or replaces
    files it did not write in this run."""
    if str(directory) == "-":  # as every output: "-" is standard output, which holds no folder
        raise XwsatError("-: a certificate is a folder of files; give the folder's name")
    if not directory.parent.is_dir():
        raise XwsatError(f"{directory}: directory {directory.parent} does not exist")
    if directory.exists() and not directory.is_dir():
        raise XwsatError(f"{directory}: exists and is not a directory")
    if directory.is_dir():
        _drop_dead_stages(directory)
        held = sorted(entry.name for entry in directory.iterdir())
        if held:
            hidden = [name for name in held if name.startswith(".")]
            said = f" (it holds {', '.join(hidden[:3])})" if hidden else ""
            raise XwsatError(f"{directory}: the folder is not empty{said}; give a new or empty "
                             "folder for the certificate")
    if not os.access(directory if directory.is_dir() else directory.parent, os.W_OK):
        raise XwsatError(f"{directory}: cannot write there (permission denied)")
    return directory


def _drop_dead_stages(directory: Path) -> None:
    """Remove the staging folders (``.staging-PID``) of xwsat runs that died without cleaning
    up (SIGKILL): xwsat's own, and their process is gone. A live one is left alone."""
    for entry in directory.glob(".staging-*"):
        pid = entry.name.removeprefix(".staging-")
        if not pid.isdigit() or not entry.is_dir() or entry.is_symlink():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(entry, ignore_errors=True)
        except OSError:
            pass  # alive (someone else's): left alone


def _discard(directory: Path, stage: Path, created: bool) -> None:
    """Remove what this run made (the staging folder, and the folder if it made it)."""
    shutil.rmtree(stage, ignore_errors=True)
    if created:
        with suppress(OSError):
            directory.rmdir()  # only if empty: never anything else


def certificate_problem(built: Built, slots: Sequence[str] | None = None) -> FillProblem:
    """What a certificate refutes: the unpruned problem, or the constraints of the named slots
    only (a relaxation, ``xwsat.evidence.slot_core``). The producer and ``check-proof`` both call
    this, so a re-check rebuilds the same formula from the grid and words."""
    if slots is None:
        return built.problem
    index = {name: s for s, name in enumerate(built.problem.slot_names)}
    unknown = [name for name in slots if name not in index]
    if unknown or len(set(slots)) != len(slots):
        raise XwsatError(f"the certificate names slots the grid does not have (or twice): "
                         f"{', '.join(map(str, unknown[:5])) or 'a repeated slot'}")
    return restricted(built.problem, sorted(index[name] for name in slots))


def certificate_cnf(problem: FillProblem) -> CNF:
    """The formula of a certificate: the complete encoding (``xwsat-cnf/1``) of its problem."""
    return complete_cnf(problem)


def words_text(built: Built) -> str:
    """The normalised word list the formula was built from, one word per line (its order)."""
    return "\n".join(built.words.words) + "\n"


def _certify(built: Built, directory: Path, stage: Path, grid_source: str, time_limit: float,
             proof: ProofProducer, engine: str, rules: dict, on_tick: Tick | None,
             seed: int, core: bool, chosen: Sequence[str] | None = None) -> CertificateRun:
    method = f"certificate:{proof.name}"
    refuted: list[bool] = []  # the search behind the formula's slots refuted the grid already

    def cut_short(stop: Stop, message: str, manifest: dict) -> CertificateRun:
        """Stopped before a proof: the grid's refutation, when one was found, still stands
        (with no certificate), as it does when the files are cut short."""
        if not refuted:
            return CertificateRun(stopped(method, stop, message), directory, manifest)
        said = message if " while " in message else f"{message} while the certificate was made"
        return CertificateRun(Outcome(Status.UNFILLABLE, method, evidence=Evidence(
            "mac", message), message=said, stop=stop), directory, {})

    try:
        return _certify_steps(built, directory, stage, grid_source, time_limit, proof, engine,
                              rules, on_tick, seed, core, chosen, cut_short, refuted)
    except KeyboardInterrupt as exc:  # the limit, or Ctrl-C, while the formula was encoded
        if not refuted:
            raise
        stop, message = interruption(exc)
        return cut_short(stop, f"{message} while the certificate was made", {})


def _certify_steps(built: Built, directory: Path, stage: Path, grid_source: str,
                   time_limit: float, proof: ProofProducer, engine: str, rules: dict,
                   on_tick: Tick | None, seed: int, core: bool, chosen: Sequence[str] | None,
                   cut_short: Callable[[Stop, str, dict], CertificateRun],
                   refuted: list[bool]) -> CertificateRun:
    """The formula's slots, the formula, the proof, its check; ``refuted`` learns when the
    grid is known unfillable, for ``cut_short`` to say so if the run stops before the end."""
    started = time.perf_counter()
    deadline = started + time_limit
    method = f"certificate:{proof.name}"
    slots, proof_seed = (list(chosen) if chosen is not None else None), seed
    if core and chosen is None:
        slots, proof_seed, stop, found = _needed_slots(built, time_limit * CORE_SHARE, seed,
                                                       on_tick, deadline)
        refuted.extend([True] if found else [])
        if stop is not None:
            return cut_short(stop.stop or Stop.INTERRUPTED, stop.message, {})
    cored = time.perf_counter()
    problem = certificate_problem(built, slots)
    cnf = certificate_cnf(problem)
    cnf_path = stage / "formula.cnf"
    cnf_path.write_bytes(dimacs_text(cnf, cnf_comments(built, problem, cnf, grid_source)))
    map_path, grid_path, words_path = (stage / "variables.txt", stage / GRID_FILE,
                                       stage / WORDS_FILE)
    packed: dict[Path, Path] = {}

    def write_the_rest() -> None:
        """The files the check does not read, written while it runs (one core is idle)."""
        map_path.write_text(variable_map(built, problem, cnf), encoding="utf-8")
        grid_path.write_text(built.grid.to_text(), encoding="utf-8")
        words_path.write_bytes(gzip.compress(words_text(built).encode("utf-8"), mtime=0))
        for path in (cnf_path, map_path):
            packed[path] = _compressed_copy(path)

    encoded = time.perf_counter()
    manifest = _manifest_head(built, grid_source, cnf, proof, rules)
    if slots is not None:
        manifest["formula"] = {"slots": list(slots), "of": built.problem.n_slots,
                               "meaning": "the constraints of these slots only: a relaxation "
                               "of the grid (any fill of the grid satisfies them), so their "
                               "refutation proves the grid unfillable"}
    times = {"core_s": cored - started, "encode_write_s": encoded - cored}
    left = deadline - encoded
    if left <= 0:
        return cut_short(Stop.TIME, "time limit reached while encoding", manifest)
    proof_path = stage / "proof.drat"
    solved = run_function(proof.prove, (problem, cnf, str(proof_path), left, proof_seed), left,
                          f"{proof.name} writing a proof", on_tick)
    times["solve_wall_s"] = solved.seconds
    if solved.os_error:  # the producer could not write its proof (a full disk)
        raise OSError(solved.message)
    if not solved.ok:
        return cut_short(solved.stop or Stop.FAILED, solved.message, manifest)
    run: ProofRun = solved.value
    times.update(run.times)
    if run.status is Status.UNKNOWN:
        return cut_short(Stop.TIME, "time limit reached", manifest)
    if run.status is Status.FILLED and slots is not None:  # shrink keeps refuted slots only
        return CertificateRun(stopped(method, Stop.FAILED, "the slots kept for the formula have "
                                      "a fill; certify with --whole-formula"), directory, manifest)
    if run.status is Status.FILLED:
        assert run.choice is not None
        return _fillable(built, method, run.choice, directory, stage, manifest, times)
    try:
        return _check_and_publish(built, directory, stage, time_limit, deadline, started, proof,
                                  engine, on_tick, run, proof_seed, cnf_path, proof_path,
                                  write_the_rest, packed, manifest, times)
    except KeyboardInterrupt as exc:  # the limit, or Ctrl-C twice, while the files were
        stop, message = interruption(exc)  # written: the search's refutation stands, with
        return CertificateRun(Outcome(  # no certificate
            Status.UNFILLABLE, method, evidence=Evidence(proof.name, message),
            message=f"{message} while the certificate was written", stop=stop), directory, {})


def _check_and_publish(built: Built, directory: Path, stage: Path, time_limit: float,
                       deadline: float, started: float, proof: ProofProducer, engine: str,
                       on_tick: Tick | None, run: ProofRun, proof_seed: int, cnf_path: Path,
                       proof_path: Path,
                       write_the_rest: Callable[[], None], packed: dict[Path, Path],
                       manifest: dict, times: dict) -> CertificateRun:
    """Check the refutation's proof, then move the certificate's files in, manifest last."""
    method = f"certificate:{proof.name}"
    map_path, grid_path, words_path = (stage / "variables.txt", stage / GRID_FILE,
                                       stage / WORDS_FILE)
    # the files still to write and pack after the check take about as long as the formula's
    # own encoding and writing did: that much is kept back, so a check the limit cuts short
    # still leaves the written proof, marked not checked, rather than nothing
    wrap_up = min(max(WRAP_UP_MIN_S, times["encode_write_s"]), time_limit / 3)
    left = deadline - time.perf_counter() - wrap_up
    checked = (check_in_parts(cnf_path, proof_path, engine, parts_for(run.lines),
                              left, on_tick, meanwhile=write_the_rest) if left > 0 else
               Finished(stop=Stop.TIME, message="time limit reached"))
    times["check_wall_s"] = checked.seconds
    if len(packed) < 2:  # no time was left to check, or the check was stopped first
        write_the_rest()
    proof_bytes = proof_path.stat().st_size
    packed[proof_path] = _compressed_copy(proof_path)
    files = []
    for path in (cnf_path, proof_path, map_path):
        if packed[path] != path:
            path.unlink()
        files.append(packed[path])
    files += [grid_path, words_path]
    manifest["result"] = "unfillable"
    manifest["proof"] = {"format": "DRUP (text DRAT, lemmas and deletions)"
                         if proof.name != "cdcl" else "DRAT (text)", "method": proof.name,
                         "lines": run.lines, "bytes_uncompressed": proof_bytes,
                         "seed": proof_seed,
                         "solver_stats": run.stats}
    if checked.ok:
        trail = checked.value.get("engine") == "trail"
        manifest["check"] = {"checker": "dratify", "version": xwsat_version if trail else
                             metadata.version("dratify"), **checked.value}
        ok: bool | None = checked.value["ok"] and checked.value["reached_empty"]
    else:
        used = checker_engine(engine)
        manifest["check"] = {"checker": "xwsat trail checker" if used == "trail" else
                             "dratify", "engine": used, "status": checked.stop.value
                             if checked.stop else "error", "message": checked.message}
        ok = None
    manifest["verified"] = ok is True
    times["total_s"] = time.perf_counter() - started
    manifest["times"] = times
    manifest["recheck"] = _recheck_text(files[0].name, files[1].name)
    _publish(directory, stage, files, manifest)
    check = manifest["check"]
    who = checker_label(check)
    detail = (f"certificate checked by {who}" if ok else
              check.get("reason") or check.get("message") or f"{who} rejected the proof")
    outcome = Outcome(Status.UNFILLABLE, method, evidence=Evidence(
        f"{proof.name} proof, checked by {who}" if ok else f"{proof.name} proof", detail,
        files=tuple(str(directory / p.name) for p in files)),
        message="" if ok else detail)
    return CertificateRun(outcome, directory, manifest, checked=ok)


class _Stopped(Exception):
    """The shrink's search was stopped from outside: no later stage may start."""


def _needed_slots(built: Built, budget: float, seed: int, on_tick: Tick | None,
                  deadline: float) -> tuple[list[str] | None, int, Finished | None, bool]:
    """The names of the slots whose constraints alone the compiled search refutes
    (``slot_core.shrink_with_seed``, its seeds' searches in children at once, within
    ``budget``), or None to keep the whole grid (no compiled search, no smaller set found in
    time); the seed whose search refutes them in the fewest failures; how the run was
    stopped, if it was (Ctrl-C, the command's own limit); and whether a search refuted the
    grid on the way (the slots of any refuted set are a relaxation of the grid)."""
    from xwsat.backends.mac import MacBackend
    from xwsat.no_repeat import hall_set

    problem = built.problem
    counted = hall_set(problem)
    if counted is not None:  # these slots alone need more words than they have: no search
        return [problem.slot_names[s] for s in counted.slots], seed, None, True
    if not MacBackend.available() or problem.n_slots < 2 or budget <= 0:
        return None, seed, None, False
    stopped_by: list[Finished] = []
    refuted: list[bool] = []

    def refute_at_once(sub: FillProblem, seeds: Sequence[int],
                       until: float) -> list[tuple[list[int], int] | None]:
        # one child per seed; one for all under a memory limit (each holds its own model)
        groups = [list(seeds)] if memory_watched() else [[one] for one in seeds]
        runs = run_all([(refute_in_turn, (sub, group, until)) for group in groups],
                       until - time.monotonic(), "finding the slots a refutation needs",
                       on_tick, after_first=lambda first: max(SEED_SLACK_S, first))
        ended = [run for run in runs if run.stop in (Stop.INTERRUPTED, Stop.MEMORY, Stop.KILLED)]
        if ended:
            stopped_by.append(ended[0])
            raise _Stopped
        found = [got for run, group in zip(runs, groups)
                 for got in (run.value if run.ok else [None] * len(group))]
        if any(got is not None for got in found):
            refuted.append(True)
        return found

    try:
        slots, chosen = shrink_with_seed(problem, budget, seed, refute=refute_at_once)
    except _Stopped:  # Ctrl-C, a signal, the command's memory limit: no later stage
        return None, seed, stopped_by[0], bool(refuted)
    if time.perf_counter() >= deadline:  # the command's own time limit
        return None, seed, Finished(stop=Stop.TIME, message="time limit reached"), bool(refuted)
    if len(slots) == problem.n_slots:
        return None, chosen, None, bool(refuted)
    return [problem.slot_names[s] for s in slots], chosen, None, bool(refuted)


def _fillable(built: Built, method: str, choice: list[int], directory: Path, stage: Path,
              manifest: dict, times: dict) -> CertificateRun:
    """The producer found a fill: verify it independently, and keep it."""
    problem = built.problem
    fill = fill_from_choice(problem, choice)
    filled = built.grid.with_letters(fill_letters(built, fill))
    problems = check_fill(built.grid.rows, filled.rows, frozenset(built.words.words),
                          problem.allow_repeats, manifest["rules"].get("min_length", 2))
    if problems:
        return CertificateRun(stopped(method, Stop.FAILED, "fill failed verification: "
                                      + "; ".join(problems[:3])), directory, manifest)
    fill_path = stage / "fill.txt"
    fill_path.write_text(filled.to_text(), encoding="utf-8")
    manifest.update({"result": "fillable", "verified": True, "times": times,
                     "check": {"checker": "xwsat.verify.check_fill (independent fill checker)"}})
    _publish(directory, stage, [fill_path], manifest)
    return CertificateRun(Outcome(Status.FILLED, method, fill), directory, manifest,
                          checked=True)


def _certify_count(built: Built, directory: Path, stage: Path, grid_source: str,
                   rules: dict, refutation: CountRefutation) -> CertificateRun:
    """The slots the no-repeat count refutes, named in the manifest and listed in
    ``count.txt``, counted again by the certificate's own check before anything is published."""
    started = time.perf_counter()
    method = f"certificate:{COUNT}"
    found, after = refutation.hall, refutation.after
    names = [built.problem.slot_names[s] for s in found.slots]
    repeats = built.problem.allow_repeats
    fits = fitting_words(built.grid, slots_of(built), built.words.words, after, repeats,
                         placed_only=built.words.placed_only)
    ok, said = count_check(fits, repeats, names)
    if not ok:  # the plain check is weaker than xwsat's count here: publish nothing false
        return CertificateRun(stopped(method, Stop.FAILED, f"the count, redone by the "
                                      f"certificate's check, does not hold: {said}"),
                              directory, {})
    files = [stage / COUNT_FILE, stage / GRID_FILE, stage / WORDS_FILE]
    files[0].write_bytes(count_text(names, fits, patterns_of(built), after).encode())
    files[1].write_text(built.grid.to_text(), encoding="utf-8")
    files[2].write_bytes(gzip.compress(words_text(built).encode("utf-8"), mtime=0))
    manifest = {
        **_question_head(built, grid_source, rules),
        "result": "unfillable",
        "proof": {"format": COUNT_FORMAT, "after": after, "slots": names,
                  "meaning": "each of these slots must take a different word, and fewer words "
                  "of the list fit them (read from the grid's given letters"
                  + (")" if after == GIVEN else " and arc consistency over the whole grid)")
                  + " than there are slots"},
        "check": {"checker": "xwsat count check", "ok": True, "detail": said},
        "verified": True,
        "times": {"total_s": time.perf_counter() - started},
        "recheck": [f"read {COUNT_FILE}: count the different words against the slots"
                    + ("" if after == GIVEN else " (the lists come from arc consistency, "
                       "which only check-proof redoes)"),
                    "xwsat check-proof DIR --grid GRID --dict DICTIONARY   # counts again from "
                    "your grid and dictionary"],
    }
    _publish(directory, stage, files, manifest)
    outcome = Outcome(Status.UNFILLABLE, method, evidence=Evidence(
        "the no-repeat count, checked by counting again", said,
        files=tuple(str(directory / p.name) for p in files)))
    return CertificateRun(outcome, directory, manifest, checked=True)


def _question_head(built: Built, grid_source: str, rules: dict) -> dict:
    """The manifest's statement of the question: grid, dictionary and rules."""
    grid_text = built.grid.to_text()
    return {
        "format": FORMAT,
        "grid": {"source": grid_source, "rows": list(built.grid.rows),
                 "sha256": sha256_bytes(grid_text.encode("utf-8"))},
        "dictionary": dictionary_facts(built),
        "rules": {"min_length": 2, **rules, "allow_repeats": built.problem.allow_repeats,
                  "alphabet": built.words.alphabet.letters},
    }


def _manifest_head(built: Built, grid_source: str, cnf: CNF, proof: ProofProducer,
                   rules: dict) -> dict:
    return {
        **_question_head(built, grid_source, rules),
        "encoding": {"name": "xwsat-cnf", "version": 1, "spec": "encodings/cnf.md",
                     "description": CNF_ENCODING, "pruning": "none (unpruned problem)",
                     "variables": cnf.n_vars, "clauses": cnf.n_clauses,
                     "families": {n: {"clauses": c, "literals": lit}
                                  for n, c, lit in cnf.families}},
        "solver": proof.describe(),
    }


def _recheck_text(cnf_name: str, proof_name: str) -> list[str]:
    plain = [n[:-3] if n.endswith(".gz") else n for n in (cnf_name, proof_name)]
    steps = [f"gunzip -k {n}" for n in (cnf_name, proof_name) if n.endswith(".gz")]
    steps.append(f"drat-trim {plain[0]} {plain[1]}   # any DRAT checker: drat-trim, dpr-trim, "
                 "or dratify's check_proof(..., check_rat=False) (its RAT check, on by "
                 "default, accepts forged proofs; xwsat's proofs have no RAT step)")
    steps.append("xwsat check-proof DIR --grid GRID --dict DICTIONARY   # rebuilds the formula "
                 "from your grid and dictionary, then checks the proof (--engine dratify: "
                 "another checker)")
    return steps


def add_files(directory: Path, names: list[str]) -> None:
    """Record files written into a certificate folder afterwards (the explanation) in its
    manifest, with their hashes, so that ``check-proof`` covers them too."""
    path = directory / "manifest.json"
    if not path.is_file():
        return
    manifest = json.loads(path.read_text(encoding="utf-8"))
    for name in names:
        target = directory / name
        manifest.setdefault("files", {})[name] = {"bytes": target.stat().st_size,
                                                  "sha256": sha256_file(target)}
    write_file(path, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", replace=True)


def add_explanation(directory: Path, built: Built, core: Explanation, title: str) -> str:
    """Keep an explanation in a written certificate's folder (``explanation.txt`` and
    ``.svg``, recorded in its manifest); returns the picture. A folder without a manifest (no
    certificate was written) gets nothing."""
    from xwsat.evidence import evidence_text
    from xwsat.evidence.core_svg import core_svg

    picture = core_svg(built, core, title)
    if (directory / "manifest.json").is_file():
        write_file(directory / "explanation.svg", picture)
        write_file(directory / "explanation.txt",
                   "\n".join(evidence_text.explanation_lines(built, core)) + "\n")
        add_files(directory, ["explanation.txt", "explanation.svg"])
    return picture


def _publish(directory: Path, stage: Path, files: list[Path], manifest: dict) -> None:
    """Move the staged files in, then write the manifest (with their hashes) last. Each is
    moved without replacing anything: a file that appeared in the folder during the run stops
    the publication, and what this run had moved in is taken out again."""
    manifest["files"] = {p.name: {"bytes": p.stat().st_size, "sha256": sha256_file(p)}
                         for p in files}
    tmp = stage / "manifest.json"
    tmp.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    moved: list[Path] = []
    for path in [*files, tmp]:
        try:
            move_new(path, directory / path.name)
        except FileExistsError:
            for done in moved:
                done.unlink(missing_ok=True)
            raise XwsatError(f"{directory / path.name}: appeared while the certificate was "
                             "made; nothing in the folder was replaced") from None
        except BaseException:  # a limit in the middle: no folder of files without a manifest
            for done in moved:
                done.unlink(missing_ok=True)
            raise
        moved.append(directory / path.name)
