"""The HTML aids in headless Chromium: screenshots for review, no table wider than the page, the map's hexes.

Screenshots of each printed sheet go to build/aid-screenshots/GAME/SHEET.png (git-ignored).
Chromium comes from scripts/install-system-deps.sh (Debian's `chromium`);
without it these tests skip and say so.
"""

from __future__ import annotations

import io
import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from rulec.aids import chromium
from rulec.aids.render import aid_names, render_html, sheets_of
from rulec.pipeline import load_game

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "build" / "aid-screenshots"
PAGE_CONTENT_WIDTH = "186mm"  # A4 (210mm) less two 12mm margins: the narrower of the two papers
PAGE_CONTENT_HEIGHT = 254 / 25.4 * 96  # px: Letter's 11in less two 0.5in margins, the shorter of the two

pytestmark = pytest.mark.skipif(chromium.find_chromium() is None,
                                reason="Chromium is not installed: run scripts/install-system-deps.sh (as root)")

# Lays the page out at the printed width, measures every table and the map, and writes
# the results into the DOM, where --dump-dom reads them back.
MEASURE = """
<script>
(function () {
  const body = document.body;
  Object.assign(body.style, {maxWidth: "none", margin: "0", padding: "0", width: "%s"});
  const limit = body.getBoundingClientRect().right + 0.5;
  const tables = Array.from(document.querySelectorAll("table")).map(function (table) {
    const box = table.getBoundingClientRect();
    return {id: table.id, right: box.right, limit: limit, overflows: box.right > limit || table.scrollWidth > box.width + 1};
  });
  const map = document.querySelector("svg.map-sheet");
  const hexes = map ? Array.from(map.querySelectorAll("[data-hex]")) : [];
  const box = function (e) { const b = e.getBoundingClientRect(); return {left: b.left, right: b.right, top: b.top, height: b.height}; };
  const result = {
    left: body.getBoundingClientRect().left,
    cards: Array.from(document.querySelectorAll(".sheet-card-front, .sheet-card-back")).map(box),
    counterGrids: Array.from(document.querySelectorAll("svg.counter-sheet")).map(box),
    width: body.getBoundingClientRect().width,
    tables: tables,
    hexElements: hexes.length,
    hexIds: Array.from(new Set(hexes.map(function (e) { return e.getAttribute("data-hex"); }))).length,
    hexesDrawn: hexes.filter(function (e) { const b = e.getBoundingClientRect(); return b.width > 0 && b.height > 0; }).length,
  };
  const out = document.createElement("pre");
  out.id = "measurements";
  out.textContent = JSON.stringify(result);
  body.appendChild(out);
})();
</script>
""" % PAGE_CONTENT_WIDTH


def measure(html: str, page: Path) -> dict:
    # Laid out with the print rules alone: the screen-only rules (a centred column, rules between aids) off.
    printed = html.replace("@media screen", "@media not all")
    page.write_text(printed.replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    dom = chromium.dump_dom(page)
    match = re.search(r'<pre id="measurements">(.*?)</pre>', dom, re.S)
    assert match, "the measuring script did not run"
    return json.loads(match.group(1).replace("&quot;", '"').replace("&amp;", "&"))


@pytest.fixture(scope="module", params=["drive_on_metz", "engle_ww2_battle"])
def game(request):
    return load_game(request.param)


@pytest.fixture(scope="module")
def screenshots(game, tmp_path_factory) -> dict[str, Path]:
    """One screenshot per printed sheet, about the size of a page."""
    folder = SCREENSHOTS / game.info.id
    folder.mkdir(parents=True, exist_ok=True)
    pages = tmp_path_factory.mktemp(f"pages-{game.info.id}")

    def shoot(sheet: tuple[str, tuple[str, ...]]) -> tuple[str, Path]:
        name, aids = sheet
        page = pages / f"{name}.html"
        page.write_text(render_html(game, aids=aids), encoding="utf-8")
        return name, chromium.screenshot(page, folder / f"{name}.png", width=820, height=1160)

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(pool.map(shoot, sheets_of(aid_names(game))))


def test_a_screenshot_of_each_sheet(game, screenshots):
    assert set(screenshots) == {name for name, _ in sheets_of(aid_names(game))}
    for png in screenshots.values():
        data = png.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000  # a real, non-blank picture


@pytest.fixture(scope="module")
def measured(game, tmp_path_factory) -> dict:
    """The whole aids page (map included) laid out at the printed width and measured, in one Chromium run."""
    return measure(render_html(game), tmp_path_factory.mktemp(f"measure-{game.info.id}") / "aids.html")


def test_no_table_is_wider_than_the_page(measured):
    assert measured["width"] > 600  # 186mm at 96 px per inch is about 703 px
    assert measured["tables"], "no tables measured"
    overflowing = [t for t in measured["tables"] if t["overflows"]]
    assert not overflowing, f"tables wider than the page: {overflowing}"


def test_the_map_has_one_drawn_element_per_hex(game, measured):
    if game.map is None:
        assert measured["hexElements"] == 0
        return
    hexes = len(game.map.hexes)
    assert (measured["hexElements"], measured["hexIds"], measured["hexesDrawn"]) == (hexes, hexes, hexes)


def test_each_side_of_the_card_fits_its_page(game, measured):
    if game.map is None:
        assert measured["cards"] == []
        return
    assert len(measured["cards"]) == 2
    for side in measured["cards"]:
        assert 0 < side["height"] <= PAGE_CONTENT_HEIGHT, side


def test_counter_backs_are_centred_like_their_fronts(game, measured):
    grids = measured["counterGrids"]
    if not game.units:
        assert grids == []
        return
    assert len(grids) % 2 == 0 and grids
    middle = measured["left"] + measured["width"] / 2
    for front, back in zip(grids[0::2], grids[1::2]):
        # Centred on the page: printed on the back of the sheet, the back grid lands on the front grid.
        assert front["left"] + front["right"] == pytest.approx(2 * middle, abs=1)
        assert (back["left"], back["right"]) == pytest.approx((front["left"], front["right"]), abs=0.5)


def test_chromium_prints_on_the_chosen_paper(game, tmp_path):
    pypdf = pytest.importorskip("pypdf")
    page = tmp_path / "aids.html"
    page.write_text(render_html(game, "letter"), encoding="utf-8")
    reader = pypdf.PdfReader(io.BytesIO(chromium.print_to_pdf(page, tmp_path / "aids.pdf").read_bytes()))
    sizes = {(round(float(p.mediabox.width)), round(float(p.mediabox.height))) for p in reader.pages}
    assert sizes == {(612, 792)}  # every page Letter, the map's included
    assert len(reader.pages) <= (10 if game.map is not None else 2)


def test_the_overflow_check_catches_a_wide_table(tmp_path):
    wide = "<html><body><table id='wide'><tr><td style='white-space: nowrap'>" + "W" * 300 + "</td></tr></table></body></html>"
    (table,) = measure(wide, tmp_path / "wide.html")["tables"]
    assert table["id"] == "wide" and table["overflows"]
