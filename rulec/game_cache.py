"""Checked games kept as the modules `rulec compile` writes, so that loading a game again is an import, not a parse
and a check: a game of a few hundred units takes about 0.55 s of CPU to parse and check, and 3 ms to import once
Python has its bytecode (benchmarks/loading.py).

A game is kept under a key made of the game file's bytes, the name it is shown under (the model records it) and
every source file of rulec (a model made by another checker is never read back: any change to rulec, and so to what
it checks or generates, is a new key). Its module (rulec/compile/codegen.py) rebuilds the same model
(tests/test_compile_generated.py) whose games play the same (tests/test_game_cache.py). Each expression's function
is given back the Python the checker compiled it from (`python_source`), so the kept game generates the same module
again (`rulec compile`, a save's game hash).

A game is kept the second time it is checked: writing its module costs about half a check, which a file loaded
once (a designer's every edit, a test's made-up game) would pay for nothing. At most MOST_KEPT modules are kept,
the least recently loaded dropped first.

The modules live in $RULEC_CACHE_DIR, else $XDG_CACHE_HOME/rulec/games, else ~/.cache/rulec/games, in a directory
of the user's own that no one else may write to (they are imported: Python code). RULEC_CACHE_DIR=off keeps
nothing. Keeping is never a reason to fail: an entry that cannot be read or imported, or holds no game, is a miss
(the game is checked, and kept again), and a directory that cannot be written keeps nothing.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import stat
import sys
import tempfile
from pathlib import Path
from types import ModuleType

from rulec.runtime.model import Game

MOST_KEPT = 128  # modules kept (the biggest game's, a few hundred units, is about 0.3 MB)
OFF = ("", "0", "off", "no", "false")  # values of RULEC_CACHE_DIR that turn keeping off
_RULEC = Path(__file__).resolve().parent
_PYTHON_SOURCES = "_PYTHON_SOURCES"  # a kept module's last line: each expression function's python_source
_SEEN = ".seen"  # an empty file: the game of this key was checked once (the second time, it is kept)
_SOURCES = (".py", ".lark", ".json")  # what the checker and generator are made of (code, grammar, schema)


def kept(data: bytes, name: str) -> Game | None:
    """The game kept for a file of these bytes shown as `name`, or None (not kept, unreadable, or keeping off)."""
    directory = directory_in_use()
    if directory is None:
        return None
    path = directory / f"{_key(data, name)}.py"
    if not path.is_file():
        return None
    game = _imported(path)
    if game is None or game.source != name:  # broken: checked now, and kept again (it was checked twice before)
        _forget(path)
        try:
            (directory / f"{path.stem}{_SEEN}").touch()
        except OSError:
            pass
        return None
    try:
        os.utime(path)  # recently loaded: dropped last
    except OSError:
        pass
    return game


def keep(data: bytes, name: str, game: Game) -> None:
    """Keep the checked `game` of a file of these bytes shown as `name`, if it is the second time it was checked
    (and keeping is on, and the module can be written); then drop the least recently loaded beyond MOST_KEPT.

    The first time, only that it was is noted: writing the module costs about half the check again, which a file
    loaded once (a designer's every edit, a test's made-up game) would pay for nothing."""
    directory = directory_in_use()
    if directory is None:
        return
    key = _key(data, name)
    seen = directory / f"{key}{_SEEN}"
    if not seen.exists():
        try:
            seen.touch()
        except OSError:
            return
        _drop_oldest(directory, _SEEN)
        return
    from rulec.compile.codegen import ModuleWriter  # (only on a miss: the checker's own cost dwarfs it)

    try:
        writer = ModuleWriter(game)
        source = writer.write()
        python = {f.name: getattr(f.expr.function, "python_source") for f in writer.functions}  # (write() has them)
        source += f"\n\n{_PYTHON_SOURCES} = {python!r}\n"
    except Exception:  # a model the generator refuses (its safety check): the game is checked next time, as now
        return
    try:
        handle, temporary = tempfile.mkstemp(suffix=".tmp", dir=directory)
    except OSError:
        return
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(source)
        os.replace(temporary, directory / f"{key}.py")  # whole or not at all, for a reader meanwhile
    except OSError:  # a full disk
        _forget(Path(temporary))
        return
    _forget(seen)
    _drop_oldest(directory, ".py")


def directory_in_use() -> Path | None:
    """The directory games are kept in, made if need be; None when keeping is off or the directory is not the user's
    own (another user could write code there that loading a game would run) or cannot be made."""
    given = os.environ.get("RULEC_CACHE_DIR")
    if given is not None and given.strip().lower() in OFF:
        return None
    try:
        if given is not None:
            directory = Path(given)
        else:
            base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
            directory = Path(base) / "rulec" / "games"
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        return directory if _private(directory) else None
    except (OSError, RuntimeError):  # RuntimeError: no home directory to be found
        return None


def _private(directory: Path) -> bool:
    """Is `directory` the user's own, and writable by no one else?"""
    found = directory.stat()
    if not stat.S_ISDIR(found.st_mode) or found.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    owner = getattr(os, "getuid", None)  # (no owners to compare on Windows)
    return owner is None or found.st_uid == owner()


def _key(data: bytes, name: str) -> str:
    digest = hashlib.sha256(_fingerprint())
    digest.update(name.encode("utf-8", "surrogatepass") + b"\0")
    digest.update(data)
    return digest.hexdigest()[:40]


@functools.cache
def _fingerprint() -> bytes:
    """Every source file of rulec and the Python running it, as one hash (read once a process: a few ms)."""
    digest = hashlib.sha256(sys.version.encode())
    for path in sorted(_RULEC.rglob("*")):
        if path.suffix in _SOURCES and "__pycache__" not in path.parts and path.is_file():
            digest.update(path.relative_to(_RULEC).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.digest()


class NotAModule(ImportError):
    """A file Python does not import as a module (module_at)."""


def module_at(path: Path, name: str) -> ModuleType:
    """The Python file at `path` imported as module `name`, left out of sys.modules (a kept game's, or one `rulec
    compile` wrote: pipeline.load_compiled); raises what importing it raises, NotAModule if it is no Python file."""
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise NotAModule(path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.modules.pop(name, None)


def _imported(path: Path) -> Game | None:
    """The GAME of a kept module, or None if it cannot be imported or holds no game."""
    try:
        module = module_at(path, f"rulec_kept_{path.stem}")
    except Exception:  # truncated, or written by hand: a miss
        return None
    game = getattr(module, "GAME", None)
    python = getattr(module, _PYTHON_SOURCES, None)
    if not isinstance(game, Game) or not isinstance(python, dict):
        return None
    try:
        for function, source in python.items():
            getattr(module, function).python_source = source
    except AttributeError:  # a module not written here
        return None
    return game


def _forget(path: Path) -> None:
    for stale in (path, *path.parent.glob(f"__pycache__/{path.stem}.*.pyc")):
        try:
            stale.unlink()
        except OSError:
            pass


def _drop_oldest(directory: Path, suffix: str) -> None:
    """Of the entries ending in `suffix` (modules, or notes of games checked once), all but the MOST_KEPT most
    recently used."""
    try:
        entries = sorted(directory.glob(f"*{suffix}"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:  # another process dropped one meanwhile: next time
        return
    for path in entries[MOST_KEPT:]:
        _forget(path)
