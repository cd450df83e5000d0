"""A campaign sweep in one call: every date of every game, in several weathers, with sets of cuts.

Each game's historical scenarios (:func:`~normandy_lab.engine.scenario.historical_scenarios`: one a date)
become the bases; each is played in each of the weathers asked for that its game has, and with each of its
game's cut sets (a bridge key is a hexside of one game's map, so cuts are given per game).  The table is the
sweep's, with a ``cuts`` column; :func:`campaign_counts` counts the units out of General Supply by game,
date, weather and cuts, and :func:`campaign_plot` draws them over the campaign's dates.

Examples
--------
>>> from normandy_lab.sweeps.campaign import campaign_sweep, campaign_plot
>>> table = campaign_sweep(cuts={"bfn": [[], ["B4015|B4114"]]})  # doctest: +SKIP
>>> campaign_plot(table)  # doctest: +SKIP
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from normandy_lab.errors import RefusedError
from normandy_lab.sweeps.variants import Variant

#: The weathers every game has (each game's own list is ``nl.rules.get(game).weather_effects``).
WEATHERS = ("Clear", "Overcast", "Storm")

#: The codes of rows that are not a unit's verdict: a variant that failed, or that the sweep did not run.
NOT_VERDICTS = ("error", "not_run")


def campaign_variants(
    games: Sequence[str] | None = None,
    weather: Sequence[str] = WEATHERS,
    cuts: Mapping[str, Sequence[Sequence[str]]] | None = None,
) -> list[Variant]:
    """Return the variants of a campaign sweep: each game's dates x the weathers it has x its cut sets.

    Parameters
    ----------
    games
        The games, by key (``"bfn"``, ``"cobra"``, ``"kg"``, ``"gts"``); None: every registered game.
    weather
        The weathers to play each date in; a game plays those of them it has (all four games have
        :data:`WEATHERS`).
    cuts
        Cut sets by game: ``{"bfn": [[], ["B4015|B4114"]]}`` plays every BfN date uncut and with the N174
        bridge at Pont-Hébert destroyed; a game not named is played uncut.

    Raises
    ------
    RefusedError
        A game that is not registered (with the nearest), cuts for a game not swept, or a weather that no
        swept game has.
    """
    from normandy_lab.engine.scenario import historical_scenarios
    from normandy_lab.rules import available, get

    known = available()
    chosen = list(known if games is None else games)
    for game in chosen:
        if game not in known:
            close = difflib.get_close_matches(str(game), known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise RefusedError(
                f"campaign_variants: games: {game!r} is not a game{hint}; give some of {known}"
            )
    cuts = dict(cuts or {})
    stray = sorted(set(cuts) - set(chosen))
    if stray:
        raise RefusedError(
            f"campaign_variants: cuts: {', '.join(map(repr, stray))} is not among the games swept "
            f"({chosen}); cuts are given by game, as a bridge or hex key is one game's map's"
        )
    variants = []
    played: set[str] = set()
    for game in chosen:
        own = [w for w in weather if w in get(game).weather_effects]
        played.update(own)
        for scenario in historical_scenarios(game):
            for w in own:
                for cut_set in cuts.get(game, [[]]):
                    variants.append(Variant.of({"base": scenario, "weather": w, "cuts": list(cut_set)}))
    unplayed = sorted(set(weather) - played)
    if unplayed:
        raise RefusedError(
            f"campaign_variants: weather: {', '.join(map(repr, unplayed))} is not a weather of any game "
            f"swept; each game's are in nl.rules.get(game).weather_effects (all have {', '.join(WEATHERS)})"
        )
    return variants


def campaign_sweep(
    games: Sequence[str] | None = None,
    weather: Sequence[str] = WEATHERS,
    cuts: Mapping[str, Sequence[Sequence[str]]] | None = None,
    **options: Any,
) -> pd.DataFrame:
    """Sweep the campaign (:func:`campaign_variants`) on Dask and return the sweep's table with ``cuts``.

    ``options`` go to :func:`~normandy_lab.sweeps.sweep` (``client=``, ``reasons=``, ``progress=``, ...);
    the default starts a local cluster for the sweep.  ``cuts`` in the table is the variant's cut keys
    joined with ``+``, or ``"none"``.
    """
    from normandy_lab.sweeps import sweep

    variants = campaign_variants(games, weather, cuts)
    table = sweep({}, variants, **options)
    label = {v.name: "+".join(v.cuts) or "none" for v in variants}
    attrs = dict(table.attrs)
    table.insert(table.columns.get_loc("weather") + 1, "cuts", table["variant"].map(label))
    table.attrs.update(attrs)
    return table


def campaign_counts(table: pd.DataFrame, side: str = "german") -> pd.DataFrame:
    """Return the units of ``side`` out of General Supply by game, date, weather and cuts.

    Rows that are not a unit's verdict (``error``, ``not_run``) are left out; a variant with no verdict at
    all has no count (it does not read as 0).
    """
    verdicts = table[~table["code"].isin(NOT_VERDICTS) & (table["side"] == side)]
    counts = (
        verdicts.assign(out=~verdicts["in_supply"].astype(bool))
        .groupby(["system", "date", "weather", "cuts", "variant"], sort=False)["out"]
        .sum()
        .rename("units_out")
        .reset_index()
    )
    counts["date"] = pd.to_datetime(counts["date"])
    return counts.sort_values(["system", "weather", "cuts", "date"], kind="stable").reset_index(drop=True)


def campaign_plot(table: pd.DataFrame, side: str = "german", width: int = 900, height: int = 420) -> Any:
    """Return a bokeh figure of ``side``'s units out of General Supply on each date of the campaign.

    A line per game, weather and cut set (colour: the game; dash: the weather; a cut set other than none:
    square markers).  Click a legend entry to hide its line.
    """
    from bokeh.models import ColumnDataSource, HoverTool
    from bokeh.palettes import Category10
    from bokeh.plotting import figure

    counts = campaign_counts(table, side)
    games = list(dict.fromkeys(counts["system"]))
    colours = {g: Category10[10][i % 10] for i, g in enumerate(games)}
    dashes = ["solid", "dashed", "dotted", "dotdash", "dashdot"]
    weathers = list(dict.fromkeys(counts["weather"]))
    fig = figure(
        width=width,
        height=height,
        x_axis_type="datetime",
        title=f"{side.title()} units out of General Supply",
        x_axis_label="date (1944)",
        y_axis_label="units out of supply",
        tools="pan,wheel_zoom,box_zoom,reset",
    )
    for (game, weather, cuts), series in counts.groupby(["system", "weather", "cuts"], sort=False):
        source = ColumnDataSource(series.assign(label=series["variant"]))
        legend = f"{game} · {weather}" + ("" if cuts == "none" else f" · cut {cuts}")
        dash = dashes[weathers.index(weather) % len(dashes)]
        fig.line("date", "units_out", source=source, color=colours[game], line_dash=dash, legend_label=legend)
        marker = "circle" if cuts == "none" else "square"
        fig.scatter("date", "units_out", source=source, color=colours[game], marker=marker, size=6,
                    legend_label=legend)  # fmt: skip
    fig.add_tools(HoverTool(tooltips=[("variant", "@label"), ("units out", "@units_out")]))
    fig.legend.click_policy = "hide"
    fig.legend.label_text_font_size = "8pt"
    fig.add_layout(fig.legend[0], "right")
    return fig
