"""The board in a real browser: headless Chromium (Debian's `chromium` and `chromium-driver`, from
scripts/install-system-deps.sh) driven by Selenium plays a full turn of Drive on Metz by real clicks:
moves from the reinforcement tray, an undo, a battle declared on the map with its odds panel
checked against the engine, the German turn by the AI, then save, load and replay.

Screenshots go to build/board-screenshots/ (git-ignored); docs/images/board.png (the README's) is
2-odds.png, shrunk.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulec.aids import chromium
from rulec.engine import new_game
from rulec.players.saves import SavedGame, restore
from rulec.players.setup import PLAYER_KINDS
from rulec.web.view import odds_view
from board_server import running_server

webdriver = pytest.importorskip("selenium.webdriver", reason="Selenium is not installed (the test extra)")
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "build" / "board-screenshots"
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(chromium.find_chromium() is None or DRIVER is None,
                                reason="Chromium or chromium-driver is not installed: run scripts/install-system-deps.sh")


@pytest.fixture
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


def steps(driver) -> int:
    return int(driver.find_element(By.TAG_NAME, "body").get_attribute("data-steps") or -1)


def wait_steps(driver, count: int) -> None:
    WebDriverWait(driver, 90).until(lambda d: steps(d) == count, f"the page never showed {count} actions")


def click_order(driver, text: str) -> None:
    """Press the panel's button for an order (opening its group when the kind has many)."""
    button = driver.find_element(By.CSS_SELECTOR, f'button[data-order="{text}"]')
    if not button.is_displayed():
        driver.execute_script("arguments[0].closest('details').open = true", button)
    button.click()


def pointer_click(driver, element) -> None:
    """A real mouse click at the middle of the element as drawn: the browser decides what it hits there
    (tests/test_web_clicks.py clicks every terrain, and points all over each hex)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", element)
    x, y = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]",
                                 element)
    actions = ActionChains(driver)
    actions.w3c_actions.pointer_action.move_to_location(round(x), round(y))
    actions.w3c_actions.pointer_action.click()
    actions.perform()


def click_hex(driver, hex_id: str) -> None:
    pointer_click(driver, driver.find_element(By.CSS_SELECTOR, f'polygon[data-hex="{hex_id}"]'))


def click_counter(driver, unit: str) -> None:
    pointer_click(driver, driver.find_element(By.CSS_SELECTOR, f'g.piece[data-unit="{unit}"]'))


def engine_state(url: str, game_id: str, game):
    """The game as the engine alone rebuilds it from the server's save."""
    import httpx
    data = httpx.get(f"{url}/api/games/{game_id}/save").json()
    saved = SavedGame(data["game"], data["options"], data["seed"], data["players"], data["history"], data["game_hash"])
    return restore(saved, "save", "", start=lambda g, options, seed: new_game(g, options=options, seed=seed),
                   game=game, sides=list(game.sides), player_kinds=PLAYER_KINDS), data


def test_a_full_turn_of_drive_on_metz_by_clicks(browser, metz, tmp_path):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with running_server({"drive_on_metz": metz}) as url:
        # Start from the games page: the Germans played by the greedy AI.
        browser.get(url + "/")
        form = browser.find_element(By.CSS_SELECTOR, 'form[data-game="drive_on_metz"]')
        form.find_element(By.CSS_SELECTOR, 'select[name="player-germany"] option[value="greedy"], '
                                           'select[name="player-germany"] option:nth-child(3)').click()
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        WebDriverWait(browser, 30).until(lambda d: "/games/" in d.current_url)
        game_id = browser.current_url.rsplit("/", 1)[1]
        wait_steps(browser, 0)
        assert "American Movement Phase" in browser.find_element(By.ID, "status").text

        # The Germans' zones of control, outlined on the map when asked for, are the engine's.
        browser.find_element(By.ID, "show-zoc").click()
        outlined = {p.get_attribute("data-hex") for p in browser.find_elements(By.CSS_SELECTOR, 'polygon.zoc[data-zoc="germany"]')}
        assert outlined == set(new_game(metz, seed=1).enemy_zoc("us")) and outlined
        browser.find_element(By.ID, "show-zoc").click()

        # A typed order the rules forbid is refused with its rule case, whose meaning is one click away.
        browser.find_element(By.ID, "order-text").send_keys("move 357 0909\n")
        WebDriverWait(browser, 10).until(lambda d: "illegal (rule 7.21)" in d.find_element(By.ID, "message").text)
        browser.find_element(By.ID, "rule-link").click()
        WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "message").text ==
                                         f"rule 7.21: {metz.rule_texts['7.21']} (cited for: movement allowance)")
        assert steps(browser) == 0
        browser.find_element(By.ID, "order-text").clear()

        # A reinforcement from the tray to the hex next to the Germans at 0403; the hexes it can reach light up.
        browser.find_element(By.CSS_SELECTOR, '#tray .counter-box[data-unit="us_357"]').click()
        WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "polygon.reach"))
        reach = {p.get_attribute("data-hex") for p in browser.find_elements(By.CSS_SELECTOR, "polygon.reach")}
        state = new_game(metz, seed=1)
        assert reach == {a.hex for a in state.moves_of("us_357") if a.kind == "move"}
        click_hex(browser, "0304")
        wait_steps(browser, 1)
        assert browser.find_element(By.CSS_SELECTOR, 'g.piece[data-unit="us_357"]').get_attribute("data-hex") == "0304"

        # A second move, taken back.
        browser.find_element(By.CSS_SELECTOR, '#tray .counter-box[data-unit="us_358"]').click()
        WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "polygon.reach"))
        click_hex(browser, "0204")
        wait_steps(browser, 2)
        browser.find_element(By.ID, "undo").click()
        wait_steps(browser, 1)
        assert browser.find_elements(By.CSS_SELECTOR, '#tray .counter-box[data-unit="us_358"]')
        browser.save_screenshot(str(SCREENSHOTS / "1-movement.png"))

        # Combat: click the German stack to declare the battle, the attacker to join it; the odds panel is the engine's.
        click_order(browser, "end")
        wait_steps(browser, 2)
        click_counter(browser, "de_1126")
        wait_steps(browser, 3)
        click_counter(browser, "us_357")
        wait_steps(browser, 4)
        WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.ID, "odds"))
        engine, _ = engine_state(url, game_id, metz)
        expected = odds_view(metz, engine.odds())
        panel = browser.find_element(By.ID, "odds")
        assert panel.get_attribute("data-column") == expected["column"]
        assert int(panel.get_attribute("data-drm")) == expected["drm"]
        shown = {row.get_attribute("data-code"): float(row.get_attribute("data-percent"))
                 for row in browser.find_elements(By.CSS_SELECTOR, "#odds-results tr[data-code]")}
        assert shown == {r["code"]: r["percent"] for r in expected["results"]}
        browser.save_screenshot(str(SCREENSHOTS / "2-odds.png"))
        click_order(browser, "resolve")
        WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.ID, "last-battle"))

        # Whatever the die brought (a retreat, a loss, an advance), choose from the panel until the phase is over.
        while "American Combat Phase" in browser.find_element(By.ID, "status").text:
            before = steps(browser)
            if browser.find_element(By.ID, "ai-step").is_displayed():  # the Germans' retreat is the AI's to choose
                browser.find_element(By.ID, "ai-step").click()
                WebDriverWait(browser, 30).until(lambda d: steps(d) > before)
                continue
            buttons = [b for b in browser.find_elements(By.CSS_SELECTOR, "#orders button.order")
                       if b.get_attribute("data-kind") != "attack"]
            decision = next((b for b in buttons if b.get_attribute("data-kind") != "end"), buttons[-1])
            decision.click()
            WebDriverWait(browser, 30).until(lambda d: steps(d) > before)

        # The German player turn, by the AI, shown order by order, until the Americans decide again.
        browser.find_element(By.ID, "ai-run").click()
        WebDriverWait(browser, 240).until(lambda d: "American Movement Phase" in d.find_element(By.ID, "status").text
                                          and "turn 2" in d.find_element(By.ID, "status").text)
        browser.save_screenshot(str(SCREENSHOTS / "3-turn-2.png"))
        engine, saved = engine_state(url, game_id, metz)
        assert engine.turn == 2 and steps(browser) == len(engine.history())
        shown_at = {g.get_attribute("data-unit"): g.get_attribute("data-hex")
                    for g in browser.find_elements(By.CSS_SELECTOR, "g.piece")}
        assert shown_at == dict(engine.positions)

        # Save (the page's link), then load the file in the page: the same game, in a new id.
        assert browser.find_element(By.ID, "save").get_attribute("href").endswith(f"/api/games/{game_id}/save")
        save_file = tmp_path / "metz-save.json"
        save_file.write_text(json.dumps(saved))
        browser.find_element(By.ID, "load-file").send_keys(str(save_file))
        WebDriverWait(browser, 60).until(lambda d: game_id not in d.current_url)
        wait_steps(browser, len(engine.history()))

        # Replay: back to the first move and forward again. The buttons stay where they are whatever the steps
        # shown say (a button that moved would miss the next click).
        total = len(engine.history())
        where = browser.find_element(By.ID, "replay-back").rect
        for _ in range(total - 1):
            browser.find_element(By.ID, "replay-back").click()
        wait_steps(browser, 1)
        assert browser.find_element(By.ID, "replay-back").rect == where
        assert browser.find_element(By.CSS_SELECTOR, 'g.piece[data-unit="us_357"]').get_attribute("data-hex") == "0304"
        assert not browser.find_elements(By.CSS_SELECTOR, "#orders button.order")  # a past position is not played
        browser.find_element(By.ID, "replay-forward").click()
        wait_steps(browser, 2)
        browser.find_element(By.ID, "replay-exit").click()
        wait_steps(browser, total)
        browser.save_screenshot(str(SCREENSHOTS / "4-loaded.png"))


def test_a_map_less_battle_page_shows_the_odds_and_the_combats_one_by_one(browser):
    from rulec.pipeline import load_game
    engle = load_game("engle_ww2_battle")
    with running_server({"engle_ww2_battle": engle}) as url:
        browser.get(url + "/")
        browser.find_element(By.CSS_SELECTOR, "a.battle-link").click()
        WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.ID, "battle-form"))
        for index, text in enumerate(["Germany: panther/good, infantry", "Soviet: infantry x2, at-gun"]):
            box = browser.find_element(By.ID, f"side-{index}")
            box.clear()
            box.send_keys(text)
        browser.find_element(By.ID, "fight").click()
        WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#battle-odds tr"))
        shown = {row.get_attribute("data-result"): float(row.get_attribute("data-percent"))
                 for row in browser.find_elements(By.CSS_SELECTOR, "#battle-odds tr")}
        import httpx
        expected = httpx.post(url + "/api/battle", json={"game": "engle_ww2_battle", "seed": 1, "sides": [
            "Germany: panther/good, infantry", "Soviet: infantry x2, at-gun"]}).json()
        assert shown == {k: round(100 * p, 2) for k, p in expected["odds"]["winner"].items()}
        combats = sum(1 for line in expected["text"] if line.startswith("Combat "))
        steps = 1
        while browser.find_element(By.ID, "next").is_displayed():
            browser.find_element(By.ID, "next").click()
            steps += 1
        assert steps == combats + 2  # deployment, each combat, the result
        assert browser.find_element(By.ID, "battle-lines").text.splitlines()[-1].strip() == expected["text"][-1].strip()
        browser.save_screenshot(str(SCREENSHOTS / "5-battle.png"))
