"""Schema errors (pydantic) turned into located problems: ``FILE:LINE:COL: error: message``."""

from __future__ import annotations

import difflib
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError
from pydantic_core import ErrorDetails, PydanticCustomError

from generator.core.errors import Problem
from generator.core.validation import quote, text_problem
from generator.core.yamlpos import Document


class StrictModel(BaseModel):
    """Base of every file schema: unknown keys are errors, values are never silently changed."""

    model_config = ConfigDict(extra="forbid", frozen=True)


EXAMPLES = {
    "hands": "{reward: single, bonus: 2}",
    "chips": "{earned: 5, spent: 2}",
    "style": "{card_height: 32}",
    "strings": "{player: 'Name'}",
}
"""Examples shown when a key needs a mapping (by the first part of its path)."""


def _dotted(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc)


def allowed_keys(model: type[BaseModel] | None, loc: tuple[Any, ...]) -> list[str]:
    """Keys a mapping at ``loc`` (relative to ``model``) may have: the fields of the model found there."""
    current: Any = model
    for part in loc:
        if isinstance(current, type) and issubclass(current, BaseModel):
            field = current.model_fields.get(str(part))
            if field is None:
                return []
            current = field.annotation
        elif get_origin(current) is dict:
            current = get_args(current)[1]
        else:
            return []
        while get_origin(current) in (Union, UnionType):  # Optional[X] -> X
            args = [a for a in get_args(current) if a is not type(None)]
            current = args[0] if len(args) == 1 else None
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return []


def problem_from_error(
    err: ErrorDetails, doc: Document, prefix: tuple[Any, ...] = (), model: type[BaseModel] | None = None
) -> Problem:
    """One pydantic error (an item of ``ValidationError.errors()``) as a located :class:`Problem`.

    ``prefix`` is prepended to the error's ``loc`` to find the value in ``doc``
    (for models validated on a part of the document); ``model``, when given,
    lets an unknown key be matched against the allowed ones ("did you mean").
    """
    loc = tuple(err.get("loc", ()))
    path = prefix + loc
    kind = err.get("type", "")
    name = _dotted(path) or "the file"
    if kind == "extra_forbidden":
        parent = path[:-1]
        allowed = allowed_keys(model, loc[:-1]) if model else []
        close = difflib.get_close_matches(str(path[-1]), allowed, n=1, cutoff=0.6)
        hint = (
            f"did you mean '{close[0]}'?"
            if close
            else (f"allowed: {', '.join(allowed)}" if allowed else "check the spelling")
        )
        return doc.problem(
            path, f"unknown key '{path[-1]}'{' in ' + _dotted(parent) if parent else ''}; {hint}", key=True
        )
    if kind == "missing":
        return doc.problem(
            path[:-1], f"missing key '{path[-1]}'{' in ' + _dotted(path[:-1]) if path[:-1] else ''}", key=True
        )
    got = err.get("input")
    written = doc.written(path)
    if isinstance(got, str):
        shown = quote(got)
    elif isinstance(got, (dict, list)):
        shown = "a mapping" if isinstance(got, dict) else "a list"
    elif written is not None and got is not None:
        shown = quote(written)[1:-1]  # as the file spells it: 0012, not 12
    else:
        shown = repr(got)
    if kind in TEXT_CHECKS and isinstance(got, str):  # said again with the key's name, by the check that refused it
        ctx = err.get("ctx", {})
        check = ctx.get("check", text_problem)
        return doc.problem(path, check(got, name, multiline=bool(ctx.get("multiline"))) or f"{name} cannot be printed")
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        example = EXAMPLES.get(path[0] if path else "", "")
        return doc.problem(
            path, f"{name} needs a mapping of keys{' such as ' + example if example else ''}, not {shown}"
        )
    if kind == "string_type":
        return doc.problem(path, f"{name} must be text, not {shown}; put it in quotes ('...')")
    if kind == "literal_error":
        expected = err.get("ctx", {}).get("expected", "")
        return doc.problem(path, f"{name} must be {expected}, not {shown}")
    if kind == "string_pattern_mismatch" and path and path[-1] == "id":
        return doc.problem(path, f"id must be 1 to 40 lower-case letters, digits and '-', not {shown}")
    if kind == "string_pattern_mismatch":
        return doc.problem(path, f"{name} must be a colour like '#1d2b45', not {shown}")
    msg = err.get("msg", "invalid value")
    return doc.problem(path, f"{name}: {msg[0].lower() + msg[1:]} (got {shown})")


def pydantic_problems(
    exc: ValidationError, doc: Document, prefix: tuple[Any, ...] = (), model: type[BaseModel] | None = None
) -> list[Problem]:
    """Every error of a pydantic ``ValidationError`` as located problems (see :func:`problem_from_error`)."""
    return [problem_from_error(e, doc, prefix, model) for e in exc.errors()]


def validate(model: type[BaseModel], doc: Document, prefix: tuple[Any, ...] = ()) -> Any:
    """Validate ``doc.data`` with ``model``; on failure raise every error located in the file.

    Raises:
        InputError: one located problem per schema error.
    """
    from pydantic import ValidationError

    from generator.core.errors import InputError

    try:
        return model.model_validate(doc.data)
    except ValidationError as exc:
        raise InputError(pydantic_problems(exc, doc, prefix, model=model)) from None


TEXT_CHECKS = ("one_line", "printed_text")
"""The kinds of error a text validator raises; its context holds ``check(text, what, multiline=...)``, the function
that refused the text, so that the message names the key (:func:`problem_from_error`)."""


def _one_line(value: str) -> str:
    if text_problem(value, "text"):
        raise PydanticCustomError(
            "one_line", "text with a control character or line break", {"multiline": False, "check": text_problem}
        )
    return value


OneLine = Annotated[str, AfterValidator(_one_line)]
"""A one-line text that is not printed (a description for listings): no control character or line break."""
