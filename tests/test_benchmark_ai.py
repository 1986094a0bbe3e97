"""benchmarks/ai.py and benchmarks/playouts.py still run (on small games) and print what they say they measure.

Not timed tests: the figures are read by a person; these check the rows and that a game is played as described.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
SMALL_GAME = str(ROOT / "tests" / "games" / "two_steps.rulec")


def _module(name: str):
    sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ai_benchmark_plays_mcts_games_to_their_end_and_times_greedy(capsys):
    ai = _module("ai")
    assert ai.main(["--game", SMALL_GAME, "-n", "2"]) == 0
    out = capsys.readouterr().out
    games = [line for line in out.splitlines() if line.strip().startswith("seed ")]
    assert len(games) == 2 and all(line.endswith("ended") for line in games)
    assert "ms a decision on average" in out
    assert any(line.strip().startswith("in ") and "phases:" in line for line in out.splitlines())  # by phase kind


def test_ai_benchmark_against_a_commit_says_first_how_long_a_game_may_take(capsys):
    """--against measures both trees in turns, each MCTS game capped by --max-seconds: said before anything is measured
    (a reference whose MCTS never ends a game, as 7740628's, takes the whole cap), then both rows and the ratios."""
    ai = _module("ai")
    assert ai.main(["--game", SMALL_GAME, "-n", "1", "--max-seconds", "30", "--against", "HEAD"]) == 0
    captured = capsys.readouterr()
    assert captured.err.startswith("measuring this tree, then ") and "stopped after 30 CPU s" in captured.err
    assert "(this, " in captured.out and "(reference, " in captured.out and "MCTS game, seed 1: x" in captured.out


def test_ai_benchmark_splits_greedy_time_by_the_kind_of_phase():
    ai = _module("ai")
    found = ai.by_phase([0.001, 0.003, 0.004], ["movement", "combat", "movement"])
    assert found["movement"][:2] == [2, 2.5] and found["combat"][:2] == [1, 3.0]
    assert abs(found["movement"][2] - 0.625) < 1e-9 and abs(found["combat"][2] - 0.375) < 1e-9


def test_ai_benchmark_stops_a_game_at_its_cpu_bound_and_says_so(capsys):
    ai = _module("ai")
    assert ai.main(["--game", SMALL_GAME, "-n", "1", "--max-seconds", "0", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["mcts_finished"] == [False] and found["mcts_actions"] == [0]  # stopped before its first action
    ai.report(found)
    assert "NOT ENDED (stopped in turn 1)" in capsys.readouterr().out


def test_playouts_measure_both_random_policies_listed_and_sampled(capsys):
    playouts = _module("playouts")
    playouts.main(["--game", "drive_on_metz", "-n", "2", "--json"])
    found = json.loads(capsys.readouterr().out)
    assert found["whole_orders_only"] is False and found["samplers"] is True
    assert len({playouts.FIRST_SEED[policy] for policy in playouts.MEASURED}) == len(playouts.MEASURED)  # own seeds
    for policy in playouts.MEASURED:  # each policy listed, and drawn by its sampler
        row = found[policy]
        assert row["playouts_per_s"] > 0 and row["us_per_action"] > 0
        assert row["actions_per_game"] >= row["moves_per_game"] + row["battles_per_game"] and row["moves_per_game"] > 0


def test_a_playout_counts_its_moves_and_battles(metz):
    playouts = _module("playouts")
    from rulec.engine import new_game

    # The 'orders' policy gives each move at once: every move is one action, none a unit chosen and put back.
    actions, moves, battles = playouts.playout(metz, 3, "orders")
    assert 0 < moves < actions and 0 < battles < actions
    state = new_game(metz, seed=3)
    assert len(playouts.choices(state, "orders")) > len(playouts.choices(state, "actions"))  # moves by where they end


def test_playouts_against_a_commit_measure_each_policy_on_both_sides(capsys):
    """--against REV (here HEAD, over two rounds): each policy's row for this tree and the reference, and ratios."""
    playouts = _module("playouts")
    playouts.main(["--game", "drive_on_metz", "-n", "1", "--against", "HEAD", "--rounds", "2"])
    out = capsys.readouterr().out
    for policy in playouts.MEASURED:
        assert f"policy '{policy}'" in out
    assert out.count("  this (") == 4 and out.count("  reference (") == 4
    assert out.count("ratio this/reference: x") == 4 and out.count("as many moves") == 4
    assert "drawn by sample_legal_order()" in out and "no sampler" not in out  # (HEAD has the samplers)


def test_a_reference_that_cannot_measure_says_why_without_a_traceback(capsys):
    """20317e9 has no tests/games/two_steps.rulec: --against says so in one line."""
    playouts = _module("playouts")
    playouts.main(["--game", "tests/games/two_steps.rulec", "-n", "1", "--against", "20317e9", "--rounds", "1"])
    out = capsys.readouterr().out.strip()
    # git abbreviates a commit to as many digits as the clone's object count asks: 20317e9 here, 20317e99 elsewhere.
    short = _module("reference").describe("20317e9")
    assert short.startswith("20317e9")
    assert out.startswith(f"tests/games/two_steps.rulec: not measured against {short}: ") and "\n" not in out
    assert "two_steps" in out.split(": not measured", 1)[1]


def test_the_compiled_benchmark_times_an_ais_decisions_in_the_same_games():
    """benchmarks/compiled.py --ai: an AI's CPU per decision, and a digest of its games, the same for the same tree
    (what the side by side compares between pure Python and the compiled build)."""
    compiled = _module("compiled")
    one = compiled.measure_ai(SMALL_GAME, "greedy", 4)
    other = compiled.measure_ai(SMALL_GAME, "greedy", 4)
    assert 0 < one["decisions"] <= 4 * 2 and one["ms_per_decision"] > 0
    assert one["games"] == other["games"] and one["decisions"] == other["decisions"]
    assert compiled.measure_ai(SMALL_GAME, "greedy", 1)["games"] != one["games"]  # fewer decisions: other games


def test_playouts_by_kind_count_every_action_a_game_played(metz):
    """--by-kind: the actions of each kind a game averages add up to the game's actions (those playout() counts for
    the same seed and policy), first steps and chance apart; its shares add up to the whole game."""
    playouts = _module("playouts")
    for policy in ("orders", "actions, sampled"):
        found = playouts.by_kind(metz, 1, policy, first_seed=3)
        kinds = {kind: row for kind, row in found.items() if kind != "(game)"}
        actions, moves, battles = playouts.playout(metz, 3, policy)
        assert sum(row["per_game"] for row in kinds.values()) == actions
        assert kinds["die roll"]["per_game"] == battles
        assert kinds.get("move", {"per_game": 0})["per_game"] + kinds.get("exit", {"per_game": 0})["per_game"] == moves
        assert ("move (unit chosen)" in kinds) == (policy == "actions, sampled")  # whole orders choose no unit first
        assert abs(sum(row["share"] for row in kinds.values()) - 1) < 1e-9 and found["(game)"]["ms"] > 0
        assert all(row["choose_us"] >= 0 and row["apply_us"] >= 0 for row in kinds.values())


def test_playouts_by_kind_against_a_commit_prints_both_trees_side_by_side(capsys):
    playouts = _module("playouts")
    playouts.main(["--game", "drive_on_metz", "-n", "1", "--policy", "orders", "--by-kind", "--against", "HEAD"])
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if "| this (" in line)
    assert "| reference (" in header and "policy 'orders'" in out
    move = next(line for line in out.splitlines() if line.strip().startswith("move "))
    assert move.count("µs") == 4 and move.count("|") == 2  # choose and apply, for each tree
    assert "as fast" in next(line for line in out.splitlines() if line.strip().startswith("a game"))


def test_the_compiled_benchmark_tells_whether_two_runs_played_the_same_games():
    """benchmarks/compiled.py's measure: a digest of every action its games played, the same for the same games
    (what --against and the pure-against-compiled side by side compare), another for other games; its policies are
    playouts.py's."""
    compiled, playouts = _module("compiled"), _module("playouts")
    assert compiled.POLICIES == playouts.MEASURED
    one = compiled.measure(SMALL_GAME, 0.0, "orders, sampled", 3)
    assert one["played"] == 3 and one["playouts_per_s"] > 0
    assert compiled.measure(SMALL_GAME, 0.0, "orders, sampled", 3)["games"] == one["games"]
    assert compiled.measure(SMALL_GAME, 0.0, "orders, sampled", 2)["games"] != one["games"]  # fewer games
    assert compiled.measure(SMALL_GAME, 0.0, "actions", 3)["games"] != one["games"]  # another policy's


def test_the_compiled_benchmark_against_a_commit_without_a_compiled_engine_says_so(capsys):
    """--against REV builds REV's compiled engine: not without this tree's built, nor for a commit older than it
    (20317e9), each said before anything is built; an AI's decisions are not what --against measures."""
    compiled = _module("compiled")
    compiled.main(["--engine"])  # which engine a tree runs, as run_engine asks it in the tree's own process
    assert json.loads(capsys.readouterr().out) == {"engine": compiled._engine()}
    compiled.run_engine = lambda tree, wanted, args: {"engine": "pure Python"}  # as in a checkout never built
    with pytest.raises(SystemExit, match="this tree's engine is pure Python, not compiled: build it"):
        compiled.main(["--against", "HEAD", "--games", SMALL_GAME, "--seconds", "1", "--rounds", "1"])
    compiled.run_engine = lambda tree, wanted, args: {"engine": "compiled (mypyc)"}  # as if this tree were built
    with pytest.raises(SystemExit) as stopped:
        compiled.main(["--against", "20317e9", "--games", SMALL_GAME, "--seconds", "1", "--rounds", "1"])
    short = _module("reference").describe("20317e9")
    assert str(stopped.value) == f"not measured against {short}: it has no compiled engine to build (make fast came with ce7c536)"
    with pytest.raises(SystemExit, match="--against measures random playouts"):
        compiled.main(["--against", "HEAD", "--ai", "greedy", "--games", SMALL_GAME])


_FAKE_VALGRIND = """#!{python}
# Stands in for valgrind: runs the command after its options, and says it counted 1000 instructions a game asked
# for (--count N) plus 7, as callgrind says its count on stderr.
import subprocess, sys
command = [a for a in sys.argv[1:] if not a.startswith("--tool") and not a.startswith("--callgrind")]
done = subprocess.run(command)
games = int(command[command.index("--count") + 1]) if "--count" in command else 0
print(f"==1== Collected : {{1000 * games + 7}}", file=sys.stderr)
sys.exit(done.returncode)
"""


def test_the_compiled_benchmark_counts_the_instructions_of_the_games_alone(tmp_path, monkeypatch, capsys):
    """--instructions: each side plays its games under valgrind and loads the game under it without playing; the
    count a game is the difference over the games (here a stand-in valgrind's: 1000 a game), and both sides are
    said to play the same games."""
    fake = tmp_path / "valgrind"
    fake.write_text(_FAKE_VALGRIND.format(python=sys.executable))
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{__import__('os').environ['PATH']}")
    compiled = _module("compiled")
    found = compiled._instructions_a_game(SMALL_GAME, [("one", ROOT, False), ("other", ROOT, False)], 3, "orders")
    assert found["one"]["per_game"] == found["other"]["per_game"] == 1000.0
    assert found["one"]["played"] == 3 and found["one"]["games"] == found["other"]["games"]
    # --against's row: the two counts a game, this tree's ratio over the other's, and whether the games were the same
    counts = {"this": {"per_game": 2e6, "games": "a"}, "ref": {"per_game": 3e6, "games": "b"}}
    monkeypatch.setattr(compiled, "_instructions_a_game", lambda spec, sides, games, policy: counts)
    compiled._against_counted(ROOT, ROOT, "ref", [SMALL_GAME], 5, "orders")
    row = capsys.readouterr().out.splitlines()[-1]
    assert row.split()[1:6] == ["5", "2.00", "3.00", "x", "1.50"] and "NO: other games" in row


def test_the_compiled_benchmark_counts_only_with_valgrind_and_only_playouts(monkeypatch):
    """--instructions says before anything is built that valgrind is missing, or that it counts playouts only."""
    compiled = _module("compiled")
    with pytest.raises(SystemExit, match="one game or more, and no --ai"):
        compiled.main(["--instructions", "0", "--games", SMALL_GAME])
    with pytest.raises(SystemExit, match="one game or more, and no --ai"):
        compiled.main(["--instructions", "2", "--ai", "greedy", "--games", SMALL_GAME])
    monkeypatch.setattr(compiled.shutil, "which", lambda name: None)
    compiled.build = lambda tree: pytest.fail("built before saying valgrind is missing")
    with pytest.raises(SystemExit, match="counts with valgrind, which is not installed here"):
        compiled.main(["--instructions", "2", "--build", "--games", SMALL_GAME])
