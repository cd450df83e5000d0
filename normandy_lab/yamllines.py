"""YAML that remembers where things are: line numbers for clear data errors.

Data files (scenarios, the historical record) report a mistake as
``file:line: field: what is wrong; how to fix it``.  ``load_yaml_with_lines``
parses YAML into :class:`LineDict` mappings that carry the line of the mapping
and of each key, and turns a syntax error into the caller's error type with the
line where the parser stopped.
"""

from __future__ import annotations

import re
import stat
from pathlib import Path
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


class LineDict(dict[Any, Any]):
    """A dict that knows the line (1-based) of itself and of each of its keys."""

    line: int = 0
    # A key is a plain word or number (YAML reads 1944 or 20.025 as numbers).
    key_lines: dict[str | int | float, int]

    def line_of(self, key: str) -> int:
        """Return the line of ``key`` if present, else the line of the mapping."""
        lines: dict[str | int | float, int] = getattr(self, "key_lines", {})
        return lines.get(key, self.line)


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> LineDict:
    mapping = LineDict()
    mapping.line = node.start_mark.line + 1
    mapping.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        if not isinstance(key, str | int | float | bool) or key is None:
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"a key must be a plain word or number, not {type(key).__name__}",
                key_node.start_mark,
            )
        if key in mapping:
            # A repeated key would silently replace the first (a second 'units:' would drop them all).
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"the key {key!r} is given twice (first at line {mapping.key_lines[key]}); keep one",
                key_node.start_mark,
            )
        mapping[key] = loader.construct_object(value_node, deep=True)
        mapping.key_lines[key] = line
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _construct_timestamp(loader: _LineLoader, node: yaml.ScalarNode) -> Any:
    """Read an unquoted date; an impossible one (1944-02-30) is an error on its line, not a crash."""
    try:
        return loader.construct_yaml_timestamp(node)
    except (ValueError, OverflowError):
        raise yaml.constructor.ConstructorError(
            None, None, f"{node.value!r} is not a real date; write YYYY-MM-DD", node.start_mark
        ) from None


_LineLoader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)

#: The largest data file read (bytes): the project's largest scenario is under 1 MB.
MAX_FILE_BYTES = 20 * 1024 * 1024
#: The deepest nesting of mappings and lists a data file may have (scenarios use about 6).
MAX_DEPTH = 40


def read_user_text(path: str | Path, error: type[Exception], what: str = "file") -> str:
    """Read a user's data file as UTF-8 text, refusing what cannot be one.

    Only a regular file is read (not a device, a pipe or a folder), at most
    :data:`MAX_FILE_BYTES`; the text must be UTF-8 (a byte-order mark is
    allowed), and an error names the encoding it seems to be in.
    """
    path = Path(path)
    try:
        status = path.stat()
    except OSError as exc:
        raise error(f"{path}: cannot read the {what}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(status.st_mode):
        raise error(f"{path}: not a regular file (a device, pipe or folder); give the path of a {what}")
    if status.st_size > MAX_FILE_BYTES:
        raise error(
            f"{path}: {status.st_size:,} bytes is larger than the {MAX_FILE_BYTES:,} bytes (20 MiB) "
            f"a {what} may have; is it the right file?"
        )
    with path.open("rb") as handle:
        data = handle.read(MAX_FILE_BYTES + 1)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{path}: {_encoding_problem(data, exc)}; save the file as UTF-8") from None


def _encoding_problem(data: bytes, exc: UnicodeDecodeError) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "the text is UTF-16, not UTF-8"
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "the text is UTF-32, not UTF-8"
    line = data[: exc.start].count(b"\n") + 1
    return f"line {line}: byte 0x{data[exc.start]:02x} is not UTF-8 (the file may be Latin-1 or Windows-1252)"


#: The most parser events (values, keys, lists and mappings opened and closed) a data file may have.
MAX_EVENTS = 300_000
#: The most aliases a file that may use them (the historical record) may have.
MAX_ALIASES = 1000


def check_structure(text: str, path: str, error: type[Exception], aliases: bool = False) -> None:
    """Refuse what could make a small YAML file expand or recurse without end.

    With ``aliases`` False (scenarios: none uses them) any anchor or alias
    (``&``, ``*``) is refused.  With ``aliases`` True (the historical record
    repeats an area that way) an alias may not stand inside an anchored value
    -- the nesting a "billion laughs" file needs to grow to gigabytes -- and
    there may be at most :data:`MAX_ALIASES`.  Nesting deeper than
    :data:`MAX_DEPTH` is refused either way.  Only the parser's events are
    read: nothing is built.
    """
    depth, used = 0, 0
    anchored: list[bool] = []  # per open collection: whether it has an anchor
    try:
        for count, event in enumerate(yaml.parse(text, Loader=SAFE_LOADER)):
            line = event.start_mark.line + 1 if event.start_mark is not None else 0  # the parser marks each
            if count > MAX_EVENTS:  # a file of millions of tiny values: refused before any is built
                raise error(
                    f"{path}:{line}: more than {MAX_EVENTS:,} values and entries; the largest scenario has "
                    "about 11,000 (5,000 units about 170,000): is it the right file?"
                )
            is_alias = isinstance(event, yaml.AliasEvent)
            if not aliases and (is_alias or getattr(event, "anchor", None)):
                raise error(
                    f"{path}:{line}: YAML anchors and aliases (& and *) are not accepted; write the value out"
                )
            if is_alias:
                used += 1
                if any(anchored) or used > MAX_ALIASES:
                    raise error(
                        f"{path}:{line}: an alias inside an anchored value, or more than {MAX_ALIASES} "
                        "aliases: refused (such a file can expand without end); write the values out"
                    )
            if isinstance(event, yaml.MappingStartEvent | yaml.SequenceStartEvent):
                depth += 1
                anchored.append(bool(event.anchor))
                if depth > MAX_DEPTH:
                    raise error(
                        f"{path}:{line}: nested more than {MAX_DEPTH} levels deep; is it the right file?"
                    )
            elif isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
                depth -= 1
                anchored.pop()
    except yaml.YAMLError:
        return  # the loader reports syntax errors with their line


# What YAML does not allow in a file (YAML 1.1, 5.1: only tab, line breaks and printable characters): the
# parser would report it at "position N" with no line, so it is found here first.
_NOT_PRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")
_CONTROL_NAMES = {0x00: "NUL", 0x1B: "ESC", 0x7F: "DEL", 0x08: "backspace", 0x0C: "form feed"}


def check_printable(text: str, path: str, error: type[Exception]) -> None:
    """Refuse a character YAML does not allow, naming its line, column and code point."""
    found = _NOT_PRINTABLE.search(text)
    if found is None:
        return
    start = found.start()
    line = text.count("\n", 0, start) + 1
    column = start - (text.rfind("\n", 0, start) + 1) + 1
    code = ord(found.group())
    name = _CONTROL_NAMES.get(code, "a control character")
    raise error(
        f"{path}:{line}: column {column}: the character U+{code:04X} ({name}) is not allowed in a YAML "
        "file; delete it (it often comes from copying out of a terminal or a word processor)"
    )


def load_yaml_with_lines(text: str, path: str, error: type[Exception], aliases: bool = False) -> Any:
    """Parse YAML ``text``; mappings become :class:`LineDict`.

    Parameters
    ----------
    text
        The YAML document.
    path
        The file name used in error messages.
    error
        The exception type raised on a syntax error, with ``path:line``.
    aliases
        Whether YAML aliases are accepted (see :func:`check_structure`).
    """
    check_printable(text, path, error)
    check_structure(text, path, error, aliases)
    try:
        return yaml.load(text, Loader=_LineLoader)
    except yaml.constructor.ConstructorError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else 0
        problem = str(getattr(exc, "problem", exc))
        if "could not determine a constructor" in problem:
            problem = f"{problem}; YAML tags (!...) are not accepted in data files"
        raise error(f"{path}:{line}: {problem}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else 0
        raise error(
            f"{path}:{line}: YAML syntax error: {getattr(exc, 'problem', exc)}; "
            "check indentation, colons and quotes on that line"
        ) from None
    except RecursionError:
        raise error(f"{path}: nested too deeply to read; is it the right file?") from None
