"""`rulec play`: a game in the terminal, hot-seat, human against AI, or AI against AI.

    rulec play GAME [--scenario S] [--option O ...] [--player SIDE=human|random|greedy|mcts ...]
                    [--seed N] [--save FILE [--force]] [--load FILE] [--turns N] [--no-color]

Sides without a `--player` are played by a human at this terminal. The turn,
phase and VP are shown whenever the phase changes, with the map (every phase
when a human plays, every turn otherwise); every order is told in words as it
is given, and each battle with its odds, column, die roll, result, retreats and
advance. `--turns N` stops after N game turns and prints the result so far.
A game that stops before its end (`quit`, Ctrl-C, end of input, `--turns`) is
always saved: to `--save FILE`, the last `save FILE`, or a new
`rulec-autosave-<game>-<n>.json` (never over an earlier one); if it cannot be
saved anywhere the exit status is 1. A save is written only to a new file or over
a rulec save: never over a device, FIFO, symbolic link or folder, nor over another
file (a game file, say) unless `--force`.
A player's guide is in docs/playing.md.
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
import tempfile
from pathlib import Path
from typing import Any

from rulec.cli import console_commands as console
from rulec.cli.board_view import GameScreen, use_color
from rulec.diagnostics import Diagnostic, DiagnosticError, printable, render
from rulec.pipeline import load_game
from rulec.players import QuitGame
from rulec.cli.arguments import bounded_int
from rulec.check.locate import expression_span
from rulec.players.match import MOST_TURNS_WITHOUT_A_LAST_TURN, ChanceDice, play_match
from rulec.players.base import legal_orders
from rulec.runtime.errors import ExpressionFailed
from rulec.players.saves import SavedGame, check_writable, game_hash, history_strings, read_save, restore, write_save
from rulec.players.setup import PLAYER_KINDS, build_players, check_options, parse_player_specs


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("play", help="play a game in the terminal",
                                   description=__doc__.split("\n\n")[0],
                                   epilog="`rulec info GAME` lists the sides, options and scenarios to choose from; "
                                          "`rulec serve GAME` plays on a board in the browser; docs/playing.md is a guide.")
    parser.add_argument("game", nargs="?", help="a game name in games/ or a game file (not needed with --load)")
    parser.add_argument("--scenario", action="append", default=[], metavar="S",
                        help="a scenario of the game (or an option the rulebook calls a scenario)")
    parser.add_argument("--option", action="append", default=[], metavar="O", help="an optional rule (repeatable)")
    parser.add_argument("--player", action="append", default=[], metavar="SIDE=KIND",
                        help=f"who plays a side: {', '.join(PLAYER_KINDS)} (default human)")
    parser.add_argument("--seed", type=bounded_int("--seed", 0), default=None,
                        help="the seed of the dice and the AI players (default 0)")
    parser.add_argument("--save", metavar="FILE", help="save the game to FILE when it stops")
    parser.add_argument("--force", action="store_true",
                        help="let --save replace a file that is not a rulec saved game (never a device, FIFO, link or folder)")
    parser.add_argument("--load", metavar="FILE", help="go on with a saved game")
    parser.add_argument("--turns", type=bounded_int("--turns", 1), metavar="N", help="stop after N game turns")
    parser.add_argument("--no-color", action="store_true", help="no ANSI colours")
    parser.set_defaults(func=run)


def load_playable_game(name: str) -> Any:
    """The compiled game, if the map engine can play it; a diagnostic (not a traceback) otherwise.

    A game with a map and no sequence of play never gets here: the checker refuses it (no-sequence)."""
    game = load_game(name)
    if game.map is None:
        hint = (f"it is a battle system: rulec battle {name} --side \"SIDE: UNIT, ...\" --side \"SIDE: UNIT, ...\""
                if game.battle is not None else None)
        raise DiagnosticError([Diagnostic("no-map", f"'{name}' has no map, so it cannot be played turn by turn",
                                          hint=hint)])
    return game


def start_state(game: Any, options: tuple[str, ...], seed: int, scenario: str | None = None) -> Any:
    from rulec.engine import new_game
    from rulec.engine.scenarios import ScenarioError

    try:
        return new_game(game, options=options, seed=seed, scenario=scenario)
    except ScenarioError as error:
        raise DiagnosticError([Diagnostic("bad-choice", str(error))]) from None


def split_scenarios(game: Any, names: list[str]) -> tuple[str | None, list[str]]:
    """`--scenario` names: the one scenario block of the game, and the rest (options a rulebook calls scenarios)."""
    scenarios = [n for n in names if n in game.scenarios]
    if len(scenarios) > 1:
        raise DiagnosticError([Diagnostic("bad-choice", f"one scenario at a time: {', '.join(scenarios)}")])
    return (scenarios[0] if scenarios else None), [n for n in names if n not in game.scenarios]


def run(args: argparse.Namespace, stdin=None, stdout=None) -> int:
    out = stdout or sys.stdout
    read_line = _line_reader(stdin, out)
    if args.turns is not None and args.turns < 1:
        print("rulec: error: --turns must be at least 1", file=sys.stderr)
        return 2
    force = getattr(args, "force", False)
    if args.save and (problem := check_writable(args.save, force=force)):
        print(f"rulec: error: {printable(problem)}", file=sys.stderr)
        return 2
    if args.load:
        saved, text = read_save(args.load)
        if args.game and args.game != saved.game:
            print(f"rulec: error: the saved game is '{printable(saved.game)[:200]}', not '{printable(args.game)[:200]}'",
                  file=sys.stderr)
            return 2
        game = load_playable_game(saved.game)
        sides = list(game.sides)
        dice = ChanceDice(saved.seed)
        state = restore(saved, args.load, text, start=start_state, game=game, sides=sides, player_kinds=PLAYER_KINDS,
                        dice=dice)
        kinds = {**saved.players, **parse_player_specs(args.player, sides)}
        seed, options, game_name = saved.seed, tuple(saved.options), saved.game
        if args.seed is not None or args.option or args.scenario:
            print(f"note: a loaded game keeps its own seed ({seed}) and options; --seed, --option and --scenario "
                  "are not used", file=sys.stderr)
    else:
        if not args.game:
            print("rulec: error: name a game to play (or --load a saved one)", file=sys.stderr)
            return 2
        game = load_playable_game(args.game)
        sides = list(game.sides)
        scenario, named = split_scenarios(game, args.scenario)
        options = check_options(game, [*named, *args.option])
        kinds = parse_player_specs(args.player, sides)
        seed = args.seed if args.seed is not None else 0
        game_name = args.game
        state = start_state(game, options, seed, scenario)
        dice = ChanceDice(seed)
    fingerprint = game_hash(game)
    kinds = {side: kinds.get(side, "human") for side in sides}
    # A human wants the map at the start of every phase; AI games only need it each turn.
    map_every = "phase" if "human" in kinds.values() else "turn"
    screen = GameScreen(game, color=use_color(out, args.no_color), out=out, map_every=map_every)

    saved_to: list[str] = [args.save] if args.save else []  # the file this game was last saved to

    def save(_state: Any, path: str) -> bool:
        path = path.strip()
        if not path:
            print("save needs a file name: save FILE", file=out)
            return False
        try:
            write_save(path, SavedGame(game_name, list(options), seed, kinds, history_strings(state), fingerprint,
                                       state.scenario), force=force and path == args.save)
        except DiagnosticError as error:
            for diagnostic in error.diagnostics:
                print(render(diagnostic), file=out)
            return False
        saved_to[:] = [path]
        then = "see it again with: rulec replay" if state.is_terminal() else "go on with: rulec play --load"
        print(printable(f"game saved to {path}; {then} {_quoted(path)}"), file=out)
        return True

    # Who gave each action of the history: a human's orders since the last die roll or AI decision can be undone.
    by_human: list[bool] = [False] * len(state.history())

    def undo(current: Any, rest: str) -> None:
        if not by_human or not by_human[-1]:
            print("nothing to undo: the last action was a die roll or the other player's (or none yet)", file=out)
            return
        raise UndoOrder()

    def look_up(lines_of):
        return lambda current, rest: print("\n".join(lines_of(current, rest)), file=out)

    commands = {"map": lambda s, rest: screen.show_position(s, legend=True), "units": lambda s, rest: screen.show_units(s),
                "save": save, "undo": undo, "odds": look_up(console.odds_lines), "info": look_up(console.info_lines),
                "vp": look_up(console.vp_lines), "rules": look_up(console.rules_lines)}
    completion = _OrderCompletion(list(commands)) if read_line is input else None

    def before_choice(current: Any) -> None:
        screen.flush(current)
        if completion is not None:
            completion.state = current

    players = build_players(kinds, list(state.players), seed, read_line=read_line, out=out, commands=commands,
                            before_choice=before_choice)
    print(screen.title(kinds, options, seed), file=out)
    if state.scenario:
        chosen = game.scenarios[state.scenario]
        print(f"scenario: {chosen.name}" + (f". {chosen.text}" if chosen.text else ""), file=out)
    screen.show_position(state)
    stopped_by_player = False

    def on_action(current: Any, action: Any, seat: int) -> None:
        by_human.append(0 <= seat < len(sides) and kinds.get(current.players[seat]) == "human"
                        and not current.is_chance_node())
        screen.narrate(current, action, seat)

    failure: ExpressionFailed | None = None
    first_turn = state.turn
    while True:
        try:
            turns_left = None if args.turns is None else args.turns - (state.turn - first_turn)
            # The dice roll on from where the saved game stopped: the same dice as a game played straight through.
            result = play_match(state, players, seed=seed, dice=dice, max_turns=turns_left, on_action=on_action)
        except UndoOrder:  # rebuild the game without the human's last order, and go on
            history = state.history()[:-1]
            undone = state.action_to_string(state.history()[-1])
            by_human.pop()
            state = start_state(game, options, seed, state.scenario)
            for action in history:
                state.apply_action(action)
            print(f"undone: {undone}", file=out)
            screen.show_position(state)
            continue
        except QuitGame:  # `quit`, or the end of the input
            stopped_by_player = True
            result = None
        except KeyboardInterrupt:  # Ctrl-C stops like `quit`: the game is still saved
            print(file=out)  # off the line the ^C was echoed on
            stopped_by_player = True
            result = None
        except ExpressionFailed as error:  # an expression of the game file failed: saved, the error shown where it is written
            failure, stopped_by_player, result = error, True, None
        break
    screen.flush(state)
    unfinished = stopped_by_player or not result.finished
    if args.save or unfinished:
        # Nothing is lost: an unfinished game is always written somewhere it can be resumed from.
        # The chosen file first; if that fails, the autosave file here, then in the temporary folder.
        autosave = autosave_path(game_name)
        targets = [*saved_to, autosave, autosave_path(game_name, Path(tempfile.gettempdir()))]
        if not any(save(state, target) for target in dict.fromkeys(targets)):
            print("the game could not be saved anywhere; it is lost", file=out)
            return 1
    if failure is not None:
        print(render(Diagnostic("expression-failed", f"game error: {failure}", expression_span(game.source, failure.source),
                                hint="guard the expression, e.g. with if(...), or fix the game file")), file=sys.stderr)
        return 1
    if stopped_by_player:
        print("game stopped.", file=out)
        return 0
    if not result.finished and args.turns is not None and state.turn - first_turn >= args.turns:
        print(f"stopped after {args.turns} game turn(s).", file=out)
    elif not result.finished:  # (before --turns: a game with no last turn, stopped by play_match)
        print(f"stopped after {MOST_TURNS_WITHOUT_A_LAST_TURN:,} game turns: the game has no last turn, and none of its "
              "sudden deaths came true.", file=out)
    for line in screen.vp_summary(state):
        print(line, file=out)
    print(screen.result_line(state, final=result.finished), file=out)
    return 0


class UndoOrder(Exception):
    """`undo` at the prompt: the game is rebuilt without the human's last order."""


def autosave_path(game_name: str, folder: Path = Path(".")) -> str:
    """A new `rulec-autosave-<game>-<n>.json` in `folder`, for a game stopped without `--save`.

    The name is made of the game's name in letters, digits, '-' and '_' only (a game name
    read from a save never chooses where to write), and never that of an earlier autosave.
    """
    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", Path(game_name).stem)[:60].strip("_") or "game"
    number = 1
    while (folder / f"rulec-autosave-{stem}-{number}.json").exists():
        number += 1
    return str(folder / f"rulec-autosave-{stem}-{number}.json")


def _quoted(path: str) -> str:
    return shlex.quote(path)


def _line_reader(stdin, out):
    """`input()` on a terminal; otherwise read lines from the given stream, echoing them."""
    if stdin is None and sys.stdin.isatty():
        return input

    stream = stdin or sys.stdin

    def read_line(prompt: str) -> str:
        print(prompt, end="", file=out)
        line = stream.readline()
        if not line:
            print(file=out)
            raise EOFError
        print(line.rstrip("\n"), file=out)
        return line

    return read_line


class _OrderCompletion:
    """Tab completion of orders at a terminal: the next word of any legal order (or a command) that
    begins with what is typed. Installed only when the `readline` module exists (it also gives
    line editing and the arrow-key history)."""

    def __init__(self, commands: list[str]):
        self.state: Any = None
        self.commands = ["help", "list", "quit", *commands]
        self._texts: tuple[Any, list[str]] = (None, [])  # (the moment they were listed, the orders)
        try:
            import readline
        except ImportError:  # no readline on this platform: plain input, no completion
            self.readline = None
            return
        self.readline = readline
        readline.set_completer_delims(" ")
        readline.set_completer(self.complete)
        readline.parse_and_bind("tab: complete")

    def _orders(self) -> list[str]:
        if self.state is None:
            return list(self.commands)
        moment = (id(self.state), len(self.state.history()))  # the state changes in place as orders are given
        if self._texts[0] != moment:
            texts = [self.state.action_to_string(a) for a in legal_orders(self.state)]
            self._texts = (moment, texts + list(self.commands))
        return self._texts[1]

    def complete(self, text: str, index: int) -> str | None:
        try:
            typed = self.readline.get_line_buffer()[:self.readline.get_endidx()]
            before = typed[:len(typed) - len(text)]
            words = sorted({order[len(before):].split(" ")[0] for order in self._orders()
                            if order.startswith(before) and order[len(before):].startswith(text)})
            return words[index] + " " if index < len(words) else None
        except Exception:  # a completion slip must never stop the game
            return None
