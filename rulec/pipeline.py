"""The façade: each stage of the pipeline as one call.

    document = parse(path)               # language: text -> document
    game, diagnostics = check(document)  # check: schema, then document -> game model
    source = generate(game)              # compile: game model -> Python source
    load_game("NAME")                    # all of it, for a game in games/ or a path
    load_compiled("generated/NAME.py")   # the model from a generated module

Every problem is a Diagnostic; a DiagnosticError carries them out of the
stage that could not go on. Nothing else should ever escape to a user.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rulec import game_cache
from rulec.check.build import Builder
from rulec.check.constant_faults import check_constant_faults
from rulec.check.names import check_names
from rulec.check.references import check_references
from rulec.check.schema import schema_problems, without
from rulec.diagnostics import Diagnostic, DiagnosticError, SourceFile, Span, did_you_mean, render
from rulec.language.document import Document
from rulec.language.limits import MAX_DIAGNOSTICS_SHOWN
from rulec.language.parse import parse_text
from rulec.runtime.model import Game

ROOT = Path(__file__).resolve().parent.parent
GAMES_DIR = ROOT / "games"
SUFFIX = ".rulec"


def find_game(name_or_path: str) -> Path:
    """A game given as a path, or as its name in games/."""
    try:
        return _find_game(name_or_path)
    except (OSError, ValueError) as error:  # a name too long for the file system, a NUL byte...
        reason = getattr(error, "strerror", None) or str(error)
        raise DiagnosticError([Diagnostic("no-such-file", f"no game file '{_shortened(name_or_path)}': {reason}")]) from None


def _shortened(name: str, width: int = 60) -> str:
    return name if len(name) <= width else f"{name[:width]}... ({len(name)} characters)"


def _find_game(name_or_path: str) -> Path:
    path = Path(name_or_path)
    if path.suffix == SUFFIX or path.exists() or "/" in name_or_path:
        if path.is_dir():
            raise DiagnosticError([Diagnostic("no-such-file", f"'{name_or_path}' is a directory, not a game file")])
        if not path.is_file():
            raise DiagnosticError([Diagnostic("no-such-file", f"no game file '{name_or_path}'")])
        return path
    candidate = GAMES_DIR / f"{name_or_path}{SUFFIX}"
    if candidate.is_file():
        return candidate
    known = sorted(p.stem for p in GAMES_DIR.glob(f"*{SUFFIX}"))
    raise DiagnosticError([Diagnostic("no-such-game", f"no game named '{_shortened(name_or_path)}'", hint=did_you_mean(name_or_path, known)
                                      or (f"games are: {', '.join(known)}" if known else None))])


def display_name(path: Path) -> str:
    """How a game file is named in messages and in generated code: relative to the project when inside it.

    Independent of the working directory, so generated files are the same bytes wherever rulec runs.
    """
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except (ValueError, OSError):
        return str(path)


def parse(path: Path) -> Document:
    """Read and parse a game file; raise DiagnosticError on unreadable files and syntax errors."""
    return _parse_bytes(_read(path), display_name(path))


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        reason = error.strerror or str(error)
        raise DiagnosticError([Diagnostic("unreadable-file", f"cannot read '{display_name(path)}': {reason}")]) from None


def _parse_bytes(data: bytes, name: str) -> Document:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise DiagnosticError([Diagnostic("not-a-game-file", f"'{name}' is not a game file: it is not UTF-8 text "
                                          f"(byte {error.start + 1})", Span(name, 1, 1))]) from None
    return parse_text(text.removeprefix("\ufeff"), name)


def check(document: Document) -> tuple[Game | None, list[Diagnostic]]:
    """The checked game (None if there were errors) and every diagnostic, errors and warnings.

    Every layer reports at once: the schema runs first, then the builder and the
    cross-reference checks run on the document without the values the schema found
    wrong, so that one run shows every error (and no error twice).
    """
    if not document.data:  # one clear message rather than one per required section
        return None, [Diagnostic("missing-field", "this file holds no game: it is empty or only comments", Span(document.file, 1, 1),
                                 hint="a game starts with 'game NAME { title = \"...\" }' and a 'side NAME { ... }' block "
                                      "(see docs/language.md)")]
    try:
        diagnostics, wrong = schema_problems(document)
    except RecursionError:
        return None, [Diagnostic("syntax-too-deep", "values are nested too deeply", Span(document.file, 1, 1))]
    shape_ok = not any(d.is_error for d in diagnostics)
    readable = document if shape_ok else without(document, wrong)
    builder = Builder(readable)
    try:
        game = builder.build()
    except Exception as error:  # a bug in rulec: still shown as a diagnostic, never a traceback
        diagnostics += _not_yet_reported(builder.diagnostics, diagnostics, document, wrong)
        if shape_ok:  # on a document of the wrong shape the builder may give up: the schema said why
            diagnostics.append(Diagnostic("internal-error", f"rulec failed on this file ({type(error).__name__}: {error}); "
                                          "this is a bug in rulec", Span(document.file, 1, 1)))
        diagnostics.sort(key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))
        return None, diagnostics
    later = list(builder.diagnostics)
    later += check_names(readable) + check_constant_faults(readable)
    if game is not None and shape_ok:
        later += check_references(game, document)
    elif builder.game is not None:
        # The model is incomplete (parts with errors are None); its cross-section problems are still
        # worth reporting, but a check tripping over a missing part has nothing to say.
        try:
            later += check_references(builder.game, document)
        except Exception:
            pass
    diagnostics += _not_yet_reported(later, diagnostics, document, wrong)
    diagnostics.sort(key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))
    if any(d.is_error for d in diagnostics):
        return None, diagnostics
    return game, diagnostics


def _not_yet_reported(later: list[Diagnostic], schema: list[Diagnostic], document: Document,
                      wrong: list[tuple]) -> list[Diagnostic]:
    """The builder's and cross-reference diagnostics that the schema has not already given.

    After schema errors the builder's own shape guards (a field missing or unknown, the game block)
    only repeat them in other words, and a problem found at a wrong value, or at the block or
    list it was taken out of (a CRT row that is no die roll leaves that roll without a row),
    is the same mistake seen again.
    """
    if not any(d.is_error for d in schema):
        return later
    said = {(d.code, _at(d.span)) for d in schema}
    seen_again = {_at(document.span(p)) for path in wrong for p in (path, path[:-1]) if p}
    return [d for d in later if d.code not in ("missing-field", "unknown-field", "game-block")
            and (d.code, _at(d.span)) not in said and _at(d.span) not in seen_again]


def _at(span: Span | None) -> tuple[int, int] | None:
    return (span.line, span.column) if span else None


def load_game(name_or_path: str) -> Game:
    """Parse and check a game; raise DiagnosticError if it has errors. A game checked before, from the same bytes
    by the same rulec, is imported from the module kept then (game_cache.py): the same model, without the check."""
    path = find_game(name_or_path)
    data, name = _read(path), display_name(path)
    game = game_cache.kept(data, name)
    if game is not None:
        return game
    game, diagnostics = check(_parse_bytes(data, name))
    if game is None:
        raise DiagnosticError([d for d in diagnostics if d.is_error])
    game_cache.keep(data, name, game)
    return game


def generate(game: Game) -> str:
    """The Python module for a checked game."""
    from rulec.compile.codegen import generate_module

    return generate_module(game)


def load_compiled(path: str | Path) -> Game:
    """Import a module written by `rulec compile` and return its GAME."""
    path = Path(path)
    if not path.is_file():
        raise DiagnosticError([Diagnostic("no-such-file", f"no compiled game '{path}'")])
    try:
        module = game_cache.module_at(path, f"rulec_compiled_{path.stem}")
    except game_cache.NotAModule:
        raise DiagnosticError([Diagnostic("not-a-compiled-game", f"'{path}' is not a Python module")]) from None
    except Exception as error:
        raise DiagnosticError([Diagnostic("not-a-compiled-game", f"cannot import '{path}': {type(error).__name__}: {error}")]) from None
    game = getattr(module, "GAME", None)
    if not isinstance(game, Game):
        raise DiagnosticError([Diagnostic("not-a-compiled-game", f"'{path}' defines no GAME (was it written by rulec compile?)")])
    return game


@dataclass
class CheckedFile:
    """The outcome of checking one game file: never an exception, always diagnostics."""

    name: str  # as given on the command line
    file: str  # the display name used in spans
    text: str | None  # the file's text, to show offending lines
    game: Game | None
    diagnostics: list[Diagnostic]

    @property
    def ok(self) -> bool:
        return self.game is not None and not any(d.is_error for d in self.diagnostics)

    def rendered(self) -> list[str]:
        """Each diagnostic as printed; past MAX_SHOWN, one note counting the rest (they are noise by then)."""
        sources = {self.file: SourceFile(self.file, self.text)} if self.text is not None else {}
        shown = [render(d, sources) for d in self.diagnostics[:MAX_SHOWN]]
        if len(self.diagnostics) > MAX_SHOWN:
            shown.append(render(Diagnostic("limit-diagnostics", f"{len(self.diagnostics) - MAX_SHOWN:,} more diagnostics "
                                           "not shown", Span(self.file, 1, 1), severity="note")))
        return shown


MAX_SHOWN = MAX_DIAGNOSTICS_SHOWN


def check_file(name_or_path: str) -> CheckedFile:
    """Find, parse and check one game, collecting every diagnostic (for `rulec check` and `rulec compile`).

    Never raises: whatever goes wrong, even a bug in rulec (Lark's VisitError included), ends as a diagnostic.
    """
    try:
        return _check_file(name_or_path)
    except Exception as error:
        return CheckedFile(name_or_path, name_or_path, None, None, [Diagnostic(
            "internal-error", f"rulec failed on '{name_or_path}' ({type(error).__name__}: {error}); this is a bug in rulec")])


def _check_file(name_or_path: str) -> CheckedFile:
    try:
        path = find_game(name_or_path)
    except DiagnosticError as error:
        return CheckedFile(name_or_path, name_or_path, None, None, error.diagnostics)
    file = display_name(path)
    try:
        document = parse(path)
    except DiagnosticError as error:
        return CheckedFile(name_or_path, file, _text_or_none(path), None, error.diagnostics)
    except RecursionError:
        return CheckedFile(name_or_path, file, None, None, [Diagnostic("syntax-too-deep", "values are nested too deeply", Span(file, 1, 1))])
    game, diagnostics = check(document)
    return CheckedFile(name_or_path, file, document.text, game, diagnostics)


def _text_or_none(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8").removeprefix("\ufeff")  # as parsed: columns count from after a BOM
    except (OSError, UnicodeDecodeError):
        return None
