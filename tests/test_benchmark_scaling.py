"""The scaling and greedy benchmarks still run (at tiny sizes), and the made-up game they play is the game it says.

Not a timed test: speed is read from the benchmark's own output by a person.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _module(name: str):
    sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_made_up_game_has_the_size_asked_for_and_plays():
    made_up = _module("made_up_game")
    from rulec.engine import new_game

    game = made_up.compile_text(made_up.game_text(columns=12, rows=7, units=10))
    assert len(game.map.hexes) == 12 * 7
    assert sorted(u.side for u in game.units.values()) == ["east"] * 5 + ["west"] * 5
    assert {a.trigger.kind for a in game.awards} >= {"holds", "exits", "phase", "eliminated"}
    state = new_game(game)
    assert any(a.kind == "move" for a in state.legal_actions())


def test_quick_scaling_run_prints_a_row_per_size(capsys):
    scaling = _module("scaling")
    assert scaling.main(["--quick"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[-4:] == ["us/action", "x", "fewest", "us/move"]
    expected = [(c * r, u) for c, r, u in scaling.sizes(quick=True)]
    rows = [line.split() for line in lines[1:1 + len(expected)]]
    assert [(int(row[0]), int(row[1])) for row in rows] == expected
    for row in rows:
        compile_s, load_s, peak_mb, per_action, growth, per_move = map(float, row[2:8])
        assert compile_s > 0 and load_s >= 0 and peak_mb > 0 and per_action > 0 and growth > 0
        assert per_move > per_action  # a move is one action of several a game makes
    # Each map's row with the fewest units is the one the others' growth is measured from.
    assert [float(row[6]) for row in rows if int(row[1]) == min(u for _, u in expected)] == [1.0] * 2
    # The growth from the fewest units to the most, on the map where the most fit, against the aim.
    growth = lines[1 + len(expected)]
    assert growth.startswith("this: µs per action from 4 to 8 units (72 hexes): x") and "aim at most x2" in growth


def test_the_made_up_game_in_older_words_replaces_every_line_it_knows():
    """20317e9 measured side by side (--against) reads the combat lines in its own words: each of them is still
    in the game text, or the older words would silently stop being used."""
    made_up = _module("made_up_game")
    text = made_up.game_text(columns=8, rows=6, units=8)
    older = made_up.in_older_words(text)
    for new, old in made_up.OLDER_WORDS.items():
        assert new in text and new not in older and old in older


def test_quick_greedy_run_prints_decision_times(capsys):
    greedy = _module("greedy")
    assert greedy.main(["--quick", "--game", "drive_on_metz"]) == 0
    out = capsys.readouterr().out
    assert "made-up game (48 hexes, 8 units)" in out and "drive_on_metz (99 hexes, 21 units)" in out
    timings = [float(line.split(":")[1].split()[0]) for line in out.splitlines() if "ms per greedy decision" in line]
    assert len(timings) == 2 and all(t > 0 for t in timings)
