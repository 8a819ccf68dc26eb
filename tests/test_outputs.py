"""Where ``render`` writes (issue 15, item 3) and single pages of many-page items (item 7).

A user's file renders next to itself, replaced only with --force; a shipped id renders to
output/<folder>/ and is replaced freely; a copy that keeps a shipped id is warned about.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image

from .test_exit_codes import status

REPO = Path(__file__).resolve().parents[1]
Q_DIAMONDS = (REPO / "layouts" / "allin" / "q-diamonds.yaml").read_text(encoding="utf-8")
A4_PX_AT_50_DPI = (210 / 25.4 * 50, 297 / 25.4 * 50)  # 413.4 × 584.6 pixels


def test_a_copy_that_keeps_the_shipped_id_renders_next_to_itself_not_over_the_shipped_output(tmp_path, capsys):
    (tmp_path / "my-sheet.yaml").write_text(Q_DIAMONDS, encoding="utf-8")  # still 'id: q-diamonds'
    code, out, err = status(["render", "my-sheet.yaml"], tmp_path, capsys)
    assert code == 0, err
    assert out.strip().startswith("wrote my-sheet-a4.pdf (PDF, A4, 1 page")
    assert (tmp_path / "my-sheet-a4.pdf").read_bytes()[:5] == b"%PDF-"
    assert not (tmp_path / "output").exists()
    # the id is still worth a warning: typed-in sheets and photos name layouts by id
    assert "my-sheet.yaml:5:5: warning: id 'q-diamonds' is the id of a shipped item" in err
    assert "'id: my-sheet'" in err


def test_a_users_output_is_replaced_only_with_force(tmp_path, capsys):
    (tmp_path / "mine.yaml").write_text(Q_DIAMONDS.replace("id: q-diamonds", "id: mine"), encoding="utf-8")
    assert status(["render", "mine.yaml", "-f", "svg"], tmp_path, capsys)[0] == 0
    first = (tmp_path / "mine-a4.svg").read_bytes()
    (tmp_path / "mine-a4.svg").write_text("mine, hands off", encoding="utf-8")
    code, _, err = status(["render", "mine.yaml", "-f", "svg"], tmp_path, capsys)
    assert code == 2 and "mine-a4.svg: already exists; pass --force to replace it" in err
    assert (tmp_path / "mine-a4.svg").read_text(encoding="utf-8") == "mine, hands off"
    code, _, err = status(["render", "mine.yaml", "-f", "svg", "--force"], tmp_path, capsys)
    assert code == 0 and (tmp_path / "mine-a4.svg").read_bytes() == first
    assert "warning" not in err


def test_a_shipped_id_renders_to_output_folder_and_is_replaced_freely(tmp_path, capsys):
    for _ in range(2):
        code, out, _ = status(["render", "k-spades", "-f", "svg", "--paper", "letter"], tmp_path, capsys)
        assert code == 0 and out.startswith("wrote output/allin/k-spades-letter.svg")


def test_a_file_named_like_a_shipped_id_gets_a_fresh_id_suggestion(tmp_path, capsys):
    text = "\n".join(line for line in Q_DIAMONDS.splitlines() if not line.startswith("id:")) + "\n"
    (tmp_path / "q-diamonds.yaml").write_text(text, encoding="utf-8")  # no id: the id is the file name
    code, _, err = status(["check", "q-diamonds.yaml"], tmp_path, capsys)
    assert code == 0
    assert "warning: id 'q-diamonds' is the id of a shipped item" in err and "'id: q-diamonds-2'" in err


def test_one_page_of_a_deck_as_png(tmp_path, capsys):
    code, out, _ = status(
        ["render", "poker-deck", "-f", "png", "--page", "2", "--dpi", "50", "--no-backs"], tmp_path, capsys
    )
    # 54 cards, 9 a page, no backs: 6 pages
    assert code == 0 and out.startswith("wrote output/decks/poker-deck-a4-nobacks-p02.png (PNG, A4, page 2 of 6")
    with Image.open(tmp_path / "output" / "decks" / "poker-deck-a4-nobacks-p02.png") as im:
        assert all(abs(got - want) <= 1 for got, want in zip(im.size, A4_PX_AT_50_DPI))  # a page, not a card


def test_every_page_of_a_deck_as_png_files(tmp_path, capsys):
    code, out, _ = status(
        ["render", "poker-deck", "-f", "png", "--pages", "all", "--dpi", "50", "--no-backs"], tmp_path, capsys
    )
    assert code == 0 and "(6 PNG files, A4, one per page" in out
    folder = tmp_path / "output" / "decks"
    assert sorted(p.name for p in folder.glob("*.png")) == [f"poker-deck-a4-nobacks-p{i:02d}.png" for i in range(1, 7)]
    # the pages differ: page 1 is not repeated (the old behaviour gave page 1 only)
    assert len({(folder / f"poker-deck-a4-nobacks-p{i:02d}.png").read_bytes() for i in range(1, 7)}) == 6


@pytest.mark.parametrize(
    "args, name",
    [
        ([], "output/pads/flip7-pad-a4.pdf"),
        (["--variant", "target=300"], "output/pads/flip7-pad-a4-target300.pdf"),
        (["--variant", "target=200,flip7_bonus=20"], "output/pads/flip7-pad-a4-bonus20.pdf"),  # 200: the pad's own
        (
            ["--variant", "flip7_bonus=20,target=150", "--lang", "it"],
            "output/pads/flip7-pad-a4-it-target150-bonus20.pdf",
        ),
    ],
)
def test_a_pad_variant_is_written_beside_the_plain_pad_not_over_it(tmp_path, capsys, args, name):
    code, out, _ = status(["render", "flip7-pad", *args], tmp_path, capsys)
    assert code == 0 and out.startswith(f"wrote {name} ")
    assert [p.relative_to(tmp_path).as_posix() for p in (tmp_path / "output").rglob("*.pdf")] == [name]


@pytest.mark.parametrize(
    "args, stem",
    [
        (["--card-size", "poker"], "poker-deck-letter"),  # the deck's own size: nothing changed
        (["--card-size", "bridge", "--no-backs"], "poker-deck-letter-bridge-nobacks"),
        (["--bleed", "2", "--back-offset", "0.5,-0.3"], "poker-deck-letter-bleed2-offset0.5_-0.3"),
        (["--bleed", "-0"], "poker-deck-letter-bleed0"),
        (["--bleed", "0"], "poker-deck-letter-bleed0"),
    ],
)
def test_deck_options_are_written_beside_the_plain_deck_not_over_it(tmp_path, capsys, args, stem):
    code, _, _ = status(["render", "poker-deck", "--paper", "letter", *args], tmp_path, capsys)
    assert code == 0
    assert sorted(p.name for p in (tmp_path / "output" / "decks").iterdir()) == [f"{stem}.json", f"{stem}.pdf"]


def test_a_page_past_the_end_and_pages_all_as_pdf_are_usage_errors(tmp_path, capsys):
    code, _, err = status(["render", "poker-deck", "-f", "png", "--page", "7", "--no-backs"], tmp_path, capsys)
    assert code == 2 and "--page 7: this item has 6 pages on a4" in err
    code, _, err = status(["render", "poker-deck", "--pages", "all"], tmp_path, capsys)
    assert code == 2 and "a PDF holds every page already" in err
    code, _, err = status(["render", "poker-deck", "--page", "two"], tmp_path, capsys)
    assert code == 2 and "--page 'two'" in err
    assert not (tmp_path / "output").exists()


def test_one_page_of_a_deck_as_pdf(tmp_path, capsys):
    code, _, _ = status(["render", "poker-deck", "--page", "3", "-o", "p3.pdf"], tmp_path, capsys)
    assert code == 0
    assert len(pdfium.PdfDocument(str(tmp_path / "p3.pdf"))) == 1


def test_render_of_a_typed_in_sheet_suggests_fill(tmp_path, capsys):
    (tmp_path / "ann.yaml").write_text(
        (REPO / "docs" / "examples" / "ann.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    code, _, err = status(["render", "ann.yaml"], tmp_path, capsys)
    assert code == 2
    assert "'sheetsmith render q-diamonds --fill ann.yaml'" in err and "'sheetsmith verify ann.yaml'" in err
