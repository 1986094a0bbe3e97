"""sample_legal_action / sample_legal_order: a legal action drawn uniformly without listing them all.

Each sampler must draw only legal actions, and each legal action with the same chance, as rng.choice over the
listed actions would: random playouts and rollouts use them in place of the list.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from big_games import STEPS_OF_A_BIG_GAME, is_big

from rulec.engine import new_game
from rulec.pipeline import GAMES_DIR, SUFFIX, load_game

TEST_GAMES = GAMES_DIR.parent / "tests" / "games"
MAP_GAMES = [str(p) for folder in (GAMES_DIR, TEST_GAMES) for p in sorted(folder.glob(f"*{SUFFIX}"))
             if load_game(str(p)).map is not None]


def _sampled_games_stay_legal(path: str, sampler: str, lister: str, seed: int) -> int:
    """Play a game with `sampler`; at every decision, check the drawn action is among `lister`'s (listed on a
    clone made before the draw, so the list the sampler might read is not there yet). The decisions checked."""
    game = load_game(path)
    state = new_game(game, seed=seed)
    rng = random.Random(seed)
    limit = STEPS_OF_A_BIG_GAME if is_big(game) else 5000
    checked = 0
    while not state.is_terminal() and checked < limit:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        listed = state.clone()
        listed.forget()  # its own cache: listing there leaves the original's untouched
        drawn = getattr(state, sampler)(rng)
        assert drawn in getattr(listed, lister)(), (path, state.history()[-5:], drawn)
        state.apply_action(drawn)
        checked += 1
    return checked


@pytest.mark.parametrize("path", MAP_GAMES, ids=lambda p: p.rsplit("/", 1)[-1].removesuffix(SUFFIX))
def test_sampled_actions_are_legal(path):
    assert _sampled_games_stay_legal(path, "sample_legal_action", "legal_actions", seed=1) > 0
    assert _sampled_games_stay_legal(path, "sample_legal_order", "legal_orders", seed=2) > 0


def _counts(state, sampler: str, draws: int, seed: int = 7) -> Counter:
    rng = random.Random(seed)
    found: Counter = Counter()
    for _ in range(draws):
        trial = state.clone()
        trial.forget()  # each draw from the position as it first stands: nothing listed in it yet
        found[getattr(trial, sampler)(rng)] += 1
    return found


def _uniform(found: Counter, legal: list, draws: int) -> None:
    assert set(found) == set(legal)  # every legal action drawn, nothing else
    expected = draws / len(legal)
    chi2 = sum((found[a] - expected) ** 2 / expected for a in legal)
    # Chi-square with len(legal)-1 degrees of freedom: mean k, sd sqrt(2k); a bias of even 1.5 times for one
    # action in ten would push it far past k + 6 sd.
    k = len(legal) - 1
    assert chi2 < k + 6 * (2 * k) ** 0.5, (chi2, k)


def test_actions_are_drawn_uniformly(metz):
    state = new_game(metz, seed=1)
    legal = state.clone().legal_actions()
    draws = 60 * len(legal)
    _uniform(_counts(state, "sample_legal_action", draws), legal, draws)


def test_orders_are_drawn_uniformly(metz):
    state = new_game(metz, seed=1)
    # a position part way through the first movement phase: some units moved, some hexes full
    rng = random.Random(3)
    for _ in range(6):
        state.apply_action(state.sample_legal_order(rng))
    assert state.phase.kind == "movement" and state.moved
    legal = state.clone().legal_orders()
    draws = 40 * len(legal)
    _uniform(_counts(state, "sample_legal_order", draws), legal, draws)


def test_destinations_are_drawn_uniformly(metz):
    state = new_game(metz, seed=1)
    unit = next(a.unit for a in state.legal_actions() if a.kind == "move")
    state.apply_action(state.parse_action(f"move {state.unit_name(unit)}"))
    legal = state.clone().legal_actions()  # the unit's moves and `cancel`
    assert len(legal) > 2
    draws = 60 * len(legal)
    _uniform(_counts(state, "sample_legal_action", draws), legal, draws)


def test_a_destination_drawn_makes_its_own_move_alone(metz):
    """Drawing the chosen unit's destination makes that move's Action, not one for every hex the unit reaches (in a
    random game most positions reach hexes anew); listed later, its moves are the same Actions, in hex order."""
    from rulec.engine import legal_moves

    state = new_game(metz, seed=1)
    unit = next(a.unit for a in state.legal_actions() if a.kind == "move")
    state.apply_action(state.parse_action(f"move {state.unit_name(unit)}"))
    made = state.tables.movement_row(unit)  # (the game's tables, shared by its states: its moves made afresh here)
    made.clear()
    drawn = state.sample_legal_action(random.Random(2))
    assert drawn.kind == "move" and drawn.unit == unit
    assert list(made.values()) == [drawn]
    reached = legal_moves.unit_moves(state, unit)
    assert len(reached.to) > 5
    assert reached.moves == tuple(reached.move(i) for i in range(len(reached.to)))
    assert [move.hex for move in reached.moves] == list(reached.to) and drawn in reached.moves
    assert set(state.legal_actions()) <= {*reached.moves, *reached.exits, state.parse_action("cancel")}


def test_an_order_drawn_makes_its_own_move_alone(metz):
    """Drawing a whole order counts every mover's candidate orders and makes the drawn move's Action alone, not one
    for every hex each mover reaches; the candidate orders, listed, are its moves in hex order, then its exits."""
    from rulec.engine import legal_moves

    state = new_game(metz, seed=1)
    units = legal_moves.movable_units(state)
    tables = state.tables  # (the game's tables, shared by its states: these movers' moves made afresh here)
    for uid in units:
        tables.movement_row(uid).clear()
    drawn = state.sample_legal_order(random.Random(3))
    assert drawn.kind == "move" and drawn.hex is not None
    assert [move for uid in units for move in tables.movement_row(uid).values()] == [drawn]
    for uid in units:  # (a unit waiting to enter may be held back: its delay comes last)
        reached, orders = legal_moves.unit_moves(state, uid), legal_moves.candidate_orders(state, uid)
        listed = (*reached.moves, *reached.exits)
        assert tuple(orders) == tuple(orders[i] for i in range(len(orders)))
        assert tuple(orders)[:len(listed)] == listed and all(o.kind == "delay" for o in tuple(orders)[len(listed):])
    assert drawn in legal_moves.candidate_orders(state, drawn.unit)


def test_a_hex_that_fills_up_is_never_drawn(metz):
    """Stacking: once a hex is full, no sampler offers a move into it (the reach still holds it)."""
    state = new_game(metz, seed=1)
    rng = random.Random(5)
    for _ in range(400):
        if state.is_terminal() or state.phase.kind != "movement" or state.pending is not None:
            break
        listed = state.clone()
        listed.forget()
        legal = set(listed.legal_orders())
        for _ in range(20):
            assert state.clone().sample_legal_order(rng) in legal
        state.apply_action(state.sample_legal_order(rng))


@pytest.mark.parametrize("name", ["drive_on_metz", "the_marne"])
def test_targets_are_drawn_uniformly(name):
    """A combat phase's `attack HEX` and `end`: only the target drawn is asked who may join a battle against it."""
    state = new_game(load_game(name), seed=1)
    rng = random.Random(11)
    while not (state.phase.kind == "combat" and state.pending is None and len(state.clone().legal_actions()) >= 3):
        state.apply_action(state.sample_legal_action(rng) if not state.is_chance_node()
                           else rng.choice([a for a, _ in state.chance_outcomes()]))
    legal = state.clone().legal_actions()
    assert state.clone().legal_orders() == legal  # (outside a movement phase a player's orders are its actions)
    draws = 60 * len(legal)
    _uniform(_counts(state, "sample_legal_action", draws), legal, draws)
    _uniform(_counts(state, "sample_legal_order", draws, seed=8), legal, draws)
    drawing = state.clone()
    drawing.forget()
    drawing.sample_legal_order(rng)
    assert "legal" not in drawing._cache  # drawn by the sampler, not chosen from the list


def test_a_random_random_draws_what_randrange_and_choice_draw():
    """The samplers draw an index as random.Random.randrange would, and an item of a list as its choice would,
    number for number (the games a seed gives stay the same), and leave any other generator its own."""
    from rulec.engine.sampling import _below, choice

    ours, theirs = random.Random(7), random.Random(7)
    stops = [1, 2, 3, 5, 7, 8, 9, 31, 32, 33, 100, 1000, 2**40 + 1] * 50
    assert [_below(ours, stop) for stop in stops] == [theirs.randrange(stop) for stop in stops]
    assert ours.random() == theirs.random()  # as many bits used
    lists = [list(range(stop)) for stop in stops[:12]] * 20
    assert [choice(ours, items) for items in lists] == [theirs.choice(items) for items in lists]
    assert ours.random() == theirs.random()
    with pytest.raises(IndexError):
        choice(random.Random(1), [])

    class Counting(random.Random):
        calls = 0

        def randrange(self, stop):  # type: ignore[override]
            self.calls += 1
            return stop - 1

    counting = Counting(1)
    assert [_below(counting, 5), _below(counting, 9)] == [4, 8] and counting.calls == 2
    with pytest.raises(ValueError):
        _below(random.Random(1), 0)
