"""The AIs read every victory rule (rulec/players/final_awards.py: victory_goals), not only point awards:
a victory written as "holds a hex at the end" (tests/games/crossroads.rulec), a victory won only by
leaving the map (tests/games/breakout.rulec), and greedy against random on every made-up game that
has a victory rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import new_game
from rulec.language.parse import parse_text
from rulec.pipeline import check, load_game
from rulec.players import GreedyPlayer, RandomPlayer
from rulec.players.evaluation import Evaluator, evaluator_for
from rulec.players.final_awards import CONTROL, GOAL_VALUE, FinalAwards
from rulec.players.match import play_match
from rulec.players.setup import build_players

GAMES = Path(__file__).parent / "games"


def wins(game, greedy_side: str, seed: int) -> bool:
    """Does greedy, playing `greedy_side` against random, win the game played with `seed`?"""
    sides = list(game.sides)
    state = new_game(game, seed=seed)
    kinds = {side: "greedy" if side == greedy_side else "random" for side in sides}
    play_match(state, build_players(kinds, sides, seed), seed=seed)
    returns = state.returns()
    mine = returns[sides.index(greedy_side)]
    return all(mine > r for s, r in zip(sides, returns) if s != greedy_side)


def test_a_hex_only_a_victory_level_rewards_draws_each_side():
    game = load_game(str(GAMES / "crossroads.rulec"))
    assert game.awards == ()  # nothing but the victory levels says the crossroads matter
    final = FinalAwards(game, ["0404"])
    assert {(g.actor, g.by, g.side, g.value, tuple(g.hexes)) for g in final.groups} == {
        ("blue", CONTROL, "blue", GOAL_VALUE, ("0404",)), ("red", CONTROL, "red", GOAL_VALUE, ("0404",))}
    state = new_game(game)
    distance = Evaluator(game).tables.distance
    action = state.action_to_string(GreedyPlayer(0).choose(state))
    unit, to = action.split()[1:]
    assert distance[to]["0404"] < distance[state.positions[unit]]["0404"]  # straight for the crossroads
    state.holders["0404"] = "blue"
    assert Evaluator(game).projected_vp(state) == {"blue": GOAL_VALUE, "red": 0.0}


@pytest.mark.parametrize("side", ["blue", "red"])
def test_greedy_takes_and_keeps_the_crossroads(side):
    game = load_game(str(GAMES / "crossroads.rulec"))
    assert sum(wins(game, side, seed) for seed in range(10)) >= 9


def test_hexes_a_victory_needs_held_together_each_pay_a_share():
    text = (GAMES / "crossroads.rulec").read_text(encoding="utf-8")
    text = text.replace("control_of = [0404]", "control_of = [0404, 0303]").replace(
        "when = controls(blue, 0404)  winner = blue", "when = controls(blue, 0404) and controls(blue, 0303)  winner = blue")
    game, diagnostics = check(parse_text(text, "two_crossroads.rulec"))
    assert game is not None, diagnostics
    final = FinalAwards(game, ["0303", "0404"])
    blue = {(g.value, tuple(g.hexes)) for g in final.groups if g.actor == "blue"}
    assert blue == {(GOAL_VALUE / 2, ("0303",)), (GOAL_VALUE / 2, ("0404",))}


def test_a_side_that_scores_only_by_eliminating_goes_looking_for_a_battle():
    # Two Fights: Blue scores only for red units eliminated, and no award names a place: its units
    # are drawn to the nearest red unit (they used to stand still, out of reach, all game).
    game = load_game(str(GAMES / "two_fights.rulec"))
    evaluator = Evaluator(game)
    assert set(evaluator._hunted) == {"blue"} and Evaluator(load_game(str(GAMES / "crossroads.rulec")))._hunted == {}
    state = new_game(game).arrange({"b1": "0101", "b2": "0102", "b3": "0103", "r1": "0605", "r2": "0604"},
                                   phase="blue_move")
    distance = evaluator.tables.distance
    action = state.action_to_string(GreedyPlayer(0).choose(state))
    unit, to = action.split()[1:]
    nearest = lambda h: min(distance[h][state.positions[r]] for r in ("r1", "r2"))  # noqa: E731
    assert nearest(to) < nearest(state.positions[unit])
    assert sum(wins(game, "blue", seed) for seed in range(10)) >= 9


def test_scoring_a_hunt_from_the_last_full_score_equals_scoring_afresh():
    """Where the hunted units stand is part of what a unit's term depends on: a position where they moved is
    scored in full, so scoring from the last position scored equals scoring afresh."""
    import random

    from rulec.players.base import legal_orders
    game = load_game(str(GAMES / "two_steps.rulec"))  # both sides hunt
    assert set(Evaluator(game)._hunted) == {"blue", "red"}
    state, warm, rng, compared = new_game(game, seed=3), Evaluator(game), random.Random(5), 0
    while not state.is_terminal() and compared < 300:
        actions = legal_orders(state)
        for action in rng.sample(actions, min(6, len(actions))):
            child = state.clone()
            child.apply_action(action)
            for seat in range(len(state.players)):
                assert warm.score(child, seat) == pytest.approx(Evaluator(game).score(child, seat), abs=1e-9)
                compared += 1
        state.apply_action(rng.choice(actions) if not state.is_chance_node() else state.chance_outcomes()[0][0])
    assert compared >= 100


def test_a_victory_won_only_by_leaving_the_map_draws_units_off_it():
    game = load_game(str(GAMES / "breakout.rulec"))
    assert game.awards == ()
    evaluator = Evaluator(game)
    # Two units must leave: each one that does is worth half the victory, wherever the engine says it left from.
    assert evaluator.final.exit_value("b1", "0803") == {"blue": GOAL_VALUE / 2}
    assert evaluator.final.exit_value("b1", "0703") == {"blue": GOAL_VALUE / 2}
    assert evaluator.final.exit_value("r1", "0803") == {}
    assert [(o.side, o.edges) for o in evaluator.objectives] == [("blue", ("east",))]
    state = new_game(game, seed=4)
    play_match(state, [GreedyPlayer(4), RandomPlayer(5)] if list(game.sides)[0] == "blue"
               else [RandomPlayer(5), GreedyPlayer(4)], seed=4)
    assert len(state.exited_from) >= 2 and state.returns()[list(game.sides).index("blue")] > 0



def test_a_victory_that_reads_game_variables_is_read_through_the_hooks_that_change_them():
    """Game Variables: Red wins with bridge_first == 1 (a hook sets it when a red unit stands on the bridge,
    0402, first) and losses >= 1 (a hook adds 1 when a blue unit is eliminated); Blue with bridge_first == 2."""
    game = load_game(str(GAMES / "game_variables.rulec"))
    evaluator = Evaluator(game)
    goals = {g.award.side: g for g in evaluator.variable_goals.goals}
    assert goals["red"].needed == {"bridge_first": 1, "losses": 1} and goals["red"].share == GOAL_VALUE / 2
    assert goals["red"].setting_hexes == {"bridge_first": frozenset({"0402"})} and goals["red"].prey == {"blue"}
    assert goals["blue"].needed == {"bridge_first": 2} and goals["blue"].setting_hexes == {"bridge_first": frozenset({"0402"})}
    assert set(evaluator._hunted) == {"red"}  # Red needs a blue unit eliminated: its units look for a battle
    # In play the variables are read from the state: a share for each needed value, the whole goal when it holds.
    state = new_game(game)
    assert evaluator.projected_vp(state) == {"red": 0.0, "blue": 0.0}
    state.variables["bridge_first"] = 1
    assert evaluator.projected_vp(state) == {"red": GOAL_VALUE / 2, "blue": 0.0}
    state.variables["losses"] = 1
    assert evaluator.projected_vp(state) == {"red": GOAL_VALUE, "blue": 0.0}
    # Red's first move goes straight for the bridge (nothing else in the file says it matters).
    state = new_game(game)
    action = state.action_to_string(GreedyPlayer(0).choose(state))
    assert action.split()[2] == "0402", action


def test_a_victory_that_reads_an_option_is_read_with_the_options_of_the_match():
    """Option Rules: with `sudden_end` chosen, Red wins at once holding the town (0301); without it, that
    sudden death never holds and draws nobody."""
    game = load_game(str(GAMES / "option_rules.rulec"))
    plain = FinalAwards(game, ["0301"])
    sudden = FinalAwards(game, ["0301"], options=["sudden_end"])
    assert not any(g.side == "red" and g.value == GOAL_VALUE for g in plain.groups)
    assert ("red", CONTROL, GOAL_VALUE, frozenset({"0301"})) in {(g.side, g.by, g.value, g.hexes) for g in sudden.groups}
    state = new_game(game, options=["sudden_end"])
    assert evaluator_for(state).options == ("sudden_end",) and evaluator_for(new_game(game)).options == ()


def test_a_battle_is_weighed_by_its_expectation_over_the_combat_results_table():
    """Exchange Choice: every roll but a 6 is an exchange, the attacker paying at least the defender's strength.
    A weak unit attacking a strong one gains (the defender's 3 VP for its own 1); a strong one attacking a weak one
    loses (4 for 1); and the greedy player, given both, attacks with the weak one alone."""
    game = load_game(str(GAMES / "exchange_choice.rulec"))
    battles, units = Evaluator(game).battles, game.units
    assert battles.battle([(units["b1"], 1, "0302")], [(units["r3"], 1)], "0303") > 0
    assert battles.battle([(units["b4"], 1, "0302")], [(units["r1"], 1)], "0303") < 0
    state = new_game(game).arrange({"b1": "0302", "b4": "0304", "b2": "0101", "r3": "0303", "r1": "0505",
                                    "r2": "0501"}, phase="blue_fight")
    player, chosen = GreedyPlayer(0), []
    while state.phase.id == "blue_fight" and not state.is_chance_node():
        action = player.choose(state)
        chosen.append(state.action_to_string(action))
        state.apply_action(action)
    assert chosen == ["attack 0303", "with b1", "resolve"]


def test_a_battle_the_position_offers_counts_for_the_side_that_fights_next():
    """Two Fights, Blue's move before its second combat phase: a blue unit next to a red one may attack it there
    (kill on 1-3): the position is worth more to Blue than the same position with the units apart."""
    game = load_game(str(GAMES / "two_fights.rulec"))
    evaluator = Evaluator(game)
    near = new_game(game).arrange({"b1": "0304", "b2": "0101", "b3": "0102", "r1": "0404", "r2": "0605"},
                                  phase="blue_move")
    apart = new_game(game).arrange({"b1": "0204", "b2": "0101", "b3": "0102", "r1": "0404", "r2": "0605"},
                                   phase="blue_move")
    assert evaluator.tables.distance["0304"]["0404"] == 1 and evaluator.tables.distance["0204"]["0404"] == 2
    assert evaluator._engagement(near, "blue") > 0 == evaluator._engagement(apart, "blue")
    assert evaluator.outlook(near, 0) - evaluator.score(near, 0) == evaluator._engagement(near, "blue")


def test_a_step_lost_counts_as_its_share_of_what_the_units_elimination_pays():
    """Two Steps: r6 has three steps, 6 VP to Blue when eliminated as it stands; one step lost is worth a third of
    what eliminating the reduced unit (4) would pay; eliminated, it pays in full."""
    game = load_game(str(GAMES / "two_steps.rulec"))
    evaluator = Evaluator(game)
    state = new_game(game)
    before = evaluator.score(state, 0)
    from rulec.engine.steps import lose_step
    lose_step(state, "r6")
    assert state.unit("r6").strength == 4
    assert evaluator._step_credit(state, evaluator.projected_vp(state)) == {"blue": pytest.approx(4 / 3), "red": 0}
    assert evaluator.score(state, 0) > before
    lose_step(state, "r6")
    assert evaluator._step_credit(state, evaluator.projected_vp(state)) == {"blue": pytest.approx(2 * 2 / 3), "red": 0}
    lose_step(state, "r6")
    assert state.status("r6") == "eliminated" and evaluator._step_credit(state, state.vp) == state.vp


def test_a_unit_that_may_attack_is_worth_the_battles_it_can_still_win():
    """Bombardment: Red scores nothing for Blue's units, but Blue's artillery is the only unit that scores for Blue
    at range: losing it costs its strength on the map and its share of what Blue wins per red strength point
    (1 VP a point here), at POTENTIAL."""
    from rulec.players.evaluation import POTENTIAL
    game = load_game(str(GAMES / "bombardment.rulec"))
    evaluator = Evaluator(game)
    art, r1 = game.units["art"], game.units["r1"]
    assert evaluator._loss_value(art, 1) == pytest.approx(evaluator.weights.strength * 4 + POTENTIAL * 1.0 * 4)
    # Red's units score nothing for Red, so they carry no potential; their loss pays Blue its VP.
    assert evaluator._loss_value(r1, 2) == pytest.approx(evaluator.weights.strength * 2 + 2)

def test_a_unit_next_to_the_enemy_is_in_danger_as_its_stack_is():
    """Big Battle, Blue's move after a battle with no effect: a battle is fought against the whole stack, so a unit
    that leaves a stack next to the enemy leaves the others weaker, not safer. Taking b02 (3) out of the 0302 stack
    (6 against r1's 9) lowers Blue's score (the danger term used to pay it for the one unit out of contact)."""
    game = load_game(str(GAMES / "big_battle.rulec"))
    ring = {u.id: u.setup for u in game.units.values()}
    together = new_game(game).arrange(ring, phase="blue_move")
    left = new_game(game).arrange({**ring, "b02": "0301"}, phase="blue_move")
    assert Evaluator(game).tables.distance["0301"]["0303"] == 2  # out of contact
    assert Evaluator(game).score(left, 0) < Evaluator(game).score(together, 0)
    quick = Evaluator(game).move_values(together, 0, [("b02", "0301")])
    assert quick == [pytest.approx(Evaluator(game).score(left, 0))]


def test_a_retreat_with_no_hex_to_go_to_counts_as_an_elimination():
    """Big Battle, Blue's combat: r1 (9) in a ring of six blue stacks cannot retreat (every neighbour holds an
    enemy), so a 'defender retreats' eliminates it as 'defender eliminated' does: at 10 or more, 1-2 eliminate and
    3-4 retreat, so the ring's battle is worth twice the same battle with one stack gone out of contact."""
    game = load_game(str(GAMES / "big_battle.rulec"))
    ring = {u.id: u.setup for u in game.units.values()}
    hole = {**ring, **{uid: "0502" for uid in ("b04", "b05", "b06")}}  # 0402's stack steps back
    evaluator = Evaluator(game)
    assert evaluator.tables.distance["0502"]["0303"] == 2
    closed = evaluator._engagement(new_game(game).arrange(ring, phase="blue_fight"), "blue")
    opened = evaluator._engagement(new_game(game).arrange(hole, phase="blue_fight"), "blue")
    assert opened > 0 and closed == pytest.approx(2 * opened)


# ------------------------------------------------------------ greedy against random, every made-up game
# Greedy must beat random from each side of every made-up game with a victory rule, and nearly always overall. A
# rate, measured over enough games that a change of random's draws (the same distribution: search.py's sampler in
# place of the list) does not move the verdict: over 100 seeds greedy wins 70-100% of a pair's games, 93% of all;
# over 10 seeds, 9 of 10 held for every pair by the luck of the draws alone.
SEEDS = range(50)
LEAST_OF_A_PAIR = 0.6  # of a (game, side)'s games: the weakest pair (river_assault, blue) wins about 70%
LEAST_OVERALL = 0.9  # of every pair's games together (about 93%, each pair's games counted alike)
# (game, side) pairs where greedy wins fewer than LEAST_OF_A_PAIR of its games against random, with the cause found
# (none left: a game where one side cannot steer the result is made fair, never excused here). Strict: a pair that
# starts to pass must leave this list. They are not counted in the overall rate.
SHORT: dict[tuple[str, str], str] = {}


def _pairs_that_may_win() -> list[tuple[str, str]]:
    """Each (made-up game, side) of the games with a victory rule where something can make that side the winner."""
    pairs = []
    for path in sorted(GAMES.glob("*.rulec")):
        game = load_game(str(path))
        if game.victory is not None:
            pairs += [(path.stem, side) for side in game.sides if _may_win(game, side)]
    return pairs


def _may_win(game, side: str) -> bool:
    """Does anything in the game make `side` a winner: VP of its own, a level or sudden death naming it, `otherwise`?"""
    victory = game.victory
    return (any(a.side == side for a in game.awards) or victory.otherwise == side
            or any(v.winner == side for v in (*victory.levels, *victory.sudden_death)))


def test_greedy_beats_random_from_each_side_of_every_made_up_game():
    """One test for every pair (their games played once, counted per pair and together)."""
    won = {(name, side): sum(wins(load_game(str(GAMES / f"{name}.rulec")), side, seed) for seed in SEEDS)
           for name, side in _pairs_that_may_win()}
    assert len(won) > 20  # (every made-up game with a victory rule, from each side that can win)
    short = {pair for pair, count in won.items() if count < LEAST_OF_A_PAIR * len(SEEDS)}
    assert short == set(SHORT), {pair: f"won {won[pair]} of {len(SEEDS)}" for pair in short ^ set(SHORT)}
    counted = [count for pair, count in won.items() if pair not in SHORT]
    rate = sum(counted) / (len(SEEDS) * len(counted))
    assert rate >= LEAST_OVERALL, (rate, sorted(won.items(), key=lambda item: item[1])[:5])
