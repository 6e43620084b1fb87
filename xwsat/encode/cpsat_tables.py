"""CP-SAT model (spec: encodings/cpsat.md): a letter variable per cell, a table per slot.

Each slot's table ranges over its cells' letter variables plus a word variable (the global word
id), so the no-repeat rule is an AllDifferent over the word variables of same-length slots.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from xwsat.problem import FillProblem


@dataclass
class CpsatModel:
    """The model and the handles needed to read a solution back."""

    model: object  # ortools.sat.python.cp_model.CpModel
    letters: list  # IntVar per dense cell
    words: list  # IntVar per slot (global word id)
    n_tuples: int


def _domain_values(mask: int, alphabet_size: int) -> list[int]:
    return [a for a in range(alphabet_size) if mask >> a & 1]


def encode_cpsat(
    problem: FillProblem, order: tuple[int, ...] | None = None, strategy: str = "letters"
) -> CpsatModel:
    """Build the table model; ``order`` (slots) becomes a decision strategy when given.

    ``strategy="letters"`` branches on the cells of the ordered slots (lowest letter first);
    ``"words"`` on the slots' word variables (lowest word id first).
    """
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    letters = []
    for c in range(problem.n_cells):
        values = _domain_values(int(problem.cell_masks[c]), problem.alphabet_size)
        letters.append(model.new_int_var_from_domain(cp_model.Domain.from_values(values), f"c{c}"))
    words = []
    n_tuples = 0
    for s, cells in enumerate(problem.slot_cells):
        cands = problem.candidates[s].astype(np.int64)
        word = model.new_int_var_from_domain(  # no candidate: a domain of one value (CP-SAT
            cp_model.Domain.from_values(cands.tolist() or [0]), problem.slot_names[s]  # refuses
        )  # an empty one); the empty table below makes the model infeasible
        words.append(word)
        table = np.hstack([problem.letters[s].astype(np.int64), cands[:, None]])
        model.add_allowed_assignments([letters[int(c)] for c in cells] + [word], table.tolist())
        n_tuples += len(table)
    if not problem.allow_repeats:
        by_length: dict[int, list[int]] = {}
        for s in range(problem.n_slots):
            by_length.setdefault(problem.slot_length(s), []).append(s)
        for group in by_length.values():
            if len(group) > 1:
                model.add_all_different([words[s] for s in group])
    if problem.max_shared:
        _no_shared_runs(model, problem, words)
    if order is not None and strategy == "words":
        model.add_decision_strategy(
            [words[s] for s in order], cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE
        )
    elif order is not None:
        cell_order: list[int] = []
        seen: set[int] = set()
        for s in order:
            for c in problem.slot_cells[s]:
                if int(c) not in seen:
                    seen.add(int(c))
                    cell_order.append(int(c))
        model.add_decision_strategy(
            [letters[c] for c in cell_order],
            cp_model.CHOOSE_FIRST,
            cp_model.SELECT_MIN_VALUE,
        )
    return CpsatModel(model, letters, words, n_tuples)


def _no_shared_runs(model: object, problem: FillProblem, words: list) -> None:
    """The shared-substring rule: per gram, a Boolean per slot that may hold it, true when
    the slot's word is one holding it, and at most one of them (``xwsat.substrings``)."""
    from ortools.sat.python import cp_model

    from xwsat.substrings import slot_grams

    rule = slot_grams(problem)
    if not len(rule.pair):
        return
    holds: list = []
    for at, part in enumerate(np.split(np.arange(len(rule.pair)),
                                       np.flatnonzero(np.diff(rule.pair)) + 1)):
        s = int(rule.slot[part[0]])
        held = model.new_bool_var(f"g{at}")  # type: ignore[attr-defined]
        values = problem.candidates[s][rule.candidate[part]].astype(np.int64).tolist()
        model.add_linear_expression_in_domain(  # type: ignore[attr-defined]
            words[s], cp_model.Domain.from_values(values).complement()
        ).only_enforce_if(~held)
        holds.append(held)
    gram = rule.pair_gram
    for group in np.split(np.arange(len(gram)), np.flatnonzero(np.diff(gram)) + 1):
        if len(group) > 1:
            model.add_at_most_one([holds[i] for i in group])  # type: ignore[attr-defined]
