"""Real pointer clicks on the board (headless Chromium, Selenium's pointer actions at page coordinates).

A click anywhere inside a hex must reach that hex, whatever is drawn over it: terrain patterns,
roads, rivers, hexside lines, hex numbers, place names, symbols. For every terrain type of
The Drive on Metz and The Marne a unit is moved into a hex of that terrain by clicking its
counter and then the hex (at its centre, then at a random point inside it), each move checked
against the server and taken back with a click on Undo. Every hex of both maps is also probed
at random points for what the browser would hit there.
"""

from __future__ import annotations

import random
import shutil

import httpx
import pytest

from rulec.aids import chromium
from rulec.engine import new_game
from rulec.pipeline import load_game
from board_server import running_server

webdriver = pytest.importorskip("selenium.webdriver", reason="Selenium is not installed (the test extra)")
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(chromium.find_chromium() is None or DRIVER is None,
                                reason="Chromium or chromium-driver is not installed: run scripts/install-system-deps.sh")


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = chromium.find_chromium()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1500,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


# The corners of each hex named (all of them if none is), in the page's viewport coordinates (CSS pixels),
# read from the drawn polygons.
ALL_CORNERS = """
const polygons = arguments[0] ? [document.querySelector(`polygon[data-hex="${CSS.escape(arguments[0])}"]`)]
                              : [...document.querySelectorAll("polygon[data-hex]")];
const corners = {};
for (const polygon of polygons) {
  const matrix = polygon.getScreenCTM();
  corners[polygon.dataset.hex] = [...polygon.points].map((p) => {
    const q = new DOMPoint(p.x, p.y).matrixTransform(matrix); return [q.x, q.y]; });
}
return corners;
"""

# What a pointer at (x, y) would hit: the hex polygon's number, or a counter's hex, or what else is there.
HIT = """
const hits = [];
for (const [x, y] of arguments[0]) {
  const target = document.elementFromPoint(x, y);
  const piece = target && target.closest("g.piece");
  const hex = target && target.closest("polygon[data-hex]");
  hits.push(piece ? "piece:" + piece.dataset.hex : hex ? hex.dataset.hex : (target ? target.tagName + "." + target.getAttribute("class") : "nothing"));
}
return hits;
"""


def inside(corners: list[list[float]], rng: random.Random, shrink: float = 0.85) -> tuple[float, float]:
    """A random point inside the hexagon (a random triangle fan point, drawn in from the border a little)."""
    cx = sum(x for x, _ in corners) / len(corners)
    cy = sum(y for _, y in corners) / len(corners)
    i = rng.randrange(len(corners))
    (ax, ay), (bx, by) = corners[i], corners[(i + 1) % len(corners)]
    u, v = rng.random(), rng.random()
    if u + v > 1:
        u, v = 1 - u, 1 - v
    x, y = cx + u * (ax - cx) + v * (bx - cx), cy + u * (ay - cy) + v * (by - cy)
    return cx + shrink * (x - cx), cy + shrink * (y - cy)


def centre(corners: list[list[float]]) -> tuple[float, float]:
    return sum(x for x, _ in corners) / len(corners), sum(y for _, y in corners) / len(corners)


def pointer_click(driver, x: float, y: float) -> None:
    """A real mouse click at viewport coordinates (x, y): the browser decides what it hits."""
    actions = ActionChains(driver)
    actions.w3c_actions.pointer_action.move_to_location(int(round(x)), int(round(y)))
    actions.w3c_actions.pointer_action.click()
    actions.perform()


def steps(driver) -> int:
    return int(driver.find_element(By.TAG_NAME, "body").get_attribute("data-steps") or -1)


def into_view(driver, selector: str) -> None:
    driver.execute_script("document.querySelector(arguments[0]).scrollIntoView({block: 'center', inline: 'center'})", selector)


def click_unit(driver, unit: str) -> None:
    """Click the middle of the unit's counter on the map, as a player would."""
    selector = f'g.piece[data-unit="{unit}"]'
    into_view(driver, selector)
    x, y, hit = driver.execute_script("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                                      "const x = r.x + r.width / 2, y = r.y + r.height / 2;"
                                      "const piece = document.elementFromPoint(x, y).closest('g.piece');"
                                      "return [x, y, piece && piece.dataset.unit]", selector)
    assert hit == unit, f"the middle of {unit}'s counter shows {hit}"
    pointer_click(driver, x, y)


def one_move_per_terrain(state) -> dict[str, tuple[str, str]]:
    """For each terrain type, a (unit, hex) the position lets a unit move to in one order, the hex of that terrain
    (the first such in game-file order), the unit alone in its hex so that its counter is all in sight."""
    game = state.game
    orders: dict[tuple[str, str], int] = {}
    for action in state.legal_orders():
        if action.kind == "move" and action.hex:
            orders[(action.unit, action.hex)] = orders.get((action.unit, action.hex), 0) + 1
    alone = {hex_id for hex_id in set(state.positions.values()) if len(state.units_at(hex_id)) == 1}
    chosen: dict[str, tuple[str, str]] = {}
    for terrain in game.terrain:
        for (unit, hex_id), count in orders.items():
            if count == 1 and terrain in game.map.terrain.get(hex_id, ()) and state.positions.get(unit) in alone:
                chosen[terrain] = (unit, hex_id)
                break
    return chosen


def check_every_hex_answers(driver, game, rng: random.Random) -> None:
    """At random points inside every hex (at the fitted zoom, the whole map shown) the browser hits
    that hex, or a counter: never a road, a river, a number, a name or a symbol drawn over it."""
    driver.find_element(By.ID, "zoom-fit").click()
    points, expected = [], []
    every = driver.execute_script(ALL_CORNERS, None)
    assert set(every) == set(game.map.terrain)
    for hex_id, corners in every.items():
        for _ in range(4):
            points.append(inside(corners, rng))
            expected.append(hex_id)
        points.append(centre(corners))
        expected.append(hex_id)
    hits = driver.execute_script(HIT, points)
    wrong = [(hex_id, hit) for hex_id, hit in zip(expected, hits) if hit != hex_id and not hit.startswith("piece:")]
    assert not wrong, f"{len(wrong)} of {len(points)} points inside hexes hit something else: {wrong[:10]}"


def move_by_clicks(driver, unit: str, hex_id: str, at: tuple[float, float] | None, rng: random.Random) -> None:
    """Select the unit with a click on its counter, then click the hex at a point; the unit must be in the hex."""
    before = steps(driver)
    click_unit(driver, unit)
    WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, f'polygon.reach[data-hex="{hex_id}"]'),
                                    f"clicking {unit} did not light up {hex_id}")
    into_view(driver, f'polygon[data-hex="{hex_id}"]')
    corners = driver.execute_script(ALL_CORNERS, hex_id)[hex_id]
    for _ in range(20):  # a point a counter of another hex does not cover (stacked counters reach past their hex)
        point = centre(corners) if at is None else inside(corners, rng)
        hit = driver.execute_script(HIT, [point])[0]
        if hit in (hex_id, f"piece:{hex_id}"):
            break
    else:
        raise AssertionError(f"no point of {hex_id} shows the hex or its counters: {hit}")
    pointer_click(driver, *point)
    WebDriverWait(driver, 20).until(lambda d: steps(d) == before + 1,
                                    f"a click at {point} inside {hex_id} did not move {unit} (it hit {hit})")
    assert driver.find_element(By.CSS_SELECTOR, f'g.piece[data-unit="{unit}"]').get_attribute("data-hex") == hex_id


def undo(driver, url: str, game_id: str, count: int) -> None:
    driver.find_element(By.ID, "undo").click()
    WebDriverWait(driver, 20).until(lambda d: steps(d) == count)
    assert httpx.get(f"{url}/api/games/{game_id}").json()["steps"] == count


@pytest.fixture(scope="module")
def marne():
    return load_game("the_marne")


@pytest.mark.parametrize("name, orders_first", [("drive_on_metz", ["end", "end"]), ("the_marne", [])])
def test_a_unit_moves_into_a_hex_of_every_terrain_by_real_clicks(browser, name, orders_first, request):
    game = request.getfixturevalue({"drive_on_metz": "metz", "the_marne": "marne"}[name])  # compiled once a run
    rng = random.Random(f"clicks-{name}")
    with running_server({name: game}) as url:
        game_id = httpx.post(f"{url}/api/games", json={"game": name, "seed": 1}).json()["id"]
        state = new_game(game, seed=1)
        for text in orders_first:  # Metz: the Germans' movement phase, where forts and both cities are in reach
            assert httpx.post(f"{url}/api/games/{game_id}/orders", json={"order": text}).status_code == 200
            for action in state.parse_orders(text):
                state.apply_action(action)
        start = len(state.history())
        browser.get(f"{url}/games/{game_id}")
        WebDriverWait(browser, 30).until(lambda d: steps(d) == start)
        check_every_hex_answers(browser, game, rng)

        moves = one_move_per_terrain(state)
        assert set(moves) == set(game.terrain), f"no move reaches {set(game.terrain) - set(moves)}"
        browser.find_element(By.ID, "zoom-in").click()  # counters and hexes a player's size on the big map
        for terrain, (unit, hex_id) in moves.items():
            for at in (None, "random"):
                move_by_clicks(browser, unit, hex_id, None if at is None else (0, 0), rng)
                undo(browser, url, game_id, start)


def test_replay_sends_no_orders_to_the_live_game(browser, metz):
    with running_server({"drive_on_metz": metz}) as url:
        game_id = httpx.post(f"{url}/api/games", json={"game": "drive_on_metz", "seed": 1}).json()["id"]
        assert httpx.post(f"{url}/api/games/{game_id}/orders", json={"order": "move 357 0304"}).status_code == 200
        browser.get(f"{url}/games/{game_id}")
        WebDriverWait(browser, 30).until(lambda d: steps(d) == 1)
        browser.find_element(By.ID, "replay-back").click()
        WebDriverWait(browser, 20).until(lambda d: steps(d) == 0)
        box = browser.find_element(By.ID, "order-text")
        assert not box.is_enabled() and not browser.find_element(By.ID, "undo").is_enabled()
        # Enter in the order box (the form sent whatever way) and a click on a counter: nothing reaches the game.
        browser.execute_script("const box = document.getElementById('order-text'); box.value = 'move 358 0204';"
                               "document.getElementById('order-form').requestSubmit()")
        WebDriverWait(browser, 10).until(lambda d: "replay" in d.find_element(By.ID, "message").text)
        click_unit(browser, "de_1126")
        assert not browser.find_elements(By.CSS_SELECTOR, "polygon.reach")
        assert httpx.get(f"{url}/api/games/{game_id}").json()["steps"] == 1
        # Back to the game, the box orders again.
        browser.find_element(By.ID, "replay-exit").click()
        WebDriverWait(browser, 20).until(lambda d: steps(d) == 1 and d.find_element(By.ID, "order-text").is_enabled())
        browser.find_element(By.ID, "order-text").clear()
        browser.find_element(By.ID, "order-text").send_keys("move 358 0204\n")
        WebDriverWait(browser, 20).until(lambda d: steps(d) == 2)


# Each place name's hex, the top of its letters (its baseline less a capital's height) and the bottom of the
# counters in its hex, in map units.
PLACES_AND_COUNTERS = """
const font = parseFloat(document.querySelector("g.places").getAttribute("font-size"));
return [...document.querySelectorAll("g.places text.place")].map((text) => {
  const shift = text.transform.baseVal.length ? text.transform.baseVal[0].matrix.f : 0;
  const bottoms = [...document.querySelectorAll(`g.piece[data-hex="${CSS.escape(text.dataset.hex)}"] use`)]
    .map((use) => use.y.baseVal.value + use.height.baseVal.value);
  return [text.dataset.hex, parseFloat(text.getAttribute("y")) + shift - 0.75 * font, bottoms.length ? Math.max(...bottoms) : null];
});
"""


def test_the_map_fits_the_window_zooms_and_shows_place_names_clear_of_counters(browser, marne):
    with running_server({"the_marne": marne}) as url:
        game_id = httpx.post(f"{url}/api/games", json={"game": "the_marne", "seed": 1}).json()["id"]
        browser.get(f"{url}/games/{game_id}")
        WebDriverWait(browser, 30).until(lambda d: steps(d) == 0)
        size = "const r = document.querySelector('#map svg.map-sheet').getBoundingClientRect(); return [r.width, r.height]"
        # The Marne's map fitted in the window would have hexes too small to read: it opens at a readable size.
        across = browser.execute_script("const p = document.querySelector('polygon[data-hex]').getBoundingClientRect();"
                                        "return Math.max(p.width, p.height)")
        assert 55 < across < 58
        browser.find_element(By.ID, "zoom-fit").click()
        room = browser.execute_script("const m = document.getElementById('map'); return [m.clientWidth, m.clientHeight]")
        fitted = browser.execute_script(size)
        assert all(f <= r + 1 for f, r in zip(fitted, room)) and any(f >= r - 2 for f, r in zip(fitted, room))
        browser.find_element(By.ID, "zoom-in").click()
        browser.find_element(By.ID, "zoom-in").click()
        zoomed = browser.execute_script(size)
        assert zoomed[0] == pytest.approx(fitted[0] * 1.96, rel=0.01)
        scrolls = browser.execute_script("const m = document.getElementById('map'); return m.scrollWidth > m.clientWidth")
        assert scrolls
        browser.find_element(By.ID, "zoom-fit").click()
        assert browser.execute_script(size) == pytest.approx(fitted, rel=0.001)
        # Ctrl + wheel zooms in at the pointer; the wheel alone scrolls.
        from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
        from selenium.webdriver.common.keys import Keys
        origin = ScrollOrigin.from_element(browser.find_element(By.ID, "map"))
        ActionChains(browser).key_down(Keys.CONTROL).scroll_from_origin(origin, 0, -200).key_up(Keys.CONTROL).perform()
        WebDriverWait(browser, 10).until(lambda d: d.execute_script(size)[0] > fitted[0] * 1.5)

        # Place names are drawn over the counters and, in an occupied hex, below them.
        occupied = 0
        for hex_id, letters_top, counters_bottom in browser.execute_script(PLACES_AND_COUNTERS):
            if counters_bottom is not None:
                assert letters_top >= counters_bottom, hex_id
                occupied += 1
        assert occupied >= 5  # Paris, its forts and the towns the armies stand in
        order = browser.execute_script("const p = document.querySelector('g#pieces'), n = document.querySelector('g.places');"
                                       "return p.compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING")
        assert order
