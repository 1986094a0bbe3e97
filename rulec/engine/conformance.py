"""Conformance: random games that check the engine keeps its promises, for any compiled map game.

    problems = check_game(game, n_games=10, seed=0)   # [] when all is well

Each random game (random options, random legal actions, seeded) checks after
every action that the state is consistent (every unit on the map or accounted
for, no hex over the stacking limit when a phase starts (with `end_of_movement`,
no hex of the moving side after its movement phase), VP equal to the sum of
the VP log, a legal action whenever the game is not over, action text that
reads back), and at a few points that a clone is independent (at every step of a
pending decision and every CLONE_EVERY steps: a clone plays the action, the
original must not change, and the game goes on from the clone, or now and then
from the original, which plays the action after its clone) and that random
illegal orders are refused with a reason. At the end, the history replayed from
a new game gives the same state, and the same seed played again without the
checks gives the same game. Used by the test suite on every game in games/ that
has a map; benchmarks/conformance.py says what the checks cost beside the game.
"""

from __future__ import annotations

from typing import Final

import random
from dataclasses import dataclass, field
from operator import countOf

from rulec.engine import stacking
from rulec.engine.actions import Action, IllegalAction
from rulec.engine.scenarios import compatible_options
from rulec.engine.state import CHANCE, TERMINAL, GameState, new_game
from rulec.engine.statuses import ELIMINATED, EXITED, ON_MAP, PENDING, UNUSED
from rulec.runtime.model import Game

STATUSES: Final = {ON_MAP, PENDING, EXITED, ELIMINATED, UNUSED}
# What _units_in_order keeps (GameState._for_the_game): the game's units as it checks them, and what it last found
# in order (_LastInOrder)
_UNITS_IN_ORDER: Final = "conformance: units in order"
_LAST_IN_ORDER: Final = "conformance: last in order"


@dataclass
class Report:
    games: int = 0
    actions: int = 0
    problems: list[str] = field(default_factory=list)


class PlayedSoFar:
    """The actions a state has played, as a snapshot holds them: the part its clones share (an immutable tuple,
    held as it is) and a copy of its own last few (Position.clone). Two are equal when they list the same actions;
    while the shared part is one tuple, without going through it (a game's clone checks take two snapshots at
    most of its steps, thousands of actions into it)."""

    __slots__ = ("shared", "own")

    def __init__(self, state: GameState):
        self.shared = state._played
        self.own = tuple(state._history)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayedSoFar):
            return NotImplemented
        if self.shared is other.shared:
            return self.own == other.own
        # (a clone moves a state's own actions into the shared part now and then: the same actions, split elsewhere)
        return len(self.shared) + len(self.own) == len(other.shared) + len(other.own) \
            and (*self.shared, *self.own) == (*other.shared, *other.own)

    __hash__ = None  # type: ignore[assignment]  # (compared, never a key)


def snapshot(state: GameState) -> tuple:
    """Everything that makes a position, as one comparable value.

    Copies of the state's dicts and sets, which compare equal whatever order their entries were added in (sorting
    them would cost more than the copy), deep enough that no later change to the state shows in the snapshot: the
    markers' inner dicts are copied too; frames, actions and VP entries are immutable values, and the history's
    part that clones share is an immutable tuple (PlayedSoFar)."""
    markers = state.markers
    return (
        state.turn, state.phase_index, state.terminal, dict(state.pos), dict(state.where), dict(state.due),
        dict(state.vp), dict(state.holders), frozenset(state.moved), frozenset(state.attacked),
        frozenset(state.defended), {k: dict(v) for k, v in markers.units.items()},
        {k: dict(v) for k, v in markers.hexes.items()}, tuple(state._stack), tuple(state.vp_log),
        PlayedSoFar(state), dict(state.variants), dict(state.lost_steps), state.points_left, state._prelude,
        dict(state.variables),
    )


def check_state(state: GameState) -> list[str]:
    """The invariants of one state."""
    problems = [] if _units_in_order(state) else _unit_problems(state)
    totals = {side: 0 for side in state.vp}
    for entry in state.vp_log:
        totals[entry.side] = totals.get(entry.side, 0) + entry.amount
    if totals != state.vp:
        problems.append(f"VP {state.vp} differ from the sum of the VP log {totals}")
    player = state.current_player()
    if state.is_terminal():
        if player != TERMINAL or state.legal_actions():
            problems.append("a finished game still has a player or actions")
    else:
        if not state.legal_actions():  # listed once a position: the next action is drawn from the same list
            problems.append(f"no legal action in {state}")
        if player == CHANCE:
            total = sum(p for _, p in state.chance_outcomes())
            if abs(total - 1.0) > 1e-9:
                problems.append(f"chance outcomes add up to {total}")
        elif not 0 <= player < len(state.players):
            problems.append(f"current player {player} is not a player")
    return problems


def _units_in_order(state: GameState) -> bool:
    """Whether _unit_problems would find none, asked without a loop over every unit where it can be: from scratch
    the first time in a game, with operations that run in C; then by what changed since the units were last found
    in order (its own copies of their hexes and statuses, kept for the game: it reads nothing the engine keeps),
    asking only the units whose hex or status changed and the hexes they entered. Most actions move no unit, and
    a move changes one or two. True only when all is well; False sends the state to _unit_problems, which names
    what is wrong (or finds nothing: statuses kept in another order than the game's units, say)."""
    where, pos = state.where, state.pos
    kept = state._for_the_game.get(_UNITS_IN_ORDER)
    if kept is None:  # the game's units, each side's units, the hexes of the map, each unit's side: in every position
        by_side: dict[str, list[str]] = {}
        for uid, unit in state.game.units.items():
            by_side.setdefault(unit.side, []).append(uid)
        kept = state._for_the_game[_UNITS_IN_ORDER] = (
            tuple(state.game.units), tuple(map(tuple, by_side.values())), frozenset(state.tables.neighbours),
            {uid: unit.side for uid, unit in state.game.units.items()})
    last: _LastInOrder | None = state._for_the_game.get(_LAST_IN_ORDER)
    if last is None:
        found = _in_order_from_scratch(state, kept)
        if found is None:
            return False
        state._for_the_game[_LAST_IN_ORDER] = _LastInOrder(dict(pos), dict(where), found)
        return True
    if last.pos == pos and last.where == where:
        return True  # the same hexes and statuses: what holds of them still does (most actions move nothing)
    _, _, map_hexes, side_of = kept
    if last.still_in_order(pos, where, map_hexes, side_of):
        return True
    del state._for_the_game[_LAST_IN_ORDER]  # (half brought up to date: the next check starts from scratch)
    return False


def _in_order_from_scratch(state: GameState, kept: tuple) -> dict[str, dict[str, int]] | None:
    """_units_in_order without what it last found: each hex occupied -> its side -> how many of the side's units
    stand there (one side a hex), or None if a unit is out of order."""
    where, pos = state.where, state.pos
    in_order, sides_units, map_hexes, _ = kept
    if tuple(where) != in_order:  # every unit of the game has a status, and nothing else has one
        return None
    statuses = where.values()
    if not STATUSES.issuperset(statuses):
        return None
    on_map = countOf(statuses, ON_MAP)
    # the units on the map are as many as those marked 'map', and each is marked so: they are those units
    if len(pos) != on_map or countOf(map(where.get, pos), ON_MAP) != on_map:
        return None
    held: set = set()  # the hexes the sides gone through hold
    for side_units in sides_units:
        hexes = set(map(pos.get, side_units))
        hexes.discard(None)  # (its units off the map)
        if not held.isdisjoint(hexes):
            return None  # a hex holds two sides
        held |= hexes
    if not map_hexes.issuperset(held):  # the hexes of the map (those `in tables.distance`)
        return None
    sides_at: dict[str, dict[str, int]] = {}
    side_of = kept[3]  # (every unit on the map is one of the game's: its status says so)
    for uid, h in pos.items():
        counts = sides_at.setdefault(h, {})
        counts[side_of[uid]] = counts.get(side_of[uid], 0) + 1
    return sides_at


class _LastInOrder:
    """The units' hexes and statuses last found in order in a game (copies), and who stands in each hex then."""

    def __init__(self, pos: dict[str, str], where: dict[str, str], sides_at: dict[str, dict[str, int]]):
        self.pos, self.where, self.sides_at = pos, where, sides_at

    def still_in_order(self, pos: dict[str, str], where: dict[str, str], map_hexes: frozenset[str],
                       side_of: dict[str, str]) -> bool:
        """Are the units in order in a position with these hexes and statuses, asked of those whose hex or status
        differs from the copies (brought up to date when they are)? False: one is not, or a unit not of the game
        has a status. `map_hexes`: the map's; `side_of`: each unit of the game's side."""
        last_pos, last_where = self.pos, self.where
        asked = [uid for uid, status in where.items() if last_where.get(uid) != status]
        if len(where) != len(last_where) or any(uid not in last_where for uid in asked):
            return False  # a unit lost its status, or one not of the game has one
        entered = [uid for uid, h in pos.items() if last_pos.get(uid) != h]
        if len(pos) != len(last_pos) + sum(uid not in last_pos for uid in entered):
            entered += [uid for uid in last_pos if uid not in pos]  # units that left the map
        for uid in (*asked, *entered):
            status = where.get(uid)
            if status not in STATUSES or (status == ON_MAP) != (uid in pos):
                return False
        sides_at = self.sides_at
        for uid in entered:
            side, before, after = side_of[uid], last_pos.get(uid), pos.get(uid)
            if before is not None:
                counts = sides_at[before]
                counts[side] -= 1
                if not counts[side]:
                    del counts[side]
                    if not counts:
                        del sides_at[before]
            if after is not None:
                if after not in map_hexes:
                    return False
                counts = sides_at.setdefault(after, {})
                counts[side] = counts.get(side, 0) + 1
        if any(len(sides_at[h]) > 1 for uid in entered if (h := pos.get(uid)) is not None):
            return False  # a hex holds two sides
        for uid in asked:
            last_where[uid] = where[uid]
        for uid in entered:
            if uid in pos:
                last_pos[uid] = pos[uid]
            else:
                del last_pos[uid]
        return True


def _unit_problems(state: GameState) -> list[str]:
    """Every unit has a status, is on the map exactly when its status says so, on a hex of the map, with no enemy."""
    problems = []
    for uid in state.game.units:
        where = state.where.get(uid)
        if where not in STATUSES:
            problems.append(f"unit {uid} has no status ({where!r})")
        if (where == ON_MAP) != (uid in state.pos):
            problems.append(f"unit {uid} is '{where}' but {'on' if uid in state.pos else 'off'} the map")
    sides_in: dict[str, set[str]] = {}
    for uid, hex in state.pos.items():
        if hex not in state.tables.distance:
            problems.append(f"unit {uid} stands on {hex}, not a hex of the map")
        sides_in.setdefault(hex, set()).add(state.unit(uid).side)
    problems += [f"enemies share hex {h}" for h, sides in sides_in.items() if len(sides) > 1]
    return problems


def _over_stacked(state: GameState, ended: int) -> list[str]:
    """Hexes over the limit that the check at the end of phase `ended` (its index) should have cleared."""
    limit = state.game.stacking.limit
    side = None
    if state.game.stacking.checked == "end_of_movement":  # only the moving side's hexes, after its movement
        phase = state.game.sequence[ended]
        if phase.kind != "movement":
            return []
        side = phase.side
    counts: dict[str, int] = {}
    free = stacking.uncounted(state)  # units that do not count for stacking
    for uid, hex in state.pos.items():
        if uid not in free and (side is None or state.unit(uid).side == side):
            counts[hex] = counts.get(hex, 0) + 1
    return [h for h, n in counts.items() if n > limit]


def _check_choice(state: GameState) -> list[str]:
    """Every unit offered to move has somewhere to go: its second step lists exactly its moves, and cancel."""
    problems = []
    for action in state.legal_actions():
        if action.kind == "move" and action.hex is None:
            assert action.unit is not None  # `move UNIT`
            moves = state.moves_of(action.unit)
            if not moves:
                problems.append(f"'{action}' is offered but the unit has no move")
            chosen = state.clone()
            chosen.apply_action(action)
            if set(chosen.legal_actions()) != {*moves, Action.cancel()}:
                problems.append(f"after '{action}' the orders are not the unit's moves and cancel")
            break  # one a position: a clone each is not cheap
    return problems


def _nonsense_orders(state: GameState, rng: random.Random) -> list[Action]:
    """A dozen random orders, one of each kind, most of them illegal (drawn from the game's units and hexes alone,
    so drawing them takes the same numbers from `rng` whatever the position)."""
    units = list(state.game.units)
    hexes = state.tables.hexes
    return [Action.move(rng.choice(units), rng.choice(hexes)), Action.exit(rng.choice(units), "nowhere"),
            Action.attack(rng.choice(hexes)), Action.with_unit(rng.choice(units)), Action.resolve(),
            Action.lose(rng.choice(units)), Action.delay(rng.choice(units)),
            Action.remove(rng.choice(units)), Action.retreat((rng.choice(hexes),)), Action.roll(99),
            Action.advance(rng.choice(units), rng.choice(hexes)), Action("fly")]


def _refuses_nonsense(state: GameState, tries: list[Action]) -> list[str]:
    """Orders of `tries` that are not legal must raise IllegalAction, explain themselves and change nothing."""
    problems = []
    legal = set(state.legal_actions())

    def listed(action: Action) -> bool:  # listed, or a move given at once of a unit offered to move
        return action in legal or (action.kind in ("move", "exit") and action.unit is not None and Action.move(action.unit) in legal
                                   and action in state.moves_of(action.unit))

    before = snapshot(state)
    for action in tries:
        if listed(action):
            continue
        try:
            state.apply_action(action)
            problems.append(f"illegal '{action}' was accepted")
        except IllegalAction as error:
            if not error.message:
                problems.append(f"illegal '{action}' gave no reason")
        except Exception as error:  # the point of the check: anything else is an engine bug
            problems.append(f"illegal '{action}' raised {type(error).__name__}: {error}")
    if snapshot(state) != before:
        problems.append("refusing illegal orders changed the state")
    return problems


ANY_SCENARIO: Final = "*"  # random_game's and check_game's default: a scenario drawn at random (or none) each game
NONSENSE_EVERY: Final = 11  # steps between two rounds of illegal orders (and of _check_choice)
CLONE_EVERY: Final = 37  # steps between two clone checks outside pending decisions (every step of one is checked)
ORIGINAL_GOES_ON_EVERY = 4  # a clone check on a step that is a multiple of this lets the original play on, not the clone


def random_game(game: Game, seed: int, report: Report, max_actions: int = 5000,
                scenario: str | None = ANY_SCENARIO, checks: bool = True) -> GameState:
    """One random game (`seed` draws its options, scenario if ANY_SCENARIO, and actions), its broken promises added to
    `report`. With checks=False the same game is played, unchecked: the checks' random orders are drawn all the same."""
    rng = random.Random(seed)
    options = tuple(o for o in game.options if rng.random() < 0.5)
    drawn = rng.choice([None, *game.scenarios]) if game.scenarios else None
    scenario = drawn if scenario == ANY_SCENARIO else scenario
    options = compatible_options(game, options, scenario)  # those a scenario does not allow, or that exclude one before, are dropped
    state = new_game(game, options=options, seed=seed, scenario=scenario)
    where = f"game seed {seed} options {options}" + (f" scenario {scenario}" if scenario else "")
    if checks:
        report.problems += [f"{where}, start: {p}" for p in check_state(state)]
    for step in range(max_actions):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        nonsense = _nonsense_orders(state, rng) if step % NONSENSE_EVERY == 0 else None
        if not checks:
            state.apply_action(action)
            report.actions += 1
            continue
        state = _checked_step(state, action, step, nonsense, where, report)
        if len(report.problems) > 20:
            break
    else:
        report.problems.append(f"{where}: no end after {max_actions} actions")
    return state


def _checked_step(state: GameState, action: Action, step: int, nonsense: list[Action] | None, where: str,
                  report: Report) -> GameState:
    """Play `action` (the game's step-th), checking the promises around it; the state after it.

    That state may be a clone of `state`: where a clone is checked (every step of a pending decision, mid-battle
    states being the tricky ones, and every CLONE_EVERY steps), the clone plays the action, `state` is checked
    unchanged by that, and the game goes on from the clone (playing the action on `state` as well would repeat the
    work; replaying the history at the end checks that a game played on clones is the game itself), but on steps
    that are multiples of ORIGINAL_GOES_ON_EVERY an unchanged `state` plays the action too and goes on: what a clone
    shares with its original (the cache of the position) must still be right for the original after the clone
    played (the clones of _check_choice check the same in movement phases, this in pending decisions)."""
    text = state.action_to_string(action)
    try:
        if state.parse_action(text) != action:
            report.problems.append(f"{where}: '{text}' reads back as another action")
    except (ValueError, IllegalAction) as error:
        report.problems.append(f"{where}: '{text}' does not read back: {error}")
    if nonsense is not None:
        report.problems += [f"{where}: {p}" for p in _refuses_nonsense(state, nonsense)]
        report.problems += [f"{where}: {p}" for p in _check_choice(state)]
    phase_before = (state.turn, state.phase_index)
    if step % CLONE_EVERY == 0 or state.pending is not None:
        before = snapshot(state)
        played = state.clone()
        played.apply_action(action)
        unchanged = snapshot(state) == before
        if not unchanged:
            report.problems.append(f"{where}: applying '{text}' to a clone changed the original")
        if unchanged and step % ORIGINAL_GOES_ON_EVERY == 0:  # the original plays on: what they share still holds
            played = state
            played.apply_action(action)
    else:
        played = state
        played.apply_action(action)
    report.actions += 1
    problems = check_state(played)
    if (played.turn, played.phase_index) != phase_before and played.removing is None and not played.terminal:
        problems += [f"hex {h} over-stacked at the start of {played.phase.name}" for h in _over_stacked(played, phase_before[1])]
    report.problems += [f"{where}, after '{text}': {p}" for p in problems]
    return played


def check_game(game: Game, n_games: int = 10, seed: int = 0, scenario: str | None = ANY_SCENARIO,
               first: int = 0) -> list[str]:
    """Play `n_games` random games (of `scenario`; by default each of a scenario drawn at random) and return every
    broken promise found (empty: none). The games are numbered from `first`, so that several processes may
    share a run (game i of a seed is the same game whoever plays it)."""
    report = Report()
    for i in range(first, first + n_games):
        game_seed = seed * 1_000_003 + i
        state = random_game(game, game_seed, report, scenario=scenario)
        report.games += 1
        replayed = new_game(game, options=state.options, seed=state.seed, scenario=state.scenario)
        try:
            for action in state.history():
                replayed.apply_action(action)
        except Exception as error:  # a history that does not replay is a broken promise, told with the rest
            report.problems.append(f"game seed {game_seed}: replaying the history fails at '{action}': "
                                   f"{type(error).__name__}: {error}")
        else:
            if snapshot(replayed) != snapshot(state):
                report.problems.append(f"game seed {game_seed}: replaying the history gives another state")
        if i == first:  # the same seed, played again without the checks, as far as the checked game went
            again = random_game(game, game_seed, Report(), max_actions=len(state.history()), scenario=scenario,
                                checks=False)
            if again.history() != state.history() or snapshot(again) != snapshot(state):
                report.problems.append(f"game seed {game_seed}: the same seed gave another game")
        if len(report.problems) > 20:
            break
    return report.problems
