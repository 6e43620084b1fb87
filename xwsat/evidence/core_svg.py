"""The explanation drawn on the grid as SVG: core slots shaded, core letters in red."""

from __future__ import annotations

from html import escape  # xml.sax.saxutils pulls in urllib (20 ms)

from xwsat.evidence.explain import Explanation
from xwsat.problem import Built

CELL = 32


def core_svg(built: Built, expl: Explanation, title: str = "") -> str:
    """An SVG picture of the grid with the explanation's slots and given letters marked."""
    grid = built.grid
    width, height = grid.width * CELL, grid.height * CELL
    in_core = {c for s in expl.slots for c in built.slots[s].cells}
    givens = set(expl.givens)
    numbers = {}
    for slot in built.slots:
        numbers.setdefault(slot.cells[0], slot.number)
    top = 28 if title else 4
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + 8}" '
           f'height="{height + top + 4}" font-family="sans-serif">']
    if title:
        out.append(f'<text x="4" y="18" font-size="14">{escape(title)}</text>')
    for r, row in enumerate(grid.rows):
        for c, ch in enumerate(row):
            cell = r * grid.width + c
            x, y = 4 + c * CELL, top + r * CELL
            fill = "#000" if ch == "#" else ("#ffd27f" if cell in in_core else "#fff")
            out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" '
                       'stroke="#555" stroke-width="1"/>')
            if cell in numbers:
                out.append(f'<text x="{x + 2}" y="{y + 10}" font-size="9">{numbers[cell]}</text>')
            if ch not in "#.":
                color = "#c00" if cell in givens else "#333"
                weight = "bold" if cell in givens else "normal"
                out.append(f'<text x="{x + CELL / 2}" y="{y + CELL * 0.72}" font-size="18" '
                           f'text-anchor="middle" fill="{color}" font-weight="{weight}">'
                           f"{escape(ch)}</text>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
