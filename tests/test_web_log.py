"""What the board says happened (its event log), how a finished game is named, and loading a saved game
on the board with the checks of `rulec play --load`."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from rulec.diagnostics import DiagnosticError
from rulec.engine import new_game
from rulec.players.saves import read_save
from rulec.web.app import create_app
from rulec.web.session import new_session
from rulec.web.view import step_events

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(metz):
    return TestClient(create_app({"drive_on_metz": metz}))


def start(client) -> str:
    return client.post("/api/games", json={"game": "drive_on_metz", "seed": 1}).json()["id"]


def order(client, game_id: str, text: str) -> None:
    response = client.post(f"/api/games/{game_id}/orders", json={"order": text})
    assert response.status_code == 200, response.text


def log(client, game_id: str, at: int | None = None) -> list[dict]:
    return client.get(f"/api/games/{game_id}/log" + (f"?at={at}" if at is not None else "")).json()["events"]


def test_the_log_tells_moves_and_a_battle_with_its_die_and_result(client, metz):
    game_id = start(client)
    for text in ("move 357 0304", "move 358 0204", "end", "attack 0403 with 357"):
        order(client, game_id, text)
    events = log(client, game_id)
    texts = [e["text"] for e in events]
    assert texts[:3] == ["United States: 357 enters the map at 0304", "United States: 358 enters the map at 0204",
                         "United States: end of the American Movement Phase"]
    battle = next(e for e in events if e["kind"] == "battle")
    report = client.get(f"/api/games/{game_id}").json()["last_battle"]
    assert battle["text"] == (f"Battle at 0403: 357 against 1126, column {report['column']}, die {report['roll']}: "
                              f"{report['result']} ({report['name']})")
    assert battle["phase"] == "American Combat Phase" and battle["turn_label"] == "7 Sep 1944"
    # Replay's log stops at the step shown; undo takes an order's line back.
    assert [e["text"] for e in log(client, game_id, at=1)] == texts[:1]
    fresh = start(client)
    order(client, fresh, "move 357 0304")
    client.post(f"/api/games/{fresh}/undo")
    assert log(client, fresh) == []


def test_a_unit_eliminated_by_a_blocked_retreat_is_named_so(metz):
    # 1126 at 0403 with an American unit in each of its six neighbours: a DR leaves it nowhere to go.
    ring = sorted(metz.map.neighbours["0403"].values())
    americans = ["us_357", "us_358", "us_2", "us_10", "us_11", "us_cca"]
    state = new_game(metz, seed=1).arrange({"de_1126": "0403", **dict(zip(americans, ring))}, turn=1, phase="us_combat")
    for action in state.parse_orders("attack 0403 with 357"):
        state.apply_action(action)
    outcomes = {}
    for number in range(1, metz.info.die + 1):
        roll = state.parse_action(f"roll {number}")
        after = state.clone()
        after.apply_action(roll)
        outcomes[after.last_battle.result] = [e["text"] for e in step_events(state, roll, after, 3)]
    assert outcomes["DR"][1:] == ["1126 is eliminated: no retreat was open from 0403"]
    assert outcomes["DR"][0].endswith(": DR (Defender Retreats)")
    assert not any("eliminated" in text for text in outcomes["NE"] + outcomes["AR"])


def test_vp_are_named_by_their_award_and_the_winner_at_the_end(metz):
    session = new_session("drive_on_metz", metz, seed=3, kinds={"us": "random", "germany": "random"})
    while not session.state.is_terminal():
        session.ai_step()
    state = session.state
    events, total = session.events(last=10**6)
    texts = {award.id: award.text for award in metz.awards}
    vp_lines = [e["text"] for e in events if e["kind"] == "vp"]
    assert vp_lines and len(vp_lines) == len(state.vp_log) and total == len(events)
    for entry, line in zip(state.vp_log, vp_lines):
        side = metz.sides[entry.side].name
        assert line.startswith(f"{side} {entry.amount:+d} VP: {texts[entry.source]}")  # the award's text, not its id
    outcome = state.outcome()
    from rulec.web.view import position_view
    shown = position_view(state, session.kinds)["outcome"]
    if outcome.winner is not None:
        assert shown["text"] == f"{metz.sides[outcome.winner].name} wins: {outcome.level}"
    assert events[-1] == {**events[-1], "kind": "end-of-game", "text": f"The game is over. {shown['text']}"}
    assert all(entry["text"] == texts.get(entry["source"], entry["source"])
               for entry in position_view(state, session.kinds)["vp_log"])


def test_load_refuses_what_the_terminal_refuses(client, tmp_path):
    game_id = start(client)
    order(client, game_id, "move 357 0304")
    saved = client.get(f"/api/games/{game_id}/save").json()
    assert client.post("/api/load", json=saved).status_code == 201

    tampered = {**saved, "history": ["move 357 0204"]}  # the checksum no longer matches
    newer = {**saved, "version": saved["version"] + 1}
    for data, words in ((tampered, "checksum does not match"), (newer, "save format version")):
        path = tmp_path / "save.json"
        path.write_text(json.dumps(data))
        with pytest.raises(DiagnosticError) as terminal:  # what `rulec play --load` reads it with
            read_save(path)
        assert words in str(terminal.value.diagnostics[0].message)
        response = client.post("/api/load", json=data)
        assert response.status_code == 400 and words in response.json()["error"], response.text
        assert str(tmp_path) not in response.json()["error"] and "rulec-upload" not in response.json()["error"]
