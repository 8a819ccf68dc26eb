"""Schema errors (pydantic) turned into located problems: ``FILE:LINE:COL: error: message``."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from ..errors import Problem
from ..yamlpos import Document


class StrictModel(BaseModel):
    """Base of every file schema: unknown keys are errors, values are never silently changed."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def _dotted(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc)


def problem_from_error(err: dict[str, Any], doc: Document, prefix: tuple[Any, ...] = ()) -> Problem:
    """One pydantic error (an item of ``ValidationError.errors()``) as a located :class:`Problem`.

    ``prefix`` is prepended to the error's ``loc`` to find the value in ``doc``
    (for models validated on a part of the document).
    """
    loc = tuple(err.get("loc", ()))
    path = prefix + loc
    kind = err.get("type", "")
    name = _dotted(path) or "the file"
    if kind == "extra_forbidden":
        parent = path[:-1]
        return doc.problem(path, f"unknown key '{path[-1]}'{' in ' + _dotted(parent) if parent else ''}; check the spelling", key=True)
    if kind == "missing":
        return doc.problem(path[:-1], f"missing key '{path[-1]}'{' in ' + _dotted(path[:-1]) if path[:-1] else ''}", key=True)
    got = err.get("input")
    shown = repr(got) if not isinstance(got, (dict, list)) else type(got).__name__
    if kind == "literal_error":
        expected = err.get("ctx", {}).get("expected", "")
        return doc.problem(path, f"{name} must be {expected}, not {shown}")
    if kind == "string_pattern_mismatch" and path and path[-1] == "id":
        return doc.problem(path, f"id must be lower-case letters, digits and '-', not {shown}")
    if kind == "string_pattern_mismatch":
        return doc.problem(path, f"{name} must be a colour like '#1d2b45', not {shown}")
    msg = err.get("msg", "invalid value")
    return doc.problem(path, f"{name}: {msg[0].lower() + msg[1:]} (got {shown})")


def pydantic_problems(exc: ValidationError, doc: Document, prefix: tuple[Any, ...] = ()) -> list[Problem]:
    """Every error of a pydantic ``ValidationError`` as located problems."""
    return [problem_from_error(e, doc, prefix) for e in exc.errors()]
