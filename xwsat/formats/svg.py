"""Draw a grid as SVG: blank with clue numbers, or filled, with highlighted slots.

``render_svg`` is the one drawing routine; explanations (a core of slots, a wipe-out) reuse it by
passing the slots to highlight.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from html import escape  # xml.sax.saxutils pulls in urllib (20 ms)

from xwsat.grid import BLOCK, EMPTY, Grid, Slot

PALETTE = ("#ffd54f", "#81d4fa", "#a5d6a7", "#f48fb1", "#ce93d8", "#ffab91", "#b0bec5")


def render_svg(
    grid: Grid,
    numbering: Mapping[int, int] | None = None,
    highlight_slots: Iterable[Slot | Sequence[int]] | Mapping[Slot, str] = (),
    show_letters: bool = True,
    cell: int = 36,
    title: str = "",
    circles: Iterable[int] = (),
) -> str:
    """An SVG document of ``grid``; ``numbering`` maps cell id -> clue number.

    ``highlight_slots`` are slots (or cell-id sequences) to shade, each in its own palette
    colour, or a mapping slot -> CSS colour. Letters are drawn when ``show_letters``.
    """
    width, height = grid.width * cell, grid.height * cell
    top = 24 if title else 0
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + 2}" height="{height + top + 2}" '
        f'viewBox="-1 {-1 - top} {width + 2} {height + top + 2}" '
        'font-family="DejaVu Sans, Arial, sans-serif">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    if title:
        parts.append(f'<text x="0" y="-8" font-size="16">{escape(title)}</text>')
    shade: dict[int, list[str]] = {}
    items = (list(highlight_slots.items()) if isinstance(highlight_slots, Mapping)
             else [(s, PALETTE[i % len(PALETTE)]) for i, s in enumerate(highlight_slots)])
    for slot, colour in items:
        cells = slot.cells if isinstance(slot, Slot) else tuple(slot)
        for c in cells:
            shade.setdefault(int(c), []).append(colour)
    numbers = numbering or {}
    circled = set(circles)
    for r in range(grid.height):
        for c in range(grid.width):
            index = r * grid.width + c
            x, y = c * cell, r * cell
            ch = grid.cell(index)
            if ch == BLOCK:
                parts.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" '
                             'fill="#111111"/>')
                continue
            for k, colour in enumerate(shade.get(index, [])):
                part = cell / len(shade[index])
                parts.append(f'<rect x="{x}" y="{y + k * part:.2f}" width="{cell}" '
                             f'height="{part:.2f}" fill="{colour}" fill-opacity="0.8"/>')
            parts.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="none" '
                         'stroke="#222222" stroke-width="1"/>')
            if index in circled:
                parts.append(f'<circle cx="{x + cell / 2:.1f}" cy="{y + cell / 2:.1f}" '
                             f'r="{cell * 0.46:.1f}" fill="none" stroke="#555555"/>')
            if index in numbers:
                parts.append(f'<text x="{x + 2}" y="{y + cell * 0.3:.1f}" '
                             f'font-size="{cell * 0.28:.1f}">{numbers[index]}</text>')
            if show_letters and ch != EMPTY:
                parts.append(f'<text x="{x + cell / 2:.1f}" y="{y + cell * 0.84:.1f}" '
                             f'font-size="{cell * 0.55:.1f}" text-anchor="middle">'
                             f'{escape(ch)}</text>')
    parts.append(f'<rect x="0" y="0" width="{width}" height="{height}" fill="none" '
                 'stroke="#111111" stroke-width="2"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
