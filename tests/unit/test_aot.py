"""The ahead-of-time build of the compiled search: the same search as the jitted kernel, and a
solver process that uses it never imports numba."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from test_compiled_search import random_problem

from xwsat.words import load_words

pytest.importorskip("numba")

from xwsat.compiled_search import aot, kernel  # noqa: E402
from xwsat.compiled_search import state as mstate  # noqa: E402
from xwsat.compiled_search.model import build_model  # noqa: E402


@pytest.fixture(scope="module")
def english():
    return load_words("en")


@pytest.fixture(scope="module")
def built_module():
    """The build for this source: made by the first run (``xwsat fill`` compiles before any
    clock starts); built here if this checkout has not run one yet."""
    if not aot.built():
        from xwsat.backends.mac import warm_up

        warm_up()
    if not aot.built():
        pytest.fail(f"the ahead-of-time build failed: {aot.folder()}.failed")
    return aot.runner()


def _run_to_end(run, model, state) -> int:
    code = mstate.BUDGET
    while code == mstate.BUDGET:
        code = run(model, state, 37)  # small slices: resuming must not change the search
    return code


@pytest.mark.parametrize("mode", ["letters", "words", "proof"])
@pytest.mark.parametrize("seed", range(6))
def test_same_search_as_the_jitted_kernel(english, built_module, mode: str, seed: int) -> None:
    problem = random_problem(english, seed, 5, 0.12, repeats=seed % 4 == 1)
    model, start = build_model(problem)
    yvar = (np.arange(problem.n_cells * problem.alphabet_size, dtype=np.int64)
            .reshape(problem.n_cells, problem.alphabet_size) + 1) if mode == "proof" else None
    states = [mstate.new_state(model, start, seed, yvar=yvar, words=mode == "words")
              for _ in range(2)]
    codes = [_run_to_end(built_module, model, states[0]), _run_to_end(kernel.run, model,
                                                                        states[1])]
    assert codes[0] == codes[1]
    for name in ("sc", "dom", "ct", "weight", "proof"):
        assert np.array_equal(getattr(states[0], name), getattr(states[1], name)), name


def test_runner_falls_back_to_the_jit_without_a_build(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(aot, "folder", lambda: tmp_path / "nothing-here")
    aot._load.cache_clear()
    try:
        assert aot.runner() is kernel.run
    finally:
        aot._load.cache_clear()


def test_a_solver_process_does_not_import_numba(built_module) -> None:
    script = "\n".join([
        "import sys",
        "from xwsat.backends.mac import MacBackend",
        "from xwsat.grid import parse_grid",
        "from xwsat.outcome import Limits",
        "from xwsat.problem import build_problem",
        "from xwsat.words import build_wordlist",
        "words = build_wordlist({w: (50, None) for w in ['CAT', 'ARE', 'TEN', 'ACT', 'RAT']},"
        " source='t')",
        "grid = parse_grid('...\\n...\\n...')",
        "problem = build_problem(grid, words, allow_repeats=True).problem",
        "out = MacBackend().solve(problem, Limits(time_limit=10))",
        "print(out.status.name, 'numba' in sys.modules)",
    ])
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["FILLED", "False"]


def test_a_failed_build_is_noted_once_and_the_jit_serves(monkeypatch, tmp_path) -> None:
    def no_compiler(model, state):
        raise RuntimeError("no C compiler")

    monkeypatch.setattr(aot, "folder", lambda: tmp_path / "aot-x")
    monkeypatch.setattr(aot, "build", no_compiler)
    aot._load.cache_clear()
    try:
        assert not aot.failed()
        assert aot.build_or_record(None, None) is False
        assert aot.failed() and "no C compiler" in (tmp_path / "aot-x.failed").read_text()
        assert not aot.built() and aot.runner() is kernel.run
    finally:
        aot._load.cache_clear()
