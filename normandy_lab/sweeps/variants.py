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

import difflib
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from normandy_lab.errors import RefusedError

FIELDS = ("base", "weather", "cuts", "options", "edits", "name")


@dataclass(frozen=True)
class Variant:
    """One situation of a sweep (see the module's docstring).

    ``problem`` says why the variant cannot run when its own fields are malformed (options that are not a
    mapping, cuts given as one text, a weather that is not text, a cut that is not a hex id or a hexside
    ``"A|B"``, an edit that is not a mapping): the sweep makes it one ``error`` row, as it does a bad cut.
    """

    base: str = ""
    weather: str | None = None
    cuts: tuple[str, ...] = ()
    options: tuple[tuple[str, Any], ...] = ()
    edits: tuple[Any, ...] = ()
    name: str = field(default="")
    problem: str = ""

    @classmethod
    def of(cls, spec: Variant | Mapping[str, Any]) -> Variant:
        """Return a variant from its mapping form (or itself).

        Raises
        ------
        RefusedError
            When ``spec`` is not a mapping, or has a field a variant does not (with the nearest).  What only
            the variant's base can judge, or a field of the wrong shape, is left to the sweep's error row.
        """
        if isinstance(spec, Variant):
            return spec if spec.name else _named(spec)
        if not isinstance(spec, Mapping):
            raise RefusedError(
                f"sweep: variants: {_shown(spec)} is not a variant; give a mapping of "
                f"{', '.join(FIELDS)} (each optional), or a Variant"
            )
        unknown = sorted(str(k) for k in set(spec) - set(FIELDS))
        if unknown:
            close = difflib.get_close_matches(unknown[0], FIELDS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise RefusedError(
                f"sweep: variants: a variant has {', '.join(FIELDS[:-1])} and {FIELDS[-1]}, not "
                f"{', '.join(unknown)}{hint}"
            )
        problems: list[str] = []
        bad: list[str] = []  # the malformed fields as written, for the variant's name
        raw_options = spec.get("options") or {}
        options: tuple[tuple[str, Any], ...] = ()
        if isinstance(raw_options, Mapping):
            options = tuple(sorted(raw_options.items(), key=lambda kv: str(kv[0])))
        else:
            problems.append(f"options: {_shown(raw_options)} is not a mapping of option: value")
            bad.append(f"options={_shown(raw_options)}")
        raw_cuts = spec.get("cuts") or ()
        cuts: tuple[str, ...] = ()
        if isinstance(raw_cuts, str | bytes) or not isinstance(raw_cuts, Iterable):
            # One text would be cut letter by letter: say so rather than guess it meant a list of one.
            problems.append(f"cuts: {_shown(raw_cuts)} is not a list of targets; write [{_shown(raw_cuts)}]")
            bad.append(f"cuts={_shown(raw_cuts)}")
        else:
            cuts = tuple(getattr(c, "key", c) for c in raw_cuts)
        raw_edits = spec.get("edits") or ()
        edits: tuple[Any, ...] = ()
        if isinstance(raw_edits, list | tuple):
            edits = tuple(raw_edits)
        else:
            problems.append(f"edits: {_shown(raw_edits)} is not a list of edits")
            bad.append(f"edits={_shown(raw_edits)}")
        weather = spec.get("weather")
        found = field_problems(weather, cuts, edits)
        problems += found
        if found:  # named as written; a cut list or a weather that is not text would make an odd name
            if weather is not None and not isinstance(weather, str):
                bad.append(f"weather={_shown(weather)}")
            if any(p.startswith("cuts[") for p in found):
                bad.append(f"cuts={_shown(list(cuts))}")
                cuts = ()
            weather = weather if isinstance(weather, str) else None
        variant = cls(
            base=str(spec.get("base") or ""),
            weather=weather,
            cuts=cuts,
            options=options,
            edits=edits,
            name=str(spec.get("name") or ""),
            problem="; ".join(problems),
        )
        # A malformed field is named as written, so that two malformed variants keep their names apart.
        return variant if variant.name else _named(variant, extra=bad)


#: What a cut is, for the refusals.
A_CUT = (
    "a cut is text: a hex id to interdict ('B2816') or a bridge's hexside 'A|B' to destroy ('B4015|B4114')"
)


def field_problems(weather: Any, cuts: Sequence[Any], edits: Sequence[Any]) -> list[str]:
    """Say what is malformed in a variant's weather, cuts and edits, each naming its field; [] when nothing.

    Only the form is judged here (a weather is text, a cut is a hex id or a hexside ``"A|B"``, an edit a
    mapping); whether the weather is one of the game's, and the hex on its map, is the base's to judge
    (:func:`normandy_lab.sweeps.worker.situation`).  So the sweep's error row reads as a refusal, not as
    ``KeyError: nan`` or ``AttributeError: 'list' object has no attribute 'strip'``.
    """
    problems = []
    if weather is not None and not isinstance(weather, str):
        problems.append(f"weather: {_shown(weather)} is not a weather; give its name as text, e.g. 'Clear'")
    for n, cut in enumerate(cuts):
        if isinstance(cut, str):
            parts = cut.split("|")
            if len(parts) <= 2 and all(p.strip() for p in parts):
                continue
            problems.append(f"cuts[{n}]: {_shown(cut)} is not a hex id or a hexside 'A|B'; {A_CUT}")
        elif isinstance(cut, list | tuple) and len(cut) == 2 and all(isinstance(c, str) for c in cut):
            problems.append(
                f"cuts[{n}]: {_shown(cut)} is not a cut; {A_CUT}: for the bridge between them write "
                f"{'|'.join(cut)!r}, for the two hexes list each: cuts: {list(cut)!r}"
            )
        else:
            problems.append(f"cuts[{n}]: {_shown(cut)} is not a cut; {A_CUT}, or a Target")
    for n, edit in enumerate(edits):
        if not isinstance(edit, Mapping):
            problems.append(f"edits[{n}]: {_shown(edit)} is not an edit; an edit is a mapping, {{'op': ...}}")
    return problems


def _shown(value: Any) -> str:
    """Say a value as its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _named(variant: Variant, extra: Sequence[str] = ()) -> Variant:
    """Give a variant a name from what it changes."""
    parts = [variant.base] if variant.base else []
    if variant.weather:
        parts.append(str(variant.weather))
    if variant.cuts:
        parts.append("cut " + "+".join(str(c) for c in variant.cuts))
    parts += [f"{k}={v}" for k, v in variant.options]
    if variant.edits:
        parts.append(f"{len(variant.edits)} edits")
    parts += extra
    return replace(variant, name=" / ".join(parts) or "as is")


def grid(
    bases: Sequence[str] = ("",),
    weather: Sequence[str | None] = (None,),
    cuts: Sequence[Iterable[Any]] = ((),),
    options: Sequence[Mapping[str, Any]] = ({},),
) -> list[Variant]:
    """Return every combination of the given bases, weathers, cut sets and readings, as variants.

    Each argument is a list of the values to combine; ``cuts`` a list of cut sets (each a list) and
    ``options`` a list of mappings.

    Raises
    ------
    RefusedError
        For an argument that is not a list (``weather="Storm"`` would sweep the weathers "S", "t", ...),
        a cut set that is not a list (``cuts=["B2816"]`` for ``cuts=[["B2816"]]``) or options that are
        not a mapping.
    """
    examples = {
        "bases": "['bfn_1944-06-13_am']", "weather": "['Clear', 'Storm']",
        "cuts": "[[], ['B4015|B4114']]", "options": "[{}, {'hq_bridging': 'for_its_units'}]",
    }  # fmt: skip
    lists: dict[str, list[Any]] = {}
    for name, given in (("bases", bases), ("weather", weather), ("cuts", cuts), ("options", options)):
        if isinstance(given, str | bytes | Mapping) or not isinstance(given, Iterable):
            raise RefusedError(
                f"grid: {name}: {_shown(given)} is not a list; write e.g. {name}={examples[name]}"
            )
        lists[name] = list(given)
    for n, cut_set in enumerate(lists["cuts"]):
        if isinstance(cut_set, str | bytes) or not isinstance(cut_set, Iterable):
            raise RefusedError(
                f"grid: cuts[{n}]: {_shown(cut_set)} is not a list of cuts; each variant's cuts are a list: "
                f"cuts=[[], [{_shown(cut_set)}]]"
            )
    for n, reading in enumerate(lists["options"]):
        if not isinstance(reading, Mapping):
            raise RefusedError(f"grid: options[{n}]: {_shown(reading)} is not a mapping of option: value")
    return [
        Variant.of({"base": b, "weather": w, "cuts": list(c), "options": dict(o)})
        for b, w, c, o in itertools.product(*lists.values())
    ]
