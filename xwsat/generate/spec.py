"""What a generated grid must satisfy: size, block cap, word length, symmetry, givens, theme."""

from __future__ import annotations

from dataclasses import dataclass, field

from xwsat.errors import XwsatError

SYMMETRIES = ("none", "rotational", "mirror")


@dataclass(frozen=True)
class GenerateSpec:
    """The rules of one generation run; every field has the CLI's default."""

    width: int
    height: int
    max_blocks: int | None = None          # None: no cap
    min_length: int = 3
    symmetry: str = "rotational"
    allow_repeats: bool = False
    givens: dict[int, str] = field(default_factory=dict)   # cell id -> letter or '#'
    theme: tuple[str, ...] = ()
    max_words: int | None = None   # word-count ceiling of the pattern back-end (None: editors')
    max_cheaters: int | None = None  # its cheater cap (None: editors')

    def __post_init__(self) -> None:
        if not (1 <= self.width <= 25 and 1 <= self.height <= 25):
            raise XwsatError("--size must be WxH with sides from 1 to 25")
        if not 1 <= self.min_length <= max(self.width, self.height):
            raise XwsatError(f"--min-length {self.min_length} (the shortest word; 3 unless "
                             f"given) must be between 1 and the grid's longer side, "
                             f"{max(self.width, self.height)}: use a larger --size or a "
                             "smaller --min-length")
        if self.symmetry not in SYMMETRIES:
            raise XwsatError(f"--symmetry must be one of {', '.join(SYMMETRIES)}")
        if self.max_blocks is not None and not 0 <= self.max_blocks <= self.cells:
            raise XwsatError(f"--blocks must be between 0 and {self.cells}")
        for word in self.theme:
            if len(word) > max(self.width, self.height):
                raise XwsatError(f"theme entry {word} is longer than the grid")
            if len(word) < self.min_length:
                raise XwsatError(f"theme entry {word} is shorter than --min-length")
        self._check_givens()

    def _check_givens(self) -> None:
        """Given blocks (with their mirrors) that break the cap or the symmetry: bad input."""
        blocks = {cell for cell, ch in self.givens.items() if ch == "#"}
        for cell in list(blocks):
            mirror = self.mirror_of(cell)
            if mirror is None:
                continue
            letter = self.givens.get(mirror, "#")
            if letter != "#":
                raise XwsatError(
                    f"--given places a block at row {cell // self.width + 1}, column "
                    f"{cell % self.width + 1} and the letter {letter} in its "
                    f"{self.symmetry} mirror: no {self.symmetry} grid holds both")
            blocks.add(mirror)
        if self.max_blocks is not None and len(blocks) > self.max_blocks:
            mirrored = " with their mirrors" if self.symmetry != "none" else ""
            raise XwsatError(f"--given places {len(blocks)} block{'s' * (len(blocks) != 1)}"
                             f"{mirrored}, more than the "
                             f"{self.max_blocks} the block cap allows (--blocks or "
                             "--block-ratio)")

    @property
    def cells(self) -> int:
        return self.width * self.height

    def mirror_of(self, cell: int) -> int | None:
        """The cell whose block status must match ``cell``'s under the chosen symmetry."""
        r, c = divmod(cell, self.width)
        if self.symmetry == "rotational":
            return (self.height - 1 - r) * self.width + (self.width - 1 - c)
        if self.symmetry == "mirror":
            return r * self.width + (self.width - 1 - c)
        return None

    def lines(self) -> list[tuple[str, int, tuple[int, ...]]]:
        """Every row and column as (name, index, cell ids)."""
        w, h = self.width, self.height
        rows = [("row", r, tuple(r * w + c for c in range(w))) for r in range(h)]
        cols = [("column", c, tuple(r * w + c for r in range(h))) for c in range(w)]
        return rows + cols


def blocks_from_ratio(ratio: float, cells: int) -> int:
    """A block cap from a ratio of the cells (rounded down)."""
    if not 0 <= ratio <= 1:
        raise XwsatError("--block-ratio must be between 0 and 1")
    return int(ratio * cells + 1e-9)
