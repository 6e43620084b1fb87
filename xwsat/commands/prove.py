"""``xwsat prove``: decide whether a grid can be filled at all, with evidence on request
(a checked certificate, a minimal explanation, a cross-check by a second method)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from xwsat.commands.common import (
    EXIT,
    AlphabetOpt,
    BackendOpt,
    DictOpt,
    FoldOpt,
    ForceOpt,
    GridArg,
    JsonOpt,
    LengthOpt,
    MemoryOpt,
    OutOpt,
    RepeatsOpt,
    ScoreOpt,
    SeedOpt,
    TimeOpt,
    check_outputs,
    clear_status_line,
    fail,
    load_inputs,
    print_result,
    run_search,
    search_options,
    status_line,
    write_atomic,
)
from xwsat.errors import XwsatError

CertOpt = Annotated[Path | None, typer.Option(
    "--certificate", help="Write a checked certificate (CNF, proof, manifest) to this folder.")]
MethodOpt = Annotated[str, typer.Option(
    "--proof-method",
    help="auto, mac (compiled MAC search), search (Python MAC search) or cdcl (SAT solver).")]
ProofSolverOpt = Annotated[str, typer.Option(
    "--proof-solver", help="CDCL solver for --proof-method cdcl (cadical195, glucose4, ...).")]
ExplainOpt = Annotated[bool, typer.Option(
    "--explain", help="Show a minimal set of slots (and given letters) that cannot be filled.")]
ExplainSvgOpt = Annotated[Path | None, typer.Option(
    "--explain-svg", help="Draw the explanation on the grid as SVG (implies --explain).")]
CrossOpt = Annotated[bool, typer.Option(
    "--cross-check", help="Decide again with a second, independent method (exit 4 if it differs).")]


def prove(
    grid: GridArg,
    dictionary: DictOpt = "en",
    backend: BackendOpt = "auto",
    time_limit: TimeOpt = 60.0,
    seed: SeedOpt = 0,
    allow_repeats: RepeatsOpt = False,
    min_score: ScoreOpt = 0,
    min_length: LengthOpt = 2,
    memory_limit: MemoryOpt = 0,
    alphabet: AlphabetOpt = "",
    fold_yo: FoldOpt = False,
    json_out: JsonOpt = False,
    out: OutOpt = None,
    certificate: CertOpt = None,
    proof_method: MethodOpt = "auto",
    proof_solver: ProofSolverOpt = "cadical195",
    explain: ExplainOpt = False,
    explain_svg: ExplainSvgOpt = None,
    cross_check: CrossOpt = False,
    force: ForceOpt = False,
) -> None:
    """Decide whether the grid can be filled at all: 0 fillable (--out writes the witness),
    1 unfillable, 3 undecided, 4 a failed check or a cross-check disagreement."""
    from xwsat.evidence import evidence_text as report

    try:
        options = search_options(backend, time_limit, seed, allow_repeats, min_length,
                                 memory_limit)
        check_outputs([out, explain_svg], [grid, dictionary], force)
        if certificate is None:
            result = run_search("prove", grid, dictionary, options, min_score, alphabet,
                                fold_yo, out)
            built, status, first = result.built, result.outcome.status, result.outcome.backend
            data = None if not json_out else _as_json(result)
            if not json_out:
                print_result(result, "prove", False)
            code = EXIT[status]
        else:
            built, status, first, code, data = _certificate(
                grid, dictionary, certificate, options, min_score, alphabet, fold_yo, out,
                proof_method, proof_solver, json_out)
        if (explain or explain_svg) and status.value == "unfillable":
            from xwsat.evidence.core_svg import core_svg
            from xwsat.evidence.explain import explain as explain_core

            expl = explain_core(built, time_limit, min_length)
            title = f"{grid.name}: {len(expl.slots)} slots cannot be filled together"
            picture = core_svg(built, expl, title)
            for target in [p for p in (explain_svg, certificate and certificate /
                                       "explanation.svg") if p is not None]:
                write_atomic(target, picture)
            if certificate is not None:
                from xwsat.evidence.certificate import add_files

                text = "\n".join(report.explanation_lines(built, expl)) + "\n"
                write_atomic(certificate / "explanation.txt", text)
                add_files(certificate, ["explanation.txt", "explanation.svg"])
            _say(data, "explanation", report.explanation_json(built, expl),
                 report.explanation_lines(built, expl))
        elif explain or explain_svg:
            _say(data, "explanation", None, ["(nothing to explain: the grid is not unfillable)"])
        if cross_check and status.definitive:
            from xwsat.evidence.crosscheck import cross_check as run_cross_check

            cc = run_cross_check(built, status, first, time_limit, min_length, status_line)
            clear_status_line()
            _say(data, "cross_check", report.cross_check_json(cc),
                 report.cross_check_lines(cc, status.value))
            if cc.agree is False:
                code = 4
    except XwsatError as exc:
        raise fail(str(exc)) from None
    if data is not None:
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
    raise typer.Exit(code)


def _as_json(result) -> dict:
    from xwsat.verdict_text import as_json

    return as_json(result)


def _say(data: dict | None, key: str, value: object, lines: list[str]) -> None:
    """Into the JSON record when one is being built, else printed."""
    if data is not None:
        data[key] = value
    else:
        typer.echo("\n".join(lines))


def _certificate(grid, dictionary, directory, options, min_score, alphabet, fold_yo, out,
                 method, solver, json_out):
    """The certificate run decides the grid: returns (built, status, method, exit, json)."""
    from xwsat.backends.base import Status
    from xwsat.evidence import evidence_text as report
    from xwsat.evidence.certificate import certify, prepare_folder
    from xwsat.problem import build_problem

    prepare_folder(directory)
    grid_value, words = load_inputs(grid, dictionary, min_score, alphabet, fold_yo)
    built = build_problem(grid_value, words, options.min_length, options.allow_repeats)
    rules = {"min_length": options.min_length, "min_score": min_score,
             "allow_repeats": options.allow_repeats, "fold_yo": fold_yo}
    run = certify(built, directory, str(grid), options.time_limit or 60.0, solver,
                  rules=rules, on_tick=status_line, method=method)
    clear_status_line()
    status = {"unfillable": Status.UNFILLABLE, "fillable": Status.FILLED,
              "unknown": Status.UNKNOWN}.get(run.result, Status.ERROR)
    code = EXIT[status]
    if status is Status.UNFILLABLE and not run.checked:
        code = 4 if run.checked is False else 3
    if status is Status.FILLED and out is not None:
        write_atomic(out, (directory / "fill.txt").read_text(encoding="utf-8"))
    lines = report.certificate_lines(run)
    if status is Status.FILLED:
        lines += ["", *(" ".join(row) for row in (directory / "fill.txt").read_text(
            encoding="utf-8").split())]
    data = {"status": status.value, "certificate": {"directory": str(directory),
                                                    "checked": run.checked,
                                                    "message": run.message,
                                                    "manifest": run.manifest}} \
        if json_out else None
    if data is None:
        typer.echo("\n".join(lines))
    method_used = f"certificate:{run.manifest.get('proof', {}).get('method', method)}"
    return built, status, method_used, code, data


def register(app: typer.Typer) -> None:
    app.command("prove")(prove)
