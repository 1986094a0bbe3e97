"""What the tree search (rulec/players/mcts.py) does that no other test pinned, each found by planting a fault in
its code that the rest of the suite let through (the other players' are in tests/test_players_faults.py).

MCTS plays toy games that implement the engine's state API, whose one-ply values (the evaluators below), chances and
returns each test sets, so what the search must choose follows from the module docstring's rules worked out by hand:
a choice of three ends, a choice followed by endless passing (every playout cut off and scored by evaluation), a
gamble on a chance node, a choice answered by the other side, a coin then a choice, two phases of one side, an
order that may be given twice.

A fault planted that cannot change what the player does, so has no test:
- _ranked_from_parent without `parent.player != seat`: a parent ranks its orders only at the phase's own decision
  (`pending` None, the engine's mark), which in one phase is always the phasing side's; a state without `pending`
  (a toy game) never ranks from its parent.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from rulec.players import MCTSPlayer
from rulec.players.mcts import _Node


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


def test_orders_more_than_the_prune_margin_below_the_best_by_one_ply_are_never_searched():
    """prune_margin=1: by one ply `a` is worth 1, `b` 0 (the margin below: searched), `c` -1 (further: never
    searched). `c` would end best, then `b`: `b` is chosen."""
    player = MCTSPlayer(0, max_simulations=40, rollout_depth=0, evaluator=_OnePly(), widening=3, prune_margin=1.0)
    assert player.choose(_OneChoice({"a": -0.5, "b": 0.5, "c": 1.0})) == "b"


def test_virtual_visits_keep_the_one_ply_choice_until_evidence_outweighs_it():
    """prior_visits: each child starts with that many visits worth its one-ply value; ten simulations that find
    `c` a little better than `a` do not outweigh `a`'s twenty visits' worth."""
    player = MCTSPlayer(0, max_simulations=10, rollout_depth=0, evaluator=_OnePly(), widening=3, prior_visits=20)
    assert player.choose(_OneChoice({"a": 0.0, "b": 0.0, "c": 0.1})) == "a"


def test_a_virtual_visit_is_worth_the_one_ply_gain_squashed_as_a_playout_is():
    """prior_visits=1: `a`'s virtual visit is worth tanh((1 - 0) / EVALUATION_SCALE) = 0.32 (its one-ply value's gain
    over the root, squashed into (-1, 1) like a cut-off playout's), `b`'s 0. Three simulations try each once (`a` ends
    in 0, `b` in 0.5, `c` in -1): means 0.16 for `a` and 0.25 for `b` at equal visits, so the fourth follows `b`,
    which is then the most visited. (At its one-ply value unsquashed, 1, `a` would lead.)"""
    player = MCTSPlayer(0, max_simulations=4, rollout_depth=0, evaluator=_OnePly(), widening=3, prior_visits=1)
    assert player.choose(_OneChoice({"a": 0.0, "b": 0.5, "c": -1.0})) == "b"


def test_the_choice_is_the_most_visited_child_not_the_one_of_the_largest_total():
    """Every end is a loss for Red, `a` the smallest: the search visits `a` most, so its summed value is the most
    negative; the most visited child is chosen all the same."""
    player = MCTSPlayer(0, max_simulations=60, rollout_depth=0, uct_c=0.5, evaluator=_OnePly())
    assert player.choose(_OneChoice({"a": -0.2, "b": -0.6, "c": -1.0})) == "a"


def test_a_search_that_reaches_the_end_scores_it_by_the_games_returns():
    """One ply rates `a` best, but `c` wins the game: a playout that ends the game is scored by the game's returns,
    not by the heuristic evaluation (which scores only a playout cut off before the end)."""
    player = MCTSPlayer(0, max_simulations=30, rollout_depth=0, evaluator=_OnePly())
    assert player.choose(_OneChoice({"a": -1.0, "b": 0.0, "c": 1.0})) == "c"


class _EndlessChoice(_OneChoice):
    """`a`, `b` or `c` picked by the side to move first (Red, or Blue with `first` 1), then both sides pass for ever:
    every playout is cut off and scored by evaluation."""

    def __init__(self, first: int = 0):
        super().__init__({})
        self.first = first

    def current_player(self):
        return (len(self._history) + self.first) % 2

    def legal_actions(self):
        return ["pass"] if self._history else ["a", "b", "c"]

    def clone(self):
        other = type(self)(self.first)
        other._history = list(self._history)
        return other

    def is_terminal(self):
        return False


class _FarAhead(_OnePly):
    """_OnePly's values for Red 60 points up: Red far ahead, Blue far behind, whatever is picked."""

    def score(self, state, seat):
        value = 60 + (self.VALUES[state.history()[0]] if state.history() else 0.0)
        return value if seat == 0 else -value


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("first, best", [(0, "a"), (1, "c")], ids=["red", "blue"])
def test_a_side_far_ahead_or_behind_still_tells_the_better_order(first, best, seed):
    """A cut-off playout is scored, for each side, by the evaluation's gain over the root position for that side,
    squashed: `a` gains Red a point and `c` gains Blue one, whatever the level. Red, 60 points ahead, picks `a`;
    Blue, 60 behind, picks `c`. (Squashing the level, or Blue's score less Red's root score, would make every order
    worth 1 or -1 to the side that picks; Red's gain taken for Blue's would make it pick `a`.)"""
    player = MCTSPlayer(seed, max_simulations=30, rollout_depth=0, evaluator=_FarAhead())
    assert player.choose(_EndlessChoice(first)) == best


class _Watched(_EndlessChoice):
    """_EndlessChoice that notes the longest history any of its copies reached."""

    deepest = 0

    def apply_action(self, action):
        super().apply_action(action)
        _Watched.deepest = max(_Watched.deepest, len(self._history))


@pytest.mark.parametrize("depth", [0, 2])
def test_a_rollout_plays_at_most_rollout_depth_actions(depth):
    """Three simulations, each expanding one of Red's three choices (one action down), then a rollout of at most
    `depth` random actions (0: none) in a game that never ends: the deepest position reached is 1 + depth down."""
    _Watched.deepest = 0
    MCTSPlayer(0, max_simulations=3, rollout_depth=depth, evaluator=_FarAhead()).choose(_Watched())
    assert _Watched.deepest == 1 + depth


class _Gamble(_OneChoice):
    """Red plays `safe` (the game ends: `safe` for Red) or `gamble`: a chance node, `lose` (with probability `lose`,
    listed first) or `win` (the rest), and the game ends, -1 or 1 for Red. Blue gets the opposite."""

    def __init__(self, lose: float = 0.001, safe: float = 0.3):
        super().__init__({"safe": safe, "lose": -1.0, "win": 1.0})
        self.lose = lose

    def current_player(self):
        return -4 if self.is_terminal() else -1 if self.is_chance_node() else 0

    def legal_actions(self):
        return [] if self._history else ["safe", "gamble"]

    def chance_outcomes(self):
        return [("lose", self.lose), ("win", 1 - self.lose)]

    def clone(self):
        other = _Gamble(self.lose, self.ends_in["safe"])
        other._history = list(self._history)
        return other

    def is_terminal(self):
        return bool(self._history) and self._history[-1] != "gamble"

    def is_chance_node(self):
        return self._history == ["gamble"]


class _Level:
    """An evaluator to which every position is worth nothing (a playout cut off before the end)."""

    def score(self, state, seat):
        return 0.0

    def outlook(self, state, seat, remember=True):
        return 0.0


@pytest.mark.parametrize("simulations, depth", [(2, 5), (20, 0)], ids=["rollout", "tree"])
def test_a_chance_node_is_played_by_its_outcomes_probabilities(simulations, depth):
    """The gamble wins 999 times in 1000, worth more than the safe 0.3: drawn by their probabilities (in a rollout,
    or walking down the tree), the outcomes make it the choice; the first outcome listed every time would not."""
    for seed in range(3):
        player = MCTSPlayer(seed, max_simulations=simulations, rollout_depth=depth, evaluator=_Level())
        assert player.choose(_Gamble()) == "gamble"


def test_the_root_keeps_exploring_an_order_whose_first_playout_was_unlucky():
    """The gamble wins 7 times in 10 (worth 0.4 to Red), the safe order 0. UCB's bonus for the less tried grows with
    the root's visits, so a search whose first draw of the gamble lost comes back to it: it is chosen whatever the
    seed. (Without the bonus at the root, the safe 0 would beat a gamble's -1 for good.)"""
    for seed in range(10):
        player = MCTSPlayer(seed, max_simulations=60, rollout_depth=0, evaluator=_Level())
        assert player.choose(_Gamble(lose=0.3, safe=0.0)) == "gamble", seed


class _Reply(_OneChoice):
    """Red picks `a` or `b`, then Blue `x` or `y`, and the game ends. After `a`, Blue's `y` costs Red 1 (`x` would
    give Red 1); after `b`, Red gets 0.2 whatever Blue does."""

    ENDS_IN = {("a", "x"): 1.0, ("a", "y"): -1.0, ("b", "x"): 0.2, ("b", "y"): 0.2}

    def __init__(self):
        super().__init__({})

    def current_player(self):
        return -4 if self.is_terminal() else len(self._history)

    def legal_actions(self):
        return [] if self.is_terminal() else [["a", "b"], ["x", "y"]][len(self._history)]

    def clone(self):
        other = _Reply()
        other._history = list(self._history)
        return other

    def is_terminal(self):
        return len(self._history) == 2

    def returns(self):
        value = self.ENDS_IN[tuple(self._history)]
        return [value, -value]


def test_each_node_is_valued_for_the_side_that_chose_the_action_into_it():
    """Blue's replies are valued for Blue: it answers `a` with `y`, so `a` is worth -1 to Red and `b` (0.2) is
    chosen. (Blue's replies valued for Red would make Blue answer `x`, and `a` look worth 1.)"""
    for seed in range(3):
        assert MCTSPlayer(seed, max_simulations=60, rollout_depth=0, evaluator=_Level()).choose(_Reply()) == "b"


class _CoinThenChoice(_Reply):
    """Red picks `a` or `b` (the game ends: 0.2 for Red); after `a` a coin is tossed, then Red picks `x` (1 for Red)
    or `y` (-1), whatever the coin."""

    ENDS_IN = {"b": 0.2, "x": 1.0, "y": -1.0}

    def current_player(self):
        return -4 if self.is_terminal() else -1 if self.is_chance_node() else 0

    def legal_actions(self):
        return [] if self.is_terminal() or self.is_chance_node() else ["x", "y"] if self._history else ["a", "b"]

    def chance_outcomes(self):
        return [("heads", 0.5), ("tails", 0.5)]

    def clone(self):
        other = _CoinThenChoice()
        other._history = list(self._history)
        return other

    def is_chance_node(self):
        return self._history == ["a"]

    def is_terminal(self):
        return bool(self._history) and self._history[-1] in self.ENDS_IN

    def returns(self):
        value = self.ENDS_IN[self._history[-1]]
        return [value, -value]


def test_below_a_chance_node_the_side_to_move_learns_its_best_action():
    """After the coin, Red's node is Red's: its children are valued for Red, who learns to pick `x`, so `a` is worth
    about 1 and beats `b`'s 0.2. (Were that node the chance node's, its children would never be credited, Red
    would pick `x` and `y` alike, and `a` would look worth 0.)"""
    for seed in range(3):
        player = MCTSPlayer(seed, max_simulations=60, rollout_depth=0, evaluator=_Level())
        assert player.choose(_CoinThenChoice()) == "a"


class _TwoPhases(_OneChoice):
    """Red's phase `first` then Red's phase `second`, each decision the phase's own (`pending` None, as the engine
    says). In `first`: `go` (the game ends level, 0), `lose` (-1) or `end`; in `second`: `win` (1), `lose` (-1) or
    `end` (-1)."""

    ENDS_IN = {("go",): 0.0, ("lose",): -1.0, ("end", "win"): 1.0, ("end", "lose"): -1.0, ("end", "end"): -1.0}
    pending = None

    def __init__(self):
        super().__init__({})

    @property
    def phase(self):
        return SimpleNamespace(id="second" if self._history else "first")

    def current_player(self):
        return -4 if self.is_terminal() else 0

    def legal_actions(self):
        return [] if self.is_terminal() else [["go", "lose", "end"], ["win", "lose", "end"]][len(self._history)]

    def is_legal(self, action):
        return action in self.legal_actions()

    def clone(self):
        other = _TwoPhases()
        other._history = list(self._history)
        return other

    def is_terminal(self):
        return tuple(self._history) in self.ENDS_IN

    def returns(self):
        value = self.ENDS_IN[tuple(self._history)]
        return [value, -value]


def test_a_node_of_another_phase_weighs_its_orders_anew():
    """With widening, a node one order further down the same side's phase ranks from its parent's orders; after
    `end`, the node of phase `second` does not (of `first`'s orders only `lose` is legal there): it weighs its own,
    finds `win`, and `end` (worth 1) is chosen over `go` (0)."""
    for seed in range(3):
        player = MCTSPlayer(seed, max_simulations=60, rollout_depth=0, evaluator=_Level(), widening=3)
        assert player.choose(_TwoPhases()) == "end"


def _followed(children: dict[str, tuple[int, float]], uct_c: float = 1.4) -> str:
    """The child a node whose children have these (visits, summed value) follows, its own visits theirs in all."""
    node = _Node(0)
    for action, (visits, total) in children.items():
        child = node.children[action] = _Node(1, action)
        child.visits, child.total = visits, total
        node.visits += visits
    return MCTSPlayer(0, uct_c=uct_c)._select(node)


def test_a_node_follows_the_child_of_the_best_upper_confidence_bound():
    """UCB1: a child's mean value plus uct_c * sqrt(ln(the node's visits) / its visits). `a`, 10 visits of mean 0.5,
    against `b`, 2 of mean 0.3: 0.5 + 1.4 * sqrt(ln 12 / 10) = 1.20 < 0.3 + 1.4 * sqrt(ln 12 / 2) = 1.86, so `b`
    (though `a` has summed far more). `a`, 4 visits of mean 0.5, against `b`, 1 of mean -0.5: 0.5 + 1.4 *
    sqrt(ln 5 / 4) = 1.39 > -0.5 + 1.4 * sqrt(ln 5) = 1.28, so `a`."""
    assert _followed({"a": (10, 5.0), "b": (2, 0.6)}) == "b"
    assert _followed({"a": (4, 2.0), "b": (1, -0.5)}) == "a"


class _TwoRestores(_TwoPhases):
    """Red's one phase: `restore` (a unit with two steps to regain: legal twice) or `end`, which ends the game. Ended
    after no restore it is level (0), after one it costs Red 1, after both it gives Red 1."""

    ENDS_IN = {0: 0.0, 1: -1.0, 2: 1.0}

    @property
    def phase(self):
        return SimpleNamespace(id="replacements")

    def legal_actions(self):
        if self.is_terminal():
            return []
        return ["restore", "end"] if self._history.count("restore") < 2 else ["end"]

    def clone(self):
        other = _TwoRestores()
        other._history = list(self._history)
        return other

    def is_terminal(self):
        return bool(self._history) and self._history[-1] == "end"

    def returns(self):
        value = self.ENDS_IN[self._history.count("restore")]
        return [value, -value]


def test_an_order_still_legal_after_it_was_played_is_offered_again():
    """With widening, the node after `restore` ranks from its parent's orders those still legal, `restore` among
    them (rulec/players/mcts.py's docstring): the search finds the second restore (1), and `restore` is chosen over
    `end` (0). Were the order played left out, that node could only `end` after one restore (-1), and `end` would be
    chosen."""
    for seed in range(3):
        player = MCTSPlayer(seed, max_simulations=60, rollout_depth=0, evaluator=_Level(), widening=2)
        assert player.choose(_TwoRestores()) == "restore"


def test_of_children_of_equal_bounds_the_one_tried_first_is_followed():
    """Equal visits and values give equal bounds: the child tried first is followed (with widening, the one the
    one-ply ranking put first), not the last of them."""
    assert _followed({"a": (3, 1.5), "b": (3, 1.5)}) == "a"
    assert _followed({"b": (3, 1.5), "a": (3, 1.5), "c": (3, 1.5)}) == "b"
