"""YAML that remembers where things are: line numbers for clear data errors.

Data files (scenarios, the historical record) report a mistake as
``file:line: field: what is wrong; how to fix it``.  ``load_yaml_with_lines``
parses YAML into :class:`LineDict` mappings that carry the line of the mapping
and of each key, and turns a syntax error into the caller's error type with the
line where the parser stopped.
"""

from __future__ import annotations

from typing import Any

import yaml

#: The safe loader, in its libyaml (C) build when PyYAML has one: it parses the
#: data files ten times faster than the pure-Python loader and builds the same
#: Python values (plain types only; no Python objects are ever constructed).
SAFE_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(stream: Any) -> Any:
    """Parse YAML text or an open file into plain Python values (the fast safe loader)."""
    return yaml.load(stream, Loader=SAFE_LOADER)


class _LineLoader(SAFE_LOADER):  # type: ignore[misc,valid-type]
    """A YAML loader that remembers the line of every mapping key."""


class LineDict(dict):
    """A dict that knows the line (1-based) of itself and of each of its keys."""

    line: int = 0
    key_lines: dict[str, int]

    def line_of(self, key: str) -> int:
        """Return the line of ``key`` if present, else the line of the mapping."""
        return getattr(self, "key_lines", {}).get(key, self.line)


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> LineDict:
    mapping = LineDict()
    mapping.line = node.start_mark.line + 1
    mapping.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        mapping[key] = loader.construct_object(value_node, deep=True)
        mapping.key_lines[key] = key_node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load_yaml_with_lines(text: str, path: str, error: type[Exception]) -> Any:
    """Parse YAML ``text``; mappings become :class:`LineDict`.

    Parameters
    ----------
    text
        The YAML document.
    path
        The file name used in error messages.
    error
        The exception type raised on a syntax error, with ``path:line``.
    """
    try:
        return yaml.load(text, Loader=_LineLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else 0
        raise error(
            f"{path}:{line}: YAML syntax error: {getattr(exc, 'problem', exc)}; "
            "check indentation, colons and quotes on that line"
        ) from None
