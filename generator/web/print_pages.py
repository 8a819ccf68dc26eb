"""Pages 1 and 4: *Print* (every shipped item and custom layouts, as A4/Letter PDFs) and the layout *Editor*.

The drawing is :func:`generator.jobs.render.render_item` / :func:`~generator.jobs.render.render_loaded`,
the checking :func:`generator.jobs.check.check_files` / :func:`~generator.jobs.check.check_text`:
the same jobs as ``sheetsmith render`` and ``sheetsmith check``.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Optional, TypedDict

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.responses import JSONResponse, RedirectResponse, Response

from generator.core.errors import SheetsmithError
from generator.core.shipped import shipped_layouts
from generator.jobs import check, render
from generator.web.common import attachment, error_page, page, problem_dict, read_upload

router = APIRouter()

PAPERS = {"a4": "A4", "letter": "US Letter"}
THUMB_DPI = 60
EDITOR_FILE = "layout.yaml"
"""How the editor's text is named in its messages."""


def _paper(paper: str) -> str:
    """The paper a request names (``a4``, ``letter``, any case); another name is a 422 that lists the sizes."""
    from fastapi import HTTPException

    if paper.lower() in PAPERS:
        return paper.lower()
    raise HTTPException(422, f"paper {paper[:40]!r}: sheetsmith prints on {' or '.join(PAPERS)}")


@lru_cache(maxsize=1)
def shipped_items() -> list[dict]:
    """Every shipped item with its title, summary and folder (checked once per server run)."""
    shipped = shipped_layouts()
    out = []
    for item, checked in zip(shipped, check.check_files([s.path for s in shipped])):
        out.append(
            {
                "id": item.id,
                "folder": item.game,
                "title": checked.title or item.id,
                "summary": checked.summary if checked.ok else "invalid: run 'sheetsmith check'",
                "ok": checked.ok,
            }
        )
    return out


def _shipped(item_id: str) -> Optional[dict]:
    return next((x for x in shipped_items() if x["id"] == item_id and x["ok"]), None)


_RENDER_LOCK = threading.Lock()
"""One drawing at a time: requests come in on several threads, and the drawing libraries keep global state
(PDFium is not thread-safe at all); drawing holds the GIL anyway, so nothing is lost."""


@lru_cache(maxsize=64)
def _shipped_render(item_id: str, fmt: str, paper: str, dpi: int) -> bytes:
    with _RENDER_LOCK:
        return render.render_item(item_id, fmt=fmt, paper=paper, dpi=dpi).data


@lru_cache(maxsize=64)
def _text_render(text: str, fmt: str, paper: str, dpi: int) -> bytes:
    with _RENDER_LOCK:
        return render.render_text(text, EDITOR_FILE, fmt=fmt, paper=paper, dpi=dpi).data


def _file_name(title: str, paper: str, ext: str) -> str:
    stem = "".join(c if c.isascii() and c.isalnum() else "-" for c in title).strip("-") or "sheet"
    return f"{stem[:40]}-{paper}.{ext}"


@router.get("/print")
def print_page(request: Request):
    """Page 1: every shipped item with its preview and PDF downloads, then the custom layouts."""
    store = request.app.state.store
    customs = []
    for c in store.layouts():
        checked = check.check_text(c["text"], EDITOR_FILE)
        customs.append(
            {**c, "ok": checked.ok, "summary": checked.summary if checked.ok else "has errors: open it in the editor"}
        )
    groups: dict[str, list[dict]] = {}
    for item in shipped_items():
        groups.setdefault(item["folder"], []).append(item)
    names = {"allin": "All In player sheets", "decks": "Decks", "chips": "Chips", "pads": "Score pads and ledgers"}
    return page(
        request, "print.html", groups=[(names.get(k, k), v) for k, v in groups.items()], customs=customs, papers=PAPERS
    )


@router.get("/print/preview/{item_id}.png")
def shipped_preview(item_id: str, paper: str = "a4"):
    """A shipped item's first page as a small PNG."""
    if _shipped(item_id) is None:
        return Response(status_code=404)
    return Response(
        _shipped_render(item_id, "png", _paper(paper), THUMB_DPI),
        media_type="image/png",
        headers={"Cache-Control": "max-age=3600"},
    )


@router.get("/print/pdf/{item_id}")
def shipped_pdf(item_id: str, paper: str = "a4"):
    """A shipped item as a PDF to print (every page)."""
    if _shipped(item_id) is None:
        return Response(status_code=404)
    paper = _paper(paper)
    return attachment(_shipped_render(item_id, "pdf", paper, 150), "application/pdf", f"{item_id}-{paper}.pdf")


@router.post("/print/custom")
async def add_custom(request: Request, layout: UploadFile = File(...)):
    """Upload a layout (or deck, chips, pad) YAML file: checked like ``sheetsmith check``, then kept for printing."""
    data = await read_upload(layout)
    checked = check.check_text(data, "upload.yaml")
    if not checked.ok:
        return error_page(
            request,
            "This layout has errors",
            ["Correct them (the editor shows each line), then upload it again."],
            problems=checked.problems,
            status_code=422,
            back="/print",
        )
    text = data.decode("utf-8-sig")
    layout_id = request.app.state.store.add_layout(checked.title, text)
    return RedirectResponse(f"/print#custom-{layout_id}", status_code=303)


def _custom(request: Request, layout_id: str) -> Optional[dict]:
    return request.app.state.store.layout(layout_id)


@router.get("/print/custom/{layout_id}/preview.png")
def custom_preview(request: Request, layout_id: str, paper: str = "a4"):
    """A custom layout's first page as a small PNG."""
    c = _custom(request, layout_id)
    if c is None:
        return Response(status_code=404)
    return Response(_text_render(c["text"], "png", _paper(paper), THUMB_DPI), media_type="image/png")


@router.get("/print/custom/{layout_id}/pdf")
def custom_pdf(request: Request, layout_id: str, paper: str = "a4"):
    """A custom layout as a PDF to print."""
    c = _custom(request, layout_id)
    if c is None:
        return Response(status_code=404)
    paper = _paper(paper)
    return attachment(
        _text_render(c["text"], "pdf", paper, 150), "application/pdf", _file_name(c["name"], paper, "pdf")
    )


@router.get("/print/custom/{layout_id}/yaml")
def custom_yaml(request: Request, layout_id: str):
    """A custom layout's YAML file."""
    c = _custom(request, layout_id)
    if c is None:
        return Response(status_code=404)
    return attachment(c["text"].encode("utf-8"), "application/yaml", _file_name(c["name"], "layout", "yaml"))


@router.post("/print/custom/{layout_id}/delete")
def delete_custom(request: Request, layout_id: str):
    """Forget a custom layout."""
    request.app.state.store.delete_layout(layout_id)
    return RedirectResponse("/print#custom", status_code=303)


# --------------------------------------------------------------------------- the editor


def _starts() -> list[dict]:
    """The shipped All In sheets the editor can start from."""
    return [
        {"id": s.id, "title": next((x["title"] for x in shipped_items() if x["id"] == s.id), s.id)}
        for s in shipped_layouts()
        if s.game == "allin"
    ]


def _start_text(start: str) -> str:
    """A shipped sheet's YAML to start from, with an id of its own (a shipped id names the shipped sheet)."""
    import re

    from generator.core.shipped import fresh_id

    path = next((s.path for s in shipped_layouts() if s.id == start and s.game == "allin"), None)
    if path is None:
        path = next(s.path for s in shipped_layouts() if s.id == "q-diamonds")
    text = path.read_text(encoding="utf-8")
    return re.sub(r"(?m)^id:[ \t]*([A-Za-z0-9_-]+)[ \t]*$", lambda m: f"id: {fresh_id(m.group(1))}", text, count=1)


class EditorPreview(TypedDict):
    """The editor's answer (:func:`preview`)."""

    ok: bool
    svg: str
    problems: list[dict]
    title: str
    summary: str


def preview(text: str, paper: str = "a4") -> EditorPreview:
    """The editor's answer for ``text``: ``{"ok", "svg", "problems", "title", "summary"}`` (problems with line and
    column)."""
    checked = check.check_text(text, EDITOR_FILE)
    out: EditorPreview = {
        "ok": checked.ok,
        "svg": "",
        "problems": [problem_dict(p) for p in checked.problems],
        "title": checked.title,
        "summary": checked.summary,
    }
    if checked.ok:
        try:
            out["svg"] = _text_render(text, "svg", _paper(paper), 150).decode("utf-8")
        except SheetsmithError as exc:  # e.g. cards that do not fit the paper
            out["ok"] = False
            out["problems"] += [problem_dict(p) for p in getattr(exc, "problems", [])] or [
                {"file": EDITOR_FILE, "line": 0, "col": 0, "message": str(exc), "severity": "error", "text": str(exc)}
            ]
    return out


@router.get("/editor")
def editor(request: Request, start: str = "q-diamonds", layout: str = ""):
    """Page 4: the YAML of a layout (a shipped sheet, or a custom layout) with its preview."""
    custom = _custom(request, layout) if layout else None
    text = custom["text"] if custom else _start_text(start)
    return page(
        request,
        "editor.html",
        text=text,
        start=start,
        starts=_starts(),
        result=preview(text),
        papers=PAPERS,
        paper="a4",
    )


@router.post("/editor/preview")
def editor_preview(text: str = Form(""), paper: str = Form("a4")):
    """The live preview: the SVG and every message, as JSON (the page redraws as you type)."""
    return JSONResponse(preview(text, paper))


@router.post("/editor")
def editor_submit(request: Request, text: str = Form(""), action: str = Form("preview"), paper: str = Form("a4")):
    """The editor's buttons: preview (without JavaScript), download the YAML, or print (keep it on the Print page)."""
    if action == "download":
        return attachment(text.encode("utf-8"), "application/yaml", "layout.yaml")
    result = preview(text, paper)
    if action == "print" and result["ok"]:
        layout_id = request.app.state.store.add_layout(result["title"] or "custom", text)
        return RedirectResponse(f"/print#custom-{layout_id}", status_code=303)
    return page(
        request,
        "editor.html",
        text=text,
        start="",
        starts=_starts(),
        result=result,
        papers=PAPERS,
        paper=_paper(paper),
        status_code=200 if result["ok"] else 422,
    )
