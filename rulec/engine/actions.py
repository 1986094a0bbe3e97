"""Actions: every decision a player (or chance) makes, as small hashable values.

One named tuple with a `kind` and the few fields that kind uses: immutable, and made, compared and hashed
in C (a frozen dataclass's __init__ sets each field through object.__setattr__: four times the cost, and the
engine makes an action for every unit and hex a unit's moves reach). The text
form (what players type and what saved games store) is written by `format_action`
and read back by `parse_words`; both need the game's unit names, which the
state passes in.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from rulec.diagnostics import did_you_mean

# The kinds, in the order legal_actions lists them within a phase.
MOVE: Final = "move"
EXIT: Final = "exit"
DELAY: Final = "delay"
ATTACK: Final = "attack"
WITH: Final = "with"
RESOLVE: Final = "resolve"
CANCEL: Final = "cancel"
FIGHT: Final = "fight"
ROLL: Final = "roll"
RETREAT: Final = "retreat"
LOSE: Final = "lose"
ADVANCE: Final = "advance"
REMOVE: Final = "remove"
PLACE: Final = "place"
END: Final = "end"
KINDS: Final[tuple[str, ...]] = (MOVE, EXIT, DELAY, ATTACK, WITH, RESOLVE, CANCEL, FIGHT, ROLL, RETREAT, LOSE, ADVANCE, REMOVE, PLACE, END)


class Action(NamedTuple):
    """One decision.

    move:    `unit` is chosen to move (no hex: a movement phase's first step), or moves to `hex`
             (its second step, or both at once), from the map or entering it from off the map
    exit:    `unit` leaves the map by `edge` (a second step, or at once)
    delay:   `unit`, a reinforcement due now, is held back one turn
    attack:  a battle against the enemy-occupied `hex` is declared (its attackers follow);
             with `units` it is a whole battle in one order, the old notation
             "attack HEX with UNIT...", which `expand` turns into the steps below
    with:    `unit` joins the battle being declared
    resolve: the battle being declared is fought (its die roll follows); in a game that
             declares every battle first, it is declared and waits for its `fight`
    cancel:  the battle being declared is called off (or the unit chosen to move or be placed is put back)
    fight:   the declared battle against `hex` is fought now (games that declare every battle first)
    roll:    chance: the die shows `number`
    retreat: the retreating unit (the first one waiting) goes along `path`
    lose:    `unit` pays for an exchange (eliminated)
    advance: `unit` advances into `hex`; no unit: the victor declines
    remove:  `unit` is removed from an over-stacked hex
    place:   `unit` is chosen to be placed (no hex: a placement phase's first step), or is placed
             in `hex` (its second step, or both at once; set-up, replacements)
    end:     the phase ends
    """

    kind: str
    unit: str | None = None
    hex: str | None = None
    units: tuple[str, ...] = ()
    path: tuple[str, ...] = ()
    edge: str | None = None
    number: int | None = None

    def __str__(self) -> str:
        """The text form with unit ids (GameState.action_to_string uses the names players know)."""
        return format_action(self, _IDS)

    @staticmethod
    def move(unit: str, hex: str | None = None) -> "Action":
        if hex is None:
            found = _CHOOSE.get(unit)
            if found is None:
                found = _CHOOSE[unit] = Action(MOVE, unit=unit)
            return found
        # Made by tuple's own __new__, every field given: the named tuple's keyword __new__ is interpreted Python
        # (a third of the cost), and a unit's first listing on a big map makes a move for every hex it reaches.
        move: Action = _new_tuple(Action, (MOVE, unit, hex, (), (), None, None))
        return move

    @staticmethod
    def exit(unit: str, edge: str) -> "Action":
        return Action(EXIT, unit=unit, edge=edge)

    @staticmethod
    def delay(unit: str) -> "Action":
        return Action(DELAY, unit=unit)

    @staticmethod
    def attack(hex: str, units: tuple[str, ...] = ()) -> "Action":
        if not units:
            found = _TARGETS.get(hex)
            if found is None:
                found = _TARGETS[hex] = Action(ATTACK, hex=hex)
            return found
        return Action(ATTACK, hex=hex, units=tuple(units))

    @staticmethod
    def with_unit(unit: str) -> "Action":
        found = _WITH.get(unit)
        if found is None:
            found = _WITH[unit] = Action(WITH, unit=unit)
        return found

    @staticmethod
    def resolve() -> "Action":
        return _RESOLVE

    @staticmethod
    def cancel() -> "Action":
        return _CANCEL

    @staticmethod
    def fight(hex: str) -> "Action":
        return Action(FIGHT, hex=hex)

    @staticmethod
    def lose(unit: str) -> "Action":
        return Action(LOSE, unit=unit)

    @staticmethod
    def roll(number: int) -> "Action":
        return _ROLLS.get(number) or Action(ROLL, number=number)

    @staticmethod
    def retreat(path: tuple[str, ...]) -> "Action":
        return Action(RETREAT, path=tuple(path))

    @staticmethod
    def advance(unit: str | None = None, hex: str | None = None) -> "Action":
        return Action(ADVANCE, unit=unit, hex=hex) if unit is not None or hex is not None else _DECLINE

    @staticmethod
    def remove(unit: str) -> "Action":
        return Action(REMOVE, unit=unit)

    @staticmethod
    def place(unit: str, hex: str | None = None) -> "Action":
        return Action(PLACE, unit=unit, hex=hex)

    @staticmethod
    def end() -> "Action":
        return _END


# Actions are immutable, so the common ones without arguments are made once.
_END: Final = Action(END)
_DECLINE: Final = Action(ADVANCE)
_ROLLS: Final = {n: Action(ROLL, number=n) for n in range(1, 21)}
_RESOLVE: Final = Action(RESOLVE)
_CANCEL: Final = Action(CANCEL)
_TARGETS: Final[dict[str, Action]] = {}  # hex -> `attack HEX`, made once (hex ids are the same strings in every game)
_WITH: Final[dict[str, Action]] = {}  # unit id -> `with UNIT`
_CHOOSE: Final[dict[str, Action]] = {}  # unit id -> `move UNIT`, a move's first step


def expand(action: Action) -> list[Action]:
    """The steps of an order: a whole battle in the old one-line notation becomes
    `attack HEX`, `with UNIT` for each attacker, `resolve`; any other order is one step."""
    if action.kind == ATTACK and action.units:
        assert action.hex is not None  # `attack HEX with UNIT...`
        return [Action.attack(action.hex), *(Action.with_unit(u) for u in action.units), _RESOLVE]
    return [action]


def compact(actions: list[Action]) -> list[Action]:
    """The inverse of `expand`: each battle declared and resolved without a break (`attack HEX`,
    `with UNIT`..., `resolve`) becomes one `attack HEX with UNIT...` order; the rest stay as they are.
    Saved games store this form, one order a line."""
    out: list[Action] = []
    i = 0
    while i < len(actions):
        action = actions[i]
        if getattr(action, "kind", None) == ATTACK and not action.units:
            j = i + 1
            while j < len(actions) and getattr(actions[j], "kind", None) == WITH:
                j += 1
            if j > i + 1 and j < len(actions) and getattr(actions[j], "kind", None) == RESOLVE:
                assert action.hex is not None  # `attack HEX`; each `with UNIT` names its unit
                out.append(Action.attack(action.hex, tuple(a.unit for a in actions[i + 1:j] if a.unit is not None)))
                i = j + 1
                continue
        out.append(action)
        i += 1
    return out


class _Identity(dict):
    def __missing__(self, key: str) -> str:
        return key


_IDS: Final = _Identity()


class IllegalAction(ValueError):
    """An action the rules forbid here; `rule` is the game's own case reference, if it gives one."""

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(f"illegal ({rule}): {message}" if rule else f"illegal: {message}")
        self.message = message
        self.rule = rule


# Action.move makes a move with every field written out, in order (a field added must be written there too:
# tests/test_engine_api.py compares it with the named tuple's own)
_new_tuple: Any = tuple.__new__


class ActionSyntaxError(ValueError):
    """Text that is not an action at all."""


_NAMES_A_UNIT: Final = frozenset({MOVE, PLACE, EXIT, DELAY, REMOVE, WITH, LOSE})


def format_action(action: Action, name: dict[str, str]) -> str:
    """The text form; `name` maps unit ids to the names players use."""
    kind = action.kind
    if kind in _NAMES_A_UNIT:
        assert action.unit is not None  # (each of these kinds names its unit)
        if (kind == MOVE or kind == PLACE) and action.hex is not None:
            return f"{kind} {name[action.unit]} {action.hex}"
        if kind == PLACE or kind == MOVE:
            return f"{kind} {name[action.unit]}"
        if kind == EXIT:
            return f"exit {name[action.unit]} {action.edge}"
        return f"{kind} {name[action.unit]}"
    if kind == ATTACK:
        if not action.units:
            return f"attack {action.hex}"
        return f"attack {action.hex} with {' '.join(name[u] for u in action.units)}"
    if kind == ROLL:
        return f"roll {action.number}"
    if kind == FIGHT:
        return f"fight {action.hex}"
    if kind == RETREAT:
        return "retreat " + " ".join(action.path)
    if kind == ADVANCE:
        return "advance none" if action.unit is None else f"advance {name[action.unit]} {action.hex}"
    return kind


_USAGE: Final = {
    MOVE: "move UNIT [HEX]", EXIT: "exit UNIT EDGE", DELAY: "delay UNIT", ATTACK: "attack HEX [with UNIT...]",
    WITH: "with UNIT", RESOLVE: "resolve", CANCEL: "cancel", FIGHT: "fight HEX",
    ROLL: "roll N", RETREAT: "retreat HEX [HEX...]", LOSE: "lose UNIT", ADVANCE: "advance UNIT HEX | advance none",
    REMOVE: "remove UNIT", PLACE: "place UNIT [HEX]", END: "end",
}


def parse_words(text: str, unit_id, hex_id) -> Action:
    """Read an action's text; `unit_id(word)` and `hex_id(word)` resolve names or raise ActionSyntaxError."""
    words = text.replace(",", " ").split()
    if not words:
        raise ActionSyntaxError("empty action")
    kind, args = words[0].lower(), words[1:]
    if kind not in _USAGE:
        hint = did_you_mean(kind, list(_USAGE))
        raise ActionSyntaxError(f"unknown action '{words[0]}'" + (f"; {hint}" if hint else f"; actions are {', '.join(_USAGE)}"))

    def need(count: int) -> None:
        if len(args) != count:
            raise ActionSyntaxError(f"expected '{_USAGE[kind]}'")

    if kind == PLACE and len(args) == 1:
        return Action.place(unit_id(args[0]))
    if kind == MOVE and len(args) == 1:
        return Action.move(unit_id(args[0]))
    if kind == MOVE or kind == PLACE:
        need(2)
        return Action(kind, unit=unit_id(args[0]), hex=hex_id(args[1]))
    if kind == EXIT:
        need(2)
        return Action.exit(unit_id(args[0]), args[1].lower())
    if kind in (DELAY, REMOVE, LOSE):
        need(1)
        return Action(kind, unit=unit_id(args[0]))
    if kind == WITH:
        need(1)
        return Action.with_unit(unit_id(args[0]))
    if kind == ATTACK:
        if len(args) == 1:
            return Action.attack(hex_id(args[0]))
        if len(args) < 3 or args[1].lower() != "with":
            raise ActionSyntaxError(f"expected '{_USAGE[kind]}'")
        return Action.attack(hex_id(args[0]), tuple(unit_id(a) for a in args[2:]))
    if kind == FIGHT:
        need(1)
        return Action.fight(hex_id(args[0]))
    if kind == ROLL:
        need(1)
        if not args[0].isdigit():
            raise ActionSyntaxError(f"expected '{_USAGE[kind]}'")
        return Action.roll(int(args[0]))
    if kind == RETREAT:
        if not args:
            raise ActionSyntaxError(f"expected '{_USAGE[kind]}'")
        return Action.retreat(tuple(hex_id(a) for a in args))
    if kind == ADVANCE:
        if len(args) == 1 and args[0].lower() == "none":
            return Action.advance()
        need(2)
        return Action.advance(unit_id(args[0]), hex_id(args[1]))
    need(0)
    return {RESOLVE: _RESOLVE, CANCEL: _CANCEL}.get(kind) or Action.end()
