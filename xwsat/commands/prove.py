"""``xwsat prove``: decide whether a grid can be filled at all, with evidence on request
(a checked certificate, a minimal explanation, a cross-check by a second method).

``--time-limit`` covers the whole command: the search (or the certificate run) first, then the
explanation and the cross-check with whatever time is left.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from xwsat import guard
from xwsat.commands import options
from xwsat.commands.common import (
    budget,
    check_certificate_folder,
    check_outputs,
    clear_status_line,
    compile_first,
    fill_options,
    limited,
    load_inputs,
    print_record,
    quiet_progress,
    status_line,
    unwritten,
    with_file_bans,
    with_file_locks,
    write_answer,
    write_atomic,
)
from xwsat.commands.options import (
    ForceOpt,
    GridArg,
    JsonOpt,
    LockOpt,
    QuietOpt,
    Rules,
    Search,
    Words,
    grouped,
)
from xwsat.errors import XwsatError
from xwsat.evidence import evidence_text as report
from xwsat.exit_codes import ExitCode
from xwsat.grid import Grid
from xwsat.lock import apply_locks, refuse_banned_entries
from xwsat.outcome import Status
from xwsat.pipeline import fill_grid
from xwsat.problem import Built, build_problem
from xwsat.verdict_text import as_json, describe
from xwsat.words import WordList

if TYPE_CHECKING:
    from xwsat.evidence.explain import Explanation

OutOpt = Annotated[Path | None, typer.Option(
    "--out", "-o", help="Write the fill here (plain text, .txt) when the grid is fillable.")]
CertOpt = Annotated[Path | None, typer.Option(
    "--certificate", help="Write a checked certificate (CNF, proof, manifest) to this new or "
    "empty folder; the proof comes from --backend's kind of search.")]
MethodOpt = Annotated[str, typer.Option(
    "--proof-method",
    help="auto, mac (compiled MAC search), search (Python MAC search) or cdcl (SAT solver).")]
ProofSolverOpt = Annotated[str, typer.Option(
    "--proof-solver", help="CDCL solver for --proof-method cdcl (cadical195, glucose4, ...).")]
CheckerOpt = Annotated[str, typer.Option(
    "--proof-checker", help="Who checks the certificate's proof: auto (xwsat's trail checker), "
    "trail, dratify (its native engine when installed), native or python (dratify's engines).")]
ExplainOpt = Annotated[bool, typer.Option(
    "--explain", help="Show a set of slots (and given letters) that cannot be filled together: "
    "the first at once, then smaller ones toward a minimal set while time remains.")]
ExplainSvgOpt = Annotated[Path | None, typer.Option(
    "--explain-svg", help="Draw the explanation on the grid as SVG (implies --explain).")]
WholeOpt = Annotated[bool, typer.Option(
    "--whole-formula", help="With --certificate: encode every slot, not only the slots the "
    "refutation needs (a smaller formula checks faster; either proves the grid unfillable).")]
CrossOpt = Annotated[bool, typer.Option(
    "--cross-check", help="Decide again with a second, independent method (exit 4 if it differs).")]


@grouped
def prove(
    grid: GridArg,
    words: Words,
    search: Search,
    rules: Rules,
    json_out: JsonOpt = False,
    out: OutOpt = None,
    certificate: CertOpt = None,
    proof_method: MethodOpt = "auto",
    proof_solver: ProofSolverOpt = "cadical195",
    proof_checker: CheckerOpt = "auto",
    explain: ExplainOpt = False,
    explain_svg: ExplainSvgOpt = None,
    cross_check: CrossOpt = False,
    whole_formula: WholeOpt = False,
    lock: LockOpt = None,
    max_shared_substring: options.SharedOpt = None,
    force: ForceOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Decide whether the grid can be filled at all: 0 fillable (--out writes the witness),
    1 unfillable, 3 undecided, 4 a failed check or a cross-check disagreement."""
    quiet_progress(quiet)
    options.check_max_shared(max_shared_substring)
    if max_shared_substring and (certificate or explain or explain_svg or cross_check):
        raise XwsatError("--max-shared-substring: certificates, explanations and cross-checks "
                         "cover the standard rules only; prove without them")
    if whole_formula and certificate is None:
        raise XwsatError("--whole-formula shapes a certificate: give --certificate DIR too")
    if certificate is None and (proof_method, proof_solver, proof_checker) != (
            "auto", "cadical195", "auto"):
        raise XwsatError("--proof-method, --proof-solver and --proof-checker shape a "
                         "certificate: give --certificate DIR too")
    if out is not None and out.suffix.lower() not in ("", ".txt"):
        raise XwsatError(f"{out}: prove writes the fill as plain text (.txt); for a puzzle "
                         "file (.puz .ipuz .json .html) use xwsat fill --out")
    check_outputs([out, explain_svg], [grid, *words.paths], force)
    if certificate is not None:
        from xwsat.evidence.drat_check import checker_engine

        checker_engine(proof_checker)  # an unknown checker is refused before any work
        check_certificate_folder(certificate, [out, explain_svg])
    compile_first([search.backend] + (["mac"] if certificate or cross_check or explain
                                      or explain_svg else []),
                  checker=proof_checker if certificate is not None else None)
    data: dict | None = None
    locks = list(lock or [])
    first: list[str] | None = None  # the slots the certificate's checked proof refutes
    not_written = None
    with limited(search.time_limit, search.memory_mb):
        words = with_file_bans(grid, words, rules.min_length, locks)
        with_file_locks(grid, locks, rules.min_length)
        if certificate is None:
            grid_value, word_list, _ = _inputs(grid, words, rules, locks)
            asked = replace(fill_options(search, rules, upper_first=False),
                            max_shared=max_shared_substring or 0)
            result = fill_grid(grid_value, word_list, asked, status_line)
            clear_status_line()
            if out is not None and result.filled is not None:
                not_written = write_answer(out, result.filled.to_text())
            built, outcome, code = result.built, result.outcome, result.outcome.status.exit_code
            if json_out:
                data = as_json(result)
                data["lists"] = list(words.dictionary)  # as given: with their score scales
                if not_written:
                    data["not_written"] = not_written
                elif out is not None and result.filled is not None:
                    data["wrote"] = str(out)
            else:
                typer.echo(describe(result, "prove"))
                if out is not None and result.filled is not None and not not_written:
                    typer.echo(f"wrote {out}")  # as fill says it
        else:
            built, outcome, code, data, first = _certificate(
                grid, words, rules, search, certificate, out, proof_method, proof_solver,
                proof_checker, json_out, not whole_formula, locks)
        status = outcome.status
        if (explain or explain_svg) and status is Status.UNFILLABLE:
            _explain(built, grid, certificate, explain_svg, rules, search, data, first)
        elif explain or explain_svg:
            why = ("the grid has a fill" if status is Status.FILLED else
                   "the grid was not decided, so there is no refutation to explain")
            _say(data, "explanation", None, [f"(nothing to explain: {why})"])
        if cross_check and status.definitive:
            from xwsat.evidence.crosscheck import cross_check as run_cross_check

            cc = run_cross_check(built, status, outcome.method,
                                 budget(search.time_limit).for_child(),
                                 rules.min_length, status_line)
            clear_status_line()
            _say(data, "cross_check", report.cross_check_json(cc),
                 report.cross_check_lines(cc, status.value))
            if cc.agree is False:
                code = ExitCode.ERROR
    if data is not None:
        if guard.user_stopped() and not data.get("stop"):  # a later stage (the certificate's
            data["stop"] = "interrupted"  # check, the explanation) was stopped: said on top
        print_record(data)
        if guard.user_stopped():
            typer.echo("xwsat: interrupted", err=True)
            raise typer.Exit(ExitCode.UNDECIDED)
    if not_written:
        raise unwritten(not_written)
    raise typer.Exit(code)


def _explain(built: Built, grid: Path, certificate: Path | None, svg: Path | None, rules: Rules,
             search: Search, data: dict | None, first: list[str] | None) -> None:
    """Cores as they come (``xwsat.evidence.cores``): the first printed at once, the smaller
    ones on the status line; the best, when time is up (or Ctrl-C), printed, drawn and kept
    with the certificate."""
    from xwsat.evidence.core_svg import core_svg
    from xwsat.evidence.cores import explain_anytime

    cores: list[Explanation] = []

    def shown(core: Explanation) -> None:
        cores.append(core)
        if len(cores) == 1 and not core.minimal and data is None:
            clear_status_line()
            typer.echo("\n".join(report.first_core_lines(built, core)))
        status_line(core.seconds, f"minimising the explanation ({core.size} constraints, "
                    f"{core.necessary} shown necessary)")

    index = {name: s for s, name in enumerate(built.problem.slot_names)}
    expl, stop = explain_anytime(built, budget(search.time_limit).for_child(), shown,
                                 first=[index[name] for name in first] if first else None,
                                 first_proof=report.CERTIFIED_CORE,
                                 min_length=rules.min_length, seed=search.seed)
    clear_status_line()
    if expl is None and stop is not None:
        if data is None:  # the verdict is printed already; the command line says it stopped
            raise stop
        guard.interruption(stop)  # --json: the record keeps its verdict and says it stopped
        _say(data, "explanation", None, ["(no explanation: stopped)"])
        return
    if expl is None:
        _say(data, "explanation", None, ["(no explanation: the time limit came first)"])
        return
    title = f"{grid.name}: {len(expl.slots)} slots cannot be filled together"
    if certificate is not None:
        from xwsat.evidence.certificate import add_explanation

        add_explanation(certificate, built, expl, title)
    if svg is not None:
        write_atomic(svg, core_svg(built, expl, title))
    _say(data, "explanation", report.explanation_json(built, expl, cores),
         report.explanation_lines(built, expl))
    if certificate is not None and stop is None and (certificate / "manifest.json").is_file():
        own, line = certify_explanation(built, grid, certificate, expl, search)
        if data is not None:
            data["explanation"]["certificate"] = own
        else:
            typer.echo(line)
    if stop is not None:  # Ctrl-C or the command's limit: said with the best core, then as ever
        if data is not None:
            data["stop"] = data.get("stop") or guard.interruption(stop)[0].value
            print_record(data)
        raise stop


EXPLANATION_FOLDER = "explanation"  # in a certificate's folder: the explanation's own


def certify_explanation(built: Built, grid: Path, certificate: Path, expl: Explanation,
                        search: Search, started: float | None = None) -> tuple[dict, str]:
    """The explanation's own certificate, in the certificate folder's ``explanation`` folder:
    a formula of its slots alone (with the grid's letters in them) and a checked proof, so a
    third party can check the small set, not only the grid. The rules are the grid
    certificate's (its manifest), so ``check-proof`` binds both to the same question. As data
    (folder, slots, checked) and as a line. ``started``: the command's start (``budget``)."""
    import json

    from xwsat.evidence.certificate import certify

    names = [built.slots[s].name for s in expl.slots]
    manifest = json.loads((certificate / "manifest.json").read_text(encoding="utf-8"))
    count = str((manifest.get("proof") or {}).get("format", "")).startswith("xwsat-count/")
    kept = ((manifest.get("proof") or {}).get("slots") if count else
            (manifest.get("formula") or {}).get("slots")) or list(built.problem.slot_names)
    if sorted(kept) == sorted(names):  # the grid's certificate is already about these slots
        checked = count or (manifest.get("check") or {}).get("ok") is True
        return ({"folder": str(certificate), "slots": names, "checked": checked},
                f"  its certificate: the one above, which is about "
                f"{'this slot' if len(names) == 1 else f'these {len(names)} slots'} "
                f"(xwsat check-proof {certificate})")
    folder = certificate / EXPLANATION_FOLDER
    said = {"folder": str(folder), "slots": names, "checked": False}
    left = budget(search.time_limit, started).for_child() or 0.0  # (--time-limit is set)
    if left <= 0:
        return said | {"folder": None}, "  its own certificate: none (no time left)"
    run = certify(built, folder, str(grid), left, "auto",
                  rules=manifest.get("rules") or {}, seed=search.seed, core=False, slots=names)
    clear_status_line()
    if not run.checked:
        why = run.outcome.message or "its proof was not checked"
        return (said | {"folder": None, "reason": why},
                f"  its own certificate: none ({why})")
    these = "this slot" if len(names) == 1 else f"these {len(names)} slots"
    return (said | {"checked": True},
            f"  its own certificate ({these}, with the grid's letters in them; checked): "
            f"{folder}  (xwsat check-proof {folder})")


def _say(data: dict | None, key: str, value: object, lines: list[str]) -> None:
    """Into the JSON record when one is being built, else printed."""
    if data is not None:
        data[key] = value
    else:
        typer.echo("\n".join(lines))


def _certificate(grid: Path, words: Words, rules: Rules, search: Search, directory: Path,
                 out: Path | None, method: str, solver: str, checker: str, json_out: bool,
                 core: bool, locks: list[str]):
    """The certificate run decides the grid, with --backend's kind of proof: returns the
    problem, the outcome, the exit code, the JSON record (when asked for) and the slots the
    checked proof refutes when they are fewer than the grid's (a first explanation)."""
    from xwsat.evidence.certificate import certify, choose_proof, prepare_folder

    prepare_folder(directory)
    grid_value, word_list, placed = _inputs(grid, words, rules, locks)
    built = build_problem(grid_value, word_list, rules.min_length, rules.allow_repeats)
    # built first in any case: it checks the proof options
    proof = choose_proof(built, search.backend, method, solver, checker, core)
    # the locks are part of the question: check-proof places them again (``xwsat.lock``)
    facts = certificate_facts(words, rules, locked=placed, placed_only=word_list.placed_only)
    run = certify(built, directory, str(grid), budget(search.time_limit).for_child(), proof,
                  engine=checker, rules=facts, on_tick=status_line, seed=search.seed, core=core)
    clear_status_line()
    filled = run.outcome.status is Status.FILLED
    if filled and out is not None:
        write_atomic(out, (directory / "fill.txt").read_text(encoding="utf-8"))
    lines = report.certificate_lines(run)
    if filled:
        lines += ["", *(" ".join(row) for row in (directory / "fill.txt").read_text(
            encoding="utf-8").split())]
    data = None
    if json_out:
        data = {"status": run.outcome.status.value,
                **({"stop": run.outcome.stop.value} if run.outcome.stop is not None else {}),
                "lists": list(words.dictionary),
                # null when the run was stopped before the folder was written
                "certificate": {"directory": str(directory) if (
                    directory / "manifest.json").is_file() else None, "checked": run.checked,
                                "message": run.outcome.message, "manifest": run.manifest}}
    else:
        typer.echo("\n".join(lines))
    formula = run.manifest.get("formula")
    first = formula["slots"] if run.checked and formula else None
    return built, run.outcome, run.exit_code, data, first


def _inputs(grid: Path, words: Words, rules: Rules,
            locks: list[str]) -> tuple[Grid, WordList, dict[str, str]]:
    """The grid and word list with the locked entries placed (``xwsat.lock.apply_locks``),
    and the locks as slot name -> word."""
    grid_value, word_list = load_inputs(grid, words)
    refuse_banned_entries(grid_value, words.ban, rules.min_length, words.fold_yo)
    return apply_locks(grid_value, word_list, locks, rules.min_length, words.fold_yo,
                       words.ban)


def certificate_facts(words: Words, rules: Rules, min_score: int | None = None,
                      locked: Mapping[str, str] | None = None,
                      placed_only: Iterable[str] = ()) -> dict:
    """The options a certificate records (``question_rules``), from the command's own."""
    from xwsat.evidence.certificate import question_rules

    return question_rules(min_length=rules.min_length,
                          min_score=words.min_score if min_score is None else min_score,
                          allow_repeats=rules.allow_repeats, fold_yo=words.fold_yo,
                          alphabet_declared=words.alphabet, banned=words.ban or (),
                          locked=locked, placed_only=placed_only)


def register(app: typer.Typer) -> None:
    app.command("prove")(prove)
