"""Write the generated tables of docs/grids.md (between the GENERATED markers).

Run after changing control points, coastal hexes, gazetteer coordinates or sheet placements::

    python scripts/write_grid_tables.py

tests/test_docs.py checks that the committed tables match the code.
"""

from __future__ import annotations

from pathlib import Path

from normandy_lab import SYSTEMS, grid

DOC = Path(__file__).resolve().parents[1] / "docs" / "grids.md"
BEGIN, END = "<!-- GENERATED TABLES: BEGIN -->", "<!-- GENERATED TABLES: END -->"


def tables() -> str:
    """Return the markdown of the generated tables."""
    lines = ["### Extent, hex count and fitted placement", ""]
    lines += [
        "| system | sheets | hexes | printed hex | fitted hex | rotation | longitude | latitude |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for system in SYSTEMS:
        info = grid(system).describe()
        sheets = ", ".join(s or "(one)" for s in info["sheets"])
        lines.append(
            f"| `{system}` | {sheets} | {info['hexes']:,} | {info['nominal_hex_m']:.0f} m | "
            f"{info['fitted_hex_m']:.0f} m | {info['rotation_deg']:+.2f}° | "
            f"{info['lon_range'][0]:.2f} to {info['lon_range'][1]:.2f} | "
            f"{info['lat_range'][0]:.2f} to {info['lat_range'][1]:.2f} |"
        )
    lines += ["", "### Residuals of the fit points", ""]
    lines += [
        "| system | sheet | points | RMS km | max km | RMS hex | max hex |",
        "|---|---|---|---|---|---|---|",
    ]
    for system in SYSTEMS:
        for row in grid(system).residual_summary().itertuples():
            lines.append(
                f"| `{system}` | {row.sheet} | {row.points} | {row.rms_km:.2f} | {row.max_km:.2f} | "
                f"{row.rms_hex:.2f} | {row.max_hex:.2f} |"
            )
    for system in SYSTEMS:
        lines += ["", f"### Control points of `{system}`", ""]
        lines += [
            "| hex | place | use | residual km | residual hex | place falls in | hexes off |",
            "|---|---|---|---|---|---|---|",
        ]
        for row in grid(system).residuals().itertuples():
            hexes = row.hex_id if len(row.hex_id) <= 24 else row.hex_id.split("+")[0] + "+… (group)"
            lines.append(
                f"| {hexes} | {row.place} | {row.use} | {row.residual_km:.2f} | {row.residual_hex:.2f} | "
                f"{row.located_hex} | {row.hexes_off} |"
            )
    for system in SYSTEMS:
        coast = grid(system).coast_residuals()
        if coast.empty:
            continue
        lines += ["", f"### Coastal hexes of `{system}`", ""]
        lines += [
            "| hex | use | seaward of the shoreline, hex | seaward, km | band, hex | in band |",
            "|---|---|---|---|---|---|",
        ]
        for row in coast.itertuples():
            lines.append(
                f"| {row.hex_id} | {row.use} | {row.seaward_hex:+.2f} | {row.seaward_km:+.2f} | "
                f"{row.band_low_hex:+.1f} to {row.band_high_hex:+.1f} | {'yes' if row.in_band else 'no'} |"
            )
    return "\n".join(lines) + "\n"


def main() -> None:
    text = DOC.read_text(encoding="utf-8")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    DOC.write_text(f"{head}{BEGIN}\n\n{tables()}\n{END}{tail}", encoding="utf-8")
    print(f"updated {DOC}")


if __name__ == "__main__":
    main()
