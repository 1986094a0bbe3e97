"""Scenarios on the board: the games page offers a game's scenario blocks, a game starts in the one chosen, and
its save names it, so that the board and `rulec play` load each other's saves of any scenario."""

from __future__ import annotations

import random

import pytest
from starlette.testclient import TestClient

from rulec.engine import new_game
from rulec.players.saves import SavedGame, game_hash, history_strings
from rulec.web.app import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def marne():
    from rulec.pipeline import load_game
    return load_game("the_marne")


@pytest.fixture(scope="module")
def client(marne):
    return TestClient(create_app({"the_marne": marne}))


def test_the_games_page_offers_the_scenarios_with_the_games_own_chosen(client, marne):
    page = client.get("/").text
    for sid, scenario in marne.scenarios.items():
        assert f'<option value="{sid}"' in page and scenario.name in page
    assert f'<option value="{marne.info.scenario}" selected>' in page


@pytest.mark.parametrize("scenario", ["pursuit", "counterattack_free"])
def test_a_game_starts_in_the_scenario_chosen_and_its_save_names_it(client, marne, scenario):
    response = client.post("/api/games", json={"game": "the_marne", "seed": 2, "scenario": scenario})
    assert response.status_code == 201, response.text
    game_id = response.json()["id"]
    expected = new_game(marne, seed=2, scenario=scenario)
    shown = client.get(f"/api/games/{game_id}").json()
    assert {u["id"]: u["hex"] for u in shown["units"] if u.get("hex")} == expected.positions
    assert marne.scenarios[scenario].name in client.get(f"/games/{game_id}").text
    saved = client.get(f"/api/games/{game_id}/save").json()
    assert saved["scenario"] == scenario


def test_a_save_of_a_scenario_made_elsewhere_loads_into_that_scenario(client, marne):
    state = new_game(marne, seed=5, scenario="pursuit")
    rng = random.Random(5)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    saved = SavedGame("the_marne", [], 5, {"germany": "human", "allies": "human"}, history_strings(state),
                      game_hash(marne), "pursuit")
    response = client.post("/api/load", json=saved.to_json())
    assert response.status_code == 201, response.text
    shown = client.get(f"/api/games/{response.json()['id']}").json()
    assert shown["steps"] == 30
    assert {u["id"]: u["hex"] for u in shown["units"] if u.get("hex")} == state.positions


def test_an_unknown_scenario_is_refused_with_a_suggestion(client):
    response = client.post("/api/games", json={"game": "the_marne", "scenario": "persuit"})
    assert response.status_code == 400 and "pursuit" in response.json()["error"]
    assert client.post("/api/games", json={"game": "the_marne", "scenario": 7}).status_code == 400


def test_the_board_draws_the_map_without_the_paper_around_it(client, marne):
    """The printed map sits on a tall 22 x 34 in sheet; the board cuts the sheet to the map, so the hexes start
    near the top of the page rather than under a screenful of blank paper."""
    import re

    game_id = client.post("/api/games", json={"game": "the_marne", "seed": 1}).json()["id"]
    page = client.get(f"/games/{game_id}").text
    width, height = map(float, re.search(r'class="map-sheet"[^>]*viewBox="0 0 ([\d.]+) ([\d.]+)"', page).groups())
    ys = [float(y) for points in re.findall(r'<polygon class="hex[^"]*"[^>]*points="([^"]+)"', page)
          for y in re.findall(r',([\d.]+)', points)]
    assert ys and min(ys) < 0.15 * height and max(ys) > 0.7 * height  # the hexes fill the sheet from near its top


def test_the_board_says_what_the_game_reconstructs(client, marne):
    """A game file's reconstruction notice (game { reconstructed }) shows under the board's title."""
    import html

    notice = marne.info.reconstruction_notice
    assert notice
    game_id = client.post("/api/games", json={"game": "the_marne", "seed": 1}).json()["id"]
    page = client.get(f"/games/{game_id}").text
    shown = page.split('<p id="reconstruction">', 1)[1].split("</p>", 1)[0]
    assert html.unescape(shown) == notice
