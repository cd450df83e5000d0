"""What a sweep varies: a variant is a base situation with some changes, written as plain data.

A variant is a mapping (or a :class:`Variant`) of

* ``base``: which of the sweep's base situations it starts from (a scenario name or the key of the
  ``bases`` mapping; default: the only one);
* ``weather``: the weather to play it in;
* ``cuts``: what is cut, as :class:`~normandy_lab.interdiction.Target` objects or their keys (``"A1|A2"`` a
  bridge's hexside, ``"B2816"`` a hex);
* ``options``: rule readings to set (``{"hq_bridging": "for_its_units"}``);
* ``edits``: any study edits (``{"op": "move", ...}``), applied last;
* ``name``: how the tables call it (default: made from the rest).

:func:`grid` makes the product of lists of each, the usual what-if sweep (weather x dates x interdiction
sets x readings).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Variant:
    """One situation of a sweep (see the module's docstring)."""

    base: str = ""
    weather: str | None = None
    cuts: tuple[str, ...] = ()
    options: tuple[tuple[str, Any], ...] = ()
    edits: tuple[Any, ...] = ()
    name: str = field(default="")

    @classmethod
    def of(cls, spec: Variant | Mapping[str, Any]) -> Variant:
        """Return a variant from its mapping form (or itself)."""
        if isinstance(spec, Variant):
            return spec if spec.name else _named(spec)
        unknown = set(spec) - {"base", "weather", "cuts", "options", "edits", "name"}
        if unknown:
            raise ValueError(
                "a variant has base, weather, cuts, options, edits and name, not "
                f"{', '.join(sorted(unknown))}"
            )
        cuts = tuple(getattr(c, "key", c) for c in spec.get("cuts") or ())
        variant = cls(
            base=str(spec.get("base") or ""),
            weather=spec.get("weather"),
            cuts=cuts,
            options=tuple(sorted(dict(spec.get("options") or {}).items())),
            edits=tuple(spec.get("edits") or ()),
            name=str(spec.get("name") or ""),
        )
        return variant if variant.name else _named(variant)


def _named(variant: Variant) -> Variant:
    """Give a variant a name from what it changes."""
    parts = [variant.base] if variant.base else []
    if variant.weather:
        parts.append(variant.weather)
    if variant.cuts:
        parts.append("cut " + "+".join(variant.cuts))
    parts += [f"{k}={v}" for k, v in variant.options]
    if variant.edits:
        parts.append(f"{len(variant.edits)} edits")
    return Variant(variant.base, variant.weather, variant.cuts, variant.options, variant.edits,
                   " / ".join(parts) or "as is")  # fmt: skip


def grid(
    bases: Sequence[str] = ("",),
    weather: Sequence[str | None] = (None,),
    cuts: Sequence[Iterable[Any]] = ((),),
    options: Sequence[Mapping[str, Any]] = ({},),
) -> list[Variant]:
    """Return every combination of the given bases, weathers, cut sets and readings, as variants."""
    return [
        Variant.of({"base": b, "weather": w, "cuts": list(c), "options": dict(o)})
        for b, w, c, o in itertools.product(bases, weather, cuts, options)
    ]
