"""The Marne in play: game length (1.4), the sequence of play (3.1.1-3.2), stacking (5.0), combat
results (8.10) and disruption (8.11).

Every position is built with `arrange` on the introductory scenario, in a patch of open country around
2614 (clear hexes, no river between any two of them: asserted by `open_country`), so a map change fails
loudly here instead of silently changing a test. Battles are fought to a chosen result: the die roll is
found by trying each face on a copy (`roll_giving`), so the tests do not hard-code the reconstructed CRT.
"""

from __future__ import annotations

import pytest

from rulec.engine import Action, IllegalAction, new_game

from conftest import _game
from battle_steps import attackers_for

rule = pytest.mark.rule

# The open country the positions use: 2614 and its neighbours (the directions of the map's grid).
CENTRE = "2614"


@pytest.fixture(scope="module")
def marne():
    return _game("the_marne")


@pytest.fixture(scope="module")
def base(marne):
    return new_game(marne, scenario="counterattack")


def near(marne, hex: str, *directions: str) -> str:
    """The hex reached from `hex` by stepping in each direction in turn ('n', 'ne', 'se', 's', 'sw', 'nw')."""
    for d in directions:
        hex = marne.map.neighbours[hex][d]
    return hex


def open_country(marne, *hexes: str) -> None:
    """Fail loudly if a hex the test relies on is not clear, or a river (any hexside feature) lies between two."""
    board = marne.map
    for h in hexes:
        assert board.terrain[h] == ("clear",), f"{h} is {board.terrain[h]}, the test expects open country"
        for n in board.neighbours[h].values():
            assert not board.features_between(h, n), f"{h}/{n} has {board.features_between(h, n)}"


def distance(marne, a: str, b: str) -> int:
    """Hexes from a to b (breadth first over the map's neighbours)."""
    seen, frontier, steps = {a}, {a}, 0
    while b not in seen:
        frontier = {n for h in frontier for n in marne.map.neighbours[h].values()} - seen
        seen |= frontier
        steps += 1
    return steps


def at(base, units, *, turn=9, phase="de_combat_1"):
    return base.arrange(units, turn=turn, phase=phase)


def declare(state, hex, *units):
    """Declare a battle against `hex` with `units` and resolve it (the die roll is next)."""
    state.apply_action(Action.attack(hex))
    for unit in units:
        state.apply_action(Action.with_unit(unit))
    state.apply_action(Action.resolve())
    return state


def declare_only(state, hex):
    state.apply_action(Action.attack(hex))
    return state


def roll_giving(state, code: str) -> int | None:
    """The die face that gives the resolved battle the result `code` (None if no face does)."""
    for face in range(1, state.game.info.die + 1):
        trial = state.clone()
        trial.apply_action(Action.roll(face))
        if trial.last_battle.result == code:
            return face
    return None


def settle(state, advancing=()) -> None:
    """Finish the battle: each retreat by the first path the victor is offered; the `advancing` units
    advance into the vacated hex, the others decline."""
    while state.retreats or state.advancing:
        if state.retreats:
            state.apply_action(next(a for a in state.legal_actions() if a.kind == "retreat"))
        else:
            state.apply_action(next((a for a in state.legal_actions() if a.kind == "advance" and a.unit in advancing),
                                    Action.advance()))


def fight(state, hex, attackers, code: str, advancing=()):
    """Fight a battle against `hex` to the result `code`, then settle its retreats and advances."""
    declare(state, hex, *attackers)
    face = roll_giving(state, code)
    assert face is not None, f"no die roll gives {code} at {state.battle.battle.odds.label}"
    state.apply_action(Action.roll(face))
    assert state.last_battle.result == code
    settle(state, advancing)
    return state


def end_until(state, phase: str, turn: int | None = None):
    """End phases until `phase` (of `turn`, if given) begins."""
    while not (state.phase.id == phase and (turn is None or state.turn == turn)):
        assert not state.is_terminal()
        state.apply_action(Action.end())
    return state


def disrupted(state, uid: str) -> bool:
    return "disrupted" in state.markers_on(uid)


def moves(state, uid: str) -> set[str]:
    return {a.hex for a in state.moves_of(uid) if a.kind == "move"}


def refused(state, action: Action) -> str:
    with pytest.raises(IllegalAction) as error:
        state.apply_action(action)
    return str(error.value)


# -------------------------------------------------------------------- 1.4 game length
@rule("marne:1.4")
def test_the_counterattack_lasts_ten_turns_from_6_sep(marne, base):
    assert (base.turn, marne.info.turn_label(base.turn), base.phase.id) == (8, "6 Sep", "de_move_1")
    assert base.last_turn - base.turn + 1 == 10
    # The German player-turn of the last turn is not the end: the Allies still play theirs.
    state = end_until(at(base, {}, turn=17, phase="de_combat_2"), "al_move_1")
    assert not state.is_terminal() and state.turn == 17
    # The Allied player-turn of turn 16 leads into turn 17; that of turn 17 ends the game.
    assert end_until(at(base, {}, turn=16, phase="al_combat_2"), "de_move_1").turn == 17
    state = at(base, {}, turn=17, phase="al_combat_2")
    state.apply_action(Action.end())
    assert state.is_terminal()


@rule("marne:1.4")
def test_the_pursuit_lasts_seventeen_turns_from_30_aug(marne):
    pursuit = new_game(marne, scenario="pursuit")
    assert (pursuit.turn, marne.info.turn_label(pursuit.turn)) == (1, "30 Aug")
    assert pursuit.last_turn - pursuit.turn + 1 == 17
    state = pursuit.arrange({}, turn=16, phase="al_combat_2")
    state.apply_action(Action.end())
    assert not state.is_terminal() and (state.turn, state.phase.id) == (17, "de_move_1")
    state = pursuit.arrange({}, turn=17, phase="al_combat_2")
    state.apply_action(Action.end())
    assert state.is_terminal()


@rule("marne:1.4")
def test_victory_is_judged_after_the_last_allied_player_turn(marne, base):
    # In the last Allied combat phase of the game three BEF 8-3s wipe out a German 2-4 cavalry division:
    # its 2 VP count in the result judged as the game ends.
    d, s, sw, se = CENTRE, near(marne, CENTRE, "s"), near(marne, CENTRE, "sw"), near(marne, CENTRE, "se")
    open_country(marne, d, s, sw, se)
    position = {"de_cav4": d, "gb_1": s, "gb_2": sw, "gb_3": se}
    quiet = at(base, position, turn=17, phase="al_combat_2")
    quiet.apply_action(Action.end())
    assert quiet.is_terminal()
    before = quiet.outcome().vp
    state = fight(at(base, position, turn=17, phase="al_combat_2"), d, ("gb_1", "gb_2", "gb_3"), "DE")
    assert state.status("de_cav4") == "eliminated" and not state.is_terminal()
    state.apply_action(Action.end())
    assert state.is_terminal()
    assert state.outcome().vp == {"germany": before["germany"], "allies": before["allies"] + 2}
    # With nothing else scored (arrange leaves no town to anybody), that turns a German Marginal
    # Victory into an Allied Decisive one.
    assert before == {"germany": 0, "allies": 0} and quiet.outcome().winner == "germany"
    assert (state.outcome().winner, state.outcome().level) == ("allies", "Allied Decisive Victory")


# -------------------------------------------------------------------- 3.1.1 first movement phase
@rule("marne:3.1.1")
def test_reinforcements_due_are_placed_then_move_with_the_other_units(marne, base):
    # Lepel's brigade (2-3) is due on turn 11 on the German 1st Army's stretch of the north edge (row 01).
    here = near(marne, CENTRE, "n")
    state = at(base, {"de_lepel": "pending", "de_3": here, "fr_33": near(marne, CENTRE, "s", "s")},
               turn=11, phase="de_move_1")
    reachable = moves(state, "de_lepel")
    rows = {int(h[2:]) for h in reachable}
    assert 1 in rows and max(rows) == 3, "placed on the edge, it moves on with its 3 MP (entering costs the first)"
    deep = min(h for h in reachable if h.endswith("03"))
    state.apply_action(Action.move("de_lepel", deep))
    assert state.status("de_lepel") == "map" and state.positions["de_lepel"] == deep
    # Every other German unit moves in the same phase; no Allied unit does.
    assert moves(state, "de_3")
    assert not moves(state, "fr_33")
    state.apply_action(Action.move("de_3", near(marne, here, "n")))
    assert state.positions["de_3"] == near(marne, here, "n")


@rule("marne:3.1.1")
def test_reinforcements_are_placed_only_in_the_first_movement_phase(marne, base):
    # Germany may hold Lepel back when French units block its entry boundary (11.4.1.2.1B): not entered
    # in the first movement phase, it is not placed in the second one but comes next turn.
    blockers = dict(zip(["fr_45alg", "fr_92t", "fr_83t", "fr_89t", "fr_mar", "fr_14"],
                        ["0201", "0401", "0601", "0801", "1001", "1201"]))
    state = at(base, {"de_lepel": "pending", "de_3": CENTRE, **blockers}, turn=11, phase="de_move_1")
    assert moves(state, "de_lepel")
    state.apply_action(Action.end())
    end_until(state, "de_move_2")
    assert not moves(state, "de_lepel") and state.arrival_turn("de_lepel") == 12
    assert moves(state, "de_3")
    # The Allies must bring theirs in: the French XV Corps' 13th Division is due on turn 9.
    allied = at(base, {"fr_13": "pending", "gb_1": CENTRE}, turn=9, phase="al_move_1")
    assert moves(allied, "fr_13")
    assert "must enter" in refused(allied, Action.end())


# -------------------------------------------------------------------- 3.1.2 first combat phase
def first_phase_battle(marne, base, code: str, *, turn=9):
    """de_3 and de_4 (8-3s, north and north-west of 2614) attack fr_33 (7-3) in 2614 in the first German
    combat phase; de_7 (8-3) stands by north-east of them. Fought to `code`."""
    n, nw, ne = near(marne, CENTRE, "n"), near(marne, CENTRE, "nw"), near(marne, CENTRE, "n", "ne")
    open_country(marne, CENTRE, n, nw, ne)
    state = at(base, {"de_3": n, "de_4": nw, "de_7": ne, "fr_33": CENTRE}, turn=turn, phase="de_combat_1")
    return fight(state, CENTRE, ("de_3", "de_4"), code)


@rule("marne:3.1.2")
def test_first_phase_attackers_are_disrupted_for_the_rest_of_the_player_turn(marne, base):
    state = first_phase_battle(marne, base, "D1")          # the attack succeeds: still disrupted
    assert disrupted(state, "de_3") and disrupted(state, "de_4") and not disrupted(state, "de_7")
    end_until(state, "de_move_2")
    assert disrupted(state, "de_3") and not moves(state, "de_3") and not moves(state, "de_4")
    assert moves(state, "de_7")
    end_until(state, "de_combat_2")
    assert disrupted(state, "de_3") and disrupted(state, "de_4")
    # 3.1.4C: the effects end at the conclusion of the second combat phase.
    end_until(state, "al_move_1")
    assert not disrupted(state, "de_3") and not disrupted(state, "de_4")


@rule("marne:3.1.2")
def test_units_disrupted_in_the_enemy_player_turn_recover_at_the_end_of_the_first_combat_phase(marne, base):
    # The Allies throw de_7r (6-3) back in their first combat phase of turn 9 (D1): it is disrupted.
    d = CENTRE
    s, sw, se = near(marne, d, "s"), near(marne, d, "sw"), near(marne, d, "se")
    open_country(marne, d, s, sw, se)
    state = at(base, {"de_7r": d, "gb_1": s, "gb_2": sw}, turn=9, phase="al_combat_1")
    fight(state, d, ("gb_1", "gb_2"), "D1")
    assert disrupted(state, "de_7r") and distance(marne, d, state.positions["de_7r"]) == 1
    end_until(state, "de_move_1", turn=10)
    assert disrupted(state, "de_7r") and not moves(state, "de_7r")
    state.apply_action(Action.end())
    assert state.phase.id == "de_combat_1" and disrupted(state, "de_7r")
    state.apply_action(Action.end())                     # the end of the first German combat phase
    assert state.phase.id == "de_move_2" and not disrupted(state, "de_7r")
    assert moves(state, "de_7r")


@rule("marne:3.1.2")
def test_units_disrupted_in_the_second_combat_phase_recover_at_the_end_of_the_next_first_one(marne, base):
    # de_cav4 (2-4) attacks gb_1 (8-3) at 1-4 in the second German combat phase and is thrown back (A1).
    n = near(marne, CENTRE, "n")
    open_country(marne, CENTRE, n)
    state = at(base, {"de_cav4": n, "gb_1": CENTRE}, turn=9, phase="de_combat_2")
    fight(state, CENTRE, ("de_cav4",), "A1")
    assert disrupted(state, "de_cav4")
    for phase in ("al_move_1", "al_combat_1", "al_move_2", "al_combat_2", "de_move_1", "de_combat_1"):
        end_until(state, phase)
        assert disrupted(state, "de_cav4"), phase
        if phase == "de_move_1":
            assert not moves(state, "de_cav4")        # it sits out its next movement phase (8.11A)
    assert state.turn == 10
    state.apply_action(Action.end())
    assert state.phase.id == "de_move_2" and not disrupted(state, "de_cav4") and moves(state, "de_cav4")


# -------------------------------------------------------------------- 3.1.3 second movement phase
@rule("marne:3.1.3")
def test_only_undisrupted_units_move_in_the_second_movement_phase(marne, base):
    state = end_until(first_phase_battle(marne, base, "D1"), "de_move_2")
    # de_7 did not attack: it moves like in the first movement phase.
    assert moves(state, "de_7")
    state.apply_action(Action.move("de_7", near(marne, state.positions["de_7"], "n")))
    # The attackers may not, and the refusal says why.
    reason = refused(state, Action.move("de_3", near(marne, state.positions["de_3"], "n")))
    assert "Disrupted" in reason and "may not move" in reason


# -------------------------------------------------------------------- 3.1.4 second combat phase
@rule("marne:3.1.4")
def test_second_phase_only_units_that_did_not_attack_in_the_first_may_attack(marne, base):
    # de_3 and de_4 attack fr_33 in the first phase; fr_34 stands next to both of them and to de_7,
    # which did not attack. In the second phase only de_7 may attack fr_34.
    n, nw = near(marne, CENTRE, "n"), near(marne, CENTRE, "nw")
    target = near(marne, n, "nw")                        # next to de_3 (n) and de_4 (nw)
    fresh = near(marne, target, "n")
    open_country(marne, CENTRE, n, nw, target, fresh)
    state = at(base, {"de_3": n, "de_4": nw, "de_7": fresh, "fr_33": CENTRE, "fr_34": target},
               turn=9, phase="de_combat_1")
    assert set(attackers_for(state, target)) == {"de_3", "de_4", "de_7"}
    fight(state, CENTRE, ("de_3", "de_4"), "D1")
    end_until(state, "de_combat_2")
    assert state.positions["de_3"] == n and state.positions["de_4"] == nw
    assert attackers_for(state, target) == ("de_7",)
    # 8.2D: one attack a player-turn; the refusal names the first reason found.
    reason = refused(declare_only(state, target), Action.with_unit("de_3"))
    assert "already attacked this player-turn" in reason


@rule("marne:3.1.4")
def test_second_phase_attackers_are_not_disrupted_by_attacking(marne, base):
    n, nw = near(marne, CENTRE, "n"), near(marne, CENTRE, "nw")
    open_country(marne, CENTRE, n, nw)
    state = at(base, {"de_3": n, "de_4": nw, "fr_33": CENTRE}, turn=9, phase="de_combat_2")
    fight(state, CENTRE, ("de_3", "de_4"), "D1")
    assert not disrupted(state, "de_3") and not disrupted(state, "de_4")
    assert disrupted(state, "fr_33")                     # only the combat result disrupts
    # At the end of the German player-turn the only disrupted units are those the second phase's
    # results disrupted; de_3 moves in the next German movement phase.
    end_until(state, "de_move_1", turn=10)
    assert moves(state, "de_3")


@rule("marne:3.1.4")
def test_first_phase_disruption_ends_after_the_second_combat_phase_even_after_a_lost_attack(marne, base):
    # 3.1.4C: "this includes units disrupted by Allied defense": de_3 and de_4 lost (A1) in the first
    # phase, disrupted both by attacking and by the result, recover with everybody else.
    state = first_phase_battle(marne, base, "A1")
    assert disrupted(state, "de_3") and disrupted(state, "de_4")
    end_until(state, "de_combat_2")
    assert disrupted(state, "de_3")
    state.apply_action(Action.end())
    assert state.phase.id == "al_move_1" and not disrupted(state, "de_3") and not disrupted(state, "de_4")


@rule("marne:3.1.4")
def test_first_phase_attackers_zocs_still_trap_a_retreating_enemy_in_the_second_phase(marne, base):
    # 3.1.4B: de_3 and de_4, disrupted by their first-phase attack, stand south-east and south-west of
    # fr_33 in 2614; de_7, fresh, attacks it from the north and throws it back (D1). Every hex it could
    # retreat to is occupied or in a German ZOC, the disrupted units' included: it is eliminated.
    n, se, sw = near(marne, CENTRE, "n"), near(marne, CENTRE, "se"), near(marne, CENTRE, "sw")
    open_country(marne, CENTRE, n, se, sw)
    position = {"de_7": n, "de_3": se, "de_4": sw, "fr_33": CENTRE}
    state = at(base, position, turn=9, phase="de_combat_2")
    state.mark("de_3", "disrupted")
    state.mark("de_4", "disrupted")
    assert attackers_for(state, CENTRE) == ("de_7",)
    fight(state, CENTRE, ("de_7",), "D1")
    assert state.status("fr_33") == "eliminated" and state.vp["germany"] == 7
    # Without de_3 and de_4 the same result is a retreat.
    alone = fight(at(base, {"de_7": n, "fr_33": CENTRE}, turn=9, phase="de_combat_2"), CENTRE, ("de_7",), "D1")
    assert alone.status("fr_33") == "map" and disrupted(alone, "fr_33")


# -------------------------------------------------------------------- 3.2 the Allied player-turn
@rule("marne:3.2")
def test_the_allied_player_turn_repeats_the_structure_and_the_turn_advances(marne, base):
    d, s, sw, se = CENTRE, near(marne, CENTRE, "s"), near(marne, CENTRE, "sw"), near(marne, CENTRE, "s", "se")
    open_country(marne, d, s, sw, se)
    state = at(base, {"de_7r": d, "gb_1": s, "gb_2": sw, "gb_3": se}, turn=9, phase="al_move_1")
    state.apply_action(Action.end())
    assert state.phase.id == "al_combat_1"
    # First Allied combat phase: the attackers are disrupted; gb_3 stands by.
    fight(state, d, ("gb_1", "gb_2"), "D1")
    assert disrupted(state, "gb_1") and disrupted(state, "gb_2") and not disrupted(state, "gb_3")
    state.apply_action(Action.end())
    assert state.phase.id == "al_move_2"
    assert not moves(state, "gb_1") and moves(state, "gb_3")
    state.apply_action(Action.end())
    assert state.phase.id == "al_combat_2" and disrupted(state, "gb_1")
    assert "gb_1" not in attackers_for(state, state.positions["de_7r"])
    state.apply_action(Action.end())
    # The Allies end the game-turn: the turn advances and the German player-turn begins.
    assert (state.turn, state.phase.id, marne.info.turn_label(state.turn)) == (10, "de_move_1", "8 Sep")
    assert not disrupted(state, "gb_1") and not disrupted(state, "gb_2")
    # The whole turn's phases, in order.
    walk = at(base, {}, turn=9, phase="de_move_1")
    phases = []
    while walk.turn == 9:
        phases.append(walk.phase.id)
        walk.apply_action(Action.end())
    assert phases == ["de_move_1", "de_combat_1", "de_move_2", "de_combat_2",
                      "al_move_1", "al_combat_1", "al_move_2", "al_combat_2"]


# -------------------------------------------------------------------- 5.0 stacking
@rule("marne:5.0")
def test_three_units_stack_and_a_fourth_is_removed_by_its_owner_at_the_end_of_movement(marne, base):
    here, there = CENTRE, near(marne, CENTRE, "n")
    open_country(marne, here, there)
    state = at(base, {"de_3": here, "de_4": here, "de_7": there, "de_8": there}, turn=9, phase="de_move_1")
    state.apply_action(Action.move("de_7", here))        # three: within the limit
    state.apply_action(Action.move("de_8", here))        # four: allowed during the phase (5.0D)
    assert len(state.units_at(here)) == 4
    state.apply_action(Action.end())
    # At the end of the movement phase the owner chooses which unit goes.
    assert state.phase.id == "de_move_1" and state.removing == "germany"
    assert state.current_player() == state.players.index("germany")
    assert {a.unit for a in state.legal_actions()} == {"de_3", "de_4", "de_7", "de_8"}
    assert {a.kind for a in state.legal_actions()} == {"remove"}
    state.apply_action(Action.remove("de_8"))
    assert state.phase.id == "de_combat_1" and len(state.units_at(here)) == 3
    # A removed unit is eliminated: the Allies score its 8 strength points (10.1; docs/rulings.md).
    assert state.status("de_8") == "eliminated" and state.vp["allies"] == 8
    # Three units end the phase with nothing removed.
    three = at(base, {"de_3": here, "de_4": here, "de_7": there}, turn=9, phase="de_move_1")
    three.apply_action(Action.move("de_7", here))
    three.apply_action(Action.end())
    assert three.phase.id == "de_combat_1" and three.removing is None


@rule("marne:5.0")
def test_stacking_is_checked_only_at_the_end_of_a_friendly_movement_phase(marne, base):
    # Four German units in one hex (as after retreats into it): no check at the end of a combat phase
    # nor of the Allied movement phases; at the end of the next German movement phase, Germany removes.
    here = CENTRE
    open_country(marne, here)
    state = at(base, {"de_3": here, "de_4": here, "de_7": here, "de_8": here}, turn=9, phase="de_combat_2")
    for phase in ("al_move_1", "al_combat_1", "al_move_2", "al_combat_2", "de_move_1"):
        state.apply_action(Action.end())
        assert state.phase.id == phase and state.removing is None
    state.apply_action(Action.end())
    assert state.phase.id == "de_move_1" and state.removing == "germany"


@rule("marne:5.0")
def test_a_fort_is_not_a_unit_for_stacking(marne, base):
    # 9.2A: the Allies may place units in a fort's hex. Fort de Chelles (0611) and three units end the
    # Allied movement phase with nothing removed; with four, the owner removes one of them, never the fort.
    fort = "0611"
    assert marne.units["fort_0611"].setup == fort and marne.units["fort_0611"].type == "fort"
    three = at(base, {"fort_0611": fort, "fr_51r": fort, "fr_53r": fort, "fr_69r": fort}, turn=9, phase="al_move_1")
    three.apply_action(Action.end())
    assert three.removing is None and three.phase.id == "al_combat_1"
    four = at(base, {"fort_0611": fort, "fr_51r": fort, "fr_53r": fort, "fr_69r": fort, "fr_35": fort},
              turn=9, phase="al_move_1")
    four.apply_action(Action.end())
    assert four.removing == "allies"
    assert {a.unit for a in four.legal_actions()} == {"fr_51r", "fr_53r", "fr_69r", "fr_35"}


@rule("marne:5.0")
def test_a_stack_defends_together(marne, base):
    # fr_33 and fr_34 (7-3 each) in 2614 are one target of 14; both retreat and are disrupted.
    n, nw, ne = near(marne, CENTRE, "n"), near(marne, CENTRE, "nw"), near(marne, CENTRE, "ne")
    open_country(marne, CENTRE, n, nw, ne)
    state = at(base, {"de_3": n, "de_4": nw, "de_7": ne, "fr_33": CENTRE, "fr_34": CENTRE},
               turn=9, phase="de_combat_1")
    odds = state.odds(Action.attack(CENTRE, ("de_3", "de_4", "de_7")))
    assert (odds.attack, odds.defence) == (24, 14)
    fight(state, CENTRE, ("de_3", "de_4", "de_7"), "D1")
    for uid in ("fr_33", "fr_34"):
        assert state.positions[uid] != CENTRE and disrupted(state, uid)


@rule("marne:5.0")
def test_units_of_one_stack_may_attack_different_hexes(marne, base):
    # de_3 and de_4 stacked in 2613 attack fr_33 in 2614 and fr_34 in 2714 (both next to 2613) separately.
    stack, other = near(marne, CENTRE, "n"), near(marne, CENTRE, "ne")
    open_country(marne, stack, CENTRE, other)
    state = at(base, {"de_3": stack, "de_4": stack, "fr_33": CENTRE, "fr_34": other}, turn=9, phase="de_combat_1")
    assert set(attackers_for(state, CENTRE)) == set(attackers_for(state, other)) == {"de_3", "de_4"}
    declare(state, CENTRE, "de_3")
    assert state.battle.battle.defenders == ("fr_33",)
    state.apply_action(Action.roll(roll_giving(state, "D1")))
    settle(state)
    assert attackers_for(state, other) == ("de_4",)
    fight(state, other, ("de_4",), "D1")
    assert state.positions["fr_33"] != CENTRE and state.positions["fr_34"] != other


# -------------------------------------------------------------------- 8.10 combat results
# A position for each result: attackers, defender hex, defenders, so that some die face gives it.
def result_position(marne, code: str):
    d, n, nw, ne = CENTRE, near(marne, CENTRE, "n"), near(marne, CENTRE, "nw"), near(marne, CENTRE, "ne")
    if code in ("AE", "A1", "A2", "A3"):                 # 2 against 8: 1-4
        return {"de_cav4": n, "gb_1": d}, ("de_cav4",), ("gb_1",)
    if code in ("DE", "D3"):                             # 24 against 2: 10-1
        return {"de_3": n, "de_4": nw, "de_7": ne, "fr_cav4": d}, ("de_3", "de_4", "de_7"), ("fr_cav4",)
    return {"de_3": n, "de_4": nw, "gb_1": d}, ("de_3", "de_4"), ("gb_1",)   # 16 against 8: 2-1


@rule("marne:8.10")
@pytest.mark.parametrize("code", ["AE", "DE", "A1", "A2", "A3", "D1", "D2", "D3"])
def test_each_combat_result_in_play(marne, base, code):
    position, attackers, defenders = result_position(marne, code)
    open_country(marne, *position.values())
    # The second combat phase, so that attacking disrupts nobody by itself (3.1.4D).
    state = fight(at(base, position, turn=9, phase="de_combat_2"), CENTRE, attackers, code)
    losers, winners = (attackers, defenders) if code.startswith("A") else (defenders, attackers)
    for uid in winners:
        assert state.positions[uid] == position[uid] and not disrupted(state, uid)
    for uid in losers:
        if code.endswith("E"):
            assert state.status(uid) == "eliminated"
        else:   # retreated the number of hexes, then disrupted
            assert distance(marne, position[uid], state.positions[uid]) == int(code[1]), uid
            assert disrupted(state, uid)


# -------------------------------------------------------------------- 8.11 disruption
@rule("marne:8.11")
def test_disrupted_units_miss_their_next_movement_and_combat_phase_then_recover(marne, base):
    # fr_33, thrown back in the second German combat phase (de_3 advances after it), sits out the first
    # Allied movement and combat phases and is back to normal for the second ones.
    n, nw = near(marne, CENTRE, "n"), near(marne, CENTRE, "nw")
    open_country(marne, CENTRE, n, nw)
    state = at(base, {"de_3": n, "de_4": nw, "fr_33": CENTRE}, turn=9, phase="de_combat_2")
    fight(state, CENTRE, ("de_3", "de_4"), "D1", advancing=("de_3",))
    assert disrupted(state, "fr_33") and state.positions["de_3"] == CENTRE
    assert distance(marne, CENTRE, state.positions["fr_33"]) == 1
    end_until(state, "al_move_1")
    assert disrupted(state, "fr_33") and not moves(state, "fr_33")
    end_until(state, "al_combat_1")
    assert Action.attack(CENTRE) not in state.legal_actions()
    assert "no unit that may still attack" in refused(state.clone(), Action.attack(CENTRE))
    fresh = state.clone()
    fresh.unmark("fr_33", "disrupted")                   # the disruption is what keeps it out
    assert Action.attack(CENTRE) in fresh.legal_actions()
    state.apply_action(Action.end())
    assert state.phase.id == "al_move_2" and not disrupted(state, "fr_33") and moves(state, "fr_33")


@rule("marne:8.11")
def test_disrupted_units_defend_at_full_strength_and_keep_their_zoc(marne, base):
    n, nw = near(marne, CENTRE, "n"), near(marne, CENTRE, "nw")
    open_country(marne, CENTRE, n, nw)
    fresh = at(base, {"de_3": n, "de_4": nw, "fr_33": CENTRE}, turn=9, phase="de_combat_2")
    shaken = fresh.clone()
    shaken.mark("fr_33", "disrupted")
    a, b = (s.odds(Action.attack(CENTRE, ("de_3", "de_4"))) for s in (fresh, shaken))
    assert (b.attack, b.defence) == (a.attack, a.defence) == (16, 7)
    assert b.drm == a.drm - 1                             # only 8.9B's -1 for attacking disrupted units
    # Its ZOC: a German unit next to it may not step to another hex next to it (4.1L) ...
    ne = near(marne, CENTRE, "ne")
    open_country(marne, ne)
    state = at(base, {"de_3": n, "fr_33": CENTRE}, turn=9, phase="de_move_2")
    state.mark("fr_33", "disrupted")
    assert ne in state.enemy_zoc("germany") and n in state.enemy_zoc("germany")
    # not straight from n to ne (1 MP + 1 for the ZOC): only round by a hex free of enemy control, which
    # costs the whole 3 MP (1, then 1 + 1 to re-enter the ZOC).
    assert state.move_cost("de_3", ne) == 3
    # ... and entering its ZOC costs the extra MP (6.2B) as if it were not disrupted.
    plain = at(base, {"de_3": n, "fr_33": CENTRE}, turn=9, phase="de_move_2")
    assert moves(plain, "de_3") == moves(state, "de_3")


@rule("marne:8.11")
def test_a_unit_disrupted_again_suffers_nothing_more(marne, base):
    # de_cav4 (2-4) attacks gb_1 (8-3) in the second German combat phase and is thrown back (A1); gb_1
    # advances after it. In the first Allied combat phase gb_1 throws it back again (D1): it is not
    # eliminated, carries one disruption, and recovers when a unit disrupted once would (3.1.2C).
    n = near(marne, CENTRE, "n")
    open_country(marne, CENTRE, n)
    state = at(base, {"de_cav4": n, "gb_1": CENTRE}, turn=9, phase="de_combat_2")
    fight(state, CENTRE, ("de_cav4",), "A1", advancing=("gb_1",))
    first = state.positions["de_cav4"]
    assert disrupted(state, "de_cav4") and state.positions["gb_1"] == n
    end_until(state, "al_combat_1")
    assert attackers_for(state, first) == ("gb_1",)
    fight(state, first, ("gb_1",), "D1")
    assert state.status("de_cav4") == "map" and distance(marne, first, state.positions["de_cav4"]) == 1
    assert state.markers_on("de_cav4") == ("disrupted",)
    end_until(state, "de_combat_1", turn=10)
    assert disrupted(state, "de_cav4")
    state.apply_action(Action.end())
    assert state.phase.id == "de_move_2" and not disrupted(state, "de_cav4") and moves(state, "de_cav4")
