"""What the AI players reckon and choose that no other test pinned, each found by planting a fault in the players'
code (battle_value.py: what a battle offered is worth; greedy.py: the one-ply player and its plans; mcts.py: the
tree search; search.py: the actions a search leaves out; victory_margin.py: how far a side is from winning) that
the rest of the suite let through (or caught only by greedy's rate of wins over many games).

A battle's worth is asked of battle_value.BattleValue directly, on tests/games/battle_values.rulec (made for these:
each test gives the table its own rows) with the units' worth to their side set by the test, so each expected value
is the module docstring's rule worked out by hand. The greedy player's ties are played against an evaluator that
rates every position alike but for float noise; MCTS plays a toy choice of three ends whose one-ply values and
returns the test sets; search_actions is asked after openers called off in Drive on Metz and Multi-hex Battles.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from game_variants import variant

from rulec.engine import Action, new_game
from rulec.engine.tables import tables_for
from rulec.pipeline import load_game
from rulec.players import GreedyPlayer, MCTSPlayer
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
    rows = ("    1 = [NE, DR, DE]\n    2 = [NE, DR, DE]\n    3 = [AR, NE, DR]\n    4 = [AR, NE, DR]\n"
            "    5 = [AR, AR, NE]\n    6 = [AR, AR, NE]")
    game = variant(tmp_path, "big_battle", (rows, "\n".join(f"    {roll} = [AR, AR, AR]" for roll in range(1, 7))),
                   ('result AR { name = "Attacker Retreats"  effects = [retreat(attacker, 1)] }',
                    'result AR { name = "Attacker Loses 2"  effects = [lose(attacker, 2)] }'))
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


# ------------------------------------------------------------ the tree search (mcts.py)
class _OneChoice:
    """Red picks `a`, `b` or `c` and the game ends: `returns` are what each ends in for Red (Blue gets the opposite)."""

    players = ("red", "blue")

    def __init__(self, returns: dict[str, float]):
        self.ends_in = returns
        self._history: list[str] = []

    def current_player(self):
        return -4 if self.is_terminal() else 0

    def legal_actions(self):
        return [] if self._history else ["a", "b", "c"]

    def apply_action(self, action):
        self._history.append(action)

    def history(self):
        return list(self._history)

    def clone(self):
        other = _OneChoice(self.ends_in)
        other._history = list(self._history)
        return other

    def is_terminal(self):
        return bool(self._history)

    def is_chance_node(self):
        return False

    def returns(self):
        value = self.ends_in[self._history[-1]]
        return [value, -value]

    def action_to_string(self, action):
        return action


class _OnePly:
    """One ply's values for Red: `a` best, then `b`, then `c` (nothing played yet: 0)."""

    VALUES = {"a": 1.0, "b": 0.0, "c": -1.0}

    def score(self, state, seat):
        value = self.VALUES[state.history()[-1]] if state.history() else 0.0
        return value if seat == 0 else -value

    def outlook(self, state, seat, remember=True):
        return self.score(state, seat)


def test_one_simulation_plays_the_best_order_by_one_ply():
    """With widening, a node tries its actions best first (by the greedy player's one-ply value): a search of one
    simulation has tried only that one, and plays it."""
    player = MCTSPlayer(0, max_simulations=1, rollout_depth=0, evaluator=_OnePly(), widening=3)
    assert player.choose(_OneChoice({"a": 0.0, "b": 0.0, "c": 0.0})) == "a"


def test_widening_searches_only_the_best_few_orders():
    """widening=2: `c`, last by one ply, is never searched, however well it would end."""
    player = MCTSPlayer(0, max_simulations=40, rollout_depth=0, evaluator=_OnePly(), widening=2)
    assert player.choose(_OneChoice({"a": -0.5, "b": -0.5, "c": 1.0})) in ("a", "b")


def test_virtual_visits_keep_the_one_ply_choice_until_evidence_outweighs_it():
    """prior_visits: each child starts with that many visits worth its one-ply value; ten simulations that find
    `c` a little better than `a` do not outweigh `a`'s twenty visits' worth."""
    player = MCTSPlayer(0, max_simulations=10, rollout_depth=0, evaluator=_OnePly(), widening=3, prior_visits=20)
    assert player.choose(_OneChoice({"a": 0.0, "b": 0.0, "c": 0.1})) == "a"


def test_the_choice_is_the_most_visited_child_not_the_one_of_the_largest_total():
    """Every end is a loss for Red, `a` the smallest: the search visits `a` most, so its summed value is the most
    negative; the most visited child is chosen all the same."""
    player = MCTSPlayer(0, max_simulations=60, rollout_depth=0, uct_c=0.5, evaluator=_OnePly())
    assert player.choose(_OneChoice({"a": -0.2, "b": -0.6, "c": -1.0})) == "a"


# ------------------------------------------------------------ how far a side is from winning (victory_margin.py)
def test_without_a_game_model_the_margin_is_the_lead_over_the_best_other_side():
    """A state without a game model (a toy game): the margin is the VP difference with the strongest opponent."""
    margin = VictoryMargin(None)
    assert margin.margin({"red": 5, "blue": 3, "green": 4}, "red") == 1
    assert margin.margin({"red": 5, "blue": 3, "green": 4}, "blue") == -2
