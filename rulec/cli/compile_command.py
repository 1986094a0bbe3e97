"""`rulec compile GAME... [--out DIR]`: write each game as DIR/NAME.py and DIR/NAME.json.

NAME is the game file's name without `.rulec`. A game with errors is
reported (as `rulec check` would) and nothing is written for it. A module is
imported (from memory) and compared with the checked game before it is
written, and written atomically: a failed compile never leaves a broken or
empty module in place of a good one, and "written" is only said of modules
that import. Files whose content would not change are left untouched. Exit
status: 0 when every game compiled, 1 when some game has errors, 2 on usage errors.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from rulec.cli.check_command import not_found, summary
from rulec.compile.codegen import generate_module
from rulec.compile.json_export import generate_json
from rulec.diagnostics import Diagnostic, printable, render
from rulec.files import write_atomically
from rulec.pipeline import check_file, find_game
from rulec.runtime.model import Game

DEFAULT_OUT = "generated"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("compile", help="compile games into Python modules and JSON",
                                   description="Compile games (paths, or names of games in games/) into DIR/NAME.py and DIR/NAME.json.")
    parser.add_argument("games", nargs="+", metavar="GAME", help="a game file, or the name of a game in games/")
    parser.add_argument("--out", default=DEFAULT_OUT, metavar="DIR", help=f"where to write (default: {DEFAULT_OUT}/)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if problem := unwritable_folder(out):
        print(f"rulec: error: --out {printable(args.out)}: {problem}", file=sys.stderr)
        return 2
    status = 0
    for name in args.games:
        result = check_file(name)
        for text in result.rendered():
            print(text, file=sys.stderr)
        if not result.ok or result.game is None:
            errors = sum(1 for d in result.diagnostics if d.is_error)
            warnings = sum(1 for d in result.diagnostics if d.severity == "warning")
            print(f"{result.file}: {summary(errors, warnings)}, nothing written", file=sys.stderr)
            status = 1 if status == 1 or not not_found(result) else 2  # errors in a game come first
            continue
        stem = find_game(name).stem
        try:
            module, data = generate_module(result.game), generate_json(result.game)
            problem = import_problem(module, result.game)
            if problem:
                raise ValueError(problem)
            for text in (module, data):  # both files can be written, or neither is: never a new .py beside an old .json
                text.encode("utf-8")
        except Exception as error:  # a bug in rulec, reported like any other problem
            print(render(Diagnostic("internal-error", f"rulec could not generate code for {result.file} "
                                    f"({type(error).__name__}: {error}); this is a bug in rulec")), file=sys.stderr)
            status = 1
            continue
        try:
            out.mkdir(parents=True, exist_ok=True)
            written = [path for path, text in ((out / f"{stem}.py", module), (out / f"{stem}.json", data))
                       if write_if_changed(path, text)]
        except OSError as error:
            print(f"rulec: error: cannot write to {printable(str(out))}: {error.strerror or error}", file=sys.stderr)
            return 2
        state = "written " + ", ".join(str(p) for p in written) if written else "up to date"
        print(f"{result.file}: {state}")
    return status


def write_if_changed(path: Path, text: str) -> bool:
    """Write `text` unless the file already holds exactly it; True if written."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    write_atomically(path, text)
    return True


def import_problem(module: str, game: Game) -> str | None:
    """Why the generated `module` would not give back `game` when imported (None if it does)."""
    namespace: dict = {"__name__": f"rulec_compiled_{game.info.id}"}
    try:
        exec(compile(module, f"<{game.info.id}.py>", "exec"), namespace)
    except Exception as error:
        return f"the generated module does not import ({type(error).__name__}: {error})"
    if namespace.get("GAME") != game:
        return "the generated module does not give back the game that was checked"
    return None


def unwritable_folder(out: Path) -> str | None:
    """Why files could not be written into the folder `out` (None when they can, or it can be made)."""
    try:
        if out.exists():
            if not out.is_dir():
                return "it is a file, not a folder"
            if not os.access(out, os.W_OK | os.X_OK):
                return "permission denied"
            return None
        parent = next((p for p in out.parents if p.exists()), Path("."))
        if not parent.is_dir():
            return f"'{printable(str(parent))}' is a file, not a folder"
        if not os.access(parent, os.W_OK | os.X_OK):
            return f"cannot create it in '{printable(str(parent))}': permission denied"
    except OSError as error:
        return error.strerror or str(error)
    return None
