"""Render one date of the lodgement record to PNG (and HTML), to check digitising.

    python scripts/render_history.py --date 1944-06-06 --out /tmp/0606.png
    python scripts/render_history.py --file maps/history/lodgement_june.yaml --date 1944-06-06 --out x.png

The map shows the GSHHG land, the Allied-held ground, the front line (red) and
the dated facts of that date (blue: Allied, dark red: German).
"""

from __future__ import annotations

import argparse
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--date", required=True, help="YYYY-MM-DD")
    parser.add_argument("--out", required=True, help="PNG path (an .html is written beside it)")
    parser.add_argument("--file", action="append", help="lodgement file(s) instead of maps/history/")
    parser.add_argument("--facts", action="append", help="fact file(s) instead of maps/history/")
    parser.add_argument("--extent", nargs=4, type=float, metavar=("W", "S", "E", "N"))
    args = parser.parse_args()
    from normandy_lab.views.export import save_png
    from normandy_lab.views.history import history_map

    fig = history_map(args.date, extent=args.extent, files=args.file, fact_files=args.facts)
    out = save_png(fig, Path(args.out), width=1000, height=800)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
