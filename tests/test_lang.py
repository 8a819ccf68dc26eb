"""Sheets in your language: one message catalogue per language, every item drawn in each, nothing out of its box.

Expected words are the game terms of each language, written here by hand
(Italian, French and German poker names; the Italian Flip Flop rulebook's pot
names), not read back from the catalogues.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pypdfium2 as pdfium
import pytest
import yaml

from generator.core.errors import InputError, SheetsmithError
from generator.core.shipped import shipped_layouts
from generator.games.allin.layout import AllInLayout
from generator.games.allin.sheet import build_allin_sheet
from generator.games.pads import MARGIN, Pad
from generator.games.registry import load_any, pages_for
from generator.jobs.render import build_items, render_item
from generator.printing.i18n import catalogue_problems, check_lang, languages, messages
from generator.printing.impose import PrintOptions
from generator.printing.paper import paper
from generator.printing.readable import geometry_hash
from generator.printing.scene import Text

from .conftest import REPO
from .textfit import fit_problems

LANG_DIR = REPO / "templates" / "lang"
SHIPPED = shipped_layouts()
OTHERS = ("it", "fr", "de")


def _flat(data, prefix=""):
    """The test's own flattening of a nested catalogue: dotted key → leaf."""
    out = {}
    for k, v in data.items():
        key = f"{prefix}{k}"
        out.update(_flat(v, key + ".") if isinstance(v, dict) else {key: v})
    return out


def _fields(text):
    return sorted(re.findall(r"\{(\w+)\}", text))


def _pdf_text(data: bytes) -> str:
    doc = pdfium.PdfDocument(data)
    text = " ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    doc.close()
    return re.sub(r"\s+", " ", text.replace("\xa0", " "))


# --- the catalogues ------------------------------------------------------------------


def test_the_four_languages_ship():
    assert languages() == ["en", "de", "fr", "it"]


@pytest.mark.parametrize("lang", OTHERS)
def test_every_key_of_english_and_no_other(lang):
    english = _flat(yaml.safe_load((LANG_DIR / "en.yaml").read_text(encoding="utf-8")))
    other = _flat(yaml.safe_load((LANG_DIR / f"{lang}.yaml").read_text(encoding="utf-8")))
    assert set(other) == set(english)
    for key, text in english.items():
        assert type(other[key]) is type(text), key
        if isinstance(text, str):
            assert _fields(other[key]) == _fields(text), key  # a {target} lost would print a wrong pad


def test_catalogue_check_agrees():
    assert catalogue_problems() == []


def test_catalogue_check_finds_each_kind_of_slip(tmp_path, monkeypatch):
    from generator.printing import fonts

    monkeypatch.setattr(fonts, "fallbacks", lambda: ())  # only the shipped sheet font, whatever this computer has
    english = yaml.safe_load((LANG_DIR / "en.yaml").read_text(encoding="utf-8"))
    (tmp_path / "en.yaml").write_text((LANG_DIR / "en.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    broken = yaml.safe_load((LANG_DIR / "it.yaml").read_text(encoding="utf-8"))
    del broken["pads"]["target"]  # a key missing
    broken["pads"]["tagret"] = "TRAGUARDO"  # a key English does not have
    broken["pads"]["flip7_rules"] = "chi arriva a {traguardo} vince"  # a field renamed
    broken["allin"]["player"] = "Spieler \ue000"  # a glyph no font has (private use)
    (tmp_path / "it.yaml").write_text(yaml.safe_dump(broken, allow_unicode=True), encoding="utf-8")
    found = "\n".join(p.message for p in catalogue_problems(tmp_path))
    assert "pads.target: missing" in found
    assert "pads.tagret: not a key of en.yaml" in found
    assert "pads.flip7_rules: fields ['traguardo'] but English has ['bonus', 'target']" in found
    assert "allin.player: the sheet font cannot print \ue000" in found
    assert english  # the reference itself stays as shipped


def test_a_missing_message_is_printed_in_english_with_a_warning(tmp_path):
    shutil.copy(LANG_DIR / "en.yaml", tmp_path / "en.yaml")
    (tmp_path / "sv.yaml").write_text("allin:\n  player: 'Spelare'\n", encoding="utf-8")
    assert languages(tmp_path) == ["en", "sv"]
    t = messages("sv", tmp_path)
    assert t("allin.player") == "Spelare" and t("allin.hand") == "Hand"
    (warning,) = t.warnings()
    assert warning.severity == "warning" and "printed in English" in warning.message


def test_adding_a_language_is_adding_a_file(tmp_path):
    """A checkout whose templates/lang/ holds one more file prints in that language: no code changes."""
    home = tmp_path / "home"
    shutil.copytree(REPO / "templates", home / "templates")
    (home / "layouts").symlink_to(REPO / "layouts")
    english = yaml.safe_load((LANG_DIR / "en.yaml").read_text(encoding="utf-8"))
    english["allin"]["player"] = "Spelare"
    english["allin"]["pair"] = "Par"
    english["allin"]["aid_title"] = "Poänggivande händer"
    (home / "templates" / "lang" / "sv.yaml").write_text(yaml.safe_dump(english, allow_unicode=True), encoding="utf-8")
    out = tmp_path / "q-sv.pdf"
    env = {"SHEETSMITH_HOME": str(home), "PATH": "/usr/bin:/bin"}
    res = subprocess.run(
        [sys.executable, "-m", "generator.cli.app", "render", "q-diamonds", "--lang", "sv", "-o", str(out)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    text = _pdf_text(out.read_bytes())
    assert "Spelare" in text and "Poänggivande händer" in text and "Scoring hands" not in text
    bad = subprocess.run(
        [sys.executable, "-m", "generator.cli.app", "render", "q-diamonds", "--lang", "xx"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    assert bad.returncode == 2 and "languages: en, de, fr, it, sv" in bad.stderr


def test_check_lang():
    assert check_lang("IT") == "it"
    with pytest.raises(SheetsmithError) as exc:
        check_lang("es")
    assert exc.value.exit_code == 2 and "languages: en, de, fr, it" in str(exc.value)


# --- what the PDFs say ------------------------------------------------------------------

AID = {
    "it": ["Coppia", "Doppia coppia", "Tris", "Scala", "Full", "Poker", "Scala colore"],
    "fr": ["Paire", "Double paire", "Brelan", "Quinte", "Full", "Carré", "Quinte flush"],
    "de": ["Paar", "Zwei Paare", "Drilling", "Straße", "Full House", "Vierling", "Straight Flush"],
}
"""The scoring aid's hands 2 to 8, weakest first, by their names at a poker table of each language."""


@pytest.mark.parametrize("lang", OTHERS)
def test_scoring_aid_in_the_table_terms_of_each_language(lang):
    layout = load_any(REPO / "layouts/allin/q-diamonds.yaml")
    scene = build_allin_sheet(layout, paper("a4"), lang)
    names = AID[lang]
    found = sorted(
        (t for t in scene.items if isinstance(t, Text) and t.text in names and t.weight == "bold"), key=lambda t: t.x
    )
    assert [t.text for t in found] == names  # left to right = rulebook order, a higher number beats a lower one
    text = _pdf_text(render_item("q-diamonds", lang=lang).data)
    for name in names:
        assert name in text


EXPECTED = {
    ("q-diamonds", "it"): [
        "scheda Q",
        "Giocatore",
        "Combinazioni a punti",
        "Fiches rimaste",
        "Totale",
        "CARTA D'ORO",
        "Mano migliore",
    ],
    ("q-diamonds", "fr"): ["feuille Q", "Joueur", "Jetons restants", "CARTE D'OR", "Meilleure main"],
    ("q-diamonds", "de"): ["Spielbogen Q", "Spieler", "Chips übrig", "Gesamt", "GOLDENE KARTE", "Beste Hand"],
    ("flipflop-reference", "it"): [
        "Carte e piatti",
        "piatto del gioco",
        "piatto del flop",
        "riserva",
        "tallone",
        "Tunk out",
        "promemoria",
    ],
    ("flipflop-reference", "fr"): ["Cartes et pots", "pot du jeu", "réserve", "pioche", "aide-mémoire"],
    ("flipflop-reference", "de"): ["Karten und Pötte", "Spiel-Pott", "Reserve", "Talon", "Kurzübersicht"],
    ("fundex-cards", "it"): ["Come si gioca", "ROSSO", "BLU", "VERDE", "ORO", "fiches"],
    ("fundex-cards", "fr"): ["Comment jouer", "ROUGE", "BLEU", "VERT", "jetons"],
    ("fundex-cards", "de"): ["So wird gespielt", "ROT", "BLAU", "GRÜN", "Chips"],
    ("flip7-deck", "it"): ["MODIFICATORE", "AZIONE", "Seconda chance"],
    ("flip7-deck", "fr"): ["MODIFICATEUR", "Seconde chance"],
    ("flip7-deck", "de"): ["MODIFIKATOR", "AKTION", "Zweite Chance"],
    ("poker-deck", "it"): ["fronte 1/6", "2 pollici"],  # courts and Jokers are drawn, not named
    ("poker-deck", "fr"): ["recto 1/6", "2 pouces"],
    ("poker-deck", "de"): ["Vorderseite 1/6", "2 Zoll"],
    ("flip7-pad", "de"): ["Punkteblock", "Spieler 1", "Summe", "ZIEL"],
    ("flip7-pad", "it"): ["segnapunti", "giocatore 6", "totale", "TRAGUARDO"],
    ("flip7-tick-pad", "it"): ["SBALLATO", "punti"],
    ("flip7-tick-pad", "fr"): ["SAUTÉ", "manche"],
    ("flip7-tick-pad", "de"): ["GEPLATZT", "Runde"],
    ("flipflop-ledger", "it"): ["registro dei piatti", "scoperta", "gioco", "puntate"],
    ("fundex-ledger", "fr"): ["registre des jetons", "mise", "jetons", "dés"],
    ("fundex-chips", "de"): ["2 Zoll"],
}


def _english_phrases(item_text_en: str) -> list[str]:
    """The English catalogue's phrases that the English PDF prints: the first four words of each message part."""
    english = messages("en").messages
    phrases = []
    for key, value in english.items():
        for part in value if isinstance(value, list) else [value]:
            for literal in re.split(r"\{\w+\}", part):
                words = literal.replace("•", " ").split()
                if len(words) >= 2 or (len(words) == 1 and len(words[0]) >= 4):
                    phrase = " ".join(words[:4])
                    if phrase in item_text_en:
                        phrases.append((key, phrase))
    return phrases


@pytest.mark.parametrize("item", [s for s in SHIPPED], ids=lambda s: s.id)
def test_pdf_text_in_each_language_and_no_english_left(item):
    """The expected words are printed, and no English phrase the English PDF prints is left, unless the
    language uses the same words (a game's name, Full, Total)."""
    english_text = _pdf_text(render_item(item.id, lang="en").data).replace(item.id, "")  # ids are names, not words
    phrases = _english_phrases(english_text)
    assert phrases, "the English PDF prints the catalogue's words"
    for lang in OTHERS:
        text = _pdf_text(render_item(item.id, lang=lang).data).replace(item.id, "")
        for word in EXPECTED.get((item.id, lang), []):
            assert word in text, (lang, word)
        own = " ".join(" ".join(v) if isinstance(v, list) else v for v in messages(lang).messages.values())
        own = re.sub(r"\s+", " ", own.replace("\xa0", " "))
        for key, phrase in phrases:
            pattern = rf"(?<!\w){re.escape(phrase)}(?!\w)"
            if re.search(pattern, text) and not re.search(pattern, own):
                pytest.fail(f"{item.id} in {lang}: English {phrase!r} ({key}) is still printed")


def test_english_aid_labels_are_not_in_the_italian_sheet():
    text = _pdf_text(render_item("q-diamonds", lang="it").data)
    for english in (
        "Scoring hands",
        "Pair",
        "Two pair",
        "Three of a kind",
        "Straight",
        "Full house",
        "Four of a kind",
        "Straight flush",
        "Player",
        "Poker chips",
        "Chips left",
        "GOLDEN CARD",
    ):
        assert not re.search(rf"(?<!\w){re.escape(english)}(?!\w)", text), english


# --- every item, every language: nothing out of its box, no missing glyph ----------------------


def _fit(item, pages, manifest):
    problems = []
    for n, scene in enumerate(pages):
        if isinstance(item, AllInLayout):
            kw = dict(margin=item.style.margin - 0.05)
        elif isinstance(item, Pad):
            kw = dict(margin=MARGIN - 0.05)
        else:  # cards and chips: inside the page, and on a card inside its safe area
            cards = [tuple(e["trim"]) for e in manifest["pages"][n]["items"]] if manifest else []
            kw = dict(margin=2.0, cards=cards if manifest.get("kind") == "deck" else [], safe=2.0)
        problems += [f"page {n + 1}: {p}" for p in fit_problems(scene, **kw)]
    return problems


@pytest.mark.parametrize("lang", ["en", *OTHERS])
@pytest.mark.parametrize("item", SHIPPED, ids=lambda s: s.id)
def test_every_text_stays_in_its_box(item, lang):
    loaded = load_any(item.path)
    papers = ("a4", "letter") if isinstance(loaded, AllInLayout) else ("a4",)
    for pid in papers:
        pages, manifest = pages_for(loaded, paper(pid), PrintOptions(), lang)
        assert _fit(loaded, pages, manifest or {}) == [], pid


def test_the_fit_check_sees_a_label_too_long(tmp_path):
    """The fit check fails a sheet whose label runs into its neighbour (so its silence above means something)."""
    layout = load_any(REPO / "layouts/allin/q-diamonds.yaml")
    from dataclasses import replace

    long = replace(layout, strings=layout.strings.model_copy(update={"chips_left": "Chips left over at the very end"}))
    pages = [build_allin_sheet(long, paper("a4"))]
    pages[0].items = [
        t
        if not (isinstance(t, Text) and t.text == "Chips left over at the very end")
        else Text(t.x, t.y, t.text, 6.5, t.weight, t.anchor, t.color)
        for t in pages[0].items
    ]  # unshrunk
    assert any("Chips left over" in p for p in _fit(long, pages, {}))


# --- same marks in every language, outputs side by side -------------------------------------------


@pytest.mark.parametrize("item", [s for s in SHIPPED if s.game == "allin"], ids=lambda s: s.id)
def test_a_sheet_reads_the_same_in_every_language(item):
    """Mark targets (and so the sheet code's geometry hash) do not depend on the words printed."""
    layout = load_any(item.path)
    for pid in ("a4", "letter"):
        scenes = {lang: build_allin_sheet(layout, paper(pid), lang) for lang in ("en", *OTHERS)}
        english = scenes["en"]
        for lang, scene in scenes.items():
            assert scene.marks == english.marks, (lang, pid)
            assert geometry_hash(scene) == geometry_hash(english)


def test_build_names_other_languages_with_a_suffix():
    first = build_items(["a4"], langs=["it"], workers=1)
    built = next(first)
    first.close()
    assert (built.id, built.lang) == ("q-diamonds", "it")
    assert sorted(built.files) == ["q-diamonds-a4-it.pdf", "q-diamonds-a4-it.png"]


@pytest.mark.slow
def test_build_in_parallel_writes_the_same_files_in_the_same_order_as_one_process():
    """Worker processes change nothing: the same items in the shipped order, the same bytes, the same problems."""
    alone = [(b.id, b.paper, b.lang, b.files, b.problems) for b in build_items(["letter"], dpi=30, workers=1)]
    together = [(b.id, b.paper, b.lang, b.files, b.problems) for b in build_items(["letter"], dpi=30, workers=2)]
    assert [b[0] for b in alone] == [s.id for s in shipped_layouts()]
    assert together == alone


def test_build_draws_everything_itself_when_no_worker_process_can_start(no_worker_processes, monkeypatch):
    """Where worker processes cannot be started (a sandbox refusing the fork server's socket), build still
    writes every item, in the shipped order, as one process would."""
    built = [(b.id, b.files, b.problems) for b in build_items(["letter"], dpi=20, workers=2)]
    assert [b[0] for b in built] == [s.id for s in shipped_layouts()]
    assert all(files and problems == [] for _, files, problems in built)
    monkeypatch.undo()
    assert built == [(b.id, b.files, b.problems) for b in build_items(["letter"], dpi=20, workers=1)]


def test_build_refuses_an_unknown_language_before_drawing():
    with pytest.raises(SheetsmithError, match="languages: en, de, fr, it"):
        next(build_items(["a4"], langs=["it", "es"]))


def run(monkeypatch, capsys, tmp_path, *args):
    """``sheetsmith ARGS`` run in this process from ``tmp_path``: (exit status, stdout, stderr)."""
    from generator.cli import app as cli

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["sheetsmith", *args])
    try:
        cli.main()
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    out, err = capsys.readouterr()
    return code, out, err


def test_render_writes_next_to_the_english_file(tmp_path, monkeypatch, capsys):
    assert run(monkeypatch, capsys, tmp_path, "render", "flip7-pad")[0] == 0
    code, out, err = run(monkeypatch, capsys, tmp_path, "render", "flip7-pad", "--lang", "de")
    assert code == 0, err
    assert "output/pads/flip7-pad-a4-de.pdf" in out
    files = sorted(p.name for p in (tmp_path / "output" / "pads").iterdir())
    assert files == ["flip7-pad-a4-de.pdf", "flip7-pad-a4.pdf"]
    assert "Punkteblock" in _pdf_text((tmp_path / "output/pads/flip7-pad-a4-de.pdf").read_bytes())
    assert "Punkteblock" not in _pdf_text((tmp_path / "output/pads/flip7-pad-a4.pdf").read_bytes())


@pytest.mark.parametrize("command", [["render", "q-diamonds"], ["build", "--paper", "a4"]])
def test_an_unknown_language_exits_2_with_the_list(tmp_path, monkeypatch, capsys, command):
    code, _, err = run(monkeypatch, capsys, tmp_path, *command, "--lang", "klingon")
    assert code == 2
    assert "--lang 'klingon'" in err and "languages: en, de, fr, it" in err
    assert not (tmp_path / "output").exists()


# --- the designer's own words win ------------------------------------------------------------------


def test_a_layouts_own_strings_and_name_are_printed_in_every_language(tmp_path):
    text = (REPO / "layouts/allin/q-diamonds.yaml").read_text(encoding="utf-8")
    text = text.replace('name: "Q♦"', "name: 'Q♦ Casa'\nstrings: {player: 'Nome e cognome'}").replace(
        "id: q-diamonds\n", ""
    )
    path = tmp_path / "casa.yaml"
    path.write_text(text, encoding="utf-8")
    for lang in ("en", "it", "de"):
        pdf = _pdf_text(render_item(path, lang=lang).data)
        assert "Nome e cognome" in pdf and "Casa" in pdf
        assert "Giocatore" not in pdf and "Spieler" not in pdf and "Player" not in pdf
    assert "Combinazioni a punti" in _pdf_text(render_item(path, lang="it").data)  # the rest is translated


def test_a_deck_entrys_own_words_win_and_keys_are_checked(tmp_path):
    deck = tmp_path / "deck.yaml"
    deck.write_text(
        "kind: deck\ngame: flip7\nname: 'Mini'\nback: {title: 'MINI', key: flip7.back}\ncards:\n"
        "  - {type: action, key: flip7.freeze, label: 'Brrr'}\n"
        "  - {type: text, key: flipflop.spreads}\n",
        encoding="utf-8",
    )
    text = _pdf_text(render_item(deck, lang="it").data)
    assert "Brrr" in text and "Congela" not in text  # the entry's own label
    assert "Scegli un giocatore" in text  # its text from the catalogue
    assert "Spread e fine del round" in text and "rischia fino a 200" in text
    items = load_any(deck)
    assert [f.name for f in items.faces] == ["Brrr", "Spreads and round end"]  # manifests name cards in English
    deck.write_text(deck.read_text(encoding="utf-8").replace("flipflop.spreads", "flipflop.spreds"), encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_any(deck)
    (problem,) = exc.value.problems
    assert (problem.line, problem.col) == (7, 23)
    assert "no cards.flipflop.spreds.title/body" in problem.message and "flipflop.spreads" in problem.message


def test_a_users_file_renders_next_to_itself_with_the_language(tmp_path, monkeypatch, capsys):
    from generator.jobs.watch import default_target

    mine = tmp_path / "my-sheet.yaml"
    mine.write_text(
        (REPO / "layouts/allin/q-diamonds.yaml").read_text(encoding="utf-8").replace("id: q-diamonds\n", ""),
        encoding="utf-8",
    )
    code, out, err = run(monkeypatch, capsys, tmp_path, "render", str(mine), "--lang", "fr")
    assert code == 0, err
    assert (tmp_path / "my-sheet-a4-fr.pdf").exists() and not (tmp_path / "my-sheet-a4.pdf").exists()
    assert (
        default_target(mine, fmt="pdf", paper="letter", output=None, lang="de") == tmp_path / "my-sheet-letter-de.pdf"
    )


@pytest.mark.parametrize("asked", [",,", "", " , "])
def test_build_with_no_language_named_is_a_usage_error_before_drawing(monkeypatch, capsys, tmp_path, asked):
    code, out, err = run(monkeypatch, capsys, tmp_path, "build", "--lang", asked, "-d", "out")
    assert code == 2 and "name a language: en, de, fr, it or all" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("asked, langs", [(["ALL"], ["en", "de", "fr", "it"]), (["it,All"], ["en", "de", "fr", "it"])])
def test_all_languages_in_any_capitals(asked, langs):
    from generator.jobs.render import languages_asked

    assert languages_asked(asked) == langs


def test_an_unknown_language_beside_all_is_refused():
    from generator.jobs.render import languages_asked

    with pytest.raises(SheetsmithError, match="--lang 'xx': no catalogue"):
        languages_asked(["all,xx"])
