"""The PDF aids (WeasyPrint) as a publisher would check them: every page on the chosen paper, rendered
to PNG (poppler's pdftoppm) with nothing reaching the edge, the card's two sides one page each, a map
too big for its page cut into overlapping sections."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest

from rulec.aids import map_svg
from rulec.aids.pdf import render_pdf
from rulec.aids.render import PAPERS, Paper, render_html
from rulec.pipeline import load_game

pypdf = pytest.importorskip("pypdf")
Image = pytest.importorskip("PIL.Image")
try:
    import weasyprint  # noqa: F401  (raises OSError, not ImportError, when Pango is missing)
except (ImportError, OSError) as error:
    pytest.skip(f"PDF output needs the 'pdf' extra and Pango (scripts/install-system-deps.sh): {error}",
                allow_module_level=True)

DPI = 30  # enough to see ink near an edge; keeps the suite quick
EDGE = 3 * 72 / 25.4  # points: no ink within 3 mm of any edge (printers cannot print there)


def pages(pdf: bytes):
    return pypdf.PdfReader(io.BytesIO(pdf)).pages


def size(page) -> tuple[float, float]:
    return round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2)


def page_texts(pdf: bytes) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in pages(pdf)]


def rendered(pdf: bytes, folder: Path) -> list[Path]:
    """Every page of the PDF as a PNG, by pdftoppm."""
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm is not installed: run scripts/install-system-deps.sh (poppler-utils)")
    (folder / "aids.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", str(folder / "aids.pdf"), str(folder / "page")],
                   check=True, timeout=120)
    return sorted(folder.glob("page-*.png"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))


def ink_near_edge(png: Path) -> list[str]:
    """The edges of the page that have ink (a pixel darker than near-white) within EDGE."""
    image = Image.open(png).convert("L")
    width, height = image.size
    strip = max(1, round(EDGE / 72 * DPI))
    boxes = {"left": (0, 0, strip, height), "right": (width - strip, 0, width, height),
             "top": (0, 0, width, strip), "bottom": (0, height - strip, width, height)}
    return [edge for edge, box in boxes.items() if image.crop(box).getextrema()[0] < 235]


@pytest.fixture(scope="module")
def game():
    return load_game("drive_on_metz")


@pytest.fixture(scope="module", params=["a4", "letter"])
def printed(request, game, tmp_path_factory) -> tuple[str, bytes, list[Path]]:
    pdf = render_pdf(render_html(game, request.param))
    return request.param, pdf, rendered(pdf, tmp_path_factory.mktemp(f"png-{request.param}"))


def test_every_page_is_on_the_chosen_paper_map_included(printed):
    paper, pdf, pngs = printed
    expected = (round(PAPERS[paper].width, 2), round(PAPERS[paper].height, 2))
    assert [size(p) for p in pages(pdf)] == [expected] * len(pngs)
    for png in pngs:  # and pdftoppm agrees, page by page
        width, height = Image.open(png).size
        assert (width, height) == pytest.approx((expected[0] / 72 * DPI, expected[1] / 72 * DPI), abs=1.5)


def test_no_page_has_ink_at_its_edges(printed):
    _, _, pngs = printed
    touching = {png.name: edges for png in pngs if (edges := ink_near_edge(png))}
    assert not touching, f"content reaches the edge of the page: {touching}"


def test_the_edge_check_catches_ink_at_the_edge(tmp_path):
    image = Image.new("L", (240, 330), 255)
    image.putpixel((239, 100), 0)
    image.save(tmp_path / "page-1.png")
    assert ink_near_edge(tmp_path / "page-1.png") == ["right"]


def test_the_sheets_a_publisher_prints(game, printed):
    _, pdf, _ = printed
    texts = page_texts(pdf)
    card_front, card_back, track = texts[0], texts[1], texts[2]
    # The card's first side: the CRT with the chance of each result and the key modifiers, on one page.
    for heading in ("Combat Results Table", "Chance of each result", "Expected outcome", "Key Combat Modifiers"):
        assert heading in card_front
    assert "Command Control" in card_front  # the last key modifier: the side did not run onto a second page
    # Its second side: sequence of play, TEC and victory conditions, all on the next page.
    for heading in ("Sequence of Play", "Terrain Effects Chart", "Victory Conditions", "Victory levels"):
        assert heading in card_back and heading not in card_front
    assert game.victory.draw in card_back.split("Victory levels")[1]
    # The turn record and the VP track on their own sheet.
    assert track.startswith("Turn Record Track") and "Victory Point Track" in track
    assert all(label in track for label in game.info.turn_labels)
    # Then the order of battle, the counters (front, back), and the map on the last page.
    assert any(t.startswith("Order of Battle and Set-up") for t in texts[3:5])
    fronts = [i for i, t in enumerate(texts) if t.startswith("Counter Sheet: front")]
    assert fronts and texts[fronts[0] + 1].startswith("Counter Sheet: back")
    assert all(name.split()[-1] in texts[-1] for name in game.map.places.values())
    assert len(texts) <= 9


def test_a_map_too_big_for_its_page_is_cut_into_overlapping_sections(game, tmp_path):
    small = Paper("small", "4.5in 6in", "0.4in", 4.5 * 72, 6 * 72, 0.4 * 72)
    printed = map_svg.for_paper(game, (small.width, small.height))
    tiles = printed.tiles
    assert len(tiles) > 1 and printed.drawing.unit >= map_svg.MIN_UNIT
    # The sections cover the whole drawing exactly (none reaches past it onto blank paper), and
    # neighbours share at least OVERLAP points for gluing, the glue line where the next one begins.
    assert min(t.x for t in tiles) == 0 and min(t.y for t in tiles) == 0
    assert max(t.x + t.width for t in tiles) == pytest.approx(printed.drawing.width)
    assert max(t.y + t.height for t in tiles) == pytest.approx(printed.drawing.height)
    by_place = {(t.row, t.column): t for t in tiles}
    for (row, column), tile in by_place.items():
        if (row, column + 1) in by_place:
            right = by_place[row, column + 1]
            assert tile.x + tile.width - right.x >= map_svg.OVERLAP - 0.01
            assert any(x1 == x2 == pytest.approx(right.x) for x1, _, x2, _ in tile.overlaps)  # the glue line
    pdf = render_pdf(render_html(game, small, aids=("map",)))
    texts = page_texts(pdf)
    assert len(texts) == len(tiles)
    assert all(size(p) == (324.0, 432.0) for p in pages(pdf))
    assert all(f"Map section {t.number} of {len(tiles)}" in text for t, text in zip(tiles, texts))
    # Every hex number is printed on some section.
    assert all(any(hex_id in text for text in texts) for hex_id in game.map.hexes)
    assert not [png.name for png in rendered(pdf, tmp_path) if ink_near_edge(png)]


def test_letter_paper_for_one_aid(game):
    (page,) = pages(render_pdf(render_html(game, "letter", aids=("crt", "modifiers"))))
    assert size(page) == (612.0, 792.0)


@pytest.mark.rule("engle:outcome")
def test_battle_system_pdf(tmp_path):
    game = load_game("engle_ww2_battle")
    pdf = render_pdf(render_html(game))
    text = " ".join(page_texts(pdf))
    assert len(pages(pdf)) <= 2
    for band in game.battle.outcomes:
        assert band.name in text
    for state in game.battle.army_states:
        assert state.if_loser.split()[0] in text
    assert "==" not in text and "No routed units and no beaten units" in text
    assert not [png.name for png in rendered(pdf, tmp_path) if ink_near_edge(png)]
