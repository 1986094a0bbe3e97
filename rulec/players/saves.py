"""Saved games: versioned JSON, written atomically, checked thoroughly on loading.

    {"format": "rulec-save", "version": 2, "game": "<name in games/>", "game_hash": "<sha256>",
     "options": [...], "seed": 1, "players": {"<side>": "human", ...},
     "history": ["move 357 0204", "roll 4", ...], "checksum": "<sha256>"}

The history holds every action in its readable notation, chance outcomes
included, so a game is rebuilt by replaying it from `new_game(seed=...)`. The
dice are the seed's (rulec.players.match.ChanceDice): a roll in the history
that the seed did not roll is refused, so a save cannot choose its dice.
`game_hash` is the hash of the compiled game: a save of another game, or of
the same game file since edited, is refused rather than replayed to a
different result. `checksum` covers every other field.

Saving goes through rulec.files.write_atomically, so a crash never leaves half
a file nor a temporary file. Loading never changes the file and is linear in the
history; every problem found (a damaged structure, a wrong version, checksum or
game, an unknown option or side, an action that does not parse, is illegal or
rolls a die the seed did not roll) is reported as diagnostics with its
position, never as a traceback. A save names no file to write: only the game to read.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import stat
import threading
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import jsonschema

from rulec.diagnostics import Diagnostic, DiagnosticError, Span, did_you_mean, printable
from rulec.engine.actions import compact, expand
from rulec.files import write_atomically
from rulec.players.match import ChanceDice

SAVE_FORMAT = "rulec-save"
SAVE_VERSION = 2
MAX_SAVE_BYTES = 64 * 2**20  # far more than the longest game: a bigger file is not a save

SCHEMA = {
    "type": "object",
    "required": ["format", "version", "game", "game_hash", "options", "seed", "players", "history", "checksum"],
    "properties": {
        "format": {"const": SAVE_FORMAT},
        "version": {"type": "integer"},
        "game": {"type": "string", "minLength": 1, "maxLength": 4096},
        "game_hash": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        "checksum": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        "options": {"type": "array", "items": {"type": "string"}},
        "seed": {"type": "integer"},
        "players": {"type": "object", "additionalProperties": {"type": "string"}},
        "history": {"type": "array", "items": {"type": "string"}},
        "scenario": {"type": "string", "minLength": 1},
    },
}


@dataclass
class SavedGame:
    game: str  # a name in games/ or a path to a game file
    options: list[str] = field(default_factory=list)
    seed: int = 0
    players: dict[str, str] = field(default_factory=dict)  # side id -> player kind
    history: list[str] = field(default_factory=list)
    game_hash: str = ""  # game_hash() of the compiled game the history was played in
    scenario: str | None = None  # the scenario played, if any (written only then)

    def to_json(self) -> dict[str, Any]:
        data = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "game": self.game, "game_hash": self.game_hash,
                "options": list(self.options), "seed": self.seed, "players": dict(self.players), "history": list(self.history)}
        if self.scenario:
            data["scenario"] = self.scenario
        return {**data, "checksum": checksum(data)}


def checksum(data: dict[str, Any]) -> str:
    """The SHA-256 of a save's fields but the checksum, written canonically."""
    fields = {key: value for key, value in data.items() if key != "checksum"}
    return hashlib.sha256(json.dumps(fields, sort_keys=True, ensure_ascii=True, separators=(",", ":")).encode()).hexdigest()


# game_hash by id(game), dropped with the game: a compiled game never changes, and generating its module
# in several threads at once trips CPython 3.11's ast module ("AST constructor recursion depth mismatch").
_HASHES: dict[int, str] = {}
_HASHES_LOCK = threading.Lock()


def game_hash(game: Any) -> str:
    """The SHA-256 of the compiled game (its generated module, wherever its file lies): what a save was played in."""
    with _HASHES_LOCK:
        known = _HASHES.get(id(game))
        if known is None:
            known = _hash_of(game)
            try:
                weakref.finalize(game, _HASHES.pop, id(game), None)
                _HASHES[id(game)] = known
            except TypeError:  # not weakly referable: worked out each time
                pass
        return known


def _hash_of(game: Any) -> str:
    from rulec.runtime.model import Game

    if isinstance(game, Game):
        from rulec.compile.codegen import generate_module

        text = generate_module(dataclasses.replace(game, source=None))
    else:  # a game of the tests, not compiled from a file
        text = f"{type(game).__module__}.{type(game).__qualname__}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def history_strings(state: Any) -> list[str]:
    """The history one order a line: a battle declared step by step and resolved is one
    `attack HEX with UNIT...` line (replaying reads it back as its steps). A battle whose
    attackers joined out of the game file's order stays one step a line: its one line is read
    back with the attackers in that order (parse_orders), which is another history."""
    game = getattr(state, "game", None)
    order = {uid: i for i, uid in enumerate(getattr(game, "units", None) or ())}
    lines = []
    for action in compact(state.history()):
        steps = expand(action) if getattr(action, "units", None) else [action]
        if len(steps) > 1 and list(action.units) != sorted(action.units, key=lambda u: order.get(u, len(order))):
            lines.extend(state.action_to_string(step) for step in steps)
        else:
            lines.append(state.action_to_string(action))
    return lines


def write_save(path: str | Path, saved: SavedGame, *, force: bool = False) -> None:
    """Write atomically: a temporary file in the same folder, then a rename over the target, which
    must be a new path or a regular file holding a save (any regular file with `force`)."""
    path = Path(path)
    problem = save_target_problem(path, force=force)
    if problem is not None:
        raise DiagnosticError([Diagnostic("save-refused", problem,
                                          hint=None if force else "choose a new file name")])
    data = saved.to_json()
    # One action a line, so that a diagnostic can point at the line of a bad action.
    head = json.dumps({k: v for k, v in data.items() if k != "history"}, indent=2)[:-2]
    lines = [head + ",", '  "history": [']
    lines += [f"    {json.dumps(text)}{',' if i < len(saved.history) - 1 else ''}" for i, text in enumerate(saved.history)]
    lines += ["  ]", "}", ""]
    try:
        write_atomically(path, "\n".join(lines))
    except OSError as error:
        raise DiagnosticError([Diagnostic("save-failed", f"cannot save the game to '{printable(str(path))}': "
                                                         f"{error.strerror or error}")]) from None


def save_target_problem(path: str | Path, *, force: bool = False) -> str | None:
    """Why a save may not replace `path` (None if it may): only a new path or a regular file may be
    written, never a device, FIFO, socket, folder or symbolic link (the rename would replace the link or
    the device itself); and a regular file only if it holds a rulec save (or `force`), so that a slip of
    the keyboard (`--save game.rulec`) never replaces a game file or anything else."""
    path = Path(path)
    shown = printable(str(path))
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"cannot save the game to '{shown}': {(error.strerror or str(error)).lower()}"
    if stat.S_ISLNK(found.st_mode):
        return f"cannot save the game to '{shown}': it is a symbolic link (save to the file it points to, or a new file)"
    if stat.S_ISDIR(found.st_mode):
        return f"cannot save the game to '{shown}': it is a folder"
    if not stat.S_ISREG(found.st_mode):
        return f"cannot save the game to '{shown}': it is not a regular file (a device, FIFO or socket)"
    if not force and found.st_size and not _holds_a_save(path):
        return f"'{shown}' is not a rulec saved game: it is not replaced (rulec play --force replaces it)"
    return None


def _holds_a_save(path: Path) -> bool:
    """The file is a rulec save: it starts as write_save and the board write one, or it is JSON whose
    `format` says so (a save rewritten by another tool, its keys in another order)."""
    try:
        with open(path, "rb") as file:
            if re.match(rb'\s*\{\s*"format"\s*:\s*"rulec-save"', file.read(4096)):
                return True
            file.seek(0)
            data = json.loads(file.read(MAX_SAVE_BYTES + 1))
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("format") == SAVE_FORMAT


def check_writable(path: str | Path, *, force: bool = False) -> str | None:
    """Why a game could not be saved to `path` (None if it looks possible), asked before a game starts
    so that a long game is not played into a file that cannot be written."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if (problem := save_target_problem(path, force=force)) is not None:
        return problem
    if not folder.is_dir():
        return f"cannot save the game to '{path}': no folder '{folder}'"
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return f"cannot save the game to '{path}': permission denied"
    return None


def read_save(path: str | Path) -> tuple[SavedGame, str]:
    """The saved game and the file's text; DiagnosticError with every structural problem.
    Only a regular file is read, and no more than MAX_SAVE_BYTES of it (a FIFO would wait for
    a writer forever, /dev/zero never ends)."""
    path = Path(path)
    try:
        text = _read_regular_file(path).decode("utf-8")
    except UnicodeDecodeError:
        raise DiagnosticError([Diagnostic("unreadable-save", f"'{printable(str(path))}' is not a rulec saved game "
                                                             "(not a text file)")]) from None
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        raise DiagnosticError([Diagnostic("unreadable-save", f"cannot read saved game '{printable(str(path))}': "
                                                             f"{reason}")]) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise DiagnosticError([Diagnostic("damaged-save", f"the saved game is not valid JSON: {error.msg}",
                                          Span(str(path), error.lineno, error.colno))]) from None
    except RecursionError:
        raise DiagnosticError([Diagnostic("damaged-save", "the saved game is not a rulec save (nested too deeply)",
                                          Span(str(path), 1, 1))]) from None
    return checked_save(data, str(path), text), text


def _read_regular_file(path: Path) -> bytes:
    """The bytes of a regular file of at most MAX_SAVE_BYTES; OSError (with a reason) otherwise."""
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO opens at once, and is refused
    try:
        found = os.fstat(handle)
        if stat.S_ISDIR(found.st_mode):
            raise OSError(0, "it is a directory")
        if not stat.S_ISREG(found.st_mode):
            raise OSError(0, "it is not a regular file (a device, a pipe or a socket)")
        if found.st_size > MAX_SAVE_BYTES:
            raise OSError(0, f"it is not a rulec saved game (larger than {MAX_SAVE_BYTES // 2**20} MB)")
        with os.fdopen(handle, "rb") as file:
            handle = -1
            data = file.read(MAX_SAVE_BYTES + 1)
    finally:
        if handle >= 0:
            os.close(handle)
    if len(data) > MAX_SAVE_BYTES:  # it grew while read
        raise OSError(0, f"it is not a rulec saved game (larger than {MAX_SAVE_BYTES // 2**20} MB)")
    return data


def checked_save(data: Any, where: str = "<upload>", text: str = "") -> SavedGame:
    """The SavedGame in `data` (a save's JSON, from a file or the board's upload) after the checks every
    loader applies: the structure, the format version and the checksum; DiagnosticError lists every
    problem (at the field's line when `text` is the file's text). The game itself is checked by `restore`.

    The checksum finds a file damaged (a disk, a transfer, an edit by mistake); it is not a signature:
    anyone can edit a save and work it out again, so a save is trusted as far as the person who sent it."""
    file_span = Span(where, 1, 1)
    if not isinstance(data, dict):
        raise DiagnosticError([Diagnostic("damaged-save", f"'{printable(where)}' is not a rulec saved game "
                                                          "(not a JSON object)", file_span)])
    problems = []
    for error in sorted(jsonschema.Draft202012Validator(SCHEMA).iter_errors(data), key=lambda e: list(e.absolute_path)):
        place = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path).lstrip(".")
        message = _schema_message(error)
        problems.append(Diagnostic("damaged-save", f"{place}: {message}" if place else message, file_span))
    if isinstance(data.get("version"), int) and data["version"] != SAVE_VERSION:
        problems.append(Diagnostic("save-version", f"the file is save format version {data['version']}; "
                                   f"this rulec reads version {SAVE_VERSION}", file_span))
    if not problems and data["checksum"] != checksum(data):
        problems.append(Diagnostic("damaged-save", "the checksum does not match: the file was changed since it was saved",
                                   _field_span(where, text, "checksum")))
    if problems:
        raise DiagnosticError(problems[:20])
    return SavedGame(data["game"], data["options"], data["seed"], data["players"], data["history"], data["game_hash"],
                     data.get("scenario"))


def _schema_message(error: jsonschema.ValidationError) -> str:
    if error.validator == "required":
        return error.message.replace("is a required property", "is missing")
    if error.validator == "const":
        return f"not a rulec saved game (format should be '{SAVE_FORMAT}')"
    return error.message


def restore(saved: SavedGame, path: str | Path, text: str, *, start: Callable[..., Any],
            game: Any, sides: list[str], player_kinds: tuple[str, ...], dice: ChanceDice | None = None) -> Any:
    """Replay a saved game from `start(game, options=, seed=)`; DiagnosticError lists every problem.

    Every roll in the history must be the one `dice` (default: the saved seed's) rolls there;
    `dice` is left having drawn them all, ready to roll on.
    """
    problems: list[Diagnostic] = []
    file_span = Span(str(path), 1, 1)
    if saved.game_hash != game_hash(game):
        raise DiagnosticError([Diagnostic("save-other-game", f"the save was played in another version of '{saved.game}': "
                                          "its game file (or rulec) changed since, so it would replay differently",
                                          _field_span(path, text, "game_hash"),
                                          hint="load it with the game file it was saved with")])
    dice = dice if dice is not None else ChanceDice(saved.seed)
    if dice.drawn:
        raise ValueError("restore needs dice that have drawn nothing yet")
    known_options = list(getattr(game, "options", {}) or {})
    for option in saved.options:
        if option not in known_options:
            problems.append(Diagnostic("unknown-option", f"the game has no option '{option}'", file_span,
                                       hint=did_you_mean(option, known_options)))
    for side, kind in saved.players.items():
        if side not in sides:
            problems.append(Diagnostic("unknown-side", f"the game has no side '{side}'", file_span,
                                       hint=did_you_mean(side, sides) or f"sides are: {', '.join(sides)}"))
        if kind not in player_kinds:
            problems.append(Diagnostic("unknown-player", f"'{side}' is played by '{kind}', not a kind of player",
                                       file_span, hint=did_you_mean(kind, player_kinds)))
    if problems:
        raise DiagnosticError(problems)
    try:
        state = start(game, options=tuple(saved.options), seed=saved.seed,
                      **({"scenario": saved.scenario} if saved.scenario else {}))
    except ValueError as error:
        raise DiagnosticError([Diagnostic("bad-save-setup", f"cannot start the saved game: {error}", file_span)]) from None
    for index, text_action in enumerate(saved.history):
        problem = _apply_saved_action(state, text_action, dice)
        if problem is not None:
            remaining = len(saved.history) - index - 1
            note = f"; the {remaining} later action(s) were not checked" if remaining else ""
            raise DiagnosticError([Diagnostic("bad-save-action", f"history[{index}] '{text_action[:200]}': {problem}{note}",
                                              _history_span(path, text, index))])
    return state


def _apply_saved_action(state: Any, text_action: str, dice: ChanceDice) -> str | None:
    if state.is_terminal():
        return "the game had already ended"
    try:
        # One line may stand for several steps (a whole attack); a die roll must be the seed's.
        parse_orders = getattr(state, "parse_orders", None)
        for action in parse_orders(text_action) if parse_orders else [state.parse_action(text_action)]:
            if state.is_chance_node():
                rolled = dice.roll(state)
                if action != rolled:
                    return (f"the game's seed rolls '{state.action_to_string(rolled)}' here; a save cannot choose its dice")
            state.apply_action(action)
    except ValueError as error:  # ActionSyntaxError / IllegalAction
        message = getattr(error, "message", None) or str(error)
        if hasattr(error, "rule"):  # IllegalAction (any state's): read, and refused by the rules, citing a case or not
            rule = error.rule
            return f"illegal ({rule}): {message}" if rule else f"illegal: {message}"
        return f"does not parse: {message}"
    return None


def _field_span(path: str | Path, text: str, key: str) -> Span:
    """The line of a top-level field in the layout write_save gives the file."""
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip().startswith(f'"{key}"'):
            return Span(str(path), number, len(line) - len(line.lstrip()) + 1)
    return Span(str(path), 1, 1)


def _history_span(path: str | Path, text: str, index: int) -> Span:
    """The line of history item `index` when the file has the layout write_save gives it."""
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        if line.strip().startswith('"history"'):
            target = number + 1 + index
            if target <= len(lines):
                return Span(str(path), target, len(lines[target - 1]) - len(lines[target - 1].lstrip()) + 1)
    return Span(str(path), 1, 1)
