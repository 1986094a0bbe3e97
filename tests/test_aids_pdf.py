"""The PDF aids (WeasyPrint): one page per aid, the map page the size of its sheet, the charts' text inside."""

from __future__ import annotations

import io

import pytest

from rulec.aids.pdf import render_pdf
from rulec.aids.render import aid_names, render_html
from rulec.pipeline import load_game

pypdf = pytest.importorskip("pypdf")
try:
    import weasyprint  # noqa: F401  (raises OSError, not ImportError, when Pango is missing)
except (ImportError, OSError) as error:
    pytest.skip(f"PDF output needs the 'pdf' extra and Pango (scripts/install-system-deps.sh): {error}",
                allow_module_level=True)

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)


def pages(pdf: bytes):
    return pypdf.PdfReader(io.BytesIO(pdf)).pages


def size(page) -> tuple[float, float]:
    return round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2)


@pytest.fixture(scope="module")
def game():
    return load_game("drive_on_metz")


@pytest.fixture(scope="module")
def metz_pages(game):
    return pages(render_pdf(render_html(game, "a4")))


def test_one_page_per_aid_on_a4_and_the_map_on_its_sheet(game, metz_pages):
    # Every aid starts a page and none runs onto a second one (no table split across pages).
    assert len(metz_pages) == len(aid_names(game)) == 9
    assert [size(p) for p in metz_pages[:-1]] == [A4] * 8
    assert size(metz_pages[-1]) == LETTER  # the map's sheet: "8.5in x 11in"


def test_pdf_text_holds_crt_columns_and_tec_terrain(game, metz_pages):
    crt_text = metz_pages[0].extract_text()
    table = game.tables[game.combat.table]
    for column in table.columns:
        assert column.label in crt_text
    assert all(code in crt_text for code in game.results)
    tec_text = metz_pages[1].extract_text()
    for terrain in game.terrain.values():
        assert terrain.name in tec_text
    for hexside in game.hexside_types.values():
        assert hexside.name in tec_text
    map_text = metz_pages[-1].extract_text()
    assert all(name.split()[-1] in map_text for name in game.map.places.values())


def test_letter_paper(game):
    (page,) = pages(render_pdf(render_html(game, "letter", aids=("crt",))))
    assert size(page) == LETTER


@pytest.mark.rule("engle:outcome")
def test_battle_system_pdf():
    game = load_game("engle_ww2_battle")
    printed = pages(render_pdf(render_html(game)))
    text = " ".join(p.extract_text() for p in printed)
    assert len(printed) <= 2
    for band in game.battle.outcomes:
        assert band.name in text
    for state in game.battle.army_states:
        assert state.if_loser.split()[0] in text
