"""``xwsat plan``: the planner's analysis as a table, JSON, and a picture of the grid (SVG, PNG).

The picture colours each white cell by when it is first filled (light = early, dark = late), as
the fragment filler explains its order, and outlines the cells of each fragment in its own hue.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from html import escape  # xml.sax.saxutils pulls in urllib (20 ms)
from typing import Any

from xwsat.errors import XwsatError
from xwsat.pipeline import explain_wipeout
from xwsat.planner import Plan, make_plan
from xwsat.problem import Built
from xwsat.propagate import propagate

CELL = 32
MARK = "#d00"  # the outline of a hard window


@dataclass(frozen=True)
class PlanReport:
    """A plan together with the grid-side names it needs to be shown."""

    built: Built
    plan: Plan
    candidates: tuple[int, ...]
    wipeout: str | None = None  # why arc consistency already proves the grid unfillable
    marked: tuple[tuple[int, int, int], ...] = ()  # windows to outline (top, left, side): the
    # hardest windows of ``xwsat plan --probe``

    def rows(self) -> list[dict[str, Any]]:
        problem = self.built.problem
        neighbours = problem.neighbours()
        fragment_of = {s: i for i, f in enumerate(self.plan.fragments) for s in f.slots}
        accelerators = {a.slot for a in self.plan.accelerators}
        return [
            {
                "order": rank + 1,
                "slot": self.built.slots[s].name,
                "length": problem.slot_length(s),
                "crossings": len(neighbours[s]),
                "candidates": self.candidates[s],
                "placement_difficulty": round(self.plan.placement[s], 2)
                if self.plan.placement else None,
                "fragment": fragment_of.get(s),
                "accelerator": s in accelerators,
            }
            for rank, s in enumerate(self.plan.order)
        ]

    def as_dict(self) -> dict[str, Any]:
        return {
            "unfillable_by_propagation": self.wipeout,
            "difficulty": round(self.plan.difficulty, 2),
            "slots": self.rows(),
            "fragments": [
                {"start": self.built.slots[f.start].name, "first": self.built.slots[f.first].name,
                 "slots": [self.built.slots[s].name for s in f.slots], "depth": f.depth}
                for f in self.plan.fragments
            ],
            "accelerators": [self.built.slots[a.slot].name for a in self.plan.accelerators],
        }

    def as_text(self) -> str:
        lines = [f"generation difficulty {self.plan.difficulty:.1f}; "
                 f"{len(self.plan.fragments)} fragments, "
                 f"{len(self.plan.accelerators)} accelerators",
                 f"{'#':>4} {'slot':>5} {'len':>3} {'cross':>5} {'words':>7} {'difficulty':>10}"
                 f" {'fragment':>8}  accelerator"]
        for row in self.rows():
            diff = "" if row["placement_difficulty"] is None else f"{row['placement_difficulty']}"
            frag = "" if row["fragment"] is None else str(row["fragment"])
            lines.append(f"{row['order']:>4} {row['slot']:>5} {row['length']:>3} "
                         f"{row['crossings']:>5} {row['candidates']:>7} {diff:>10} {frag:>8}  "
                         f"{'yes' if row['accelerator'] else ''}")
        if self.wipeout:
            lines.append(f"unfillable by arc consistency: {self.wipeout}")
        return "\n".join(lines)

    def as_svg(self) -> str:
        grid = self.built.grid
        slots = self.built.slots
        first_rank: dict[int, int] = {}
        for rank, s in enumerate(self.plan.order):
            for cell in slots[s].cells:
                first_rank.setdefault(cell, rank)
        last = max(len(self.plan.order) - 1, 1)
        width, height = grid.width * CELL, grid.height * CELL
        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + 2}" '
                 f'height="{height + 2}" viewBox="-1 -1 {width + 2} {height + 2}" '
                 'font-family="sans-serif">']
        for cell in range(grid.width * grid.height):
            x, y = (cell % grid.width) * CELL, (cell // grid.width) * CELL
            if not grid.is_white(cell):
                fill = "#000"
            elif cell in first_rank:
                light = 92 - 55 * first_rank[cell] / last
                fill = f"hsl(210,70%,{light:.0f}%)"
            else:
                fill = "#fff"
            parts.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" '
                         'stroke="#444" stroke-width="1"/>')
        for i, fragment in enumerate(self.plan.fragments):
            hue = (i * 137.5 + 20) % 360
            for s in fragment.slots:
                for cell in slots[s].cells:
                    x, y = (cell % grid.width) * CELL + 3, (cell // grid.width) * CELL + 3
                    parts.append(f'<rect x="{x}" y="{y}" width="{CELL - 6}" height="{CELL - 6}" '
                                 f'fill="none" stroke="hsl({hue:.0f},80%,45%)" stroke-width="2"/>')
        for rank, s in enumerate(self.plan.order):
            slot = slots[s]
            x, y = slot.col * CELL, slot.row * CELL
            dx, dy = (CELL * 0.55, CELL * 0.95) if slot.direction == "A" else (2, CELL * 0.95)
            label = f"{rank + 1}{'→' if slot.direction == 'A' else '↓'}"
            parts.append(f'<text x="{x + dx:.0f}" y="{y + dy - 2:.0f}" font-size="9" '
                         f'fill="#000">{escape(label)}</text>')
            parts.append(f'<text x="{x + 2}" y="{y + 10}" font-size="9">{slot.number}</text>')
        for top, left, side in self.marked:
            parts.append(f'<rect x="{left * CELL}" y="{top * CELL}" width="{side * CELL}" '
                         f'height="{side * CELL}" fill="none" stroke="{MARK}" stroke-width="4" '
                         'stroke-dasharray="8 4"/>')
        parts.append("</svg>")
        return "\n".join(parts) + "\n"


    def as_png(self, dpi: int = 110) -> bytes:
        """The same picture as ``as_svg``, rasterised with matplotlib (for viewers without SVG)."""
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
            from matplotlib.colors import hsv_to_rgb
            from matplotlib.patches import Rectangle
        except ImportError as exc:  # pragma: no cover - matplotlib is a dependency
            raise XwsatError(f"PNG output needs matplotlib ({exc})") from None
        grid, slots = self.built.grid, self.built.slots
        first_rank: dict[int, int] = {}
        for rank, s in enumerate(self.plan.order):
            for cell in slots[s].cells:
                first_rank.setdefault(cell, rank)
        last = max(len(self.plan.order) - 1, 1)
        side = 0.42
        fig, ax = plt.subplots(figsize=(grid.width * side + 0.2, grid.height * side + 0.2))
        ax.set_xlim(0, grid.width)
        ax.set_ylim(grid.height, 0)
        ax.set_aspect("equal")
        ax.axis("off")
        for cell in range(grid.width * grid.height):
            x, y = cell % grid.width, cell // grid.width
            if not grid.is_white(cell):
                colour: object = "black"
            elif cell in first_rank:
                colour = plt.cm.Blues(0.12 + 0.7 * first_rank[cell] / last)
            else:
                colour = "white"
            ax.add_patch(Rectangle((x, y), 1, 1, facecolor=colour, edgecolor="#444", lw=0.6))
        for i, fragment in enumerate(self.plan.fragments):
            edge = hsv_to_rgb((((i * 137.5 + 20) % 360) / 360, 0.8, 0.75))
            for s in fragment.slots:
                for cell in slots[s].cells:
                    x, y = cell % grid.width, cell // grid.width
                    ax.add_patch(Rectangle((x + 0.1, y + 0.1), 0.8, 0.8, fill=False,
                                           edgecolor=edge, lw=1.5))
        for rank, s in enumerate(self.plan.order):
            slot = slots[s]
            arrow = "\u2192" if slot.direction == "A" else "\u2193"
            dx = 0.55 if slot.direction == "A" else 0.05
            ax.text(slot.col + dx, slot.row + 0.92, f"{rank + 1}{arrow}", fontsize=5.5)
            ax.text(slot.col + 0.06, slot.row + 0.3, str(slot.number), fontsize=5.5)
        for top, left, side in self.marked:
            ax.add_patch(Rectangle((left, top), side, side, fill=False, edgecolor=MARK, lw=2.5,
                                   ls="--"))
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight")
        plt.close(fig)
        return buffer.getvalue()


def plan_report(built: Built, seed: int = 0) -> PlanReport:
    """Propagate, then plan; candidates are counted after pruning."""
    propagated = propagate(built.problem)
    plan = make_plan(propagated.problem, seed)
    sizes = tuple(int(n) for n in propagated.problem.domain_sizes())
    wipeout = None
    if propagated.wiped is not None:
        wipeout = explain_wipeout(built, propagated.wiped, propagated.reason)
    return PlanReport(built, plan, sizes, wipeout)
