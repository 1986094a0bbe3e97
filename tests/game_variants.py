"""A made-up game of tests/games/ with a few pieces of its text replaced: a variant that shows one rule, checked
and built like any game file (the tests that pin rules found by planting faults in the engine use them)."""

from __future__ import annotations

from pathlib import Path

from rulec.pipeline import load_game

GAMES = Path(__file__).parent / "games"


def variant(tmp_path: Path, name: str, *changes: tuple[str, str]):
    """tests/games/<name>.rulec with each (old, new) replaced; each old text must be there exactly once."""
    text = (GAMES / f"{name}.rulec").read_text(encoding="utf-8")
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / f"{name}_variant.rulec"
    path.write_text(text, encoding="utf-8")
    return load_game(str(path))
