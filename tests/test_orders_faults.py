"""The sampler's candidate orders and its draws, each rule found by planting a fault in the engine's code that the
rest of the suite let through: legal_moves.py (CandidateOrders, a mover's orders by index before stacking and
may_end_move; candidate_orders and movers_candidate_orders, kept for the position; which of them a move carries over:
carry_moves) and sampling.py (sample_order drawing a whole order among every mover's candidates and `end`,
sample_action drawing `move UNIT`, `delay UNIT` or `end`). Each test plays the rule through the public API
(sample_legal_order, sample_legal_action, legal_orders, legal_actions) on a made-up game, or asks the kept answers'
own functions (as tests/test_engine_move_memory.py does); a position worked out from scratch (`clone(); forget()`)
says what a kept answer should be, and a draw is checked for uniformity by test_engine_sampling's chi-square bound
(six standard deviations: loose enough for a fixed seed, tight enough for the bias each planted fault gives)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from game_variants import variant
from small_games import MOVEMENT_ONLY, loaded
from test_engine_sampling import _counts, _uniform
from test_listing_faults import scratch

from rulec.engine import Action, legal_moves, new_game

# Red's five units stand one to a hex in the north-west corner of a small map, and may leave it by the west and the
# north edges (r_corner, in the corner, by both); r_late arrives by the west edge and may be held back. Many of the
# hexes each unit reaches are its friends' (stacking 1): candidates the sampler draws and refuses. With the option
# any_turn, r_any may arrive by the west edge on any turn: never due, it is never held back (it may just not enter).
_CROWD = """
game crowd { title = "Crowd"  turns = 2 }
side red  { name = "Red" }
side blue { name = "Blue" }
map { columns = 1..4  rows = 1..3  default_terrain = clear  edges { west = 0101..0103  north = 0101..0401 } }
terrain clear { move = 1 }
unit_type infantry { name = "Infantry" }
unit r_corner { side = red   type = infantry  strength = 1  move = 1  setup = 0101 }
unit r_west   { side = red   type = infantry  strength = 1  move = 1  setup = 0102 }
unit r_mid    { side = red   type = infantry  strength = 1  move = 1  setup = 0201 }
unit r_south  { side = red   type = infantry  strength = 1  move = 1  setup = 0203 }
unit r_east   { side = red   type = infantry  strength = 1  move = 1  setup = 0302 }
unit r_late   { side = red   type = infantry  strength = 1  move = 1  arrives = { turn = 1, area = west } }
unit r_any    { side = red   type = infantry  strength = 1  move = 1  optional = true
                arrives = { turn = any, area = west } }
unit b_far    { side = blue  type = infantry  strength = 1  move = 1  setup = 0403 }
movement { zoc = none  exit_map = true  reinforcement_delay = true }
stacking { limit = 1 }
option any_turn { name = "Any turn"  adds = [r_any] }
""" + MOVEMENT_ONLY

# Red fills a small map but for its marsh centre (which only r_fast has the MP to enter) and b_far's hex, one unit
# to a hex: most candidate orders move into a friend's hex, and the legal orders are r_fast's move and `end`.
_JAM = """
game jam { title = "Jam"  turns = 1 }
side red  { name = "Red" }
side blue { name = "Blue" }
map { columns = 1..3  rows = 1..3  default_terrain = clear  features { marsh = [0202] } }
terrain clear { move = 1 }
terrain marsh { move = 4 }
unit_type infantry { name = "Infantry" }
unit r_fast { side = red   type = infantry  strength = 1  move = 9  setup = 0101 }
unit r_1    { side = red   type = infantry  strength = 1  move = 1  setup = 0102 }
unit r_2    { side = red   type = infantry  strength = 1  move = 1  setup = 0103 }
unit r_3    { side = red   type = infantry  strength = 1  move = 1  setup = 0201 }
unit r_4    { side = red   type = infantry  strength = 1  move = 1  setup = 0203 }
unit r_5    { side = red   type = infantry  strength = 1  move = 1  setup = 0301 }
unit r_6    { side = red   type = infantry  strength = 1  move = 1  setup = 0302 }
unit b_far  { side = blue  type = infantry  strength = 1  move = 1  setup = 0303 }
movement { zoc = none }
stacking { limit = 1 }
""" + MOVEMENT_ONLY


@pytest.fixture(scope="module")
def crowd(tmp_path_factory):
    return loaded(tmp_path_factory.mktemp("crowd"), "crowd", _CROWD)


@pytest.fixture(scope="module")
def jam(tmp_path_factory):
    return loaded(tmp_path_factory.mktemp("jam"), "jam", _JAM)


def _kept_counts(state, sampler: str, draws: int, seed: int) -> Counter:
    """Like test_engine_sampling._counts, but each draw from a clone that keeps what the position knows (the
    candidate orders carried over the move before it), not one worked out anew."""
    rng = random.Random(seed)
    found: Counter = Counter()
    for _ in range(draws):
        trial = state.clone()
        trial._cache = dict(state._cache)  # (a clone shares the cache: a draw that lists the orders would for all)
        found[getattr(trial, sampler)(rng)] += 1
    return found


def _candidates(state):
    units, orders = legal_moves.movers_candidate_orders(state)
    return dict(zip(units, orders))


# ------------------------------------------------------------ a mover's candidate orders (legal_moves.CandidateOrders)
def test_candidate_orders_are_equal_only_when_their_orders_are(crowd):
    """r_corner's candidates (two moves, two exits) and r_late's (three entries, its delay) are as many, not the
    same orders; each unit's equal those a position worked out from scratch gives."""
    state = new_game(crowd)
    orders = _candidates(state)
    assert len(orders["r_corner"]) == len(orders["r_late"]) == 4
    assert orders["r_corner"] != orders["r_late"] and orders["r_late"] != orders["r_corner"]
    fresh = scratch(state)
    assert all(orders[u] == legal_moves.candidate_orders(fresh, u) for u in orders)


def test_a_move_in_a_clone_leaves_the_candidate_orders_of_the_position_it_was_cloned_from(tmp_path):
    """tests/games/leapfrog: r_mover's one way out of b_line's zone is the leap into 0503, where r_anchor (not moved)
    stands. A clone of the position (as a search or a rollout makes) plays r_anchor's move away, which takes the leap
    from r_mover there; the position cloned from keeps it: its candidate orders are still those from scratch, and its
    draws still give the leap, each legal order with the same chance."""
    state = new_game(variant(tmp_path, "leapfrog"))
    leap = Action.move("r_mover", "0503")
    assert leap in _candidates(state)["r_mover"]
    other = state.clone()
    other.apply_action(Action.move("r_anchor", "0504"))
    assert leap not in _candidates(other)["r_mover"]
    fresh = scratch(state)
    assert _candidates(state) == _candidates(fresh)
    legal = fresh.legal_orders()
    assert leap in legal
    draws = 60 * len(legal)
    _uniform(_kept_counts(state, "sample_legal_order", draws, seed=7), legal, draws)


# ------------------------------------------------------------ drawing a whole order (sampling.sample_order)
def test_orders_are_drawn_uniformly_among_moves_exits_a_delay_and_end(crowd):
    """The first position of the crowd: every legal order (moves into empty hexes, r_corner's two exits, r_late's
    entry and its delay, `end`) drawn with the same chance, none into a friend's hex."""
    state = new_game(crowd)
    legal = state.clone().legal_orders()
    kinds = Counter(a.kind for a in legal)
    assert kinds["exit"] == 4 and kinds["delay"] == 1 and kinds["end"] == 1 and len(legal) == 19
    draws = 60 * len(legal)
    _uniform(_counts(state, "sample_legal_order", draws, seed=2), legal, draws)


def test_orders_are_drawn_uniformly_where_most_candidates_are_refused(jam):
    """The jam: every candidate order but r_fast's move into the marsh and `end` moves into a friend's hex, so the
    sampler often gives up drawing (most candidates refused) and the list is drawn from instead: the two legal orders
    still have the same chance, `end` no more than the move."""
    state = new_game(jam)
    candidates = sum(map(len, _candidates(state.clone()).values())) + 1
    legal = state.clone().legal_orders()
    assert legal == [Action.move("r_fast", "0202"), Action.end()] and candidates > 20
    draws = 600
    _uniform(_counts(state, "sample_legal_order", draws, seed=4), legal, draws)


def test_actions_are_drawn_uniformly_where_most_movers_have_no_move(jam):
    """The jam's `move UNIT` candidates: only r_fast has a move, so once most movers are drawn and refused the
    sampler tries the rest in a random order, `end` among them: `move r_fast` and `end` each have the same chance."""
    state = new_game(jam)
    legal = state.clone().legal_actions()
    assert legal == [Action.move("r_fast"), Action.end()]
    draws = 600
    _uniform(_counts(state, "sample_legal_action", draws, seed=8), legal, draws)


def test_orders_drawn_after_a_move_are_drawn_uniformly_from_the_candidates_carried_over(crowd):
    """After r_mid's move from 0201 to 0301, the candidate orders of the units it did not touch are carried over
    (not worked out anew): they are those from scratch, and each legal order of the new position is drawn with the
    same chance, r_corner's and r_west's moves into 0201 (now empty) among them, none into 0301."""
    state = new_game(crowd)
    legal_moves.movers_candidate_orders(state)  # (every mover's candidate orders known in the position before)
    state.apply_action(Action.move("r_mid", "0301"))
    fresh = scratch(state)
    assert _candidates(state.clone()) == _candidates(fresh)
    legal = fresh.legal_orders()
    assert {Action.move("r_corner", "0201"), Action.move("r_west", "0201")} <= set(legal)
    assert not any(a.hex == "0301" for a in legal)
    draws = 60 * len(legal)
    _uniform(_kept_counts(state, "sample_legal_order", draws, seed=6), legal, draws)


def test_a_reinforcement_that_may_come_any_turn_is_never_drawn_held_back(crowd):
    """reinforcement_delay = true holds back a unit due this turn: r_late, not r_any, whose turn is `any` (never
    due: it may enter or wait, but `delay r_any` is no order). Neither sampler draws it; each draws r_any's entries
    and r_late's delay with the same chance as any other legal order or action."""
    state = new_game(crowd, options=("any_turn",))
    orders, actions = state.clone().legal_orders(), state.clone().legal_actions()
    assert {a.unit for a in orders if a.kind == "delay"} == {"r_late"} and Action.move("r_any") in actions
    assert {a.unit for a in actions if a.kind == "delay"} == {"r_late"}
    assert any(a.unit == "r_any" and a.hex is not None for a in orders)
    draws = 60 * len(orders)
    _uniform(_counts(state, "sample_legal_order", draws, seed=12), orders, draws)
    draws = 150 * len(actions)
    _uniform(_counts(state, "sample_legal_action", draws, seed=13), actions, draws)


# ------------------------------------------------------------ drawing one action (sampling.sample_action)
def test_actions_are_drawn_uniformly_among_movers_a_delay_and_end(crowd):
    """The crowd's first decision: `move UNIT` for each unit with somewhere to go, `delay r_late` and `end`, each
    drawn with the same chance; after a move, the units left likewise."""
    state = new_game(crowd)
    legal = state.clone().legal_actions()
    assert Action.end() in legal and any(a.kind == "delay" for a in legal) and len(legal) == 8
    draws = 150 * len(legal)
    _uniform(_counts(state, "sample_legal_action", draws, seed=3), legal, draws)
    for step in [Action.move("r_mid"), Action.move("r_mid", "0301"),
                 Action.move("r_east"), Action.move("r_east", "0402")]:
        state.apply_action(step)
    legal = scratch(state).legal_actions()
    assert len(legal) == 6
    draws = 150 * len(legal)
    _uniform(_kept_counts(state, "sample_legal_action", draws, seed=5), legal, draws)
