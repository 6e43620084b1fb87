"""What a proof producer returns: a leaf, so the producers (``mac.proof``, ``drup_search``) and
their registry (``producers``) share it without importing each other."""

from __future__ import annotations

from dataclasses import dataclass, field

from xwsat.outcome import Status


@dataclass(frozen=True)
class ProofRun:
    """UNFILLABLE (the proof file is complete), FILLED (a candidate index per slot) or UNKNOWN
    (the time ran out); ``lines`` of proof written, the producer's counters and times."""

    status: Status
    choice: list[int] | None = None
    lines: int = 0
    stats: dict[str, int] = field(default_factory=dict)
    times: dict[str, float] = field(default_factory=dict)
