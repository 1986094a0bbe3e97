"""Made-up map games of any size, from benchmarks/made_up_game.py (the scaling benchmark's generator)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def made_up_map_game(columns: int, rows: int, units: int):
    """A compiled game on a `columns` x `rows` map with `units` units, half a side."""
    sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location("made_up_game", BENCHMARKS / "made_up_game.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.compile_text(module.game_text(columns, rows, units))
