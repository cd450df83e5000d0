"""Interdiction studies: which bridges, roads or hexes, if cut, most damage a side's supply (issue 19).

The flow: :mod:`.candidates` (what may be cut) -> :mod:`.objectives` (how damage is measured) ->
:mod:`.search` (exact, lazy greedy, the bound from the traced lines) -> :mod:`.best` (``best_targets`` and its
result).  Every registered rule system works: a cut is what the state's rules read (a destroyed bridge, an
interdicted hex), and every evaluation is the rule system's own supply determination.

Examples
--------
>>> import normandy_lab as nl
>>> state = nl.load_scenario("bfn_1944-06-13_am")
>>> result = nl.interdiction.best_targets(state, "german", k=2, river="Vire")  # doctest: +SKIP
>>> result.table  # doctest: +SKIP
"""

from normandy_lab.interdiction.best import InterdictionResult, best_targets
from normandy_lab.interdiction.candidates import Target, targets

__all__ = ["InterdictionResult", "Target", "best_targets", "targets"]
