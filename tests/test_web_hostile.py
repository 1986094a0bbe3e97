"""A hostile game on the board: its texts stay text, no script from it runs, every page has a strict CSP.

A copy of The Drive on Metz whose unit id, designation, side, place, award, option and terrain
names hold <img onerror>, </script>, <svg onload> and quotes (`rulec check` accepts it) is played
on the board in headless Chromium: the hostile unit is moved, fights, shows in the tray, the log
and the hex panel. A hook installed before the page's own scripts counts calls of `pwned()`
(what every payload calls) and Content-Security-Policy violations; both must stay at zero, the
DOM must hold no element the game file wrote, and the texts must show as written. A control
proves the hook sees a payload that is put into the page as markup.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from rulec.aids import chromium
from rulec.pipeline import load_game
from rulec.web.app import create_app
from rulec.web.headers import CONTENT_SECURITY_POLICY
from board_server import running_server

ROOT = Path(__file__).resolve().parent.parent
UNIT_ID = "us<img src=x onerror=pwned('id')>\"q'</script>"
DESIGNATION = "<img/src=\"x\"/onerror=pwned('designation')>"
SIDE = "<img src=x onerror=\"pwned('side')\">States"
PLACE = "</script><svg onload=pwned('place')>Thionville"
AWARD = "<img src=x onerror=pwned('award')> for \"Thionville\""
OPTION = "<script>pwned('option')</script>"
TERRAIN = "</title><img src=x onerror=pwned('terrain')>"
HOOK = """
window.__pwned = []; window.__violations = [];
window.pwned = (where) => window.__pwned.push(String(where));
document.addEventListener("securitypolicyviolation", (event) => window.__violations.push(event.violatedDirective));
"""


def quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    text = (ROOT / "games" / "drive_on_metz.rulec").read_text(encoding="utf-8")
    replacements = [
        ('unit us_357 { side = us  designation = "357"', f'unit {quoted(UNIT_ID)} {{ side = us  designation = {quoted(DESIGNATION)}'),
        ('name = "United States"', f"name = {quoted(SIDE)}"),
        ('0701 = "Thionville"', f"0701 = {quoted(PLACE)}"),
        ('name = "Command Control (11.1)"', f"name = {quoted(OPTION)}"),
        ('name = "City"', f"name = {quoted(TERRAIN)}"),
    ]
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new, 1)
    start = text.index('text = "1 VP for each American unit east of the Moselle')
    end = text.index('"', start + len('text = "')) + 1
    text = text[:start] + f"text = {quoted(AWARD)}" + text[end:]
    path = tmp_path_factory.mktemp("hostile") / "hostile.rulec"
    path.write_text(text, encoding="utf-8")
    return load_game(str(path))


def test_every_page_and_answer_has_a_strict_content_security_policy(metz):
    client = TestClient(create_app({"drive_on_metz": metz}))
    game_id = client.post("/api/games", json={"game": "drive_on_metz", "seed": 1}).json()["id"]
    for path in ("/", f"/games/{game_id}", f"/api/games/{game_id}", "/static/board.js", "/api/games/nonesuch"):
        response = client.get(path)
        policy = response.headers["content-security-policy"]
        assert policy == CONTENT_SECURITY_POLICY, path
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert response.headers["x-content-type-options"] == "nosniff"
    for path in ("/", f"/games/{game_id}"):  # no inline script nor handler is left for the policy to block
        page = client.get(path).text
        assert "<script>" not in page and " onclick=" not in page and " style=" not in page
        assert all(' src="/static/' in tag for tag in page.split("<script")[1:])  # every script is a file of the server's


needs_browser = pytest.mark.skipif(chromium.find_chromium() is None or shutil.which("chromedriver") is None,
                                   reason="Chromium or chromium-driver is not installed: run scripts/install-system-deps.sh")


@pytest.fixture(scope="module")
def browser():
    webdriver = pytest.importorskip("selenium.webdriver", reason="Selenium is not installed (the test extra)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium.find_chromium()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1500,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=shutil.which("chromedriver")), options=options)
    driver.set_page_load_timeout(60)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOOK})
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(driver, condition, message: str):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, 30).until(condition, message)


@needs_browser
def test_a_hostile_game_runs_no_script_on_the_board(browser, hostile):
    from selenium.webdriver.common.by import By
    assert hostile.units[UNIT_ID].designation == DESIGNATION  # `rulec check` took every text as it is
    with running_server({"hostile": hostile}) as url:
        browser.get(url + "/")
        assert browser.execute_script("return window.__pwned") == []
        game_id = httpx.post(f"{url}/api/games", json={"game": "hostile", "seed": 1,
                                                        "options": list(hostile.options)[:1]}).json()["id"]
        browser.get(f"{url}/games/{game_id}")
        wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#tray .counter-box"), "no tray")
        tray = next(box for box in browser.find_elements(By.CSS_SELECTOR, "#tray .counter-box")
                    if box.get_attribute("data-unit") == UNIT_ID)
        assert tray.text.startswith(DESIGNATION)  # the designation shows as written

        # The hostile unit moves next to the Germans from the tray, and attacks them: its name is in the log.
        tray.click()
        wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, 'polygon.reach[data-hex="0304"]'), "no reach")
        browser.execute_script("document.querySelector('polygon[data-hex=\"0304\"]')"
                               ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
        wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-steps") == "1", "no move")
        for text in ("end", f"attack 0403 with {DESIGNATION}"):
            assert httpx.post(f"{url}/api/games/{game_id}/orders", json={"order": text}).status_code == 200
        browser.refresh()
        wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#log li.battle"), "no battle in the log")
        log = browser.find_element(By.ID, "log").text
        assert f"{DESIGNATION} enters the map at 0304" in log and f"Battle at 0403: {DESIGNATION} against" in log
        assert SIDE in browser.find_element(By.ID, "vp-line").text

        # The hex panel of the city with the hostile name and terrain.
        browser.execute_script("document.querySelector('polygon[data-hex=\"0701\"]')"
                               ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
        wait_for(browser, lambda d: "0701" in d.find_element(By.ID, "hex-info").text, "no hex panel")
        info = browser.find_element(By.ID, "hex-info").text
        assert PLACE in info and TERRAIN in info

        # Nothing ran, nothing was blocked (so nothing tried), and no element came from the game file.
        assert browser.execute_script("return window.__pwned") == []
        assert browser.execute_script("return window.__violations") == []
        injected = browser.execute_script(
            "return [...document.querySelectorAll('img, script:not([src]), foreignObject, iframe')].length"
            " + [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length")
        assert injected == 0
        assert browser.title.endswith(": rulec board") and "pwned" not in browser.title

        # The control: markup put into the page is blocked by the policy, and the hook sees it.
        browser.execute_script("document.body.insertAdjacentHTML('beforeend', arguments[0])", f"<div>{DESIGNATION}{UNIT_ID}</div>")
        wait_for(browser, lambda d: d.execute_script("return window.__violations.length") > 0, "the control was not seen")
        assert browser.execute_script("return window.__pwned") == []  # blocked by the Content-Security-Policy
