"""Paper sizes (``templates/paper.yaml``), in millimetres, portrait."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from pydantic import Field, ValidationError

from generator.core.errors import InputError, SheetsmithError
from generator.core.models import StrictModel, pydantic_problems
from generator.core.paths import TEMPLATES_DIR
from generator.core.yamlpos import load_yaml


@dataclass(frozen=True)
class Paper:
    """A sheet of paper: ``id`` (``a4``), ``width`` × ``height`` in mm (portrait), display ``label``."""

    id: str
    width: float
    height: float
    label: str


class _Size(StrictModel):
    width: float = Field(gt=50, lt=2000)
    height: float = Field(gt=50, lt=2000)
    label: str


class _PaperFile(StrictModel):
    kind: str
    sizes: dict[str, _Size]


@lru_cache(maxsize=None)
def papers() -> dict[str, Paper]:
    """All paper sizes of ``templates/paper.yaml``, by id.

    Raises:
        InputError: the paper file is malformed.
    """
    doc = load_yaml(TEMPLATES_DIR / "paper.yaml")
    try:
        spec = _PaperFile.model_validate(doc.data)
    except ValidationError as exc:
        raise InputError(pydantic_problems(exc, doc)) from None
    return {k: Paper(k, v.width, v.height, v.label) for k, v in spec.sizes.items()}


def paper(paper_id: str) -> Paper:
    """The paper size ``paper_id`` (case-insensitive).

    Raises:
        SheetsmithError: unknown paper; the message lists the known ones.
    """
    known = papers()
    key = paper_id.lower()
    if key not in known:
        raise SheetsmithError(f"unknown paper '{paper_id}'; use one of: {', '.join(known)}")
    return known[key]
