"""Retreat and advance policies are data in the game file, played on made-up games (tests/games/)
and on variants of Drive on Metz."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rulec.engine import Action, IllegalAction, new_game
from rulec.engine.tables import tables_for
from rulec.pipeline import load_game

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def policies():
    return load_game(str(GAMES / "retreat_policies.rulec"))


def with_policy(game, **changes):
    retreat = {k: v for k, v in changes.items() if k in game.combat.retreat.__dataclass_fields__}
    advance = {k: v for k, v in changes.items() if k in game.combat.advance.__dataclass_fields__}
    return replace(game, combat=replace(game.combat, retreat=replace(game.combat.retreat, **retreat),
                                        advance=replace(game.combat.advance, **advance)))


def fight(state, hex, *units, roll=1):
    for step in [Action.attack(hex), *(Action.with_unit(u) for u in units), Action.resolve(), Action.roll(roll)]:
        state.apply_action(step)
    return state


def paths_after_a_two_hex_retreat(game):
    # Blue b1 in 0402 beats red r1 in 0403 (just south of it).
    state = fight(new_game(game).arrange({"b1": "0402", "r1": "0403"}, phase="blue_fight"), "0403", "b1")
    assert state.last_battle.result == "D2" and state.current_player() == state.players.index("red")
    return {a.path for a in state.legal_actions()}


def test_a_retreat_toward_the_friendly_edge_goes_east_whatever_the_attacker(policies):
    distance = tables_for(policies).distance
    paths = paths_after_a_two_hex_retreat(policies)
    assert paths
    east = policies.map.edges["east"]
    for first, second in paths:  # each step one hex nearer red's own (east) edge
        assert min(distance[first][e] for e in east) == 2 and min(distance[second][e] for e in east) == 1


def test_a_retreat_away_from_the_attackers_goes_straight_back(policies):
    distance = tables_for(policies).distance
    away = paths_after_a_two_hex_retreat(with_policy(policies, direction="away"))
    toward = paths_after_a_two_hex_retreat(policies)
    assert away and away != toward
    for first, second in away:  # farther from the start each step, never nearer the attacker in 0402
        assert distance["0403"][first] == 1 and distance["0403"][second] == 2
        assert distance["0402"][second] >= distance["0402"][first] >= 1


def test_the_victor_advances_along_the_retreat_path(policies):
    state = fight(new_game(policies).arrange({"b1": "0402", "r1": "0403"}, phase="blue_fight"), "0403", "b1")
    path = sorted(a.path for a in state.legal_actions())[0]
    state.apply_action(Action.retreat(path))
    assert state.advancing is not None and state.advancing.hexes == ("0403", path[0])
    assert set(state.legal_actions()) == {Action.advance("b1", "0403"), Action.advance("b1", path[0]), Action.advance()}
    state.apply_action(Action.advance("b1", path[0]))
    assert state.positions["b1"] == path[0] and state.pending is None


def test_an_advance_that_stops_at_enemy_zoc_is_offered_only_where_it_is_legal(policies):
    # r2 in 0503 controls 0403: the advance may enter the defender's hex but not go on.
    state = new_game(policies).arrange({"b1": "0402", "r1": "0403", "r2": "0503"}, phase="blue_fight")
    fight(state, "0403", "b1")
    paths = sorted(a.path for a in state.legal_actions())
    state.apply_action(Action.retreat(paths[0]))
    assert state.advancing.hexes == ("0403",)  # what is announced is exactly what is legal
    assert set(state.legal_actions()) == {Action.advance("b1", "0403"), Action.advance()}
    with pytest.raises(IllegalAction) as error:
        state.parse_action(f"advance b1 {paths[0][0]}")
    assert "zone of control" in error.value.message
    # The same battle where the advance ignores zones of control offers the path too.
    state = new_game(with_policy(policies, stops_at_enemy_zoc=False)).arrange(
        {"b1": "0402", "r1": "0403", "r2": "0503"}, phase="blue_fight")
    fight(state, "0403", "b1")
    state.apply_action(Action.retreat(paths[0]))
    assert state.advancing.hexes == ("0403", paths[0][0])


def test_a_unit_with_nowhere_to_go_stays_when_the_policy_says_so(policies):
    # r1 on red's own edge cannot go nearer it: eliminated, or (another policy) it stays put.
    state = fight(new_game(policies).arrange({"b1": "0603", "r1": "0703"}, phase="blue_fight"), "0703", "b1")
    assert state.status("r1") == "eliminated"
    state = fight(new_game(with_policy(policies, when_blocked="stays")).arrange(
        {"b1": "0603", "r1": "0703"}, phase="blue_fight"), "0703", "b1")
    assert state.positions["r1"] == "0703" and state.advancing is None


def game_with(tmp_path, old: str, new: str):
    """retreat_policies.rulec with one piece of text replaced, checked and built like any game file."""
    text = (GAMES / "retreat_policies.rulec").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "variant.rulec"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return load_game(str(path))


def test_ordered_preferences_keep_the_paths_outside_enemy_zoc_when_there_are_some(policies, tmp_path):
    # Red may retreat through and into blue zones of control here, but prefers to end outside them.
    place = {"b1": "0402", "b2": "0705", "r1": "0403"}
    state = fight(new_game(policies).arrange(place, phase="blue_fight"), "0403", "b1")
    zoc = state.enemy_zoc("red")
    anywhere = {a.path for a in state.legal_actions()}
    outside = {p for p in anywhere if p[-1] not in zoc}
    assert len(outside) > 1 and outside != anywhere  # some paths end in blue ZOC, several do not
    preferring = game_with(tmp_path, "exempt = [fort]", "exempt = [fort]  prefer = [outside_enemy_zoc]")
    state = fight(new_game(preferring).arrange(place, phase="blue_fight"), "0403", "b1")
    assert {a.path for a in state.legal_actions()} == outside


def test_a_unit_type_exempt_from_retreats_holds_its_ground(policies):
    # The fort rf and infantry r1 defend 0403 together: r1 retreats, the fort stays.
    state = new_game(policies).arrange({"b1": "0402", "r1": "0403", "rf": "0403"}, phase="blue_fight")
    fight(state, "0403", "b1")
    assert state.last_battle.result == "D2"
    assert [f.unit for f in state.retreats] == ["r1"]
    state.apply_action(state.legal_actions()[0])
    assert state.positions["rf"] == "0403" and state.positions["r1"] != "0403"
    assert state.advancing is None  # the hex is still held: no advance


@pytest.mark.rule("metz:10.43")
def test_metz_two_hex_retreat_announces_only_the_legal_advance(metz, capsys):
    # Drive on Metz with the advance stopping at enemy ZOC (a variant): after a DR2 with a German
    # unit controlling the defender's hex, the announcement names that hex only.
    from rulec.cli.board_view import GameScreen

    variant = with_policy(metz, stops_at_enemy_zoc=True)
    state = new_game(variant).arrange({"us_cca": "0305", "de_1010": "0405", "de_1126": "0505"}, phase="us_combat")
    screen = GameScreen(variant)
    for step in state.parse_orders("attack 0405 with CCA"):
        screen.narrate(state, step, state.current_player())
        state.apply_action(step)
    screen.narrate(state, Action.roll(1), state.current_player())
    state.apply_action(Action.roll(1))  # +6: DR2
    screen.flush(state)
    while state.retreats:
        state.apply_action(state.legal_actions()[0])
    screen.flush(state)
    out = capsys.readouterr().out
    assert "may advance into 0405 with CCA" in out
    assert state.advancing.hexes == ("0405",)
    assert {a.hex for a in state.legal_actions() if a.unit} == {"0405"}


def test_a_retreat_longer_than_the_map_eliminates_without_walking_every_step(policies):
    from rulec.runtime.model import Effect

    endless = replace(policies, results={"D2": replace(policies.results["D2"],
                                                       effects=(Effect("retreat", "defender", 10**9),))})
    state = fight(new_game(endless).arrange({"b1": "0402", "r1": "0403"}, phase="blue_fight"), "0403", "b1")
    assert state.status("r1") == "eliminated" and state.pending is None
