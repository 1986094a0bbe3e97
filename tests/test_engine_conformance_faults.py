"""The conformance checks catch the faults they are there for: each is planted in a game of Drive on Metz (or in
the engine, for the length of one test) and must be reported. The checks were made cheaper (snapshots that copy
rather than sort, a unit check without a Python loop, the game going on from the clone it checks, the same seed
replayed without the checks); these tests show that each still fails when it should."""

from __future__ import annotations

import random

import pytest

from rulec.engine import new_game
from rulec.engine import conformance
from rulec.engine.actions import Action
from rulec.engine.conformance import Report, check_game, check_state, random_game, snapshot
from rulec.engine.frames import Moving
from rulec.engine.state import GameState
from rulec.engine.victory import VpEntry


def _states(game, seed: int, count: int) -> list[GameState]:
    """`count` positions of a random game (clones, each after one more action)."""
    rng, state, found = random.Random(seed), new_game(game, seed=seed), []
    while len(found) < count and not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        found.append(state.clone())
    return found


@pytest.fixture
def midgame(metz) -> GameState:
    """A position with units of both sides on the map and a unit pending."""
    return _states(metz, 4, 60)[-1]


def _a_unit(state: GameState, status: str, side: str | None = None) -> str:
    return next(u for u in state.game.units if state.where[u] == status and (side is None or state.unit(u).side == side))


# ------------------------------------------------------------ check_state: the quick test and the loop agree

def test_the_quick_unit_test_agrees_with_the_loop_on_the_positions_of_random_games(metz):
    states = _states(metz, 1, 400)
    assert states and all(conformance._units_in_order(s) for s in states)
    assert all(conformance._unit_problems(s) == [] for s in states)


def _plant_a_unit_without_status(state):
    state.where[_a_unit(state, "map")] = "lost"


def _plant_a_unit_with_no_entry(state):
    del state.where[_a_unit(state, "pending")]


def _plant_a_pending_unit_on_the_map(state):
    state.pos[_a_unit(state, "pending")] = "0101"


def _plant_a_unit_on_the_map_with_no_hex(state):
    del state.pos[_a_unit(state, "map")]


def _plant_a_unit_off_the_map(state):
    state.pos[_a_unit(state, "map")] = "9999"


def _plant_enemies_in_one_hex(state):
    sides = list(state.game.sides)
    first, second = _a_unit(state, "map", sides[0]), _a_unit(state, "map", sides[1])
    state.pos[second] = state.pos[first]


def _plant_an_exited_unit_still_standing(state):
    state.where[_a_unit(state, "map")] = "exited"


FAULTS = {
    _plant_a_unit_without_status: "has no status",
    _plant_a_unit_with_no_entry: "has no status",
    _plant_a_pending_unit_on_the_map: "but on the map",
    _plant_a_unit_on_the_map_with_no_hex: "but off the map",
    _plant_a_unit_off_the_map: "not a hex of the map",
    _plant_enemies_in_one_hex: "enemies share hex",
    _plant_an_exited_unit_still_standing: "but on the map",
}


@pytest.mark.parametrize("plant, message", FAULTS.items(), ids=[f.__name__[7:] for f in FAULTS])
def test_check_state_reports_each_planted_fault_of_the_units(midgame, plant, message):
    assert check_state(midgame) == []
    plant(midgame)
    assert not conformance._units_in_order(midgame)  # the quick test sends the state to the loop, which names it
    problems = check_state(midgame)
    assert any(message in p for p in problems), problems


def test_the_quick_unit_test_asks_again_from_scratch_after_a_fault_and_sees_it_mended(midgame):
    """After a fault it does not trust what it last found: the fault mended, the units are in order again, and a
    fault planted after that (two sides in one hex, the hexes' count kept by what changed) is seen too."""
    assert conformance._units_in_order(midgame)
    uid = _a_unit(midgame, "map")
    hex_ = midgame.pos[uid]
    midgame.pos[uid] = "9999"
    assert not conformance._units_in_order(midgame)
    midgame.pos[uid] = hex_
    assert conformance._units_in_order(midgame)
    _plant_enemies_in_one_hex(midgame)
    assert not conformance._units_in_order(midgame)
    assert any("enemies share hex" in p for p in check_state(midgame))


def test_check_state_reports_vp_out_of_the_log(midgame):
    midgame.vp_log.append(VpEntry(midgame.turn, "planted", next(iter(midgame.vp)), 2, "nowhere"))
    assert any("VP log" in p for p in check_state(midgame))


# ------------------------------------------------------------ snapshot: copies, yet tells every part apart

def _mark_a_unit(state):
    uid = _a_unit(state, "map")
    state.markers.units.setdefault(uid, {})["planted"] = (state.turn, state.phase_index)


CHANGES = {
    "turn": lambda s: setattr(s, "turn", s.turn + 1),
    "phase": lambda s: setattr(s, "phase_index", s.phase_index + 1),
    "terminal": lambda s: setattr(s, "terminal", not s.terminal),
    "hex": lambda s: s.pos.__setitem__(_a_unit(s, "map"), "0101"),
    "status": lambda s: s.where.__setitem__(_a_unit(s, "pending"), "eliminated"),
    "due": lambda s: s.due.__setitem__(_a_unit(s, "pending"), 99),
    "vp": lambda s: s.vp.__setitem__(next(iter(s.vp)), 7),
    "holder": lambda s: s.holders.__setitem__("0101", "planted"),
    "moved": lambda s: s.moved.add("planted"),
    "attacked": lambda s: s.attacked.add("planted"),
    "defended": lambda s: s.defended.add("planted"),
    "unit marker": _mark_a_unit,
    "hex marker": lambda s: s.markers.hexes.__setitem__("0101", {"planted": (1, 0)}),
    "pending": lambda s: s._stack.append(Moving("us", "planted")),
    "vp log": lambda s: s.vp_log.append(VpEntry(1, "planted", "us", 0, "nowhere")),
    "history": lambda s: s._history.append(Action.end()),
    "variant": lambda s: s.variants.__setitem__("planted", "planted"),
    "lost step": lambda s: s.lost_steps.__setitem__("planted", 1),
    "points": lambda s: setattr(s, "points_left", 5),
    "prelude": lambda s: setattr(s, "_prelude", (*s._prelude, 0)),
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=list(CHANGES))
def test_a_snapshot_taken_before_a_change_tells_the_state_after_it_apart(midgame, change):
    before = snapshot(midgame)
    assert snapshot(midgame.clone()) == before
    change(midgame)
    assert snapshot(midgame) != before


def test_a_change_in_place_to_a_units_markers_does_not_show_in_a_snapshot_taken_before(midgame):
    uid = _a_unit(midgame, "map")
    midgame.markers.units[uid] = {"first": (1, 0)}
    before = snapshot(midgame)
    midgame.markers.units[uid]["second"] = (1, 0)  # the inner dict changed in place: the snapshot copied it
    assert snapshot(midgame) != before


def test_a_snapshot_holds_the_history_whichever_part_of_the_state_keeps_it(midgame):
    """A clone moves its original's own last actions into the part clones share (Position.clone, HISTORY_TAIL): the
    same history, and the same snapshot; one action more, or another action in its place, is another."""
    from rulec.engine.position import HISTORY_TAIL

    played = midgame.history()
    midgame._played, midgame._history = tuple(played[:-1]), [played[-1]]  # a little in the state's own part
    while len(midgame._history) <= HISTORY_TAIL:
        midgame._history.append(Action.end())
    before, shared = snapshot(midgame), midgame._played
    midgame.clone()
    assert midgame._played is not shared and not midgame._history  # folded into the shared part
    assert snapshot(midgame) == before
    midgame._history.append(Action.end())
    assert snapshot(midgame) != before
    midgame._history.pop()
    midgame._played = (*midgame._played[:-1], Action.roll(1))  # as long, one action other
    assert snapshot(midgame) != before


def test_snapshots_of_the_same_position_are_equal_whatever_order_it_was_reached_in(metz):
    state = new_game(metz)
    other = state.clone()
    first, second = list(state.pos)[:2]
    for uid in (first, second):  # the same units at the same hexes, entered into the dict in the other order
        hex = other.pos.pop(uid)
        other.pos[uid] = hex
    assert list(other.pos) != list(state.pos) and snapshot(other) == snapshot(state)


# ------------------------------------------------------------ random games: planted engine faults are reported

def test_a_clone_that_shares_the_unit_positions_is_reported(metz, monkeypatch):
    clone = GameState.clone

    def sharing(self):
        other = clone(self)
        other.pos = self.pos  # planted: the clone moves the original's units
        return other

    monkeypatch.setattr(GameState, "clone", sharing)
    problems = check_game(metz, n_games=1, seed=1)
    assert any("to a clone changed the original" in p for p in problems), problems[:3]


def test_a_clone_that_shares_the_history_is_reported(metz, monkeypatch):
    clone = GameState.clone

    def sharing(self):
        other = clone(self)
        other._history = self._history  # planted: an action played on the clone is in the original's history
        return other

    monkeypatch.setattr(GameState, "clone", sharing)
    problems = check_game(metz, n_games=1, seed=1)
    assert any("to a clone changed the original" in p for p in problems), problems[:3]
    assert any("replaying the history fails" in p for p in problems)  # the moves tried on clones are in it


def test_an_illegal_order_that_is_accepted_is_reported(metz, monkeypatch):
    check = GameState._check

    def lenient(self, action):
        if action.kind != "fly":  # planted: an order of no kind is played (and recorded)
            check(self, action)

    monkeypatch.setattr(GameState, "_check", lenient)
    report = Report()
    random_game(metz, 1, report, max_actions=30)
    assert any("illegal 'fly' was accepted" in p for p in report.problems), report.problems[:3]
    assert any("refusing illegal orders changed the state" in p for p in report.problems)


def test_legal_actions_listed_in_another_order_when_the_game_is_played_again_are_reported(metz, monkeypatch):
    games = iter(range(1000))
    played = new_game

    def numbered(*args, **kwargs):
        state = played(*args, **kwargs)
        state.reversed = next(games) > 0  # planted: every new game but the first lists its actions backwards
        return state

    listed = GameState._legal_actions

    def listing(self):
        actions = listed(self)
        return actions[::-1] if self.reversed else actions

    monkeypatch.setattr(conformance, "new_game", numbered)
    monkeypatch.setattr(GameState, "_legal_actions", listing)
    problems = check_game(metz, n_games=1, seed=1)
    assert any("the same seed gave another game" in p for p in problems), problems[:3]


def test_a_replayed_history_that_ends_elsewhere_is_reported(metz, monkeypatch):
    games = iter(range(1000))
    played = new_game

    def numbered(*args, **kwargs):
        state = played(*args, **kwargs)
        if next(games) == 1:  # planted: the game the history is replayed in starts with more VP
            state.vp[next(iter(state.vp))] += 1
        return state

    monkeypatch.setattr(conformance, "new_game", numbered)
    problems = check_game(metz, n_games=1, seed=1)
    assert any("replaying the history gives another state" in p for p in problems), problems[:3]


def test_the_same_seed_plays_the_same_game_with_or_without_the_checks(metz):
    for seed in (1, 2, 3):
        checked = random_game(metz, seed, Report())
        unchecked = random_game(metz, seed, Report(), checks=False)
        assert checked.history() == unchecked.history() and snapshot(checked) == snapshot(unchecked)


def _spoil_what_clones_share(monkeypatch):
    """Planted: a clone made at a pending decision, when it first plays a step that moves a unit, leaves its original
    a wrong stacking (every unit counted twice) in what the position they shared knew of where units stand (a step
    that moves nobody goes on sharing it, rightly)."""
    clone, apply = GameState.clone, GameState.apply_action

    def marked(self):
        other = clone(self)
        if self.pending is not None:
            other._spoils = self._standing
        return other

    def spoiling(self, action):
        apply(self, action)
        shared = self.__dict__.pop("_spoils", None)
        if shared is not None and shared is not self._standing and "occupants" in shared:
            shared["occupants"] = {h: [*units, *units] for h, units in shared["occupants"].items()}

    monkeypatch.setattr(GameState, "clone", marked)
    monkeypatch.setattr(GameState, "apply_action", spoiling)


def test_a_clone_that_spoils_the_cache_it_shares_with_its_original_is_reported(metz, monkeypatch):
    _spoil_what_clones_share(monkeypatch)
    problems = check_game(metz, n_games=1, seed=1)
    assert any("replaying the history fails" in p for p in problems), problems[:3]


def test_the_spoiled_cache_is_found_because_the_original_plays_on_after_its_clone_now_and_then(metz, monkeypatch):
    _spoil_what_clones_share(monkeypatch)
    monkeypatch.setattr(conformance, "ORIGINAL_GOES_ON_EVERY", 10**9)  # the clone always plays on: nothing reads it
    assert check_game(metz, n_games=1, seed=1) == []
