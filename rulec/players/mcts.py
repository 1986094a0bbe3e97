"""Monte Carlo tree search (UCT), in the manner of OpenSpiel's MCTSBot.

Each iteration walks down the tree from a clone of the state: at a decision it
expands the next untried action, or else follows the child with the best UCB
score for the player to move; at a chance node it samples an outcome by its
probability. From the new leaf a rollout plays random actions for at most
`rollout_depth` actions (0: none); a rollout that does not reach the end is
scored by the heuristic evaluation's gain over the root position, squashed into
(-1, 1) (gains, not levels, so that a side far ahead still tells good actions
from bad ones). The values are backed
up to every node on the path, each for the player who chose the action leading
to it. The action finally chosen is the root's most visited child.

Wargame decisions have a hundred or more legal actions, far more than a few
hundred simulations can try. So, with `widening` set, a node considers only its
`widening` most promising actions by the greedy player's one-ply value (the
order of equal actions shuffled with the player's seeded generator), which
focuses the search on sequences of good orders and the opponent's replies; and
each new child starts with `prior_visits` virtual visits worth its one-ply value,
so the search leaves the greedy choice only on evidence; actions more than
`prune_margin` below the best one-ply value are not searched at all (the deeper,
noisier lines of a hopeless attack could otherwise look better than they are).
With widening a node's actions are whole orders (`legal_orders`: a move given where it
ends, not a choice of unit that changes nothing), and of many moves only the greedy
player's shortlist is played out; a node one order further down the same side's phase
ranks from its parent's weighed orders that are still legal (shifted by the gain of the
order played) instead of playing each out again.

No node offers a step back to where a decision began (`cancel`, or an opener already
cancelled: rulec/players/search.py), so a search cannot go round a declare-and-cancel
circle; the tree and the rollouts see the same actions.

`max_simulations` bounds the work per decision; `max_seconds` (optional) stops
earlier by the clock, which makes play depend on the machine, so it is off by
default.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, Final

from rulec.players.base import Action, Thinking, sample_chance
from rulec.players.evaluation import Evaluator, evaluator_for
from rulec.players.greedy import GreedyPlayer, phase_key, shortlist
from rulec.players.search import draw_search_action, search_actions, search_orders

EVALUATION_SCALE: Final = 3.0  # VP-like points of gain that count as a clear advantage in a cut-off rollout


class _Node:
    __slots__ = ("player", "visits", "total", "children", "untried", "priors", "into", "ranked", "base", "phase")

    # No link up to the parent: a tree whose nodes point both ways is a reference cycle, freed only by the cycle
    # collector once the decision is made (a pass walks down from the root and keeps its path: _iterate).
    def __init__(self, player: int, into: Any = None):
        self.player = player  # who acts in this node's state (or the chance value)
        self.visits = 0.0  # (a float: a child may start with virtual visits, prior_visits)
        self.total = 0.0  # summed value for the player who chose the action into this node
        self.children: dict[Any, _Node] = {}
        self.untried: list | None = None
        self.priors: dict[Any, float] = {}  # action -> one-ply value for this node's player, in (-1, 1)
        self.into = into  # the action from the node above to this one
        # At a phase's own decision (more orders or `end`), with widening: the actions weighed, best first, with their
        # one-ply values, this position's own value, and the phase; a child in the same phase ranks from them.
        self.ranked: list[tuple[Any, float]] | None = None
        self.base = 0.0
        self.phase: tuple | None = None


_UNKNOWN: Final = object()
DIGITS: Final = 9  # values are rounded to this many decimals before they are compared


def _steady(value: float) -> float:
    """`value` without its last bits: the evaluation sums over sets, whose order (and so the sum's last bits) changes
    with Python's string hashing from one process to the next; unrounded, equal values compared unequal and the
    same seed played different games in two processes."""
    return round(value, DIGITS)


class MCTSPlayer:
    name = "mcts"

    def __init__(self, seed: int = 0, max_simulations: int = 200, rollout_depth: int = 40,
                 uct_c: float = 1.4, max_seconds: float | None = None, evaluator: Evaluator | None = None,
                 widening: int | None = None, prior_visits: float = 0.0, prune_margin: float | None = None):
        self.rng = random.Random(seed)
        self.max_simulations = max_simulations
        self.rollout_depth = rollout_depth
        self.uct_c = uct_c
        self.max_seconds = max_seconds
        self.evaluator = evaluator
        self.widening = widening
        self.prior_visits = prior_visits
        self.prune_margin = prune_margin
        self._ranker = GreedyPlayer(seed, evaluator)
        self._baseline: list[float] = []  # each seat's score of the position being searched

    def choose(self, state: Any) -> Action:
        with Thinking():
            return self._choose(state)

    def _choose(self, state: Any) -> Action:
        actions = self._actions(state)
        if len(actions) == 1:
            return actions[0]
        evaluator = self.evaluator or evaluator_for(state)
        root = _Node(state.current_player())
        self._baseline = [evaluator.score(state, seat) for seat in range(len(state.players))]
        deadline = None if self.max_seconds is None else time.monotonic() + self.max_seconds
        for _ in range(self.max_simulations):
            self._iterate(state.clone(), root, evaluator)
            if deadline is not None and time.monotonic() > deadline:
                break
        best = max(root.children.items(), key=lambda item: (item[1].visits, item[1].total))
        return best[0]

    # ---------------------------------------------------------------- one pass
    def _iterate(self, state: Any, root: _Node, evaluator: Evaluator) -> None:
        path = [root]
        node = root
        while not state.is_terminal():
            if state.is_chance_node():
                action = sample_chance(state, self.rng)
            else:
                if node.untried is None:
                    node.untried = self._candidates(state, evaluator, node, path[-2] if len(path) > 1 else None)
                if node.untried:
                    action = node.untried.pop()
                    state.apply_action(action)
                    child = node.children[action] = _Node(state.current_player(), action)
                    if action in node.priors and self.prior_visits:
                        child.visits = self.prior_visits
                        child.total = self.prior_visits * node.priors[action]
                    path.append(child)
                    break
                action = self._select(node)
            state.apply_action(action)
            went = node.children.get(action)
            if went is None:
                went = node.children[action] = _Node(state.current_player(), action)
            node = went
            path.append(node)
        values = self._rollout(state, evaluator)
        for parent, child in zip(path, path[1:]):
            child.visits += 1
            if parent.player >= 0:
                child.total += values[parent.player]
        root.visits += 1

    def _actions(self, state: Any) -> list:
        """What this player searches at a decision: with widening, whole orders (a move to where it ends, one
        node rather than a choice of unit that changes nothing and then its hex); without, the engine's steps.
        Neither offers a step back to where the decision began (search.py)."""
        return search_orders(state) if self.widening is not None else search_actions(state)

    def _candidates(self, state: Any, evaluator: Evaluator, node: _Node, parent: _Node | None) -> list:
        """The actions a new node will try, the one to try first last (they are popped); `parent`, the node above."""
        seat = state.current_player()
        if self.widening is not None:
            ranked = self._ranked_from_parent(state, node, parent, seat)
            if ranked is not None:
                return self._widen(node, ranked, seat)
        actions = list(self._actions(state))  # shuffled in place
        self.rng.shuffle(actions)
        if self.widening is None or len(actions) <= 1:
            return actions
        # Of many moves, only those the evaluator rates best without a clone are played out (as greedy does).
        kept = shortlist(state, actions, seat, evaluator)
        values = {i: _steady(self._ranker.action_value(state, actions[i], seat, evaluator)) for i in kept}
        ranked = [(actions[i], values[i]) for i in sorted(values, key=values.__getitem__, reverse=True)]
        if getattr(state, "pending", _UNKNOWN) is None:  # the phase's own decision: a child may rank from it
            node.ranked, node.base, node.phase = ranked, evaluator.score(state, seat), phase_key(state)
        return self._widen(node, ranked, seat)

    def _ranked_from_parent(self, state: Any, node: _Node, parent: _Node | None,
                            seat: int) -> list[tuple[Any, float]] | None:
        """After one more order of the same side in the same phase (a unit moved, the phase's own decision again),
        the parent's weighed actions that are still legal (the order played too, where it may be given again: a
        restore of a unit with steps still to regain), each valued as if played after that order: its gain added
        to the parent's one-ply value (one more move changes the others' values little). None: weigh anew.
        This spares a clone, a look-ahead and a score for each action of every node down a phase's orders."""
        if parent is None or parent.ranked is None or parent.player != seat or parent.phase != phase_key(state) \
                or getattr(state, "pending", _UNKNOWN) is not None:
            return None
        played = next((value for action, value in parent.ranked if action == node.into), None)
        if played is None:
            return None
        shift = played - parent.base
        ranked = [(action, _steady(value + shift)) for action, value in parent.ranked if state.is_legal(action)]
        if not ranked:  # none of them is legal any more (the order played made the phase's next step another): weigh anew
            return None
        node.ranked, node.base, node.phase = ranked, played, parent.phase
        return ranked

    def _widen(self, node: _Node, ranked: list[tuple[Any, float]], seat: int) -> list:
        """The best `widening` of `ranked` (less those clearly worse), their priors set, the best last."""
        best = ranked[:self.widening]
        if self.prune_margin is not None and best:  # never search what one ply already shows to be clearly worse
            best = [(action, value) for action, value in best if value >= best[0][1] - self.prune_margin]
        node.priors = {action: self._squash(value, seat) for action, value in best}
        return [action for action, _ in best[::-1]]  # (not reversed(): the compiled build's mypyc cannot compile it)

    def _select(self, node: _Node) -> Action:
        """The child of the best upper confidence bound (UCB1); of equal bounds, the one tried first: with widening
        the better by one ply (tried best first), without it the first drawn."""
        log_visits = math.log(max(1, node.visits))
        best_action, best_score = None, -math.inf
        for action, child in node.children.items():
            if child.visits == 0:
                return action
            score = child.total / child.visits + self.uct_c * math.sqrt(log_visits / child.visits)
            if score > best_score:
                best_action, best_score = action, score
        return best_action

    def _rollout(self, state: Any, evaluator: Evaluator) -> list[float]:
        for _ in range(self.rollout_depth):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(sample_chance(state, self.rng))
            else:
                state.apply_action(draw_search_action(state, self.rng))
        if state.is_terminal():
            return list(state.returns())
        return [self._squash(evaluator.score(state, seat), seat) for seat in range(len(state.players))]

    def _squash(self, score: float, seat: int) -> float:
        """A heuristic score as a value in (-1, 1): its gain over the root position for `seat`."""
        return _steady(math.tanh((score - self._baseline[seat]) / EVALUATION_SCALE))