"""Open the historical scenarios in the explorer from a notebook: a list and a button.

The tour lists every scenario in ``scenarios/`` (its date, turn and title,
and how its units' front compares with the historical line) and opens the
chosen one in the explorer below the button.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from normandy_lab.engine.scenario import SCENARIO_DIR


def scenario_list(directory: str | Path = SCENARIO_DIR) -> list[tuple[str, str]]:
    """Return ``(label, name)`` of every scenario file in ``directory``, in date order.

    The label is the scenario's own ``name`` line (read without loading the
    whole file); the name is what :func:`normandy_lab.load_scenario` takes.
    """
    found = []
    for path in sorted(Path(directory).glob("*.yaml")):
        title = path.stem
        with path.open(encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("name:"):
                    title = line.split(":", 1)[1].strip().strip("'\"")
                    break
        found.append((f"{title} ({path.stem})", path.stem))
    return found


class ScenarioLauncher:
    """A dropdown of the scenarios and a button that opens the chosen one in the explorer.

    Attributes
    ----------
    choice
        The ``ipywidgets.Dropdown`` of scenarios.
    button
        The "Open in the explorer" button.
    output
        Where the explorer appears.
    explorer
        The last explorer opened (None before the first click).
    app
        The widget to display.
    """

    def __init__(self, directory: str | Path = SCENARIO_DIR, **explorer_options: Any) -> None:
        import ipywidgets as w

        options = scenario_list(directory)
        self.directory = Path(directory)
        self.choice = w.Dropdown(options=options, description="Scenario", layout=w.Layout(width="520px"))
        self.button = w.Button(
            description="Open in the explorer",
            button_style="primary",
            icon="map",
            layout=w.Layout(width="190px"),
        )
        self.output = w.Output()
        self.explorer = None
        self.explorer_options = explorer_options
        self.button.on_click(lambda _button: self.open())
        self.app = w.VBox([w.HBox([self.choice, self.button]), self.output])

    def open(self, name: str | None = None):  # -> Explorer
        """Open ``name`` (default: the chosen scenario) in the explorer, replacing the previous one.

        Raises
        ------
        ScenarioNotFoundError
            For a name that is not one of the launcher's scenarios, with the nearest; the explorer
            shown stays.
        """
        import difflib

        from normandy_lab.engine.scenario import ScenarioNotFoundError
        from normandy_lab.views.explorer import explore

        name = self.choice.value if name is None else name
        names = [value for _label, value in self.choice.options]
        if not (isinstance(name, str) and name in names):
            close = difflib.get_close_matches(name, names, n=3) if isinstance(name, str) else []
            hint = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
            raise ScenarioNotFoundError(
                f"open: name: {name!r:.80} is not a scenario of {self.directory}; {hint}"
                f"give one of {', '.join(repr(n) for n in names)}"
            )
        self.output.clear_output()
        self.explorer = explore(self.directory / f"{name}.yaml", **self.explorer_options)
        with self.output:
            from IPython.display import display

            display(self.explorer.app)
        return self.explorer

    def _ipython_display_(self) -> None:  # pragma: no cover - needs a front end
        from IPython.display import display

        display(self.app)


def scenario_launcher(**explorer_options: Any) -> ScenarioLauncher:
    """Return a :class:`ScenarioLauncher` over the project's scenarios."""
    return ScenarioLauncher(**explorer_options)
