"""The façade: each stage of the pipeline as one call.

    document = parse(path)          # language: text -> document
    game = check(document)          # check: document -> game model
    source = generate(game)         # compile: game model -> Python source
    load_game("NAME")               # all of it, for a game in games/ or a path
"""

from __future__ import annotations

from pathlib import Path

from rulec.check.build import Builder
from rulec.diagnostics import Diagnostic, DiagnosticError
from rulec.language.document import Document
from rulec.language.parse import parse_text
from rulec.runtime.model import Game

GAMES_DIR = Path(__file__).resolve().parent.parent / "games"
SUFFIX = ".rulec"


def find_game(name_or_path: str) -> Path:
    """A game given as a path, or as its name in games/."""
    path = Path(name_or_path)
    if path.suffix == SUFFIX or path.exists():
        if not path.is_file():
            raise DiagnosticError([Diagnostic("no-such-file", f"no game file '{name_or_path}'")])
        return path
    candidate = GAMES_DIR / f"{name_or_path}{SUFFIX}"
    if candidate.is_file():
        return candidate
    from rulec.diagnostics import did_you_mean

    known = sorted(p.stem for p in GAMES_DIR.glob(f"*{SUFFIX}"))
    raise DiagnosticError([Diagnostic("no-such-game", f"no game named '{name_or_path}'", hint=did_you_mean(name_or_path, known)
                                      or (f"games are: {', '.join(known)}" if known else None))])


def parse(path: Path) -> Document:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise DiagnosticError([Diagnostic("unreadable-file", f"cannot read '{path}': {error}")]) from None
    return parse_text(text, str(path))


def check(document: Document) -> tuple[Game | None, list[Diagnostic]]:
    """The checked game (None if there were errors) and every diagnostic."""
    builder = Builder(document)
    game = builder.build()
    return game, builder.diagnostics


def load_game(name_or_path: str) -> Game:
    """Parse and check a game; raise DiagnosticError if it has errors."""
    document = parse(find_game(name_or_path))
    game, diagnostics = check(document)
    if game is None:
        raise DiagnosticError([d for d in diagnostics])
    return game
