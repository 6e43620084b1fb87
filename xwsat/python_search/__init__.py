"""The Python backtracking filler (the `native` back-end): its search state with explanations and
trail, and the search loop."""

from xwsat.python_search.engine import Search, SearchConfig, SearchResult
from xwsat.python_search.state import SearchState

VARIANTS: dict[str, SearchConfig] = {
    "csp": SearchConfig(score_weight=3.0, letters_up_to=16),
    "letters": SearchConfig(letter_above=0),
    "prove": SearchConfig(letter_above=0, regions=True),
    "fragments": SearchConfig(
        mac=False, dynamic_order=False, prune="accelerators", wdeg=False, planner=True
    ),
    # The same static search with the planner's features off: longest-first order, no fragment
    # reordering, no accelerators (the baseline that shows what the planner buys).
    "static": SearchConfig(
        mac=False, dynamic_order=False, prune="accelerators", wdeg=False
    ),
    "balanced": SearchConfig(
        mac=False, dynamic_order=False, prune="accelerators", wdeg=False, balance=True,
        planner=True
    ),
}

__all__ = ["VARIANTS", "Search", "SearchConfig", "SearchResult", "SearchState"]
