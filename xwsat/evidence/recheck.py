"""Re-check a certificate folder from its files alone: the manifest's hashes, then the proof."""

from __future__ import annotations

import json
from pathlib import Path

from xwsat.errors import XwsatError
from xwsat.evidence.certificate import check_files, sha256_file
from xwsat.evidence.isolate import Tick, run_isolated


def recheck(directory: Path, engine: str, time_limit: float,
            on_tick: Tick | None = None) -> tuple[list[str], bool]:
    """Lines to print and whether the certificate holds."""
    manifest_path = directory / "manifest.json"
    if not manifest_path.is_file():
        raise XwsatError(f"{directory}: no manifest.json (not a certificate folder)")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise XwsatError(f"{manifest_path}: unreadable ({exc})") from None
    if manifest.get("result") != "unfillable":
        raise XwsatError(f"{directory}: the certificate's result is {manifest.get('result')!r}, "
                         "there is no proof to check")
    files = manifest.get("files", {})
    lines = []
    for name, info in files.items():
        path = directory / name
        if not path.is_file():
            return [f"MISSING: {name}"], False
        if sha256_file(path) != info.get("sha256"):
            return [f"HASH MISMATCH: {name} is not the file the manifest names"], False
        lines.append(f"sha256 ok: {name}")
    cnf = next((n for n in files if n.startswith("formula.cnf")), None)
    proof = next((n for n in files if n.startswith("proof.drat")), None)
    if cnf is None or proof is None:
        return [*lines, "the manifest names no formula or proof"], False
    run = run_isolated(check_files, (str(directory / cnf), str(directory / proof), engine),
                       time_limit, "dratify checking the proof", on_tick)
    if run.status != "ok":
        return [*lines, f"UNDECIDED: {run.message}"], False
    result = run.value
    ok = result["ok"] and result["reached_empty"]
    verdict = ("VERIFIED: the grid has no fill (proof of "
               f"{result['steps']} steps checked by dratify, {result['engine']} engine, "
               f"{result['check_s']:.2f} s)") if ok else f"REJECTED: {result['reason']}"
    return [*lines, verdict], ok
