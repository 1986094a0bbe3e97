"""The AI players finish every game they start: no step that leads back to where a decision began is searched
(rulec/players/search.py), and greedy and MCTS play every game of games/ and tests/games/ to its end."""

from __future__ import annotations

import functools
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import finish_game
import pytest

from rulec.engine import new_game
from rulec.engine.actions import Action
from rulec.pipeline import load_game
from rulec.players import RandomPlayer, make_player
from rulec.players.base import sample_chance
from rulec.players.match import play_match
from rulec.players.search import cancelled_openers, search_actions, search_orders

ROOT = Path(__file__).resolve().parent.parent
# Every game the map engine plays: games/ and the made-up games of the tests (a game without a map is not one).
GAME_FILES = sorted([*ROOT.glob("games/*.rulec"), *ROOT.glob("tests/games/*.rulec"), ROOT / "tests/games/tutorial/final.rulec"])
BIG_GAMES = {"the_marne"}  # a whole AI game of these takes 20-45 CPU s even on this budget: the long tier plays them


@functools.cache
def _game(path: Path):
    return load_game(str(path))


def _plays_on_a_map(path: Path) -> bool:
    return _game(path).map is not None and bool(_game(path).map.hexes)


def _kinds(state) -> list[str]:
    return [a.kind for a in search_actions(state)]


def _play_until(game, wanted, first_seed: int, limit: int = 3000):
    """Random play (the players' own actions) until `wanted(state)` holds at a decision: a game of each seed from
    `first_seed` on (a few at most) until one comes to such a position."""
    for seed in range(first_seed, first_seed + 10):
        state, rng, player = new_game(game, seed=seed), random.Random(seed), RandomPlayer(seed)
        for _ in range(limit):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            elif wanted(state):
                return state
            else:
                state.apply_action(player.choose(state))
    raise AssertionError("the position asked for never came")


def test_a_declared_battle_is_fought_or_joined_never_called_off(metz):
    state = _play_until(metz, lambda s: s.phase.kind == "combat" and s.pending is None
                        and sum(a.kind == "attack" for a in s.legal_actions()) >= 2, first_seed=1)
    targets = [a for a in search_actions(state) if a.kind == "attack"]
    state.apply_action(targets[0])
    assert Action.cancel() in state.legal_actions()  # a human may still call it off
    assert "cancel" not in _kinds(state) and {"with"} <= set(_kinds(state))
    # Called off all the same (a human did): that target is not offered again, the others are.
    state.apply_action(Action.cancel())
    offered = search_actions(state)
    assert targets[0] not in offered and targets[0] in state.legal_actions()
    assert set(targets[1:]) <= set(offered) and Action.end() in offered
    assert cancelled_openers(state.history()) == {targets[0]}


def test_a_unit_chosen_to_move_moves_and_one_put_back_comes_back_after_another_move(metz):
    state = _play_until(metz, lambda s: s.phase.kind == "movement" and s.pending is None
                        and sum(a.kind == "move" for a in s.legal_actions()) >= 2, first_seed=2)
    first, second = [a for a in search_actions(state) if a.kind == "move"][:2]
    state.apply_action(first)
    assert Action.cancel() in state.legal_actions() and "cancel" not in _kinds(state)
    state.apply_action(Action.cancel())
    assert first not in search_actions(state) and second in search_actions(state)
    # Its whole moves (both steps at once) change the position: they lead nowhere already left.
    assert any(order.unit == first.unit and order.hex for order in search_orders(state))
    state.apply_action(state.moves_of(second.unit)[0])  # the position changed: the unit may be chosen again
    assert first in search_actions(state)


def test_a_unit_chosen_to_be_placed_is_placed():
    state = new_game(_game(ROOT / "tests/games/free_setup.rulec"))
    units = [a for a in search_actions(state) if a.kind == "place"]
    assert len(units) >= 2
    state.apply_action(units[0])
    assert Action.cancel() in state.legal_actions() and set(_kinds(state)) == {"place"}
    state.apply_action(Action.cancel())
    assert units[0] not in search_actions(state) and units[1] in search_actions(state)


class _DeadEnd:
    """A decision whose one declaration can only be called off (say, a unit bound to attack may not join it):
    `attack 0101` leads to nothing but `cancel`."""

    def __init__(self):
        self._history: list = []

    def legal_actions(self):
        if self._history and self._history[-1] == Action.attack("0101"):
            return [Action.cancel()]
        return [Action.attack("0101"), Action.attack("0202"), Action.end()]

    def history(self):
        return list(self._history)


def test_a_frame_that_can_only_be_cancelled_is_cancelled_and_not_opened_again():
    state = _DeadEnd()
    state._history.append(Action.attack("0101"))
    assert search_actions(state) == [Action.cancel()]  # never empty while an action is legal
    state._history.append(Action.cancel())
    assert search_actions(state) == [Action.attack("0202"), Action.end()]


def test_the_mcts_of_the_issue_leaves_the_first_turn_of_drive_on_metz(metz):
    """`rulec play drive_on_metz --player us=mcts --player germany=mcts --seed 1` called off one attack for ever."""
    state = new_game(metz, seed=1)
    result = play_match(state, [make_player("mcts", 1009 + seat + 1) for seat in range(2)], seed=1, max_turns=1)
    assert state.turn == 2 and not result.finished
    # A declaration the rules refuse to resolve (a duty it would strand) can only be called off; its opener is then
    # not offered again until the position changes (search_actions), so calls-off stay few and never loop.
    assert state.history().count(Action.cancel()) <= 20
    assert any(a.kind == "resolve" for a in state.history())  # it does fight


@pytest.mark.parametrize("kind", ["greedy", "mcts"])
@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem, marks=[pytest.mark.long] if p.stem in BIG_GAMES else [])
                                  for p in GAME_FILES])
def test_the_ai_plays_every_game_to_its_end(path, kind, request):
    if not _plays_on_a_map(path):
        pytest.skip(f"{path.name} has no map: the map engine does not play it")
    if path.stem in BIG_GAMES and (tree := request.getfixturevalue("compiled_tree").path) is not None:
        played = _compiled(tree, path, kind)  # the long tier: the compiled engine and players, where they build
    else:
        played = finish_game.play_to_the_end(_game(path), kind)
    assert played["finished"] and played["terminal"], \
        f"{kind} stopped at turn {played['turn']} after {played['actions']} actions"
    # A declaration the rules refuse to resolve (a duty it would strand) can only be called off; its opener is then
    # not offered again until the position changes (search_actions), so calls-off stay few and never loop.
    assert played["cancels"] <= 20


def _compiled(tree: Path, path: Path, kind: str) -> dict:
    """The game played by the compiled engine and players built in `tree`, in a process of its own."""
    env = {**os.environ, "PYTHONPATH": str(tree), "RULEC_PURE": "0"}
    done = subprocess.run([sys.executable, str(Path(finish_game.__file__)), str(path), kind], cwd=tree, env=env,
                          capture_output=True, text=True, timeout=3600)
    assert done.returncode == 0, done.stderr[-3000:]
    played = json.loads(done.stdout)
    assert played["engine"] == "compiled engine (mypyc)", played["engine"]
    return played


def _mcts_root(metz):
    """A new Drive on Metz game, an MCTS player, its evaluator and the root node with its orders weighed."""
    from rulec.players.evaluation import evaluator_for
    from rulec.players.mcts import _Node

    state = new_game(metz, seed=0)
    player = make_player("mcts", 1)
    evaluator = evaluator_for(state)
    player._baseline = [evaluator.score(state, seat) for seat in range(2)]
    root = _Node(state.current_player())
    player._candidates(state, evaluator, root, None)
    return state, player, evaluator, root


def test_mcts_ranks_a_further_order_of_the_same_phase_from_its_parent(metz):
    """Down one side's movement phase, a node takes its parent's weighed orders still legal, each shifted by the
    gain of the order played, rather than playing every one out again on a clone."""
    from rulec.players.mcts import _Node

    state, player, evaluator, root = _mcts_root(metz)
    assert root.ranked and root.phase is not None
    played, value = next((a, v) for a, v in root.ranked if a.kind == "move")
    child_state = state.clone()
    child_state.apply_action(played)
    child = _Node(child_state.current_player(), played)
    tried = player._candidates(child_state, evaluator, child, root)
    shift = value - root.base
    assert child.base == value and child.ranked == [(a, round(v + shift, 9)) for a, v in root.ranked
                                                    if a != played and child_state.is_legal(a)]
    assert all(a.unit != played.unit for a, _ in child.ranked if a.kind == "move")  # a unit moves once a phase
    assert tried and set(tried) <= {a for a, _ in child.ranked}



def test_mcts_weighs_anew_when_none_of_its_parents_orders_is_legal_any_more(metz):
    """A parent that weighed one order only (the others cut by widening): once it is played, nothing of the
    parent's is left, and the node weighs its own legal orders (it was left with none, and MCTS played None:
    an MCTS game of The Marne stopped with an AttributeError)."""
    from rulec.players.mcts import _Node

    state, player, evaluator, root = _mcts_root(metz)
    played, value = next((a, v) for a, v in root.ranked if a.kind == "move")
    root.ranked = [(played, value)]  # all the parent weighed
    child_state = state.clone()
    child_state.apply_action(played)
    child = _Node(child_state.current_player(), played)
    tried = player._candidates(child_state, evaluator, child, root)
    assert tried and all(child_state.is_legal(a) for a in tried)


_TWO_TURNS = """
from rulec.engine import new_game
from rulec.pipeline import load_game
from rulec.players import make_player
from rulec.players.match import play_match
state = new_game(load_game("drive_on_metz"), seed=1)
play_match(state, [make_player("mcts", 1010), make_player("mcts", 1011)], seed=1, max_turns=2)
print(" | ".join(map(str, state.history())))
"""


def test_an_mcts_game_is_the_same_in_every_process():
    """The evaluation sums over sets, whose order changes with Python's string hashing from one process to the next:
    MCTS compares values without their last bits, so one seed plays one game whatever the process."""
    import os
    import subprocess
    import sys

    games = set()
    for hash_seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-c", _TWO_TURNS], capture_output=True, text=True, env=env,
                              cwd=ROOT, timeout=300, check=True)
        games.add(done.stdout)
    assert len(games) == 1 and " | end | " in games.pop()
