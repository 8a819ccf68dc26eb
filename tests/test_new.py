"""``sheetsmith new allin FILE [--from ID]`` (issue 15, item 2): a starting file with a fresh id."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from generator.core.shipped import fresh_id, shipped_layouts

from .test_exit_codes import status

REPO = Path(__file__).resolve().parents[1]


def test_a_copy_of_a_shipped_sheet_gets_the_file_name_as_id_and_checks_clean(tmp_path, capsys):
    code, out, _ = status(["new", "allin", "my-sheet.yaml", "--from", "q-diamonds"], tmp_path, capsys)
    assert code == 0 and out.startswith("wrote my-sheet.yaml (a copy of Q♦ (q-diamonds), id 'my-sheet')")
    text = (tmp_path / "my-sheet.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    shipped = yaml.safe_load((REPO / "layouts" / "allin" / "q-diamonds.yaml").read_text(encoding="utf-8"))
    assert data["id"] == "my-sheet"
    assert {k: v for k, v in data.items() if k != "id"} == {k: v for k, v in shipped.items() if k != "id"}
    assert text.startswith("# yaml-language-server: $schema=")
    code, out, err = status(["check", "my-sheet.yaml"], tmp_path, capsys)
    assert code == 0 and "warning" not in err  # no id clash, no id/file name mismatch


def test_the_skeleton_is_a_valid_sheet_of_24_spaces(tmp_path, capsys):
    code, _, _ = status(["new", "allin", "sheet.yaml"], tmp_path, capsys)
    assert code == 0
    code, out, err = status(["show", "sheet.yaml", "--json"], tmp_path, capsys)
    assert code == 0 and not err
    data = json.loads(out)
    # a full 5×5 lattice: 25 cells, the Golden Card in the middle; 5 rows and 5 columns are hands of five
    assert data["id"] == "sheet" and data["counts"]["spaces"] == 24 and data["golden"]["cell"] == "c3"
    assert data["counts"]["hands_by_length"] == {"2": 0, "3": 0, "4": 0, "5": 10}
    assert data["starting_spaces"] == ["a1", "e5"]


def test_a_file_named_after_a_shipped_id_gets_a_different_id(tmp_path, capsys):
    code, out, _ = status(["new", "allin", "q-diamonds.yaml", "--from", "a-hearts"], tmp_path, capsys)
    assert code == 0 and "id 'q-diamonds-2'" in out
    code, _, err = status(["check", "q-diamonds.yaml"], tmp_path, capsys)
    assert code == 0 and "warning" not in err


def test_new_never_overwrites_without_force(tmp_path, capsys):
    (tmp_path / "mine.yaml").write_text("my notes\n", encoding="utf-8")
    code, _, err = status(["new", "allin", "mine.yaml"], tmp_path, capsys)
    assert code == 2 and "mine.yaml: already exists; pass --force" in err
    assert (tmp_path / "mine.yaml").read_text(encoding="utf-8") == "my notes\n"
    assert status(["new", "allin", "mine.yaml", "--force"], tmp_path, capsys)[0] == 0
    assert yaml.safe_load((tmp_path / "mine.yaml").read_text(encoding="utf-8"))["id"] == "mine"


def test_new_refuses_a_deck_as_source_and_a_name_without_yaml(tmp_path, capsys):
    code, _, err = status(["new", "allin", "d.yaml", "--from", "poker-deck"], tmp_path, capsys)
    assert code == 2 and "not an All In sheet layout" in err and not (tmp_path / "d.yaml").exists()
    code, _, err = status(["new", "allin", "sheet.txt"], tmp_path, capsys)
    assert code == 2 and "ending in .yaml" in err


def test_new_names_the_one_game_it_starts_sheets_for(tmp_path, capsys):
    code, _, err = status(["new", "flip7", "pad.yaml"], tmp_path, capsys)
    assert code == 2 and "sheet layouts for All In only, not 'flip7'" in err and "Traceback" not in err
    assert not (tmp_path / "pad.yaml").exists()
    code, out, _ = status(["new", "AllIn", "mine.yaml"], tmp_path, capsys)  # any capitals, as before
    assert code == 0 and (tmp_path / "mine.yaml").is_file()


def test_fresh_ids():
    assert fresh_id("My Sheet!") == "my-sheet"
    assert fresh_id("q-diamonds") == "q-diamonds-2"
    assert fresh_id("___") == "my-sheet"
    assert all(fresh_id(s.id) != s.id for s in shipped_layouts())


def test_a_second_sheet_never_takes_the_id_of_a_sheet_beside_it(tmp_path, capsys):
    # 'my sheet.yaml' made into an id is my-sheet, which my-sheet.yaml already has: the next free number
    assert status(["new", "allin", "my-sheet.yaml"], tmp_path, capsys)[0] == 0
    code, out, _ = status(["new", "allin", "my sheet.yaml"], tmp_path, capsys)
    assert code == 0 and "id 'my-sheet-2'" in out
    assert "sheetsmith show 'my sheet.yaml'" in out  # the hint pastes back into a shell as one argument
    assert yaml.safe_load((tmp_path / "my sheet.yaml").read_text(encoding="utf-8"))["id"] == "my-sheet-2"
    code, _, err = status(["check", "my sheet.yaml"], tmp_path, capsys)
    assert code == 0 and "warning" not in err  # the id is the file name made into an id: nothing to warn of
