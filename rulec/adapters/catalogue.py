"""The integer action catalogue of one compiled map game.

Learning frameworks number actions 0..N-1, the same N in every position. The
catalogue gives each kind of action (actions.KINDS) a block of numbers, the
product of its arguments' spaces: `move` is units x hexes, `exit` units x edges,
`attack` hexes, `resolve` one number. A new kind of action slots in with one line
in ARGUMENTS (and, if it has a new kind of argument, one line in SPACES); a test
fails for any kind in actions.KINDS that has no line here.

Three arguments need a position to be read:
    - retreat paths: when the legal paths all end in different hexes (the usual
      case), a path is numbered by its end hex; otherwise by its index in the legal
      paths' order (at most the paths a retreat of the game's longest length has).
    - chance: a die roll is a chance outcome, numbered apart from the players'
      actions (number - 1), as OpenSpiel numbers chance outcomes.
    - placements: a placement's first step, `place UNIT`, is numbered by its unit; its
      second, `place UNIT HEX`, by its hex alone (block "place_in"), the unit being the
      one the position has chosen: units + hexes numbers, not units x hexes.

A move's first step, `move UNIT` (no hex), is numbered by its unit (block "move_unit");
its second, `move UNIT HEX`, in the `move` block, as a move given at once is.
"""

from __future__ import annotations

from itertools import accumulate
from math import prod
from typing import TYPE_CHECKING, Callable, Sequence

from rulec.engine.actions import (ADVANCE, ATTACK, CANCEL, DELAY, END, EXIT, FIGHT, LOSE, MOVE, PLACE, REMOVE, RESOLVE,
                                  RETREAT, ROLL, WITH, Action)
from rulec.engine.frames import Placing
from rulec.runtime.model import Game

if TYPE_CHECKING:
    from rulec.engine.state import GameState

PLACE_IN = "place_in"  # the block of `place UNIT HEX` (an action of kind place with a hex)
MOVE_UNIT = "move_unit"  # the block of `move UNIT` (an action of kind move without a hex: the unit chosen)

# What each kind's arguments are, in order: an Action field name, "?" when it may be None
# (`advance none`), "path" for a retreat path. Chance (`roll`) is numbered apart (chance_outcome).
ARGUMENTS: dict[str, tuple[str, ...]] = {
    MOVE: ("unit", "hex"),
    EXIT: ("unit", "edge"),
    DELAY: ("unit",),
    ATTACK: ("hex",),
    WITH: ("unit",),
    RESOLVE: (),
    CANCEL: (),
    FIGHT: ("hex",),
    RETREAT: ("path",),
    LOSE: ("unit",),
    ADVANCE: ("unit?", "hex?"),
    REMOVE: ("unit",),
    END: (),
    # Kinds added later go below, so that the numbers of the kinds above stay as they were.
    "place": ("unit",),  # a placement phase's first step: the unit (set-up, replacements)
    PLACE_IN: ("hex",),  # its second step, `place UNIT HEX`: the hex, for the unit the position has chosen
    MOVE_UNIT: ("unit",),  # a move's first step, `move UNIT`: the unit chosen to move
}
CHANCE_KINDS = (ROLL,)

# The values an argument may take in a game, by Action field name.
SPACES: dict[str, Callable[[Game], Sequence]] = {
    "unit": lambda game: tuple(game.units),
    "hex": lambda game: tuple(game.map.hexes),
    "edge": lambda game: tuple(game.map.edges),
}


def _block(action: Action) -> str:
    """The block an action is numbered in: its kind's, but for the steps that share a kind with another."""
    if action.kind == PLACE and action.hex is not None:
        return PLACE_IN
    if action.kind == MOVE and action.hex is None:
        return MOVE_UNIT
    return action.kind


class NotInCatalogue(ValueError):
    """An action (or number) the catalogue of this game has no place for."""


def longest_retreat(game: Game) -> int:
    """The most hexes any combat result makes a unit retreat."""
    return max((e.amount for r in game.results.values() for e in r.effects if e.kind == "retreat"), default=0)


class Catalogue:
    """Actions <-> integers for one game; see the module docstring."""

    def __init__(self, game: Game):
        if game.map is None:
            raise NotInCatalogue(f"'{game.info.id}' has no map: only map games are played by the engine")
        self.game = game
        self.hexes = tuple(game.map.hexes)
        self._hex_index = {h: i for i, h in enumerate(self.hexes)}
        length = longest_retreat(game)
        self.max_paths = 6 * 5 ** (length - 1) if length else 0  # six first steps, then never straight back
        self._spaces: dict[str, tuple] = {}
        self._index: dict[str, dict] = {}
        sizes = []
        for kind, arguments in ARGUMENTS.items():
            sizes.append(prod(self._space_size(a) for a in arguments))
        self.kinds = tuple(ARGUMENTS)
        self.offsets = dict(zip(self.kinds, (0, *accumulate(sizes))))
        self.sizes = dict(zip(self.kinds, sizes))
        self.size = sum(sizes)  # the number of distinct player actions
        self._numbers: dict[Action, int] = {}  # actions numbered so far (all but retreats, which need their position)
        self.chance_size = game.info.die  # the number of distinct chance outcomes

    # ------------------------------------------------------------ argument spaces
    def _space(self, argument: str) -> tuple:
        name = argument.rstrip("?")
        found = self._spaces.get(argument)
        if found is None:
            values = tuple(SPACES[name](self.game))
            found = self._spaces[argument] = ((None,) + values) if argument.endswith("?") else values
            self._index[argument] = {v: i for i, v in enumerate(found)}
        return found

    def _space_size(self, argument: str) -> int:
        if argument == "path":
            return len(self.hexes) + self.max_paths
        return len(self._space(argument))

    # ------------------------------------------------------------ encoding
    def encode(self, action: Action, state: "GameState | None" = None) -> int:
        """The number of a player's action (a retreat needs the position it is chosen in)."""
        found = self._numbers.get(action)
        if found is not None:
            return found
        block = _block(action)
        arguments = ARGUMENTS.get(block)
        if arguments is None:
            raise NotInCatalogue(f"action kind '{action.kind}' has no number: add it to "
                                 "rulec/adapters/catalogue.py ARGUMENTS" if action.kind not in CHANCE_KINDS
                                 else f"'{action}' is a chance outcome: see chance_outcome()")
        code = 0
        for argument in arguments:
            if argument == "path":
                code = code * self._space_size("path") + self._path_number(action.path, state)
                continue
            space = self._space(argument)
            value = getattr(action, argument.rstrip("?"))
            index = self._index[argument].get(value)
            if index is None:
                raise NotInCatalogue(f"'{action}': {value!r} is not a {argument.rstrip('?')} of '{self.game.info.id}'")
            code = code * len(space) + index
        number = self.offsets[block] + code
        if "path" not in arguments:
            self._numbers[action] = number
        return number

    def decode(self, number: int, state: "GameState | None" = None) -> Action:
        """The player's action numbered `number` (a retreat needs the position it is chosen in)."""
        if not 0 <= number < self.size:
            raise NotInCatalogue(f"{number} is not an action number of '{self.game.info.id}' (0..{self.size - 1})")
        kind = next(k for k in reversed(self.kinds) if self.offsets[k] <= number and self.sizes[k])
        code = number - self.offsets[kind]
        fields: dict = {}
        if kind == PLACE_IN:
            return Action.place(self._placing(state), self.hexes[code])
        if kind == MOVE_UNIT:
            return Action.move(self._space("unit")[code])
        for argument in reversed(ARGUMENTS[kind]):
            size = self._space_size(argument)
            code, digit = divmod(code, size)
            if argument == "path":
                fields["path"] = self._path_of(digit, state)
            else:
                fields[argument.rstrip("?")] = self._space(argument)[digit]
        return Action(kind, **fields)

    def chance_outcome(self, action: Action) -> int:
        """The number of a chance outcome (a die roll): 0..die-1."""
        if action.kind != ROLL:
            raise NotInCatalogue(f"'{action}' is not a chance outcome")
        return action.number - 1

    def chance_action(self, number: int) -> Action:
        if not 0 <= number < self.chance_size:
            raise NotInCatalogue(f"{number} is not a chance outcome of '{self.game.info.id}' (0..{self.chance_size - 1})")
        return Action.roll(number + 1)

    # ------------------------------------------------------------ placements
    def _placing(self, state: "GameState | None") -> str:
        """The unit whose hex is being chosen in `state` (a placement's second step)."""
        if state is None:
            raise NotInCatalogue("a placement's hex is numbered within its position: pass the state")
        frame = state.pending
        if not isinstance(frame, Placing):
            raise NotInCatalogue("no unit is being placed here: 'place UNIT' comes first")
        return frame.unit

    # ------------------------------------------------------------ retreat paths
    def _paths(self, state: "GameState | None") -> tuple[tuple[str, ...], ...]:
        if state is None:
            raise NotInCatalogue("a retreat path is numbered within its position: pass the state")
        return tuple(a.path for a in state.legal_actions() if a.kind == RETREAT)

    def _by_end(self, paths: Sequence[tuple[str, ...]]) -> bool:
        return len({p[-1] for p in paths}) == len(paths)

    def _path_number(self, path: tuple[str, ...], state: "GameState | None") -> int:
        paths = self._paths(state)
        if path not in paths:
            raise NotInCatalogue(f"'retreat {' '.join(path)}' is not a legal retreat here")
        if self._by_end(paths):
            return self._hex_index[path[-1]]
        index = paths.index(path)
        if index >= self.max_paths:
            raise NotInCatalogue(f"more retreat paths than {self.max_paths} (the longest retreat's bound)")
        return len(self.hexes) + index

    def _path_of(self, digit: int, state: "GameState | None") -> tuple[str, ...]:
        paths = self._paths(state)
        if digit < len(self.hexes):
            end = self.hexes[digit]
            found = [p for p in paths if p[-1] == end] if self._by_end(paths) else []
            if not found:
                raise NotInCatalogue(f"no legal retreat here ends in {end}")
            return found[0]
        index = digit - len(self.hexes)
        if self._by_end(paths) or index >= len(paths):
            raise NotInCatalogue(f"no legal retreat path number {index} here")
        return paths[index]

    # ------------------------------------------------------------ a position's actions
    def legal(self, state: "GameState") -> dict[int, Action]:
        """The legal actions of `state` by number, in increasing order (chance outcomes at a chance node)."""
        if state.is_chance_node():
            pairs = [(self.chance_outcome(a), a) for a, _ in state.chance_outcomes()]
        else:
            pairs = [(self.encode(a, state), a) for a in state.legal_actions()]
        return dict(sorted(pairs))
