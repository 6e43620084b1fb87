"""The figures of the slow reliability suites (results/reliability/README.md).

With ``XWSAT_TALLIES=path`` set, the slow tests of test_limits.py, test_fuzz.py,
test_verdicts.py and test_certificate_binding.py add what they tried and what they saw under
their own section of that JSON file; without it, nothing is written. Sections are merged, so one
full run of the suites fills the file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

ENV = "XWSAT_TALLIES"


def enabled() -> bool:
    return bool(os.environ.get(ENV))


def _path() -> Path | None:
    value = os.environ.get(ENV)
    return Path(value) if value else None


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def put(section: str, key: str, value: Any) -> None:
    """Set ``section.key`` to ``value``."""
    path = _path()
    if path is None:
        return
    data = _load(path)
    data.setdefault(section, {})[key] = value
    _save(path, data)


def add(section: str, counts: dict[str, int | float]) -> None:
    """Add ``counts`` to the numbers already in ``section``."""
    path = _path()
    if path is None:
        return
    data = _load(path)
    target = data.setdefault(section, {})
    for key, value in counts.items():
        target[key] = target.get(key, 0) + value
    _save(path, data)
