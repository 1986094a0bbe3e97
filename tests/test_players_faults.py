"""What the AI players reckon and choose that no other test pinned, each found by planting a fault in the players'
code (battle_value.py: what a battle offered is worth; greedy.py: the one-ply player and its plans; search.py: the
actions a search leaves out; victory_margin.py: how far a side is from winning) that the rest of the suite let
through (or caught only by greedy's rate of wins over many games). The tree search's (mcts.py) are in
tests/test_players_faults_mcts.py.

A battle's worth is asked of battle_value.BattleValue directly, on tests/games/battle_values.rulec (made for these:
each test gives the table its own rows) with the units' worth to their side set by the test, so each expected value
is the module docstring's rule worked out by hand. The greedy player's ties are played against an evaluator that
rates every position alike but for float noise; its battle plans against Big Battle and Forced Attack with tables
where one group of attackers alone wins; its look-ahead (greedy.resolve) against evaluators that count one thing
(units marked, Blue's strength, Red's losses, the phase). search_actions is asked after openers called off in Drive
on Metz and Multi-hex Battles; the margin of three sides is measured on tests/games/three_sides.rulec.

A fault planted in greedy.py that cannot change what the player does, so has no test: _POSITION_PARTS without "vp".
Positions are compared only with their siblings (the outcomes of one die roll, the choices of one reaction), and
nothing there changes the score without changing another part compared: an elimination changes `where`, a hex
taken `holders` (a 'holds' award scores only when its holder changes), a unit off the map `exited_from`; a phase
award needs the phase to end; a hook's `score` fires on one of those events or on `battle_resolved`, which sees no
roll.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from game_variants import variant

from rulec.engine import Action, new_game
from rulec.engine.tables import tables_for
from rulec.pipeline import load_game
from rulec.players import GreedyPlayer, greedy
from rulec.players.battle_value import BattleValue, next_fighters
from rulec.players.search import cancelled_openers, search_actions
from rulec.players.victory_margin import VictoryMargin

GAMES = Path(__file__).parent / "games"

# ------------------------------------------------------------ what a battle offered is worth (battle_value.py)
# What losing each unit costs its side (steps left aside: b4 and r4 cost their full worth with both steps, a step
# half of it). b2 costs more per strength point than b3, r2 more than its strength: so "the units worth at least
# N strength that cost least" differs from "the cheapest per point first" and from "worth at least N of value".
WORTH = {"b1": 1.0, "b2": 2.5, "b3": 3.0, "b4": 4.0, "b_fort": 2.0, "b_screen": 0.5,
         "r1": 1.0, "r2": 4.0, "r3": 3.0, "r4": 4.0, "r_fort": 2.0}


def worth(unit, steps_left):
    return WORTH[unit.id]


def battle_game(tmp_path, *rolls: str, low: str = "NE", high: str = "NE"):
    """battle_values with `rolls` the results of rolls 1 to 6 (in both columns of the table); `low` and `high` the
    results of rows 0 and 7, which only a die-roll modifier reaches."""
    rows = {0: low, **{roll: code for roll, code in enumerate(rolls, 1)}, 7: high}
    text = "  ".join(f"{roll} = [{code}, {code}]" for roll, code in rows.items())
    written = ("rows { 0 = [AE, DE]  1 = [A2, DE]  2 = [AS, DR]  3 = [EX, XR]  4 = [EE, ER]  5 = [DS, LL]  "
               "6 = [NE, NE]  7 = [NE, DE] }")
    return variant(tmp_path, "battle_values", (written, f"rows {{ {text} }}"))


def values(game):
    return BattleValue(game, tables_for(game), worth)


def side(game, *ids, hex_="0302"):
    """Attackers ((unit, steps left, hex)) or, without a hex, defenders ((unit, steps left))."""
    units = [game.units[uid] for uid in ids]
    if hex_ is None:
        return [(u, u.steps) for u in units]
    return [(u, u.steps, hex_) for u in units]


# Big Battle (tests/games/big_battle.rulec): eighteen blue units (b01-b18: strength 2, 3, 1 in turn) three to a hex
# all round r1 (strength 9, in 0303), and the rows of its table as written.
BIG_BATTLE_ROWS = ("    1 = [NE, DR, DE]\n    2 = [NE, DR, DE]\n    3 = [AR, NE, DR]\n    4 = [AR, NE, DR]\n"
                   "    5 = [AR, AR, NE]\n    6 = [AR, AR, NE]")


def big_battle_losing_2(tmp_path):
    """Big Battle where every roll makes the attacker lose 2 strength (`lose(attacker, 2)`, its owner choosing)."""
    return variant(tmp_path, "big_battle",
                   (BIG_BATTLE_ROWS, "\n".join(f"    {roll} = [AR, AR, AR]" for roll in range(1, 7))),
                   ('result AR { name = "Attacker Retreats"  effects = [retreat(attacker, 1)] }',
                    'result AR { name = "Attacker Loses 2"  effects = [lose(attacker, 2)] }'))


def test_a_battle_is_worth_its_results_expectation_over_the_die(tmp_path):
    """Rolls 1 and 2 eliminate the defender (r2, worth 4 to Red), the others do nothing: 2/6 of 4."""
    game = battle_game(tmp_path, "DE", "DE", "NE", "NE", "NE", "NE")
    assert values(game).battle(side(game, "b3"), side(game, "r2", hex_=None), "0303") == pytest.approx(4 * 2 / 6)


def test_the_die_not_the_tables_rows_says_what_may_be_rolled(tmp_path):
    """Rows 0 and 7 eliminate the defender, but a six-sided die rolls 1 to 6: without a die-roll modifier the battle
    is worth nothing; in the wood of 0405 (+1 to the roll, the attacker's way) a 6 reaches row 7."""
    game = battle_game(tmp_path, "NE", "NE", "NE", "NE", "NE", "NE", low="DE", high="DE")
    weigh = values(game)
    assert weigh.battle(side(game, "b3", hex_="0404"), side(game, "r2", hex_=None), "0304") == 0
    assert weigh.battle(side(game, "b3", hex_="0404"), side(game, "r2", hex_=None), "0405") == pytest.approx(4 / 6)


def test_a_unit_of_no_strength_or_of_a_type_that_may_not_attack_offers_no_battle(tmp_path):
    game = load_game(str(GAMES / "battle_values.rulec"))
    weigh = values(game)
    assert weigh.can_attack(game.units["b1"])
    assert not weigh.can_attack(game.units["b_screen"])  # strength 0
    assert not weigh.can_attack(game.units["b_fort"])  # unit_type fort { can_attack = false }


def test_a_defender_with_nowhere_to_retreat_is_lost_and_one_with_a_way_out_is_not(tmp_path):
    """Every roll makes the defender retreat: worth nothing while r2 can, all of r2's worth when it is trapped (the
    engine eliminates it); the same battle asked both ways, one after the other, is told apart."""
    game = battle_game(tmp_path, *["DR"] * 6)
    weigh = values(game)
    attackers, defenders = side(game, "b3"), side(game, "r2", hex_=None)
    assert weigh.battle(attackers, defenders, "0303") == 0
    assert weigh.battle(attackers, defenders, "0303", trapped=frozenset({"r2"})) == pytest.approx(4)


def test_a_trapped_unit_exempt_from_retreats_holds_its_ground(tmp_path):
    """combat { retreat { exempt = [fort] } }: of r2 and the fort, both trapped, only r2 is lost by a retreat."""
    game = battle_game(tmp_path, *["DR"] * 6)
    trapped = frozenset({"r2", "r_fort"})
    assert values(game).battle(side(game, "b3"), side(game, "r2", "r_fort", hex_=None), "0303",
                               trapped=trapped) == pytest.approx(WORTH["r2"])


def test_an_exchange_costs_the_attacker_the_cheapest_units_worth_the_defenders_strength(tmp_path):
    """Exchange: r2 (strength 2, worth 4) is lost; b2 and b3 must lose at least 2 strength, Blue choosing: b2 alone
    (2.5) costs less than b3 alone (3, though cheaper a point) or both (5.5)."""
    game = battle_game(tmp_path, *["EX"] * 6)
    assert values(game).battle(side(game, "b2", "b3"), side(game, "r2", hex_=None), "0303") == pytest.approx(4 - 2.5)


def test_a_defender_lost_in_an_exchange_is_not_lost_again(tmp_path):
    """[exchange, retreat(defender, 1)] with r2 trapped, and [exchange, eliminate(defender)]: r2 is lost once."""
    for code in ("XR", "EE"):
        game = battle_game(tmp_path, *[code] * 6)
        assert values(game).battle(side(game, "b2", "b3"), side(game, "r2", hex_=None), "0303",
                                   trapped=frozenset({"r2"})) == pytest.approx(4 - 2.5), code


def test_a_defender_eliminated_is_not_lost_again_by_a_retreat(tmp_path):
    game = battle_game(tmp_path, *["ER"] * 6)
    assert values(game).battle(side(game, "b3"), side(game, "r2", hex_=None), "0303",
                               trapped=frozenset({"r2"})) == pytest.approx(4)


def test_a_loss_of_strength_is_paid_by_the_cheapest_units_worth_it(tmp_path):
    """lose(attacker, 2): of b2 (2, worth 2.5) and b3 (3, worth 3), b2 alone pays."""
    game = battle_game(tmp_path, *["A2"] * 6)
    assert values(game).battle(side(game, "b2", "b3"), side(game, "r2", hex_=None), "0303") == pytest.approx(-2.5)


def test_a_step_lost_is_the_cheapest_step(tmp_path):
    """lose_steps(attacker, 1): b4 has two steps (worth 4 in all, 2 a step), b2 one (2.5): b4's step goes."""
    game = battle_game(tmp_path, *["AS"] * 6)
    assert values(game).battle(side(game, "b4", "b2"), side(game, "r2", hex_=None), "0303") == pytest.approx(-2)


def test_a_loss_read_from_the_other_sides_steps_counts_its_steps(tmp_path):
    """[lose_steps(defender, 1), lose(attacker, steps_lost(defender))]: r4 loses a step (half of its 4), and the
    attackers at least 1 strength (one step lost, not the 2 strength it was): r1 (worth 1) rather than r3."""
    game = battle_game(tmp_path, *["DS"] * 6)
    assert values(game).battle(side(game, "r1", "r3"), side(game, "r4", hex_=None), "0303") == pytest.approx(2 - 1)


def test_nothing_lost_by_the_other_side_is_nothing_to_pay(tmp_path):
    """lose(attacker, lost(defender)) alone: the defender lost nothing, so the attacker loses nothing."""
    game = battle_game(tmp_path, *["LL"] * 6)
    assert values(game).battle(side(game, "b2", "b3"), side(game, "r2", hex_=None), "0303") == 0


def test_of_many_attackers_a_loss_takes_no_more_units_than_it_needs(tmp_path):
    """Big Battle, every result `lose(attacker, 2)`: nine attackers (six of strength 1 first, each worth a point)
    lose two of them, not a third; past MOST_SUBSETS_OF units the cheapest per point go first."""
    game = big_battle_losing_2(tmp_path)
    ids = ["b03", "b06", "b09", "b12", "b15", "b18", "b01", "b04", "b07"]
    attackers = [(game.units[uid], 1, "0302") for uid in ids]
    weigh = BattleValue(game, tables_for(game), lambda unit, steps: float(unit.strength))
    assert weigh.battle(attackers, [(game.units["r1"], 1)], "0303") == pytest.approx(-2)


def test_the_next_sides_to_fight_are_those_of_the_combat_phases_to_come_each_once(tmp_path):
    """Two Fights: blue_fight, blue_move, blue_fight_again, red_fight, red_move. From blue_move Blue fights next (its
    second combat phase), then Red; from red_fight, Red's own phase is not one to come: Blue's next turn is; in the
    last turn, nothing comes after red_fight's turn."""
    game = load_game(str(GAMES / "two_fights.rulec"))
    assert next_fighters(game, "blue_move") == ["blue", "red"]
    assert next_fighters(game, "blue_fight") == ["blue", "red"]
    assert next_fighters(game, "red_fight") == ["blue", "red"]
    assert next_fighters(game, "red_move") == ["blue", "red"]
    assert next_fighters(game, "red_fight", last_turn=True) == []
    assert next_fighters(game, "red_move", last_turn=True) == []
    assert next_fighters(game, "blue_move", last_turn=True) == ["blue", "red"]


# ------------------------------------------------------------ the greedy player's choices (greedy.py)
class _EndingIsAsGood:
    """An evaluator to which every position is worth the same, up to float noise: ending the phase 0.3, anything
    else 0.1 + 0.2 (0.30000000000000004), as two sums of the same terms in another order may be."""

    def __init__(self, phase_id: str):
        self.phase_id = phase_id

    def outlook(self, state, seat, remember=True):
        return 0.1 + 0.2 if state.phase.id == self.phase_id else 0.3

    def move_values(self, state, seat, moves):
        return [0.0] * len(moves)


@pytest.mark.parametrize("seed", range(6))
def test_ending_the_phase_wins_a_near_tie_with_moving(seed):
    """A move worth no more than ending the movement phase (but for float noise) is not made: units are not
    shuffled in vain."""
    game = load_game(str(GAMES / "battle_values.rulec"))
    state = new_game(game)
    assert state.phase.id == "blue_move"
    assert GreedyPlayer(seed, _EndingIsAsGood("blue_move")).choose(state) == Action.end()


@pytest.mark.parametrize("seed", range(6))
def test_ending_the_phase_wins_a_near_tie_with_a_battle(seed, tmp_path):
    """Nothing comes of a battle here (every result: no effect), so no plan of one beats ending the combat phase."""
    game = battle_game(tmp_path, *["NE"] * 6)
    state = new_game(game).arrange({"b2": "0302", "b3": "0302", "r2": "0303"}, phase="blue_fight")
    assert any(a.kind == "attack" for a in state.legal_actions())
    assert GreedyPlayer(seed, _EndingIsAsGood("blue_fight")).choose(state) == Action.end()


def test_a_plan_made_for_one_position_is_not_played_in_another():
    """Exchange Choice: the greedy player plans `attack 0303`, `with b1`, `resolve` and gives its first step. Asked
    about another position (the same units, a new game), it chooses anew: `with b1` is not legal there."""
    game = load_game(str(GAMES / "exchange_choice.rulec"))
    units = {"b1": "0302", "b4": "0304", "b2": "0101", "r3": "0303", "r1": "0505", "r2": "0501"}
    player = GreedyPlayer(0)
    first = new_game(game).arrange(units, phase="blue_fight")
    assert first.action_to_string(player.choose(first)) == "attack 0303"
    other = new_game(game).arrange(units, phase="blue_fight")
    assert other.action_to_string(player.choose(other)) == "attack 0303"


# Big Battle with a table that does nothing but at one difference of strengths, where every roll eliminates r1: the
# greedy player fights only if one of the groups its plans weigh lands there. b02 3, b01 2, b03 1 (in 0302); b05 3,
# b06 1 (0402); b08 3 (0403).
def big_battle_won_at(tmp_path, difference: int):
    columns = f"columns = [..{difference - 1}, {difference}, {difference + 1}..]"
    rows = "\n".join(f"    {roll} = [NE, DE, NE]" for roll in range(1, 7))
    return variant(tmp_path, "big_battle", ("columns = [..0, 1..9, 10..]", columns), (BIG_BATTLE_ROWS, rows))


def declared_group(state, seed: int) -> set[str]:
    """The attackers of the battle the greedy player declares in `state`; none if it ends the phase instead."""
    player = GreedyPlayer(seed)
    joined: set[str] = set()
    while (action := player.choose(state)).kind not in ("end", "resolve"):
        joined |= {action.unit} if action.kind == "with" else set()
        state.apply_action(action)
    return joined


def around_r1(game, units: dict[str, str]):
    """Big Battle in Blue's combat phase with only `units` and r1 (in 0303) in play."""
    return new_game(game).arrange({**units, "r1": "0303"}, phase="blue_fight")


@pytest.mark.parametrize("seed", range(3))
def test_of_a_few_attackers_every_group_is_weighed(seed, tmp_path):
    """Three attackers (3, 2 and 1), no more than ALL_GROUPS_UP_TO: every group of them is weighed, so the one that
    wins, the 3 and the 1 (4 against 9), is found though it is neither the strongest few nor one unit alone."""
    game = big_battle_won_at(tmp_path, 4 - 9)
    assert declared_group(around_r1(game, {"b02": "0302", "b01": "0302", "b03": "0302"}), seed) == {"b02", "b03"}


@pytest.mark.parametrize("seed", range(3))
def test_of_many_attackers_the_strongest_two_are_weighed(seed, tmp_path):
    """Six attackers (3, 3, 3, 2, 1, 1), more than ALL_GROUPS_UP_TO: the strongest k for each k from two, and each
    alone, are weighed. Only two of the 3s make 6 (against 9): no group of the weakest k, nor of the strongest three
    or more, nor one alone does."""
    game = big_battle_won_at(tmp_path, 6 - 9)
    units = {"b02": "0302", "b01": "0302", "b03": "0302", "b05": "0402", "b06": "0402", "b08": "0403"}
    group = declared_group(around_r1(game, units), seed)
    assert len(group) == 2 and group <= {"b02", "b05", "b08"}


def test_the_widest_group_is_weighed_for_a_duty_that_makes_the_smaller_ones_illegal(tmp_path):
    """Forced Attack (every blue unit must attack the enemy next to it; at a difference of 0 or less the attacker is
    eliminated, above it the defender) with r1 of strength 2 between b1 (1) and b2 (3), and b3 (1) next to r2 (9) far
    off. A battle on r1 without b1 or b2 may not be resolved; the groups that commit least at their odds are b1 alone
    (-1) and b2 alone (+1), both refused, but the widest group is weighed too: Blue fights r1 with both first (r1 is
    lost) rather than r2 (b3 is)."""
    more = ("unit b2 { side = blue  type = infantry  strength = 3  move = 1  setup = 0301 }\n"
            "unit b3 { side = blue  type = infantry  strength = 1  move = 1  setup = 0203 }\n"
            "unit r2 { side = red   type = infantry  strength = 9  move = 1  setup = 0204 }\n")
    game = variant(tmp_path, "forced_attack", ("rows = 1..2", "rows = 1..4"),
                   ("setup = 0101 }\n", "setup = 0101 }\n" + more),
                   ("strength = 9  move = 1  setup = 0201", "strength = 2  move = 1  setup = 0201"))
    state = new_game(game)
    assert {state.action_to_string(a) for a in state.legal_actions()} == {"attack 0201", "attack 0204"}
    assert declared_group(state, 0) == {"b1", "b2"}


class _CountsMarkers:
    """An evaluator to which a position is worth the number of its units and hexes that carry a marker."""

    def outlook(self, state, seat, remember=True):
        units = sum(1 for unit in state.where if state.markers_on(unit))
        return units + sum(1 for markers in state.markers.hexes.values() if markers)


def test_rolls_whose_positions_differ_only_in_markers_are_weighed_apart(tmp_path):
    """Disruption with a table whose rolls 1 and 2 do nothing, 3 and 4 shell the defender's hex and 5 and 6 disrupt
    both sides: the units stand where they stood whatever the roll, only the markers differ. By an evaluator that
    counts what is marked, the battle is worth its expectation, 2/6 of a hex and 2/6 of 2 units, not roll 1's
    position's worth for every roll."""
    written = "rows { 1 = [DD, DX]  2 = [DD, DX]  3 = [DD, DX]  4 = [DD, DX]  5 = [DD, DX]  6 = [DD, DX] }"
    rows = "rows { 1 = [NE, NE]  2 = [NE, NE]  3 = [SH, SH]  4 = [SH, SH]  5 = [DD, DD]  6 = [DD, DD] }"
    results = 'result NE { name = "No Effect" }\nresult SH { name = "Shelled"  effects = [mark(defender, shelled)] }\n'
    game = variant(tmp_path, "disruption", (written, rows), ("result DD", results + "result DD"))
    state = new_game(game).arrange({"r1": "0202", "b1": "0302"}, phase="red_fight")
    for step in (Action.attack("0302"), Action.with_unit("r1"), Action.resolve()):
        state.apply_action(step)
    assert state.chance_results() == ["NE", "NE", "SH", "SH", "DD", "DD"]
    assert greedy.resolve(state, 0, _CountsMarkers(), 1, greedy.phase_key(state)) == pytest.approx(2 / 6 + 2 / 6 * 2)


class _BlueStrength:
    """An evaluator to which a position is worth Blue's strength on the map."""

    def outlook(self, state, seat, remember=True):
        return sum(state.unit(u).strength for u in state.positions if state.unit(u).side == "blue")


@pytest.mark.parametrize("attackers, value", [
    (["b03", "b06", "b09", "b12", "b15", "b18"], 6 - 2),
    (["b03", "b06", "b09", "b12", "b15", "b18", "b01", "b04", "b07"], 12 - 1),
    ([f"b{n:02d}" for n in range(1, 19)], 36)], ids=["six", "nine", "eighteen"])
def test_a_loss_chosen_unit_by_unit_is_followed_while_it_branches_into_few_lines(tmp_path, attackers, value):
    """Big Battle, every roll `lose(attacker, 2)`: Blue gives up units one at a time, a reaction the greedy player
    follows to REACTION_DEPTH (the roll, then two choices) while it branches into at most MAX_REACTION_LINES lines,
    from at most MAX_REACTION_CHOICES choices, else scores it as it stands (by Blue's strength on the map). Six 1s:
    6 x 5 lines, both 1s given up are seen. Six 1s and three 2s: a 2 ends the loss, but after a 1 the next choice
    would make 9 x 8 lines: Blue stands one point down. Eighteen units: more choices than that, nothing lost yet."""
    game = big_battle_losing_2(tmp_path)
    state = new_game(game).arrange({**{u: game.units[u].setup for u in attackers}, "r1": "0303"}, phase="blue_fight")
    for step in (Action.attack("0303"), *map(Action.with_unit, attackers), Action.resolve()):
        state.apply_action(step)
    weighed = greedy.resolve(state, 0, _BlueStrength(), greedy.REACTION_DEPTH, greedy.phase_key(state))
    assert weighed == pytest.approx(value)


class _RedLosses:
    """An evaluator to which a position is worth what losing r1 and r2 cost Red (WORTH), whoever asks."""

    def outlook(self, state, seat, remember=True):
        return sum(WORTH[unit] for unit in ("r1", "r2") if unit not in state.positions)


def test_the_other_side_reacts_as_is_best_for_it(tmp_path):
    """Every roll `lose(defender, 2)` on r1 (strength 1, worth 1) and r2 (2, worth 4): Red chooses, and gives up r2
    alone (Blue's gain 4) rather than r1 and then r2 (5). Weighing the battle for Blue, the greedy player assumes
    Red's choice best for Red."""
    written = ("rows { 0 = [AE, DE]  1 = [A2, DE]  2 = [AS, DR]  3 = [EX, XR]  4 = [EE, ER]  5 = [DS, LL]  "
               "6 = [NE, NE]  7 = [NE, DE] }")
    rows = "rows { " + "  ".join(f"{roll} = [D2, D2]" for roll in range(8)) + " }"
    game = variant(tmp_path, "battle_values", (written, rows),
                   ("result NE", 'result D2 { name = "Defender Loses 2"  effects = [lose(defender, 2)] }\nresult NE'))
    state = new_game(game).arrange({"b3": "0302", "r1": "0303", "r2": "0303"}, phase="blue_fight")
    for step in (Action.attack("0303"), Action.with_unit("b3"), Action.resolve()):
        state.apply_action(step)
    blue = 0
    weighed = greedy.resolve(state, blue, _RedLosses(), greedy.REACTION_DEPTH, greedy.phase_key(state))
    assert weighed == pytest.approx(WORTH["r2"])


class _InCombat:
    """An evaluator to which a position is worth 1 while Blue's combat phase lasts, nothing after it."""

    def outlook(self, state, seat, remember=True):
        return 1.0 if state.phase.id == "blue_fight" else 0.0


def test_a_decision_that_may_end_the_phase_is_no_reaction_even_with_end_alone():
    """Declare All First: b1's one battle declared, then fought. After the roll (and the advance that may follow
    it) the only order left is `end`: a decision the mover may end, not a forced reaction, so the look-ahead
    weighs the position there, in the combat phase, rather than ending the phase for Blue."""
    state = new_game(load_game(str(GAMES / "declare_all_first.rulec"))).arrange(
        {"b1": "0404", "r1": "0405"}, phase="blue_fight")
    for step in (Action.attack("0405"), Action.with_unit("b1"), Action.resolve(), Action.fight("0405")):
        state.apply_action(step)
    assert state.is_chance_node()
    assert greedy.resolve(state, 0, _InCombat(), greedy.REACTION_DEPTH, greedy.phase_key(state)) == pytest.approx(1)


# ------------------------------------------------------------ what a search leaves out (search.py)
def test_each_opener_cancelled_in_turn_is_left_out(metz):
    """Two units chosen to move and each put back: neither is offered again until the position changes."""
    state = new_game(metz, seed=1)
    first, second = [a for a in search_actions(state) if a.kind == "move"][:2]
    for opener in (first, second):
        state.apply_action(opener)
        state.apply_action(Action.cancel())
    assert cancelled_openers(state.history()) == {first, second}
    assert first not in search_actions(state) and second not in search_actions(state)


def test_a_battle_cancelled_after_a_second_target_was_added_leaves_out_its_first_target():
    """Multi-hex Battles: `attack 0302`, `attack 0304` (a second target of the same battle), `cancel`: the battle
    opened by `attack 0302` was called off; `attack 0304` alone is another battle, still to be tried."""
    state = new_game(load_game(str(GAMES / "multi_hex.rulec"))).arrange(
        {"b1": "0303", "b2": "0202", "b3": "0403", "r1": "0302", "r2": "0304"}, phase="blue_fight")
    for step in (Action.attack("0302"), Action.attack("0304"), Action.cancel()):
        state.apply_action(step)
    assert cancelled_openers(state.history()) == {Action.attack("0302")}
    assert Action.attack("0302") not in search_actions(state) and Action.attack("0304") in search_actions(state)


class _OnlyATriedTarget:
    """A battle being declared whose one step but `cancel` is a further target already tried and called off."""

    def __init__(self):
        self._history = [Action.attack("0101"), Action.cancel(), Action.attack("0202")]

    def legal_actions(self):
        return [Action.attack("0101"), Action.cancel()]

    def history(self):
        return list(self._history)


def test_a_frame_whose_only_step_is_a_cancelled_opener_is_cancelled():
    assert search_actions(_OnlyATriedTarget()) == [Action.cancel()]


# ------------------------------------------------------------ how far a side is from winning (victory_margin.py)
def test_without_a_game_model_the_margin_is_the_lead_over_the_best_other_side():
    """A state without a game model (a toy game): the margin is the VP difference with the strongest opponent."""
    margin = VictoryMargin(None)
    assert margin.margin({"red": 5, "blue": 3, "green": 4}, "red") == 1
    assert margin.margin({"red": 5, "blue": 3, "green": 4}, "blue") == -2


def test_a_sides_margin_is_measured_against_the_opponent_nearest_to_winning():
    """Three Sides, won by the most VP: at 5, 3 and 4, Red needs nothing, Green 2 (to 6 against 5), Blue 3. Red's
    margin is Green's 2 (not Blue's 3), Blue's and Green's are against Red (nothing to gain): -3 and -2. At 1, 1 and
    0, Red and Blue each need 1 and Green 2: Red and Blue are level, Green 1 behind."""
    margin = VictoryMargin(load_game(str(GAMES / "three_sides.rulec")))
    assert margin.margins({"red": 5, "blue": 3, "green": 4}) == {"red": 2, "blue": -3, "green": -2}
    assert margin.margins({"red": 1, "blue": 1, "green": 0}) == {"red": 0, "blue": 0, "green": -1}
