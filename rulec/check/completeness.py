"""Whole-game checks that a game can be played as written: it has a sequence of play and an end, every CRT row
can be rolled, and what it declares is used.

- no-sequence (an error): a game with a map but no sequence of play cannot be played turn by turn, so every
  entry point (check, compile, aids, play, serve, the editor, the adapters) refuses it alike, rather than the
  engine failing on it later. A battle system, which has no map, needs none;
- no-end (an error): a map game with no last turn (`turns` 0 or left out) and no sudden death never ends:
  every AI game of it (rulec simulate, the AI players) would run for ever; nor does one whose every sudden death
  asks for an option (`option(NAME) and ...`), played without those options, or is `false`. (Whether a sudden death
  can come true in play the checker cannot tell in general: a game with no last turn that has gone on for
  players.match.MOST_TURNS_WITHOUT_A_LAST_TURN turns is stopped by the AIs' games.)
- crt-row-unreachable (a warning): a table row no roll of the die, modified by every die-roll modifier the
  game has, can reach (row 7 on a six-sided die in a game without DRMs: a wrong die, or a DRM forgotten);
- unused-trace, unused-hexside-type, unused-movement-mode, unused-marker (warnings): a declaration nothing in
  the file refers to, so it changes nothing in play (a name misspelt where it should be used, or a rule left out).

A name counts as used where it is written anywhere outside its own block (an expression, an effect, a map
feature, a field): the check stays silent rather than warn of something used in a way it did not foresee.
A movement mode is used where its network lies on some hexside of the map.
"""

from __future__ import annotations

from typing import Any, Iterator

from rulec.diagnostics import Diagnostic
from rulec.language.document import Document
from rulec.runtime.model import Game

COMPLETENESS_CODES = {
    "no-sequence": "a game with a map but no sequence of play, so it cannot be played turn by turn",
    "no-end": "a game with a map but no last turn and no sudden death, so it never ends",
    "crt-row-unreachable": "a warning: a CRT row no roll of the die, with every die-roll modifier of the game, reaches",
    "unused-trace": "a warning: a trace nothing in the game asks for",
    "unused-hexside-type": "a warning: a hexside type on no hexside of the map and named nowhere else",
    "unused-movement-mode": "a warning: a movement mode whose network lies on no hexside of the map",
    "unused-marker": "a warning: a marker nothing in the game puts on, asks for or takes off",
}

# Sections whose blocks declare things that may go unused: section -> (code, what the message calls it).
_DECLARED = {"trace": ("unused-trace", "trace"), "hexside": ("unused-hexside-type", "hexside type"),
             "marker": ("unused-marker", "marker")}


def check_completeness(game: Game, document: Document) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    found += _sequence(game, document)
    found += _endless(game, document)
    found += _unreachable_rows(game, document)
    found += _unused(game, document)
    found += _unused_modes(game, document)
    return found


def _sequence(game: Game, document: Document) -> list[Diagnostic]:
    if game.map is None or game.sequence or _written(document, "sequence"):
        return []  # a sequence written with mistakes is left out of the model: its own errors say why
    return [Diagnostic("no-sequence", "the game has a map but no sequence of play, so it cannot be played turn by turn",
                       document.key_span(("game", game.info.id)), "error",
                       "add a 'sequence { phase NAME { side = SIDE  kind = movement } ... }' block "
                       "(docs/language.md, section 'sequence')")]


def _endless(game: Game, document: Document) -> list[Diagnostic]:
    if game.map is None or game.info.turns > 0:
        return []
    default = game.scenarios.get(game.info.scenario) if game.info.scenario else None
    if default is not None and default.turns:  # the game is always played as a scenario that has a length
        return []
    if game.victory is not None and game.victory.sudden_death:
        return _ended_by_sudden_death(game, document)
    game_path, written = ("game", game.info.id), _block(document, "game", game.info.id).get("turns")
    if written is not None and (type(written) is not int or written != 0):
        return []  # a length written wrong: its own error says why
    span = document.key_span(game_path + ("turns",)) if written is not None else None
    return [Diagnostic("no-end", "the game has no last turn ('turns' left out or 0) and no sudden death, so it never ends",
                       span or document.key_span(game_path), "error",
                       f"give it a length: 'game {game.info.id} {{ turns = N }}' (or a 'victory {{ sudden_death NAME "
                       "{ when = ... } }')")]


def _ended_by_sudden_death(game: Game, document: Document) -> list[Diagnostic]:
    """no-end for a game with no last turn whose every sudden death asks for an option (without them, none fires) or
    never comes true (`when = false`)."""
    victory = document.data.get("victory") if isinstance(document.data, dict) else None
    deaths = victory.get("sudden_death") if isinstance(victory, dict) else None
    if not isinstance(deaths, dict) or not deaths:
        return []
    names: set[str] = set()  # the options the sudden deaths ask for
    for body in deaths.values():
        when = body.get("when") if isinstance(body, dict) else None
        if when is False:
            continue  # `when = false`: it never fires
        tree = when.get("tree") if isinstance(when, dict) else None
        parts = tree[1] if isinstance(tree, list) and len(tree) > 1 and tree[0] == "and" and isinstance(tree[1], list) \
            else [tree]
        if ["name", "false"] in parts:
            continue  # `... and false`
        options = [name for name in map(_option_asked, parts) if name is not None and name in game.options]
        if not options:
            return []  # this sudden death may fire without any option
        names.update(options)
    first = next(iter(deaths))
    where = document.key_span(("victory", "sudden_death", first, "when")) or document.key_span(("game", game.info.id))
    hint = f"give it a length: 'game {game.info.id} {{ turns = N }}', or a sudden death that can come true"
    if not names:
        return [Diagnostic("no-end", "the game has no last turn ('turns' left out or 0) and no sudden death that can "
                                     "come true ('when = false'), so it never ends", where, "error", hint)]
    return [Diagnostic("no-end", f"the game has no last turn ('turns' left out or 0) and every sudden death asks for an "
                                 f"option ({', '.join(sorted(names))}): played without {'it' if len(names) == 1 else 'them'}, "
                                 "it never ends", where, "error", hint)]


def _option_asked(part: Any) -> str | None:
    """The option a part of a condition's `and` asks for, where the part is `option(NAME)`."""
    if (isinstance(part, list) and len(part) >= 3 and part[:2] == ["call", "option"] and isinstance(part[2], list)
            and len(part[2]) == 1 and isinstance(part[2][0], list) and part[2][0][:1] == ["name"]):
        return part[2][0][1]
    return None


def _block(document: Document, section: str, label: str) -> dict:
    """The fields written in one labelled block (empty if it is not a block)."""
    data = document.data if isinstance(document.data, dict) else {}
    block = data.get(section, {}).get(label) if isinstance(data.get(section), dict) else None
    return block if isinstance(block, dict) else {}


def _written(document: Document, section: str) -> bool:
    """Whether the file writes something in a section (an empty block writes nothing)."""
    return isinstance(document.data, dict) and bool(document.data.get(section))


def _drm_reach(game: Game) -> tuple[int, int]:
    """The most a roll can be lowered and raised by the game's die-roll modifiers together (a bound: every
    terrain, hexside and battle modifier at once)."""
    drms = [t.combat_drm for t in game.terrain.values()] + [h.combat_drm for h in game.hexside_types.values()] + \
        [m.drm for m in game.modifiers]
    return sum(d for d in drms if d < 0), sum(d for d in drms if d > 0)


def _unreachable_rows(game: Game, document: Document) -> list[Diagnostic]:
    die = game.info.die
    lower, raise_ = _drm_reach(game)
    low, high = 1 + lower, die + raise_
    found = []
    for table in game.tables.values():
        beyond = sorted(row for row in table.rows if not low <= row <= high)
        if not beyond:
            continue
        rows = ", ".join(map(str, beyond))
        reach = (f"the die is 1..{die} and the game has no die-roll modifier" if (lower, raise_) == (0, 0) else
                 f"rolls of the 1..{die} die with every die-roll modifier of the game run from {low} to {high}")
        path = ("crt", table.id, "rows", str(beyond[0]))
        span = document.key_spans.get(path) or document.key_span(("crt", table.id, "rows", beyond[0])) or \
            document.span(("crt", table.id, "rows"))
        found.append(Diagnostic("crt-row-unreachable", f"table '{table.id}' has row{'s' if len(beyond) > 1 else ''} "
                                f"{rows} that no roll reaches: {reach}", span, "warning",
                                f"check the game's die (die = {die}) and its die-roll modifiers"))
    return found


def _unused(game: Game, document: Document) -> list[Diagnostic]:
    data = document.data if isinstance(document.data, dict) else {}
    found = []
    for section, (code, what) in _DECLARED.items():
        declared = data.get(section)
        if not isinstance(declared, dict):
            continue
        for name in declared:
            if not _named_elsewhere(data, name, (section, name)):
                found.append(Diagnostic(code, f"{what} '{name}' is declared but used nowhere in the game",
                                        document.key_span((section, name)), "warning", _HINTS[section]))
    return found


_HINTS = {"trace": "a trace counts only where an expression asks for it (traced(...), supplied(...)); remove it "
                   "or use it",
          "hexside": "put it on hexsides of the map (map { hexsides NAME { feature = ... } }) or remove it",
          "marker": "a marker counts only where an effect, arrival or hook puts it on or an expression asks for it; "
                    "remove it or use it"}


# Functions that name a declaration without writing its name: supplied(UNIT) is traced(supply, UNIT).
_IMPLIED = {("trace", "supply"): "supplied"}


def _named_elsewhere(data: dict, name: str, own: tuple[str, str]) -> bool:
    names = {name, _IMPLIED.get(own, name)}
    return any(text in names and path[:2] != own for path, text in _strings(data, ()))


def _strings(value: Any, path: tuple) -> Iterator[tuple[tuple, str]]:
    """Every text of the document (keys, values, names in expression trees) with the path it is under."""
    stack = [(value, path)]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            yield path, value
        elif isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str):
                    yield path + (key,), key
                stack.append((item, path + (key,)))
        elif isinstance(value, (list, tuple)):
            stack.extend((item, path + (index,)) for index, item in enumerate(value))


def _unused_modes(game: Game, document: Document) -> list[Diagnostic]:
    if game.map is None or not game.modes:
        return []
    on_map = {f for features in game.map.hexside_features.values() for f in features}
    on_map.update(f for exits in game.map.edge_exits.values() for features in exits.values() for f in features)
    return [Diagnostic("unused-movement-mode", f"movement mode '{mode.id}' follows hexside type '{mode.network}', "
                       "which lies on no hexside of the map, so no unit ever moves in it",
                       document.key_span(("mode", mode.id)), "warning",
                       f"put '{mode.network}' on hexsides of the map (map {{ hexsides NAME {{ feature = "
                       f"{mode.network} ... }} }})")
            for mode in game.modes.values() if mode.network not in on_map]
