"""The no-repeat rule counted: slots that need more distinct words than they can take.

Every slot filled with a different word means, per length, a matching of slots to words. When
some set of slots S has fewer candidate words between them than |S| (a Hall set), no fill
exists, and a search that decides letters or words one at a time only finds that out by trying
the permutations: twelve separate 3-letter slots and eleven 3-letter words keep the compiled
search, ACE and the Python search busy past any time limit (results/hard/repeats/), where counting
decides at once and names the slots.

Only a slot with fewer candidates than its length has slots can belong to a Hall set (each of
S's slots has at most |N(S)| < |S| candidates), so the matching runs on those few slots and
their short lists: a large dictionary costs nothing here.
"""

from __future__ import annotations

from dataclasses import dataclass

from xwsat.problem import FillProblem


@dataclass(frozen=True)
class HallSet:
    """Slots of one length whose candidates, all together, are fewer than the slots."""

    slots: tuple[int, ...]
    words: tuple[int, ...]  # every candidate word id of those slots (fewer than the slots)
    length: int


def hall_set(problem: FillProblem) -> HallSet | None:
    """A set of slots that the no-repeat rule cannot fill, or None (also with repeats allowed)."""
    if problem.allow_repeats:
        return None
    by_length: dict[int, list[int]] = {}
    for s in range(problem.n_slots):
        by_length.setdefault(problem.slot_length(s), []).append(s)
    for length, group in sorted(by_length.items()):
        tight = [s for s in group if len(problem.candidates[s]) < len(group)]
        found = _deficient(problem, tight)
        if found is not None:
            slots, words = found
            return HallSet(tuple(sorted(slots)), tuple(sorted(words)), length)
    return None


def _deficient(problem: FillProblem, slots: list[int]) -> tuple[set[int], set[int]] | None:
    """Kuhn's augmenting paths over ``slots``; when a slot cannot be matched, the slots and words
    its failed search visited: every visited word is matched to a visited slot other than the
    start, so those slots have one word fewer than their number."""
    lists = {s: [int(w) for w in problem.candidates[s]] for s in slots}
    owner: dict[int, int] = {}  # word -> the slot it is matched to
    for start in slots:
        seen_slots, seen_words = {start}, set()
        stack = [(start, iter(lists[start]))]  # the alternating path, as an explicit stack
        entered: list[int] = []  # entered[i]: the word by which stack[i + 1] was reached
        matched = False
        while stack and not matched:
            for w in stack[-1][1]:
                if w in seen_words:
                    continue
                seen_words.add(w)
                entered.append(w)
                if w not in owner:  # a free word: shift every word along the path
                    for (slot, _), word in zip(stack, entered):
                        owner[word] = slot
                    matched = True
                else:
                    seen_slots.add(owner[w])
                    stack.append((owner[w], iter(lists[owner[w]])))
                break
            else:
                stack.pop()
                if entered:
                    entered.pop()
        if not matched:
            return seen_slots, seen_words
    return None
