"""The promise to users: a new game is a new file in games/, never new engine code.

So no file under rulec/ may name a particular game, side, place or unit. The
names to look for are read from the game files themselves.
"""

from __future__ import annotations

import re
from pathlib import Path

from rulec.pipeline import GAMES_DIR, SUFFIX, load_game

ROOT = Path(__file__).resolve().parent.parent
SOURCE_SUFFIXES = {".py", ".lark", ".j2", ".html", ".css", ".json"}


def _game_specific_names() -> set[str]:
    names: set[str] = set()
    for path in sorted(GAMES_DIR.glob(f"*{SUFFIX}")):
        game = load_game(str(path))
        names.add(game.info.id)
        names.update(word for word in re.findall(r"[A-Za-z]{4,}", game.info.title))
        for side in game.sides.values():
            names.update(n for n in (side.name, side.adjective) if len(n) >= 4)
        names.update(u for u in game.units if len(u) >= 4)
        if game.map:
            names.update(game.map.places.values())
            names.update(game.map.zones)
            names.update(s.name for s in game.map.hexside_sets if s.name)
    generic = {"Drive", "Game", "Battle", "Resolution", "Games", "Matrix", "Second", "Edition", "Home", "Before", "Leaves", "Fall"}
    return {n for n in names if n not in generic}


def test_engine_names_no_game():
    names = _game_specific_names()
    assert names, "expected to read names from games/"
    pattern = re.compile(r"\b(" + "|".join(re.escape(n) for n in sorted(names)) + r")\b", re.IGNORECASE)
    offenders = []
    for path in sorted((ROOT / "rulec").rglob("*")):
        if path.suffix in SOURCE_SUFFIXES and path.is_file():
            for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                match = pattern.search(line)
                if match:
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)!r}")
    assert not offenders, "rulec/ names a particular game:\n" + "\n".join(offenders)
