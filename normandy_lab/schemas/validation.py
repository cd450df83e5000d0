"""Checking parsed data against a file kind's model, and saying what is wrong where (:func:`validate`).

An error is reported at the file's line with the field, what is wrong and the values allowed; the lines
come from the line-aware YAML nodes of :mod:`normandy_lab.yamllines`.  This module knows no file kind:
each schema module registers where its kinds' fields are described (:func:`register_doc_page`), for the
"unknown field" advice.
"""

from __future__ import annotations

import difflib
import re
from typing import Any, get_args, get_origin

from pydantic import BaseModel, TypeAdapter, ValidationError

from normandy_lab.schemas.fields import PATTERN_WORDS

# A file kind's model: a pydantic model, or a TypeAdapter for a file that is a mapping of lists.
Model = type[BaseModel] | TypeAdapter[Any]

# Where each kind's fields are described: a model (its subclasses too) or an adapter -> a docs page.
_DOC_PAGES: dict[Any, str] = {}


def register_doc_page(model: Model, page: str) -> None:
    """Say which page of ``docs/`` describes the fields of ``model`` (and of its subclasses)."""
    _DOC_PAGES[model] = page


def doc_page(model: Model) -> str:
    """Return where a file kind's fields are described (``docs/files.md`` unless registered)."""
    for kind in model.__mro__ if isinstance(model, type) else (model,):
        if kind in _DOC_PAGES:
            return _DOC_PAGES[kind]
    return "docs/files.md"


def validate(model: Model, data: Any, path: str, error: type[Exception]) -> None:
    """Validate parsed data against a model; raise ``error`` at the line of the first problem.

    The message reads ``file:line: field: what is wrong; how to fix it``; for
    a category it lists the values allowed and suggests the nearest.  Data
    without lines (JSON, or a value from code) is reported as ``file: field: ...``.
    """
    if not isinstance(model, TypeAdapter) and not isinstance(data, dict):
        title = model.model_config.get("title") or "data"
        what = "empty" if data is None else f"a {'list' if isinstance(data, list) else type(data).__name__}"
        raise error(
            f"{path}:1: the file is {what}, not a mapping of fields; write the fields of a {title} file "
            f"({doc_page(model)})"
        )
    try:
        if isinstance(model, TypeAdapter):
            model.validate_python(data)
        else:
            model.model_validate(data)
    except ValidationError as exc:
        errors: list[dict[str, Any]] = [dict(e) for e in exc.errors()]
        kinds = _union_kinds(errors)
        if kinds:  # a value none of a union's kinds takes: name them all, not the first one tried
            first = errors[0]
            loc = tuple(first["loc"][:-1])
            value = first.get("input")
            hint = (
                f" (write {int(value)}, not {value})"
                if isinstance(value, float) and value.is_integer() and "a whole number" in kinds
                else ""
            )
            raise error(
                f"{_where(path, data, loc)}: {_field_name(loc, data)}: {value!r} is none of the kinds this "
                f"value may be: {', '.join(kinds)}{hint}"
            ) from None
        first = _most_useful(errors)
        message = _message(first, data, path, doc_page(model))
        raise error(message + _misspelt(first, errors, model)) from None


# What each kind a union may take is called, for a value that is none of them (a marker edit's value).
_KIND_WORDS = {
    "bool_type": "true or false",
    "int_type": "a whole number",
    "string_type": "text",
    "dict_type": "a mapping",
    "list_type": "a list",
    "float_type": "a number",
}


def _union_kinds(errors: list[dict[str, Any]]) -> list[str]:
    """Return the kinds a union offered, when every error is one branch's type refusing one value; else []."""
    if len(errors) < 2 or len({tuple(e["loc"][:-1]) for e in errors}) != 1:
        return []
    if not all(e["type"] in _KIND_WORDS or e["type"] == "none_required" for e in errors):
        return []
    return list(dict.fromkeys(_KIND_WORDS[e["type"]] for e in errors if e["type"] in _KIND_WORDS))


def _most_useful(errors: list[dict[str, Any]]) -> dict[str, Any]:
    """Pick the error to report: the deepest location, not a union's alternatives over the whole value.

    Between equals an unknown field comes first: it is usually the misspelling of the one missing.
    """
    return max(
        errors,
        key=lambda e: (len(e["loc"]), e["type"] != "union_tag_invalid", e["type"] == "extra_forbidden"),
    )


def _misspelt(first: dict[str, Any], errors: list[dict[str, Any]], model: Model) -> str:
    """For an unknown field, name the field it most resembles: a missing one, else any of its mapping."""
    if first["type"] != "extra_forbidden":
        return ""
    parent, name = tuple(first["loc"][:-1]), str(first["loc"][-1])
    missing = [str(e["loc"][-1]) for e in errors if e["type"] == "missing" and tuple(e["loc"][:-1]) == parent]
    close = difflib.get_close_matches(name, missing, n=1)
    if close:
        return f" (did you mean {close[0]!r}, which is missing?)"
    close = difflib.get_close_matches(name, _fields_at(model, parent), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _fields_at(model: Model, loc: tuple[Any, ...]) -> list[str]:
    """Return the field names of the model reached by following ``loc`` through fields, lists and dicts."""
    annotation: Any = getattr(model, "_type", model)  # a TypeAdapter keeps the type it adapts
    for part in (*loc, None):
        while True:  # unwrap Annotated, X | None, list[X], dict[K, X] down to a model
            args = [a for a in get_args(annotation) if a is not type(None)]
            if isinstance(annotation, type) and issubclass(annotation, BaseModel):
                break
            if not args:
                return []
            annotation = args[-1] if get_origin(annotation) is dict else args[0]
        if part is None:
            return list(annotation.model_fields)
        if isinstance(part, int):
            continue
        field = annotation.model_fields.get(part)
        if field is None:
            return []
        annotation = field.annotation
    return []


def _field_name(loc: tuple[Any, ...], data: Any, missing: bool = False) -> str:
    """Name the field at ``loc`` as written in the file: ``records[0].allied[2].outline``.

    Pydantic puts the branch of a union in its locations (``date``, ``OffsetSchema``, ``str``); they are told
    from fields by walking the data: a part that is not a key or index of the value reached is a branch,
    except an edit's op (kept: it says which edit the fields were read as) and a missing field.
    """
    out, node = "", data
    for i, part in enumerate(loc):
        if isinstance(part, int) and isinstance(node, list) and 0 <= part < len(node):
            out, node = out + f"[{part}]", node[part]
        elif isinstance(node, dict) and part in node:
            out, node = (f"{out}.{part}" if out else str(part)), node[part]
        elif isinstance(node, dict) and node.get("op") == part:
            out = f"{out}.{part}" if out else str(part)  # an edit's op: which of the edits it was taken for
        elif missing and i == len(loc) - 1 and isinstance(node, dict):
            out = f"{out}.{part}" if out else str(part)  # a missing field
    return out or "(file)"


def line_of(data: Any, loc: tuple[Any, ...]) -> int:
    """Return the line of the deepest mapping key on the location's path (LineDict remembers them).

    Parameters
    ----------
    data
        The file as read (:class:`~normandy_lab.yamllines.LineDict` and lists).
    loc
        A pydantic error's location: keys and list positions, outermost first.

    Returns
    -------
    int
        The line number, 0 when ``data`` knows none.
    """
    line: int = getattr(data, "line", 0)
    node = data
    for part in loc:
        if isinstance(node, dict) and part in node:
            line = getattr(node, "key_lines", {}).get(part, getattr(node, "line", line))
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
            line = getattr(node, "line", line)
        else:
            break
    return line


def _where(path: str, data: Any, loc: tuple[Any, ...]) -> str:
    """Return ``path:line``, or the path alone when the data carries no lines (line 0)."""
    line = line_of(data, loc)
    return f"{path}:{line}" if line else path


def _message(err: dict[str, Any], data: Any, path: str, doc: str) -> str:
    # An edit's "op" tells which model applies: an unknown or missing op is reported as that field's.
    if err["type"] in ("union_tag_invalid", "union_tag_not_found"):
        ctx = err["ctx"]
        tag_field = (*err["loc"], ctx["discriminator"].strip("'"))
        if err["type"] == "union_tag_not_found":
            err = {**err, "type": "missing", "loc": tag_field}
        else:
            err = {**err, "type": "literal_error", "loc": tag_field, "input": ctx["tag"]}
            err["ctx"] = {"expected": ctx["expected_tags"]}
    loc = tuple(err["loc"])
    field = _field_name(loc, data, missing=err["type"] == "missing")
    value = err.get("input")
    kind = err["type"]
    shown = repr(value) if len(repr(value)) <= 80 else repr(value)[:77] + "..."
    if kind == "extra_forbidden":
        return f"{_where(path, data, loc)}: {field}: unknown field; see {doc} for the fields"
    if kind == "missing":
        return f"{_where(path, data, loc[:-1])}: {field}: missing required field; add it"
    if kind in ("literal_error", "enum"):
        allowed = err.get("ctx", {}).get("expected", "")
        options = [s.strip().strip("'") for s in allowed.replace(" or ", ",").split(",") if s.strip()]
        close = difflib.get_close_matches(str(value), options, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        return f"{_where(path, data, loc)}: {field}: {shown} is not allowed; {hint}use one of {allowed}"
    if kind == "string_type" and isinstance(value, int | float) and not isinstance(value, bool):
        # YAML reads 20.025 or 1944 as a number; the id or text was meant.
        return (
            f"{_where(path, data, loc)}: {field}: {shown} was read as a number; "
            f'write it in quotes ("{value}") so that it stays text'
        )
    said = re.sub(r" or instance of \w+", "", err["msg"])  # the model's class name means nothing in a file
    if kind == "string_pattern_mismatch":
        said = "not in the form required"  # the regular expression itself helps no one writing a file
    return f"{_where(path, data, loc)}: {field}: {shown}: {said}; {_advice(err, doc)}"


def _advice(err: dict[str, Any], doc: str) -> str:
    """How to fix a value of the wrong type or range."""
    kind, ctx = err["type"], err.get("ctx", {})
    if kind.startswith("int_"):
        return "give a whole number"
    if kind.startswith("float_"):
        return "give a number"
    if kind.startswith("bool_"):
        return "write true or false"
    if kind.startswith("date_"):
        return "write the date as YYYY-MM-DD, e.g. 1944-06-13"
    if kind == "string_type":
        return "write it as text"
    if kind == "list_type":
        return "give a list: [a, b], or one '- item' per line"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return "give a mapping of field: value"
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = {"greater_than_equal": "at least", "greater_than": "more than"}.get(kind, "at most")
        limit = ctx.get("ge", ctx.get("gt", ctx.get("le", ctx.get("lt"))))
        return f"give a number {bound} {limit}"
    if kind == "string_too_short":
        return "it may not be empty"
    if kind in ("too_short", "too_long", "string_too_long"):
        return "give the number of items said"
    if kind == "string_pattern_mismatch":
        return PATTERN_WORDS.get(ctx.get("pattern", ""), f"see {doc}")
    return f"see {doc}"


__all__ = ["Model", "doc_page", "line_of", "register_doc_page", "validate"]
