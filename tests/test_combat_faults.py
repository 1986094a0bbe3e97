"""Combat rules that no other test pinned, each found by planting a fault in the engine's combat code
(battles.py, combat.py, effects.py, retreats.py, advances.py) that the rest of the suite let through.
Each test plays the rule through the public API on a shipped game, a made-up one in tests/games/, or
a variant of one (a game file with one piece of text replaced, or a model with one field replaced)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from game_variants import variant

from rulec.engine import Action, new_game
from rulec.pipeline import load_game
from rulec.runtime.model import Effect

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def policies():
    return load_game(str(GAMES / "retreat_policies.rulec"))


def fight(state, hex, *units, roll=None):
    """Declare a battle against `hex` with `units`, resolve it, and roll if asked."""
    for step in [Action.attack(hex), *(Action.with_unit(u) for u in units), Action.resolve()]:
        state.apply_action(step)
    if roll is not None:
        state.apply_action(Action.roll(roll))
    return state


# ------------------------------------------------------------ terrain effects (combat.py: terrain_effect)
def test_cumulative_terrain_adds_the_hexside_shift_to_the_hex_shift(metz):
    """combat { terrain_effects = cumulative }: the defender's hex and the hexside the attack crosses both
    shift the column. Drive on Metz's 0610 is rough (-1) and 0510 faces it across the Moselle (-3, all
    attackers across): -4 cumulative, -3 (the worst alone, 10.5) as printed."""
    units = {"us_357": "0510", "de_1010": "0610"}
    attack = Action.attack("0610", ("us_357",))
    printed = new_game(metz).arrange(units, turn=2, phase="us_combat")
    assert printed.odds(attack).terrain_shift == -3
    cumulative = replace(metz, combat=replace(metz.combat, terrain_effects="cumulative"))
    state = new_game(cumulative).arrange(units, turn=2, phase="us_combat")
    assert state.odds(attack).terrain_shift == -1 - 3


def test_the_worst_drm_between_hex_and_hexside_depends_on_the_side_a_positive_drm_helps(tmp_path):
    """Not cumulative: of the defender's hex (town, -1; woods +2: on drm_direction's table where a positive
    DRM helps the attacker, the town's -1 is the hex's worst) and a hexside crossed (+1), only the DRM worst for
    the attacker applies: -1 when a positive DRM helps the attacker, the woods' +2 when it helps the defender."""
    game = variant(tmp_path, "drm_direction",
                   ("edges { west = 0101..0104 }", "edges { west = 0101..0104 }\n  hexsides stream { sides = [0202/0302] }"),
                   ("terrain town ", "hexside stream { combat_drm = 1 }\nterrain town "))
    units = {"b1": "0202", "r1": "0302"}
    attack = Action.attack("0302", ("b1",))
    assert new_game(game).arrange(units, phase="blue_fight").odds(attack).drm == -1
    flipped = replace(game, tables={"main": replace(game.tables["main"], drm="defender")})
    assert new_game(flipped).arrange(units, phase="blue_fight").odds(attack).drm == 2


# ------------------------------------------------------------ retreat paths (combat.py: retreat_paths)
def with_retreat(game, **fields):
    return replace(game, combat=replace(game.combat, retreat=replace(game.combat.retreat, **fields)))


def retreats_offered(game, units, target="0403", attacker="b1"):
    """The retreat paths red is offered after blue's `attacker` beats `target` (retreat_policies: D2 on any roll)."""
    state = fight(new_game(game).arrange(units, phase="blue_fight"), target, attacker, roll=1)
    assert state.last_battle.result == "D2"
    return state, {a.path for a in state.legal_actions() if a.kind == "retreat"}


def test_a_retreat_may_pass_through_a_hex_it_may_not_end_in(policies):
    """retreat { may_not_end = [occupied] } (with nothing in may_not_enter): a path may pass through an
    occupied hex but not end in one. Red r1 in 0403 retreats two hexes toward the east edge: through
    0503 (r2 there) or 0504 to column 6, but never ending in 0603 (the fort rf there)."""
    game = with_retreat(policies, may_not_enter=(), may_not_end=("occupied",))
    state, paths = retreats_offered(game, {"b1": "0402", "r1": "0403", "r2": "0503", "rf": "0603"})
    assert paths == {("0503", "0602"), ("0504", "0604")}


def test_a_beaten_attacker_retreats_away_from_the_hex_it_attacked_not_from_the_other_attackers(policies):
    """An attacker's retreat (direction = away) leads away from the defender's hex: no hex nearer it. The
    other attackers' hexes do not count. Blue b1 (0402) and b2 (0504) attack red in 0403 and must retreat
    one hex: b1 may go to any empty neighbour but 0403, among them 0503, next to b2 and to the defender but
    no nearer the defender than 0402 is."""
    game = replace(with_retreat(policies, direction="away"),
                   results={"D2": replace(policies.results["D2"], effects=(Effect("retreat", "attacker", 1),))})
    state = fight(new_game(game).arrange({"b1": "0402", "b2": "0504", "r1": "0403"}, phase="blue_fight"),
                  "0403", "b1", "b2", roll=1)
    assert [f.unit for f in state.retreats] == ["b1", "b2"]
    assert state.current_player() == state.players.index("blue")  # chosen_by = owner
    assert {a.path for a in state.legal_actions()} == {("0401",), ("0302",), ("0303",), ("0502",), ("0503",)}


def test_a_displaced_friend_pushes_no_further_friend_aside(tmp_path):
    """retreat { displace }: the friends a retreat pushes aside retreat one hex in turn, displacing nobody.
    On displacement's one-row map, red beats b_def (0501) from 0401: b_def's only way is into b_friend's hex
    (0601), whose only way is into b_third's (0701, the map's end): b_friend cannot retreat and is eliminated;
    b_third stays."""
    game = variant(tmp_path, "displacement", ("unit r_guard", "unit b_third { side = blue  type = infantry  strength = 1"
                                              "  move = 2  setup = 0601 }\nunit r_guard"))
    state = new_game(game, options=["push"]).arrange(
        {"r_att": "0401", "b_def": "0501", "b_friend": "0601", "b_third": "0701"}, phase="red_fight")
    fight(state, "0501", "r_att", roll=1)
    assert state.last_battle.result == "DR"
    assert state.positions["b_def"] == "0601" and state.status("b_friend") == "eliminated"
    assert state.positions["b_third"] == "0701" and state.pending is None


def test_a_displacing_retreat_enters_no_other_occupied_hex_on_the_way(tmp_path):
    """retreat { displace }: a unit with no other path may end its retreat in a hex of friends, entering no other
    occupied hex on the way. A two-hex retreat from 0501 along displacement's one-row map would pass through
    b_friend (0601) to end among b_third (0701): not allowed, so b_def has no path and is eliminated."""
    game = variant(tmp_path, "displacement",
                   ("unit r_guard", "unit b_third { side = blue  type = infantry  strength = 1  move = 2  setup = 0601 }\n"
                                    "unit r_guard"),
                   ("effects = [retreat(defender, 1)]", "effects = [retreat(defender, 2)]"))
    state = new_game(game, options=["push"]).arrange(
        {"r_att": "0401", "b_def": "0501", "b_friend": "0601", "b_third": "0701"}, phase="red_fight")
    fight(state, "0501", "r_att", roll=1)
    assert state.status("b_def") == "eliminated"
    assert state.positions["b_friend"] == "0601" and state.positions["b_third"] == "0701"


# ------------------------------------------------------------ losses (effects.py)
def test_an_exchange_costs_the_attacker_only_the_strength_of_the_defenders_eliminated(tmp_path):
    """combat { spared }, exchange: the defenders the result passes by are not eliminated, and the attacker pays
    only the strength actually lost. A variant of ranged_exemption that spares defending artillery: blue's art
    (4, reduced 2) attacks foe (2) and a red gun (1, spared) at range; roll 3 is EX: foe is eliminated, the gun
    stays, and art owes 2: one step (4 -> 2), not a second (which 3 owed would take, eliminating it)."""
    game = variant(tmp_path, "ranged_exemption",
                   ("spared = option(ranged_exempt) and side == attacker_side and not any(h in defender_hexes where "
                    "adjacent(unit.hex, h))", "spared = side != attacker_side and unit.type == artillery"),
                   ("unit foe ", "unit gun { side = red  type = artillery  strength = 1  move = 1  setup = 0501 }\nunit foe "))
    state = new_game(game).arrange({"art": "0201", "foe": "0401", "gun": "0401"}, phase="blue_fight")
    fight(state, "0401", "art", roll=3)
    assert state.last_battle.result == "EX"
    assert state.status("foe") == "eliminated" and state.positions["gun"] == "0401"
    assert state.status("art") == "map" and state.unit("art").strength == 2


# ------------------------------------------------------------ advances after combat (advances.py)
def with_advance(game, **fields):
    return replace(game, combat=replace(game.combat, advance=replace(game.combat.advance, **fields)))


def test_an_advance_policy_without_the_defenders_hex_offers_only_the_retreat_path(policies):
    """advance { into = [retreat_path] }: the victor may follow the retreat path (through the defender's hex) but
    may not stop in the defender's hex itself. Red r1 retreats two hexes from 0403; blue b1 (0402) is offered
    the first hex of the path alone."""
    game = with_advance(policies, into=("retreat_path",))
    state = fight(new_game(game).arrange({"b1": "0402", "r1": "0403"}, phase="blue_fight"), "0403", "b1", roll=1)
    path = sorted(a.path for a in state.legal_actions())[0]
    state.apply_action(Action.retreat(path))
    assert state.advancing.hexes == (path[0],)
    assert set(state.legal_actions()) == {Action.advance("b1", path[0]), Action.advance()}


def test_after_a_battle_against_several_hexes_the_victor_advances_only_into_those_hexes(policies):
    """combat { multi_hex }: after a battle against several hexes the victor may advance into the vacated target
    hexes but not along the retreat paths, even where the policy allows them (into = [defender_hex,
    retreat_path]). Blue b1 (0402) beats red r1 (0403) and r2 (0503) together; both retreat two hexes east."""
    game = replace(policies, combat=replace(policies.combat, multi_hex=True))
    state = new_game(game).arrange({"b1": "0402", "r1": "0403", "r2": "0503"}, phase="blue_fight")
    for step in [Action.attack("0403"), Action.with_unit("b1"), Action.attack("0503"), Action.resolve(), Action.roll(1)]:
        state.apply_action(step)
    assert state.last_battle.result == "D2" and state.last_battle.battle.targets == ("0403", "0503")
    passed = set()
    while state.retreats:
        path = min(a.path for a in state.legal_actions())
        passed.add(path[0])
        state.apply_action(Action.retreat(path))
    assert passed - {"0403", "0503"}  # the retreats passed through other hexes
    assert state.advancing.hexes == ("0403", "0503")
    assert set(state.legal_actions()) == {Action.advance("b1", "0403"), Action.advance("b1", "0503"), Action.advance()}


def test_a_unit_that_attacked_at_range_does_not_advance(tmp_path):
    """An advance is only ever into a hex next to the advancing unit: a ranged unit that bombarded a hex two hexes
    away may not advance into it. A variant of bombardment whose result eliminates the defender and offers an
    advance: art (0403) eliminates r1 in 0203 at range, and no advance is offered; inf, next to the hex, may."""
    game = variant(tmp_path, "bombardment",
                   ("effects = [lose_steps(defender, 1)]", "effects = [eliminate(defender), advance(1)]"))
    state = fight(new_game(game).arrange({"art": "0403", "r1": "0203"}, phase="blue_fight"), "0203", "art", roll=1)
    assert state.last_battle.result == "S1" and state.status("r1") == "eliminated"
    assert state.advancing is None and state.positions["art"] == "0403"
    state = fight(new_game(game).arrange({"art": "0403", "inf": "0202", "r1": "0203"}, phase="blue_fight"),
                  "0203", "art", "inf", roll=1)
    assert set(state.legal_actions()) == {Action.advance("inf", "0203"), Action.advance()}


def test_each_victorious_unit_advances_at_most_once(tmp_path):
    """advance(N) lets up to N victorious units advance, one hex each: a unit that has advanced may not advance
    again. On multi_hex (DE: eliminate(defender), advance(2)), b1 alone (0402) eliminates r1 (0403) and r2 (0503)
    together, advances into 0403, and is not offered 0503 from there: the advance is over."""
    game = load_game(str(GAMES / "multi_hex.rulec"))
    state = new_game(game).arrange({"b1": "0402", "r1": "0403", "r2": "0503"}, phase="blue_fight")
    for step in [Action.attack("0403"), Action.with_unit("b1"), Action.attack("0503"), Action.resolve(), Action.roll(1)]:
        state.apply_action(step)
    assert state.last_battle.result == "DE"
    assert set(state.legal_actions()) == {Action.advance("b1", "0403"), Action.advance("b1", "0503"), Action.advance()}
    state.apply_action(Action.advance("b1", "0403"))
    assert state.positions["b1"] == "0403" and state.advancing is None


def test_an_advance_along_the_retreat_path_passes_through_the_defenders_hex(tmp_path):
    """An advance along the retreat path goes through the defender's hex: under the default control rule
    (movement { control = pass_through }) the victor takes a 'holds' objective there on the way. A variant of
    retreat_policies where blue scores 5 for holding 0403: b1 beats r1 there and advances past it."""
    game = variant(tmp_path, "retreat_policies", ("sequence {", "award blue_holds { side = blue  when = holds(0403)  amount = 5 }\n\nsequence {"))
    state = new_game(game).arrange({"b1": "0402", "r1": "0403"}, phase="blue_fight")
    assert state.vp["blue"] == 0
    fight(state, "0403", "b1", roll=1)
    path = min(a.path for a in state.legal_actions())
    state.apply_action(Action.retreat(path))
    state.apply_action(Action.advance("b1", path[0]))
    assert state.positions["b1"] == path[0] and state.vp["blue"] == 5


# ------------------------------------------------------------ declaring battles (battles.py)
def test_once_the_declared_battles_are_being_fought_no_more_may_be_declared(tmp_path):
    """combat { declare = all_first }: every battle is declared before the first is fought; once the attacker
    fights one, the rest are fought in the order it chooses and no new battle may be declared. A variant of
    declare_all_first with a third red unit: blue declares b1 on r1 and b2 on r2, fights r1 (roll 4: NE), and
    is offered only the battle against r2, not an attack by b3 on r3."""
    game = variant(tmp_path, "declare_all_first",
                   ("unit r2 ", "unit r3 { side = red  type = infantry  strength = 1  move = 3  setup = 0603 }\nunit r2 "))
    state = new_game(game).arrange({"b1": "0202", "r1": "0302", "b2": "0204", "r2": "0304", "b3": "0505", "r3": "0605"},
                                   phase="blue_fight")
    fight(state, "0302", "b1")
    fight(state, "0304", "b2")
    assert set(state.legal_actions()) == {Action.attack("0605"), Action.fight("0302"), Action.fight("0304")}
    state.apply_action(Action.fight("0302"))
    state.apply_action(Action.roll(4))
    assert state.last_battle.result == "NE"
    assert state.legal_actions() == [Action.fight("0304")]


def test_a_declared_battle_whose_defenders_are_all_gone_lapses_without_a_roll(tmp_path):
    """combat { declare = all_first } (docs/rulings.md): each declared battle is fought against the units in its
    target hexes at that moment, so one whose defenders are all gone lapses without a roll. A variant of
    declare_all_first whose battle_resolved hook eliminates every red unit: after the battle against r1, the one
    declared against r2 has no defender; fighting it rolls nothing, and the phase may end."""
    game = variant(tmp_path, "declare_all_first",
                   ("sequence {", "sequence {\n  on battle_resolved { effects = [eliminate(units(side = red))] }"))
    state = new_game(game).arrange({"b1": "0202", "r1": "0302", "b2": "0204", "r2": "0304"}, phase="blue_fight")
    fight(state, "0302", "b1")
    fight(state, "0304", "b2")
    state.apply_action(Action.fight("0302"))
    state.apply_action(Action.roll(4))
    assert state.last_battle.result == "NE" and state.status("r2") == "eliminated"
    state.apply_action(Action.fight("0304"))
    assert not state.is_chance_node() and state.legal_actions() == [Action.end()]
    assert state.last_battle.defenders == ("r1",)  # no second battle was reported
