"""Checked certificates for a set of grids: ``xwsat prove --certificate`` on each, one at a time.

Usage: python scripts/bench_certificates.py GRID... --dict D [--time-limit 900]
       [--method auto] [--out results/hard_certificates] [--markdown results/hard.md]
       [--marker certificates]

Each grid runs as a user runs it, ``xwsat prove GRID --dict D --certificate TMP -t LIMIT --json``
in a fresh process (the certificate folder is a temporary one, deleted afterwards: the CNFs are
tens of MB). The row keeps what the manifest says: verdict, whether dratify accepted the proof,
proof producer and size, and the times of each stage. Rows go to ``OUT.jsonl``; the Markdown
table is printed and, with ``--markdown``, written between ``<!-- MARKER -->`` markers.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def certify(grid: str, dictionary: str, limit: float, method: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="xwsat-cert-") as tmp:
        cmd = [sys.executable, "-c", "from xwsat.cli import main; main()", "prove", grid,
               "--dict", dictionary, "-t", str(limit), "--certificate", f"{tmp}/cert",
               "--proof-method", method, "--json"]
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=limit * 3 + 120)
        wall = time.perf_counter() - start
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return {"grid": grid, "status": "error", "wall_s": round(wall, 1),
                "message": proc.stderr.strip()[-300:]}
    cert = data.get("certificate") or {}
    manifest = cert.get("manifest") or {}
    proof, times = manifest.get("proof") or {}, manifest.get("times") or {}
    return {
        "grid": grid, "status": data.get("status"), "checked": cert.get("checked"),
        "wall_s": round(wall, 1), "method": proof.get("method"), "lines": proof.get("lines"),
        "proof_bytes": proof.get("bytes_uncompressed"), "stats": proof.get("solver_stats"),
        "clauses": (manifest.get("encoding") or {}).get("clauses"),
        "encode_s": times.get("encode_write_s"), "prove_s": times.get("solve_wall_s"),
        "check_s": times.get("check_wall_s"), "message": cert.get("message", ""),
        "load": round(os.getloadavg()[0], 2),
    }


def table(rows: list[dict]) -> list[str]:
    lines = ["| grid | verdict | checked | proof lines | clauses | encode | prove | check | "
             "total |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        def sec(key: str, row: dict = r) -> str:
            return f"{row[key]:.1f} s" if isinstance(row.get(key), float) else "-"
        lines.append(f"| {Path(r['grid']).stem} | {r['status']} | {r.get('checked')} | "
                     f"{r.get('lines') or '-'} | {r.get('clauses') or '-'} | {sec('encode_s')} | "
                     f"{sec('prove_s')} | {sec('check_s')} | {r['wall_s']:.1f} s |")
    checked = [r for r in rows if r.get("checked") is True]
    totals = sorted(r["wall_s"] for r in checked)
    lines.append("")
    lines.append(f"- checked certificates: {len(checked)} of {len(rows)}"
                 + (f"; end-to-end median {totals[len(totals) // 2]:.1f} s, longest "
                    f"{totals[-1]:.1f} s" if totals else ""))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("grids", nargs="+")
    parser.add_argument("--dict", required=True)
    parser.add_argument("--time-limit", type=float, default=900.0)
    parser.add_argument("--method", default="auto")
    parser.add_argument("--out", default="results/hard_certificates")
    parser.add_argument("--markdown", default="")
    parser.add_argument("--marker", default="certificates")
    args = parser.parse_args()
    command = "python scripts/bench_certificates.py " + " ".join(
        shlex.quote(a) for a in sys.argv[1:])
    rows = []
    with open(ROOT / f"{args.out}.jsonl", "a", encoding="utf-8") as out:
        for grid in args.grids:
            row = certify(grid, args.dict, args.time_limit, args.method)
            row["command"] = command
            rows.append(row)
            out.write(json.dumps(row) + "\n")
            out.flush()
            print(f"{Path(grid).stem}: {row['status']} checked={row.get('checked')} "
                  f"{row['wall_s']:.1f} s", flush=True)
    text = "\n".join([f"Command: `{command}`", "", *table(rows)])
    print(text)
    if args.markdown:
        path = ROOT / args.markdown
        body = path.read_text(encoding="utf-8")
        start, end = f"<!-- {args.marker} -->", f"<!-- /{args.marker} -->"
        block = f"{start}\n{text}\n\n{end}"
        if start in body:
            body = body[:body.index(start)] + block + body[body.index(end) + len(end):]
        else:
            body = body.rstrip("\n") + "\n\n" + block + "\n"
        path.write_text(body, encoding="utf-8")


if __name__ == "__main__":
    main()
