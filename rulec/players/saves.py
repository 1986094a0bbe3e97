"""Saved games: versioned JSON, written atomically, checked thoroughly on loading.

    {"format": "rulec-save", "version": 1, "game": "<name in games/>",
     "options": [...], "seed": 1, "players": {"<side>": "human", ...},
     "history": ["move 357 0204", "roll 4", ...]}

The history holds every action in its readable notation, chance outcomes
included, so a game is rebuilt by replaying it from `new_game(seed=...)`.
Saving writes a temporary file beside the target and renames it, so a crash
never leaves half a file. Loading never changes the file; every problem found
(a damaged structure, a wrong version, an unknown game, option or side, an
action that no longer parses or is illegal at its step) is reported at once as
diagnostics, never as a traceback.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import jsonschema

from rulec.diagnostics import Diagnostic, DiagnosticError, Span, did_you_mean
from rulec.engine.actions import compact

SAVE_FORMAT = "rulec-save"
SAVE_VERSION = 1

SCHEMA = {
    "type": "object",
    "required": ["format", "version", "game", "options", "seed", "players", "history"],
    "properties": {
        "format": {"const": SAVE_FORMAT},
        "version": {"type": "integer"},
        "game": {"type": "string", "minLength": 1},
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
    scenario: str | None = None  # the scenario played, if any (written only then, so older saves read the same)

    def to_json(self) -> dict[str, Any]:
        data = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "game": self.game, "options": list(self.options),
                "seed": self.seed, "players": dict(self.players), "history": list(self.history)}
        return {**data, "scenario": self.scenario} if self.scenario else data


def history_strings(state: Any) -> list[str]:
    """The history one order a line: a battle declared step by step and resolved is one
    `attack HEX with UNIT...` line (replaying reads it back as its steps)."""
    return [state.action_to_string(action) for action in compact(state.history())]


def write_save(path: str | Path, saved: SavedGame) -> None:
    """Write atomically: a temporary file in the same folder, then a rename over the target."""
    path = Path(path)
    data = saved.to_json()
    # One action a line, so that a diagnostic can point at the line of a bad action.
    head = json.dumps({k: v for k, v in data.items() if k != "history"}, indent=2)[:-2]
    lines = [head + ",", '  "history": [']
    lines += [f"    {json.dumps(text)}{',' if i < len(saved.history) - 1 else ''}" for i, text in enumerate(saved.history)]
    lines += ["  ]", "}", ""]
    try:
        directory = path.parent if str(path.parent) else Path(".")
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write("\n".join(lines))
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as error:
        raise DiagnosticError([Diagnostic("save-failed", f"cannot save the game to '{path}': {error.strerror or error}")]) from None


def check_writable(path: str | Path) -> str | None:
    """Why a game could not be saved to `path` (None if it looks possible), asked before a game starts
    so that a long game is not played into a file that cannot be written."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        return f"cannot save the game to '{path}': it is a folder"
    if not folder.is_dir():
        return f"cannot save the game to '{path}': no folder '{folder}'"
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return f"cannot save the game to '{path}': permission denied"
    return None


def read_save(path: str | Path) -> tuple[SavedGame, str]:
    """The saved game and the file's text; DiagnosticError with every structural problem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise DiagnosticError([Diagnostic("unreadable-save", f"'{path}' is not a rulec saved game (not a text file)")]) from None
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        raise DiagnosticError([Diagnostic("unreadable-save", f"cannot read saved game '{path}': {reason}")]) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise DiagnosticError([Diagnostic("damaged-save", f"the saved game is not valid JSON: {error.msg}",
                                          Span(str(path), error.lineno, error.colno))]) from None
    if not isinstance(data, dict):
        raise DiagnosticError([Diagnostic("damaged-save", f"'{path}' is not a rulec saved game (not a JSON object)",
                                          Span(str(path), 1, 1))])
    problems = []
    for error in sorted(jsonschema.Draft202012Validator(SCHEMA).iter_errors(data), key=lambda e: list(e.absolute_path)):
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path).lstrip(".")
        message = _schema_message(error)
        problems.append(Diagnostic("damaged-save", f"{where}: {message}" if where else message, Span(str(path), 1, 1)))
    if isinstance(data, dict) and isinstance(data.get("version"), int) and data["version"] != SAVE_VERSION:
        problems.append(Diagnostic("save-version", f"the file is save format version {data['version']}; "
                                   f"this rulec reads version {SAVE_VERSION}", Span(str(path), 1, 1)))
    if problems:
        raise DiagnosticError(problems)
    saved = SavedGame(data["game"], data["options"], data["seed"], data["players"], data["history"], data.get("scenario"))
    return saved, text


def _schema_message(error: jsonschema.ValidationError) -> str:
    if error.validator == "required":
        return error.message.replace("is a required property", "is missing")
    if error.validator == "const":
        return f"not a rulec saved game (format should be '{SAVE_FORMAT}')"
    return error.message


def restore(saved: SavedGame, path: str | Path, text: str, *, start: Callable[..., Any],
            game: Any, sides: list[str], player_kinds: tuple[str, ...]) -> Any:
    """Replay a saved game from `start(game, options=, seed=)`; DiagnosticError lists every problem."""
    problems: list[Diagnostic] = []
    file_span = Span(str(path), 1, 1)
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
        problem = _apply_saved_action(state, text_action)
        if problem is not None:
            remaining = len(saved.history) - index - 1
            note = f"; the {remaining} later action(s) were not checked" if remaining else ""
            raise DiagnosticError([Diagnostic("bad-save-action", f"history[{index}] '{text_action}': {problem}{note}",
                                              _history_span(path, text, index))])
    return state


def _apply_saved_action(state: Any, text_action: str) -> str | None:
    if state.is_terminal():
        return "the game had already ended"
    try:
        parse_orders = getattr(state, "parse_orders", None)  # one line may stand for several steps (an attack)
        for action in parse_orders(text_action) if parse_orders else [state.parse_action(text_action)]:
            state.apply_action(action)
    except ValueError as error:  # ActionSyntaxError / IllegalAction
        rule = getattr(error, "rule", None)
        message = getattr(error, "message", None) or str(error)
        return f"illegal ({rule}): {message}" if rule else f"does not parse: {message}"
    return None


def _history_span(path: str | Path, text: str, index: int) -> Span:
    """The line of history item `index` when the file has the layout write_save gives it."""
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        if line.strip().startswith('"history"'):
            target = number + 1 + index
            if target <= len(lines):
                return Span(str(path), target, len(lines[target - 1]) - len(lines[target - 1].lstrip()) + 1)
    return Span(str(path), 1, 1)
