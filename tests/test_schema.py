"""JSON Schemas for editors (issue 15, item 5).

* docs/schema/ is what ``generator.jobs.schema`` generates (regenerate: ``python -m generator.jobs.schema``);
* every shipped file and example validates against its schema (read as the YAML language
  server reads it: YAML 1.2 typing, which is also how sheetsmith reads files) and names it
  in a ``# yaml-language-server: $schema=`` line whose relative path resolves in a checkout;
* on a set of broken files, schema and validator agree: both reject;
* the card-code pattern accepts exactly what the card reader accepts.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import jsonschema
import pytest

from generator.core.cards import CardCodeError, parse_card
from generator.core.errors import InputError
from generator.core.yamlpos import parse_yaml
from generator.jobs.schema import KINDS, card_pattern, schema, schema_text

from .test_exit_codes import status

REPO = Path(__file__).resolve().parents[1]
SCHEMA_DIR = REPO / "docs" / "schema"
SHIPPED = sorted(REPO.glob("layouts/*/*.yaml")) + sorted((REPO / "docs" / "examples").glob("*.yaml"))
EXPECTED_KIND = {
    "allin": "allin-layout",
    "chips": "chips",
    "decks": "deck",
    "pads": "pad",
    "ann.yaml": "allin-sheet",
    "bob.yaml": "allin-sheet",
    "cy.yaml": "allin-sheet",
    "flip7-pad.yaml": "flip7-pad",
    "flipflop-evening.yaml": "flipflop-log",
    "fundex-game.yaml": "fundex-log",
}
"""The schema each shipped file must name: by layouts/ folder, or by example file name."""
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$", re.M)


def _validator(kind: str):
    return jsonschema.Draft7Validator(schema(kind))


def _data(text: str) -> dict:
    return parse_yaml(text).data


def test_docs_schema_is_up_to_date():
    assert sorted(p.stem for p in SCHEMA_DIR.glob("*.json")) == sorted(KINDS)
    for kind in KINDS:
        assert (SCHEMA_DIR / f"{kind}.json").read_text(encoding="utf-8") == schema_text(kind), (
            f"docs/schema/{kind}.json is stale: run python -m generator.jobs.schema"
        )


def test_every_schema_is_a_valid_draft_7_schema():
    for kind in KINDS:
        jsonschema.Draft7Validator.check_schema(schema(kind))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_file_and_example_validates_and_names_its_schema(path):
    text = path.read_text(encoding="utf-8")
    data = _data(text)
    kind = EXPECTED_KIND[path.parent.name if path.parent.parent.name == "layouts" else path.name]
    errors = [e.message for e in _validator(kind).iter_errors(data)]
    assert errors == []
    [ref] = MODELINE.findall(text)
    target = (path.parent / ref).resolve()
    assert target == (SCHEMA_DIR / f"{kind}.json").resolve() and target.is_file()


def test_a_simulated_game_log_and_a_new_sheet_validate(tmp_path, capsys):
    assert status(["simulate", "allin", "--players", "2", "--seed", "3", "-o", "game"], tmp_path, capsys)[0] == 0
    log = _data((tmp_path / "game" / "game.yaml").read_text(encoding="utf-8"))
    assert log["kind"] == "game-log"
    assert list(_validator("allin-game-log").iter_errors(log)) == []
    for sheet in (tmp_path / "game").glob("*.yaml"):
        if sheet.name != "game.yaml":
            assert list(_validator("allin-sheet").iter_errors(_data(sheet.read_text(encoding="utf-8")))) == []
    assert status(["new", "allin", "mine.yaml"], tmp_path, capsys)[0] == 0
    assert (
        list(_validator("allin-layout").iter_errors(_data((tmp_path / "mine.yaml").read_text(encoding="utf-8")))) == []
    )


def _read(kind: str, path: Path):
    """The file kind's own validator (what check and verify use)."""
    from generator.games.allin.game_log import load_game_log
    from generator.games.allin.typed_sheet import load_allin_sheet
    from generator.games.flip7.pad import load_flip7_pad
    from generator.games.flipflop.log import load_flipflop_log
    from generator.games.fundex.log import load_fundex_log
    from generator.games.registry import load_any

    return {
        "allin-sheet": load_allin_sheet,
        "flip7-pad": load_flip7_pad,
        "allin-game-log": load_game_log,
        "fundex-log": load_fundex_log,
        "flipflop-log": load_flipflop_log,
    }.get(kind, load_any)(path)


GAME_LOG = """game: allin
kind: game-log
layout: q-diamonds
players: [Ann, Bob]
golden_deck: [3C, JK, 9D]
rounds:
  - revealed: [QH, 10S]
    moves:
      Ann: {cell: a1, card: QH}
      Bob: {cell: e5, card: 10S}
"""

BROKEN = [  # (kind, the file it starts from, text replaced, replacement, what is wrong)
    ("allin-layout", "layouts/allin/q-diamonds.yaml", "golden: QD", "golden: QX", "not a card"),
    ("allin-layout", "layouts/allin/q-diamonds.yaml", "golden: QD", "golden: JK", "a Joker as Golden Card"),
    ("allin-layout", "layouts/allin/q-diamonds.yaml", "golden: QD\n", "", "no golden"),
    ("allin-layout", "layouts/allin/q-diamonds.yaml", "A: {reward: single", "A: {reward: triple", "unknown reward"),
    ("allin-layout", "layouts/allin/q-diamonds.yaml", "A: {reward: single", "A: {rewad: single", "misspelt key"),
    (
        "allin-layout",
        "layouts/allin/q-diamonds.yaml",
        "bonus: 2}   # row a1",
        "bonus: '2'}   # row a1",
        "bonus as text",
    ),
    ("allin-layout", "layouts/allin/q-diamonds.yaml", "bonus: 2}   # row a1", "bonus: 0}   # row a1", "bonus 0"),
    ("allin-layout", "layouts/allin/q-diamonds.yaml", "  A: {reward", "  a: {reward", "lower-case hand letter"),
    ("allin-layout", "layouts/allin/q-diamonds.yaml", "*---o---o---o   o", "*---x---o---o   o", "x in the grid"),
    (
        "allin-layout",
        "layouts/allin/q-diamonds.yaml",
        "id: q-diamonds",
        "id: Q Diamonds",
        "id with capitals and a blank",
    ),
    (
        "allin-layout",
        "layouts/allin/q-diamonds.yaml",
        "game: allin",
        "game: allin\nstyle: {card_hieght: 30}",
        "misspelt style key",
    ),
    (
        "allin-layout",
        "layouts/allin/q-diamonds.yaml",
        "game: allin",
        "game: allin\nstrings: {player: 5}",
        "label not text",
    ),
    ("allin-layout", "layouts/allin/q-diamonds.yaml", "game: allin", "game: allin\ncolour: red", "unknown top key"),
    ("allin-layout", "layouts/allin/q-diamonds.yaml", "game: allin", "game: allin\nchips: 0", "no chip circles"),
    ("deck", "layouts/decks/poker-deck.yaml", "kind: deck", "kind: deck\nshuffle: true", "unknown key"),
    ("deck", "layouts/decks/flip7-deck.yaml", "type: number", "type: wild", "unknown card type"),
    ("deck", "layouts/decks/poker-deck.yaml", "card_size: poker", "card_size: [poker]", "card size not text"),
    ("chips", "layouts/chips/fundex-chips.yaml", "diameter: 25", "diameter: 5", "chips too small"),
    ("chips", "layouts/chips/fundex-chips.yaml", "value: 1,", "value: 0,", "a chip worth 0"),
    ("pad", "layouts/pads/flip7-pad.yaml", "kind: pad", "kind: scorepad", "unknown kind"),
    ("pad", "layouts/pads/flip7-pad.yaml", "orientation: portrait", "orientation: sideways", "unknown orientation"),
    ("pad", "layouts/pads/flip7-pad.yaml", "rounds: 16", "rounds: 0", "no rounds"),
    ("pad", "layouts/pads/flip7-pad.yaml", "players: 6", "players: six", "players not a number"),
    ("allin-sheet", "docs/examples/ann.yaml", "player: Ann", "playr: Ann", "misspelt key"),
    (
        "allin-sheet",
        "docs/examples/ann.yaml",
        "chips: {earned: 6, spent: 2}",
        "chips: {earned: -1, spent: 0}",
        "negative chips",
    ),
    ("allin-sheet", "docs/examples/ann.yaml", "layout: q-diamonds", "layout: [q-diamonds]", "layout not text"),
    ("flip7-pad", "docs/examples/flip7-pad.yaml", "target: 200", "target: '200'", "target as text"),
    ("flip7-pad", "docs/examples/flip7-pad.yaml", "- Ann: [3, 5, 7, 10, 11]", "- Ann: [3, 5, 7, 10, 13]", "no card 13"),
    (
        "flip7-pad",
        "docs/examples/flip7-pad.yaml",
        "Bob: bust\n    Cy: {score: 20}",
        "Bob: boom\n    Cy: {score: 20}",
        "not bust",
    ),
    ("flip7-pad", "docs/examples/flip7-pad.yaml", "Cy: {score: 20}", "Cy: {scor: 20}", "misspelt score"),
    (
        "flip7-pad",
        "docs/examples/flip7-pad.yaml",
        "players: [Ann, Bob, Cy]",
        "players: [Ann, Bob, Cy]\nwinner: Ann",
        "unknown key",
    ),
    ("allin-game-log", None, "Ann: {cell: a1, card: QH}", "Ann: {cel: a1, card: QH}", "misspelt cell"),
    ("allin-game-log", None, "Ann: {cell: a1, card: QH}", "Ann: {cell: a1}", "no card"),
    ("allin-game-log", None, "Ann: {cell: a1, card: QH}", "Ann: {cell: a1, card: QH, chips: -1}", "negative chips"),
    ("allin-game-log", None, "kind: game-log", "kind: gamelog", "unknown kind"),
    ("allin-game-log", None, "golden_deck: [3C, JK, 9D]\n", "", "no golden deck"),
    ("allin-game-log", None, "Bob: {cell: e5, card: 10S}", "Bob: later", "neither a move nor pass"),
    ("fundex-log", "docs/examples/fundex-game.yaml", "dice: 1", "dice: 4", "four dice"),
    ("fundex-log", "docs/examples/fundex-game.yaml", "players:", "dealer: Ann\nplayers:", "unknown key"),
    ("fundex-log", "docs/examples/fundex-game.yaml", "game: fundex", "game: fundx", "misspelt game"),
    ("flipflop-log", "docs/examples/flipflop-evening.yaml", "players:", "players: 3\nnames:", "players not a list"),
    ("flipflop-log", "docs/examples/flipflop-evening.yaml", "end:", "finish:", "misspelt end"),
]


@pytest.mark.parametrize("kind,source,old,new,why", BROKEN, ids=[f"{b[0]}: {b[4]}" for b in BROKEN])
def test_schema_and_validator_both_reject_broken_files(tmp_path, kind, source, old, new, why):
    text = GAME_LOG if source is None else (REPO / source).read_text(encoding="utf-8")
    assert old in text
    broken = text.replace(old, new, 1)
    path = tmp_path / "broken.yaml"
    path.write_text(broken, encoding="utf-8")
    good = tmp_path / "good.yaml"
    good.write_text(text, encoding="utf-8")
    assert list(_validator(kind).iter_errors(_data(text))) == []  # the file before the change is fine for both
    _read(kind, good)
    assert list(_validator(kind).iter_errors(_data(broken))) != [], f"the schema accepts: {why}"
    with pytest.raises(InputError):
        _read(kind, path)


def _parses(text: str) -> bool:
    try:
        parse_card(text)
    except CardCodeError:
        return False
    return True


def test_card_pattern_accepts_exactly_what_the_card_reader_reads():
    pattern = re.compile(card_pattern())
    ranks = ["A", "a", "2", "9", "10", "1", "0", "11", "T", "t", "J", "Q", "q", "K", "X", "", "AA"]
    suits = ["S", "s", "H", "D", "C", "c", "♠", "♥", "♦", "♣", "♦\ufe0f", "X", "", "SS"]
    tokens = [r + s for r, s in itertools.product(ranks, suits)] + [
        "JK",
        "jk",
        "Joker",
        "JOKER",
        " QD ",
        "Q D",
        "J",
        "K",
    ]
    disagree = [t for t in tokens if bool(pattern.match(t)) != _parses(t)]
    assert disagree == []
    assert pattern.match("10♥") and not re.match(card_pattern(jokers=False), "JK")


def test_schema_command_prints_one_and_refuses_unknown_kinds(tmp_path, capsys):
    code, out, _ = status(["schema", "flip7-pad"], tmp_path, capsys)
    assert code == 0 and json.loads(out)["properties"]["game"]["const"] == "flip7"
    code, _, err = status(["schema", "pads"], tmp_path, capsys)
    assert code == 2 and "did you mean pad?" in err
