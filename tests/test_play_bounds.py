"""Games that pass `check` stay bounded in play: a movement allowance past what the map can use is a warning
and played as the most a move can use (also when modifiers raise it in play); quantifiers nested past a
budget of work are refused by the checker."""

from __future__ import annotations

import re
import resource
import subprocess
import sys
import time
from pathlib import Path


from rulec.engine import new_game
from rulec.pipeline import check_file
from rulec.runtime.bounds import MAX_ALLOWANCE, largest_step, useful_allowance

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TINY = (HERE / "bad_games" / "ok_designer_tiny.rulec").read_text(encoding="utf-8")


def _checked(tmp_path, text: str, name: str = "g.rulec"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return check_file(str(path))


def test_the_bound_is_the_longest_path_times_the_dearest_step(tmp_path):
    result = _checked(tmp_path, TINY)
    game = result.game
    # clear 1 + forest 2 + city (as other) 0 + the river's crossing 0 + 1 (a step costs at least 1 MP).
    assert largest_step(game) == 4 and useful_allowance(game) == (25 - 1) * 4


def test_a_huge_allowance_is_a_warning_and_played_as_the_bound(tmp_path):
    result = _checked(tmp_path, TINY.replace("strength = 3  move = 3  setup = 0101", "strength = 3  move = 1000000000  setup = 0101"))
    assert result.ok
    (warning,) = [d for d in result.diagnostics if d.code == "move-beyond-map"]
    assert warning.severity == "warning" and warning.span.line == TINY.splitlines().index(
        next(line for line in TINY.splitlines() if line.startswith("unit r1"))) + 1
    assert "1,000,000,000" in warning.message and "played as 96" in warning.message
    game = result.game
    assert game.units["r1"].move == 96
    state = new_game(game, seed=1)
    started = time.monotonic()
    reach = {a.hex for a in state.moves_of("r1") if a.kind == "move"}
    assert time.monotonic() - started < 10
    # With every MP a move can use, r1 reaches every hex a unit with 24 MP reaches.
    wide = new_game(_checked(tmp_path, TINY.replace("strength = 3  move = 3  setup = 0101",
                                                    "strength = 3  move = 24  setup = 0101"), "w.rulec").game, seed=1)
    assert reach == {a.hex for a in wide.moves_of("r1") if a.kind == "move"} and len(reach) > 10


def test_an_allowance_a_modifier_raises_past_the_bound_is_cut_in_play(tmp_path):
    text = TINY + '\nmodifier fast { applies = unit  when = side == red  move_plus = 1000000000 }\n'
    result = _checked(tmp_path, text)
    assert result.ok, [d.message for d in result.diagnostics]
    state = new_game(result.game, seed=1)
    assert state.allowance("r1") == useful_allowance(result.game) == 96


def test_play_with_a_billion_mp_ends_in_bounded_time_and_memory(tmp_path):
    """The command `rulec simulate` of a game with move = 1000000000 (once out of memory after 34 s)."""
    (tmp_path / "g.rulec").write_text(TINY.replace("strength = 3  move = 3  setup = 0101",
                                                   "strength = 3  move = 1000000000  setup = 0101"), encoding="utf-8")

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))

    run = subprocess.run([sys.executable, "-m", "rulec", "simulate", "g.rulec", "-n", "2", "--jobs", "1"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120, preexec_fn=limit_memory,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr[-2000:]
    assert re.search(r"^2 games of Bridge at Ostburg", run.stdout, re.M)


def _map_of(columns: int, rows: int) -> str:
    """TINY on a bigger map: columns x rows hexes of clear terrain but the places it names."""
    lines = ["       " + " ".join(f"{c:02d}" for c in range(1, columns + 1))]
    lines += [f"    {r:02d} " + " ".join(" C" for _ in range(columns)) for r in range(1, rows + 1)]
    old = TINY[TINY.index("  terrain = <<"):TINY.index(">>") + 2]
    return TINY.replace("columns = 1..5", f"columns = 1..{columns}").replace("rows = 1..5", f"rows = 1..{rows}") \
        .replace(old, "  terrain = <<\n" + "\n".join(lines) + "\n  >>") \
        .replace("south = 0105..0505", f"south = 01{rows:02d}..05{rows:02d}")


NESTED_2 = "count(a in hexes() where count(b in hexes() where b == a) > 0)"
NESTED_3 = "count(a in hexes() where count(b in hexes() where count(c in hexes() where c == b) > 0) > 0)"


def test_quantifiers_nested_past_the_budget_are_refused_at_their_place(tmp_path):
    big = _map_of(20, 20)  # 400 hexes: three nested quantifiers visit 64,000,000
    result = _checked(tmp_path, big.replace("amount = 8 - turn", f"amount = {NESTED_3}"))
    (error,) = [d for d in result.diagnostics if d.code == "limit-quantifier-work"]
    assert not result.ok and "64,000,000" in error.message
    assert big.replace("amount = 8 - turn", f"amount = {NESTED_3}").splitlines()[error.span.line - 1].lstrip().startswith("amount")


def test_quantifiers_within_the_budget_and_small_sets_are_accepted(tmp_path):
    big = _map_of(20, 20)
    assert _checked(tmp_path, big.replace("amount = 8 - turn", f"amount = {NESTED_2}")).ok  # 160,000
    # A hex's neighbours are a handful, whatever the map: nested three deep they cost little.
    small = "count(a in hexes() where count(b in neighbours(a) where count(c in neighbours(b) where c == a) > 0) > 0)"
    assert _checked(tmp_path, big.replace("amount = 8 - turn", f"amount = {small}"), "s.rulec").ok


def test_the_absolute_cap_applies_when_costs_are_expressions():
    class NoMap:
        map = None

    assert useful_allowance(NoMap()) == MAX_ALLOWANCE
