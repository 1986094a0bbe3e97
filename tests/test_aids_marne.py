"""The Marne's aids print as a publisher would print them: the card's two sides one page each on A4
and on Letter, no raw logic in the text, flags and options by their names, no page-tall cells in the
order of battle, no map section that is almost blank; and Drive on Metz's counter key keeps within
its box. PDFs by weasyprint, as tests/test_aids_pdf.py renders them."""

from __future__ import annotations

import html
import io
import re
import xml.etree.ElementTree as ET

import pytest

from rulec.aids import map_svg
from rulec.aids.render import PAPERS, render_html
from rulec.aids.sheets import order_of_battle
from rulec.pipeline import load_game

pypdf = pytest.importorskip("pypdf")
try:
    import weasyprint  # noqa: F401  (raises OSError, not ImportError, when Pango is missing)
except (ImportError, OSError) as error:
    pytest.skip(f"PDF output needs the 'pdf' extra and Pango: {error}", allow_module_level=True)

from rulec.aids.pdf import render_pdf  # noqa: E402

CARD = ("crt", "modifiers", "sequence", "tec", "victory")


@pytest.fixture(scope="module")
def marne():
    return load_game("the_marne")


def page_texts(pdf: bytes) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_side_of_the_card_is_one_page(marne, paper):
    front, back = page_texts(render_pdf(render_html(marne, paper, aids=CARD)))  # two pages, no more
    for heading in ("Combat Results Table", "Chance of each result", "Expected outcome", "Key Combat Modifiers",
                    "Combining effects"):
        assert heading in front
    assert "Disrupted defenders (8.9B)" in front  # the last modifier: the side did not run over
    for heading in ("Sequence of Play", "Terrain Effects Chart", "Victory Conditions", "Victory levels"):
        assert heading in back and heading not in front
    assert f"{marne.victory.draw} no level above holds" in back  # the last row of the card's last table


def test_no_raw_logic_on_the_aids(marne):
    text = html.unescape(re.sub(r"<[^>]+>", " ", render_html(marne)))
    for raw in ("only when False", "only when false", "if True", "if true", "Army De", "army_de", "army_fr", "'s's"):
        assert raw not in text, raw
    assert "Allies's" not in text and "Allies' VP" in text
    # The set-up phases are named once, under the sequence of play, not as rows of every turn.
    assert "and in no game turn: German 1 Army set-up (Germany)" in text
    assert "Germany wins in every other case" in text


def test_flags_and_options_by_their_names_in_short_cells(marne):
    notes = {row.unit.id: row.notes for order in order_of_battle(marne) for row in order.rows}
    assert notes["de_3"] == "German 1st Army" and notes["fr_cav1"] == "French 6th Army; Screen: never attacks (8.9A)"
    assert notes["de_gd3"].startswith("Optional: German OB Option A, B, D;")
    assert max(len(n) for n in notes.values()) <= 60  # a line or two, never a page-tall cell


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_map_section_is_almost_blank(marne, paper):
    printed = map_svg.for_paper(marne, (PAPERS[paper].width, PAPERS[paper].height))
    assert len(printed.tiles) > 1
    centres = [tuple(float(v) for v in shape.points.split()[0].split(",")) for shape in printed.drawing.hexes]
    for tile in printed.tiles:
        inside = [c for c in centres if tile.x <= c[0] <= tile.x + tile.width and tile.y <= c[1] <= tile.y + tile.height]
        assert len(inside) >= 0.15 * len(centres), (tile.number, len(inside))


def test_drive_on_metz_counter_key_lines_stay_inside_the_key():
    page = render_html(load_game("drive_on_metz"), aids=("counter_key",))
    svg = re.search(r'<svg[^>]*class="counter-key".*?</svg>', page, re.S).group(0)
    root = ET.fromstring(svg)
    width = float(root.get("viewBox").split()[2])
    ns = "{http://www.w3.org/2000/svg}"
    for element in [*root.iter(f"{ns}text"), *root.iter(f"{ns}tspan")]:
        own = (element.text or "").strip()
        if not own or element.get("x") is None:
            continue
        size = float(element.get("font-size") or root.get("font-size"))
        # DejaVu Sans averages about 0.6 em a character: a line must end before the key's right edge.
        assert float(element.get("x")) + 0.6 * size * len(own) <= width, own


def test_a_long_division_name_keeps_clear_of_the_counter_corner(marne):
    from rulec.aids.counters_svg import render_counters_svg

    root = ET.fromstring(render_counters_svg(marne))
    ns = "{http://www.w3.org/2000/svg}"
    checked = 0
    for face in root.iter(f"{ns}g"):
        texts = {t.get("class"): t for t in face.findall(f"{ns}text")}
        if "division" not in texts or not (texts["division"].text or "").strip():
            continue
        band, corner = texts["division"], texts["corner"]
        # Widths estimated as DejaVu Sans draws them (bold about 0.63 em a character, regular 0.6).
        width = float(band.get("textLength") or 0.63 * float(band.get("font-size")) * len(band.text))
        corner_width = 0.6 * float(corner.get("font-size")) * len((corner.text or "").strip())
        assert float(band.get("x")) + width <= float(corner.get("x")) - corner_width, band.text
        checked += 1
    assert checked >= 100  # every counter of the sheet with a division
