"""Conformance: random games that check the engine keeps its promises, for any compiled map game.

    problems = check_game(game, n_games=10, seed=0)   # [] when all is well

Each random game (random options, random legal actions, seeded) checks after
every action that the state is consistent (every unit on the map or accounted
for, no hex over the stacking limit when a phase starts (with `end_of_movement`,
no hex of the moving side after its movement phase), VP equal to the sum of
the VP log, a legal action whenever the game is not over, action text that
reads back), and at a few points that a clone is independent and that random
illegal orders are refused with a reason. At the end, the
history replayed from a new game gives the same state, and the same seed gives
the same game. Used by the test suite on every game in games/ that has a map.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from rulec.engine import stacking
from rulec.engine.actions import Action, IllegalAction
from rulec.engine.scenarios import compatible_options
from rulec.engine.state import CHANCE, TERMINAL, GameState, new_game
from rulec.engine.statuses import ON_MAP
from rulec.runtime.model import Game

STATUSES = {"map", "pending", "exited", "eliminated", "unused"}


@dataclass
class Report:
    games: int = 0
    actions: int = 0
    problems: list[str] = field(default_factory=list)


def snapshot(state: GameState) -> tuple:
    """Everything that makes a position, as one comparable value."""
    return (
        state.turn, state.phase_index, state.terminal, tuple(sorted(state.pos.items())),
        tuple(sorted(state.where.items())), tuple(sorted(state.due.items(), key=str)), tuple(sorted(state.vp.items())),
        tuple(sorted(state.holders.items())), tuple(sorted(state.moved)), tuple(sorted(state.attacked)),
        tuple(sorted(state.defended)), tuple(sorted((k, tuple(sorted(v.items()))) for k, v in state.markers.units.items())),
        tuple(sorted((k, tuple(sorted(v.items()))) for k, v in state.markers.hexes.items())), tuple(state._stack),
        tuple(state.vp_log), tuple(state.history()), tuple(state.variants.items()), tuple(sorted(state.lost_steps.items())),
        state.points_left, state._prelude,
    )


def check_state(state: GameState) -> list[str]:
    """The invariants of one state."""
    problems = []
    game = state.game
    for uid in game.units:
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
        if not state.legal_actions():
            problems.append(f"no legal action in {state}")
        if player == CHANCE:
            total = sum(p for _, p in state.chance_outcomes())
            if abs(total - 1.0) > 1e-9:
                problems.append(f"chance outcomes add up to {total}")
        elif not 0 <= player < len(state.players):
            problems.append(f"current player {player} is not a player")
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
            moves = state.moves_of(action.unit)
            if not moves:
                problems.append(f"'{action}' is offered but the unit has no move")
            chosen = state.clone()
            chosen.apply_action(action)
            if set(chosen.legal_actions()) != {*moves, Action.cancel()}:
                problems.append(f"after '{action}' the orders are not the unit's moves and cancel")
            break  # one a position: a clone each is not cheap
    return problems


def _refuses_nonsense(state: GameState, rng: random.Random) -> list[str]:
    """Random orders that are not legal must raise IllegalAction, explain themselves and change nothing."""
    problems = []
    units = list(state.game.units)
    hexes = list(state.tables.hexes)
    legal = set(state.legal_actions())

    def listed(action: Action) -> bool:  # listed, or a move given at once of a unit offered to move
        return action in legal or (action.kind in ("move", "exit") and Action.move(action.unit) in legal
                                   and action in state.moves_of(action.unit))

    tries = [Action.move(rng.choice(units), rng.choice(hexes)), Action.exit(rng.choice(units), "nowhere"),
             Action.attack(rng.choice(hexes)), Action.with_unit(rng.choice(units)), Action.resolve(),
             Action.lose(rng.choice(units)), Action.delay(rng.choice(units)),
             Action.remove(rng.choice(units)), Action.retreat((rng.choice(hexes),)), Action.roll(99),
             Action.advance(rng.choice(units), rng.choice(hexes)), Action("fly")]
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


ANY_SCENARIO = "*"  # random_game's and check_game's default: a scenario drawn at random (or none) each game


def random_game(game: Game, seed: int, report: Report, max_actions: int = 5000,
                scenario: str | None = ANY_SCENARIO) -> GameState:
    rng = random.Random(seed)
    options = tuple(o for o in game.options if rng.random() < 0.5)
    drawn = rng.choice([None, *game.scenarios]) if game.scenarios else None
    scenario = drawn if scenario == ANY_SCENARIO else scenario
    options = compatible_options(game, options, scenario)  # those a scenario does not allow, or that exclude one before, are dropped
    state = new_game(game, options=options, seed=seed, scenario=scenario)
    where = f"game seed {seed} options {options}" + (f" scenario {scenario}" if scenario else "")
    report.problems += [f"{where}, start: {p}" for p in check_state(state)]
    for step in range(max_actions):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        action = rng.choice(actions)
        text = state.action_to_string(action)
        try:
            if state.parse_action(text) != action:
                report.problems.append(f"{where}: '{text}' reads back as another action")
        except (ValueError, IllegalAction) as error:
            report.problems.append(f"{where}: '{text}' does not read back: {error}")
        if step % 11 == 0:
            report.problems += [f"{where}: {p}" for p in _refuses_nonsense(state, rng)]
            report.problems += [f"{where}: {p}" for p in _check_choice(state)]
        if step % 37 == 0 or state.pending is not None:  # mid-battle states are the tricky ones
            before = snapshot(state)
            copy = state.clone()
            copy.apply_action(action)
            if snapshot(state) != before:
                report.problems.append(f"{where}: applying '{text}' to a clone changed the original")
        phase_before = (state.turn, state.phase_index)
        state.apply_action(action)
        report.actions += 1
        problems = check_state(state)
        if (state.turn, state.phase_index) != phase_before and state.removing is None and not state.terminal:
            problems += [f"hex {h} over-stacked at the start of {state.phase.name}" for h in _over_stacked(state, phase_before[1])]
        report.problems += [f"{where}, after '{text}': {p}" for p in problems]
        if len(report.problems) > 20:
            break
    else:
        report.problems.append(f"{where}: no end after {max_actions} actions")
    return state


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
        for action in state.history():
            replayed.apply_action(action)
        if snapshot(replayed) != snapshot(state):
            report.problems.append(f"game seed {game_seed}: replaying the history gives another state")
        if i == first:
            again = random_game(game, game_seed, Report(), scenario=scenario)
            if again.history() != state.history() or snapshot(again) != snapshot(state):
                report.problems.append(f"game seed {game_seed}: the same seed gave another game")
        if len(report.problems) > 20:
            break
    return report.problems
