"""The board server over HTTP: games by id, orders and refusals, undo, odds, save/load/replay, and
robustness (bad requests, unknown ids, oversized bodies, concurrent requests on one game, a load test)."""

from __future__ import annotations

import socket
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from starlette.testclient import TestClient

from rulec.engine import new_game
from rulec.players.saves import SavedGame, restore
from rulec.players.setup import PLAYER_KINDS
from rulec.web.app import MAX_BODY, create_app
from rulec.web.view import odds_view
from board_server import running_server

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(metz):
    return TestClient(create_app({"drive_on_metz": metz}))


def start(client, **players) -> str:
    response = client.post("/api/games", json={"game": "drive_on_metz", "seed": 1, "players": players})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def order(client, game_id: str, text: str):
    return client.post(f"/api/games/{game_id}/orders", json={"order": text})


def engine_state(client, game_id: str, metz):
    """The game rebuilt by the engine alone from the server's save: the oracle the server is checked against."""
    data = client.get(f"/api/games/{game_id}/save").json()
    saved = SavedGame(data["game"], data["options"], data["seed"], data["players"], data["history"], data["game_hash"])
    return restore(saved, "save", "", start=lambda g, options, seed: new_game(g, options=options, seed=seed),
                   game=metz, sides=list(metz.sides), player_kinds=PLAYER_KINDS)


def test_the_pages_and_a_new_game_with_its_legal_orders(client, metz):
    assert "The Drive on Metz" in client.get("/").text
    game_id = start(client)
    page = client.get(f"/games/{game_id}").text
    assert 'class="map-sheet"' in page and 'id="counter-us_357-base"' in page
    view = client.get(f"/api/games/{game_id}").json()
    state = new_game(metz, seed=1)
    assert [a["text"] for a in view["legal"]] == [state.action_to_string(a) for a in state.legal_orders()]
    assert view["deciding"] == "us" and view["turn"] == 1
    assert {u["name"]: u["hex"] for u in view["units"] if u["status"] == "map"} == \
        {state.unit_name(u): h for u, h in state.positions.items()}


def test_an_illegal_order_is_refused_with_its_rule_and_changes_nothing(client, metz):
    game_id = start(client)
    into_enemy = order(client, game_id, "move 357 0403")
    assert into_enemy.status_code == 400
    assert into_enemy.json() == {"error": "0403 holds an enemy unit", "rule": metz.rule_refs["enemy_occupied"]}
    assert order(client, game_id, "move 357 0909").json()["rule"] == metz.rule_refs["movement_allowance"]
    assert order(client, game_id, "move 357 0304").status_code == 200
    refused = order(client, game_id, "move 357 0305")
    assert refused.status_code == 400 and "already moved" in refused.json()["error"]
    assert order(client, game_id, "move 1125 0101").status_code == 400  # an enemy unit
    assert client.get(f"/api/games/{game_id}").json()["steps"] == 1


def test_undo_takes_back_orders_but_not_a_die_roll(client):
    game_id = start(client)
    order(client, game_id, "move 357 0304")
    order(client, game_id, "move 358 0204")
    assert client.post(f"/api/games/{game_id}/undo").json()["undone"] == 1
    view = client.get(f"/api/games/{game_id}").json()
    assert view["steps"] == 1 and next(u for u in view["units"] if u["name"] == "358")["status"] == "pending"
    order(client, game_id, "end")
    assert order(client, game_id, "attack 0403 with 357").status_code == 200
    view = client.get(f"/api/games/{game_id}").json()
    assert view["last_battle"] is not None  # the die was rolled at once
    assert client.post(f"/api/games/{game_id}/undo").json()["undone"] == 0
    assert client.get(f"/api/games/{game_id}").json()["steps"] == view["steps"]


def test_the_odds_shown_are_the_engines(client, metz):
    game_id = start(client)
    order(client, game_id, "move 357 0304")
    order(client, game_id, "end")
    order(client, game_id, "attack 0403")
    view = order(client, game_id, "with 357").json()
    state = engine_state(client, game_id, metz)
    odds = state.odds()
    assert view["odds"]["column"] == odds.label and view["odds"]["drm"] == odds.drm
    assert view["odds"] == odds_view(metz, odds)
    assert sum(r["percent"] for r in view["odds"]["results"]) == pytest.approx(100, abs=0.5)
    asked = client.get(f"/api/games/{game_id}/odds", params={"attack": "0403", "with": "357"})
    assert asked.status_code == 400  # a battle is being declared: a second one cannot be asked about now
    order(client, game_id, "cancel")
    asked = client.get(f"/api/games/{game_id}/odds", params={"attack": "0403", "with": "357"}).json()
    assert asked == view["odds"]


def test_ai_moves_one_by_one_and_save_load_replay(client, metz):
    game_id = start(client, germany="greedy")
    order(client, game_id, "move 357 0304")
    for _ in range(2):
        order(client, game_id, "end")
    said = client.post(f"/api/games/{game_id}/ai").json()
    assert said["ai_order"] and said["deciding"] in ("germany", "us")
    assert client.post(f"/api/games/{game_id}/undo").json()["undone"] == 0  # the AI's order is not ours to undo
    saved = client.get(f"/api/games/{game_id}/save").json()
    loaded = client.post("/api/load", json=saved)
    assert loaded.status_code == 201
    other = loaded.json()["id"]
    assert client.get(f"/api/games/{other}/save").json() == saved
    state = engine_state(client, game_id, metz)
    steps = len(state.history())
    for step in (0, 1, steps):
        past = client.get(f"/api/games/{other}", params={"at": step}).json()
        assert past["steps"] == step and past["legal"] == []
    first = client.get(f"/api/games/{other}", params={"at": 1}).json()
    assert next(u for u in first["units"] if u["name"] == "357")["hex"] == "0304"
    assert client.get(f"/api/games/{other}", params={"at": steps + 1}).status_code == 404


def test_bad_requests_get_clear_errors(client):
    game_id = start(client)
    assert client.get("/api/games/no-such-game").status_code == 404
    assert client.post("/api/games/no-such-game/orders", json={"order": "end"}).status_code == 404
    assert client.post("/api/games", json={"game": "/etc/passwd"}).status_code == 404
    assert client.post("/api/games", json={"game": "drive_on_metz", "seed": "x"}).status_code == 400
    assert client.post("/api/games", json={"game": "drive_on_metz", "players": {"us": "wizard"}}).status_code == 400
    assert client.post("/api/games", json={"game": "drive_on_metz", "options": ["nope"]}).status_code == 400
    as_json = {"content-type": "application/json"}  # a body of any other type is refused first (test_web_security.py)
    assert client.post(f"/api/games/{game_id}/orders", content=b"{not json", headers=as_json).status_code == 400
    assert client.post(f"/api/games/{game_id}/orders", json=[1, 2]).status_code == 400
    assert client.post(f"/api/games/{game_id}/orders", json={"order": 5}).status_code == 400
    assert order(client, game_id, "fly 357 to the moon").status_code == 400
    assert order(client, game_id, "x" * 5000).status_code == 400
    assert client.post("/api/load", json={"format": "rulec-save"}).status_code == 400
    assert client.post("/api/load", json={"format": "rulec-save", "version": 1, "game": "drive_on_metz", "options": [],
                                          "seed": 1, "players": {}, "history": ["move 357 0909"]}).status_code == 400
    assert client.get(f"/api/games/{game_id}/hex/9999").status_code == 404
    assert client.get(f"/api/games/{game_id}", params={"at": "-1"}).status_code == 400
    huge = client.post(f"/api/games/{game_id}/orders", content=b" " * (MAX_BODY + 1), headers=as_json)
    assert huge.status_code == 413

    def chunks():
        for _ in range(MAX_BODY // 1024 + 2):
            yield b" " * 1024
    assert client.post(f"/api/games/{game_id}/orders", content=chunks(), headers=as_json).status_code == 413  # no content-length
    assert client.get(f"/api/games/{game_id}").json()["steps"] == 0  # nothing was lost


def test_concurrent_orders_on_one_game_are_served_in_turn(metz):
    """Twenty tabs order the same move at once: exactly one is obeyed, the rest refused, nothing torn."""
    with running_server({"drive_on_metz": metz}) as url, httpx.Client(base_url=url, timeout=60) as http:
        game_id = http.post("/api/games", json={"game": "drive_on_metz", "seed": 1}).json()["id"]
        with ThreadPoolExecutor(20) as pool:
            codes = list(pool.map(lambda _: http.post(f"/api/games/{game_id}/orders",
                                                      json={"order": "move 357 0304"}).status_code, range(20)))
        assert sorted(codes) == [200] + [400] * 19
        assert http.get(f"/api/games/{game_id}").json()["steps"] == 1


def test_load_fifty_concurrent_clients_see_no_error(metz):
    """A bounded load test: 50 clients, 6 requests each (start, look, order, undo, odds, hex), within 120 s."""
    def one_client(n: int) -> list[int]:
        with httpx.Client(base_url=url, timeout=60) as http:
            made = http.post("/api/games", json={"game": "drive_on_metz", "seed": n})
            game_id = made.json()["id"]
            return [made.status_code,
                    http.get(f"/api/games/{game_id}").status_code,
                    http.post(f"/api/games/{game_id}/orders", json={"order": "move 357 0304"}).status_code,
                    http.post(f"/api/games/{game_id}/undo").status_code,
                    http.get(f"/api/games/{game_id}/hex/0807").status_code,
                    http.get(f"/api/games/{game_id}/save").status_code]

    with running_server({"drive_on_metz": metz}) as url:
        began = time.monotonic()
        with ThreadPoolExecutor(50) as pool:
            results = list(pool.map(one_client, range(50)))
        assert time.monotonic() - began < 120
    assert all(codes == [201, 200, 200, 200, 200, 200] for codes in results), results


def test_a_map_less_battle_gets_the_exact_odds_and_a_seeded_battle():
    from rulec.battle.forces import parse_force
    from rulec.battle.odds import exact_odds
    from rulec.battle.resolve import BattleSetup
    from rulec.pipeline import load_game

    engle = load_game("engle_ww2_battle")
    client = TestClient(create_app({"engle_ww2_battle": engle}))
    assert "Unit kinds:" in client.get("/battle/engle_ww2_battle").text
    sides = ["Germany: panther/good, infantry", "Soviet: infantry x2, at-gun"]
    fought = client.post("/api/battle", json={"game": "engle_ww2_battle", "sides": sides, "seed": 4}).json()
    setup = BattleSetup(engle.battle, tuple(parse_force(engle, s) for s in sides), die=engle.info.die)
    assert fought["odds"]["method"] == "exact"
    assert fought["odds"]["winner"] == pytest.approx({k: float(p) for k, p in exact_odds(setup, 10**7).winner.items()})
    again = client.post("/api/battle", json={"game": "engle_ww2_battle", "sides": sides, "seed": 4}).json()
    assert again["battle"] == fought["battle"] and fought["text"][0].startswith("Battle: Germany attacks")
    refused = client.post("/api/battle", json={"game": "engle_ww2_battle", "sides": ["Germany: dragon", "Soviet: infantry"]})
    assert refused.status_code == 400 and "unknown unit kind 'dragon'" in refused.json()["error"]
    assert client.post("/api/battle", json={"game": "engle_ww2_battle", "sides": ["x" * 400, "y"]}).status_code == 400
    assert client.post("/api/battle", json={"game": "engle_ww2_battle", "sides": "no"}).status_code == 400


def test_move_costs_for_the_hover_are_the_engines(client, metz):
    game_id = start(client)
    costs = client.get(f"/api/games/{game_id}/costs/us_357").json()["costs"]
    state = new_game(metz, seed=1)
    reach = {a.hex for a in state.moves_of("us_357") if a.kind == "move"}
    assert set(costs) == reach and costs == {h: state.move_cost("us_357", h) for h in reach}
    assert client.get(f"/api/games/{game_id}/costs/nobody").json()["costs"] == {}


def test_the_server_keeps_a_bounded_number_of_games_dropping_the_least_used(metz):
    from rulec.web.session import Registry, new_session
    registry = Registry(limit=3)
    ids = [registry.add(new_session("drive_on_metz", metz, seed=n)) for n in range(3)]
    registry.get(ids[0])  # used again: the second game is now the least recently used
    newest = registry.add(new_session("drive_on_metz", metz, seed=9))
    assert len(registry) == 3 and registry.get(ids[0]) and registry.get(newest)
    with pytest.raises(ValueError, match="no game"):
        registry.get(ids[1])


def test_a_closed_tab_mid_request_loses_nothing(metz):
    """A client that goes away while its order is being carried out: the game is whole and goes on."""
    with running_server({"drive_on_metz": metz}) as url, httpx.Client(base_url=url, timeout=60) as http:
        game_id = http.post("/api/games", json={"game": "drive_on_metz", "seed": 1, "players": {"germany": "mcts"}}).json()["id"]
        http.post(f"/api/games/{game_id}/orders", json={"order": "end"})  # the US move on, the German MCTS AI to move
        assert http.post(f"/api/games/{game_id}/orders", json={"order": "end"}).status_code == 200
        # The tab closes before the AI has answered: the request is sent and the connection dropped unread
        # (a fixed client timeout would race the AI, which may answer in a few milliseconds).
        host, port = url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port))) as tab:
            tab.sendall(f"POST /api/games/{game_id}/ai HTTP/1.1\r\nHost: {host}\r\nContent-Length: 0\r\n\r\n".encode())
        time.sleep(0.5)
        view = http.get(f"/api/games/{game_id}").json()
        saved = http.get(f"/api/games/{game_id}/save").json()
        assert view["steps"] >= 2 and http.post(f"/api/games/{game_id}/ai").status_code == 200
        assert len(http.get(f"/api/games/{game_id}/save").json()["history"]) > len(saved["history"])
