"""Interdiction studies: which bridges, roads or hexes, if cut, most damage a side's supply (issues 19, 34).

The flow: :mod:`.candidates` (what may be cut: :class:`Target`, :func:`targets`) -> :mod:`.objectives` (how
damage is measured: units out, for chosen formations too, or line lengths) -> :mod:`.search` (greedy and
swaps, branch and bound pruned by the bound from the traced lines, exact enumeration) -> :mod:`.best`
(``best_targets`` and its result, which says whether it is optimal or how far from it it may be) ->
:mod:`.history` (the historical attacks against the optimum).  Every registered rule system works: a cut is
what the state's rules read (a destroyed bridge, an interdicted hex), and every evaluation is the rule
system's own supply determination.

Examples
--------
>>> import normandy_lab as nl
>>> state = nl.load_scenario("bfn_1944-06-13_am")
>>> result = nl.interdiction.best_targets(state, "german", k=3, river="Vire")  # doctest: +SKIP
>>> result.status, result.gain  # doctest: +SKIP
('optimal', 22.0)
"""

from normandy_lab.interdiction.best import InterdictionResult, best_targets
from normandy_lab.interdiction.candidates import Target, targets
from normandy_lab.interdiction.history import against_optimum, historical_targets

__all__ = ["InterdictionResult", "Target", "against_optimum", "best_targets", "historical_targets", "targets"]
