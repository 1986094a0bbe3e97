"""The compiled engine (make fast, mypyc) plays the same games as pure Python: identical action histories and returns.
(Its movement searches run their loop in C, search_core.pyx; pure Python, movement.search's own.)

Seeded random games of Drive on Metz, The Marne (its first scenario, capped) and made-up games of tests/games, each
played twice in fresh processes on one copy of this tree: pure Python (RULEC_PURE=1), then compiled. Seeds choose
among legal_actions(), draw with sample_legal_action or with sample_legal_order, in turn; and AIs' games (greedy, MCTS,
random players, who draw through the sampler). Building the compiled engine takes minutes, so this is
the long tier (make test-long): it builds in a temporary copy, or uses the checkout RULEC_COMPILED_TREE names (one
where `make fast` built it), built once a session (tests/compiled_engine.py). Skipped, saying why, without a C
compiler or mypyc.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from compiled_engine import ROOT, benchmark_module

pytestmark = pytest.mark.long

# (games, random games of each, most actions a game): the big games, and every made-up game of tests/games (each a
# mechanism of its own: multi-hex and declared-first battles, retreat policies, displacement, steps, rail, traces...)
MADE_UP = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "games").glob("*.rulec"))
CASES = [
    (["drive_on_metz"], 6, 100_000, None),
    (["the_marne"], 3, 4_000, None),
    (MADE_UP, 8, 20_000, None),
    (["drive_on_metz"], 2, 100_000, "greedy"),  # an AI: it keeps actions in sets and dicts (hashes them), clones
    (MADE_UP, 2, 20_000, "random"),  # random players draw through the sampler, setting a cancel aside
    (["drive_on_metz"], 1, 100_000, "mcts"),  # a whole game: its evaluator asks the levels of projected VP
    # The AIs read every kind of award, variable and battle through their own contexts (interpreted subclasses of
    # compiled ones): greedy on a whole game of The Marne and on every made-up game.
    (["the_marne"], 1, 100_000, "greedy"),
    (MADE_UP, 1, 20_000, "greedy"),
]


# A run that takes longer than this has hung (the slowest takes under half a minute on CI's two cores): a game that
# never ends fails its test in minutes, not at run_engine's default of an hour.
HUNG_AFTER = 600


@pytest.fixture(scope="module")
def compiled():
    return benchmark_module()


def _run(compiled, tree: Path, fast: bool, args: list[str]) -> dict:
    """benchmarks/compiled.py's run_engine, failing the test, saying so, when the run hangs."""
    try:
        return compiled.run_engine(tree, fast, args, timeout=HUNG_AFTER)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{'the compiled engine' if fast else 'pure Python'} ran `{' '.join(args[:4])} ...` for over "
                    f"{HUNG_AFTER} s: a game that never ends?")


@pytest.fixture(scope="module")
def built_tree(compiled_tree) -> Path:
    if compiled_tree.path is None:
        pytest.skip(compiled_tree.why_not)
    return compiled_tree.path


def _spec(tree: Path, game: str) -> str:
    return str(tree / game) if game.endswith(".rulec") else game


@pytest.mark.parametrize("games, seeds, cap, player", CASES,
                         ids=["drive_on_metz", "the_marne", "made_up_games", "drive_on_metz_greedy",
                              "made_up_games_random", "drive_on_metz_mcts", "the_marne_greedy", "made_up_games_greedy"])
def test_the_compiled_engine_plays_the_same_games_as_pure_python(compiled, built_tree, games, seeds, cap, player):
    args = ["--histories", *(_spec(built_tree, g) for g in games), "--seeds", str(seeds), "--cap", str(cap),
            *(["--player", player] if player else [])]
    pure = _run(compiled, built_tree, False, args)
    fast = _run(compiled, built_tree, True, args)
    assert pure["engine"].startswith("pure Python") and fast["engine"] == "compiled engine (mypyc)"
    assert pure["native"] == [] and fast["native"] == ["rulec.engine.search_core"]  # the search's loop in C, compiled
    assert list(pure["games"]) == list(fast["games"]) == [_spec(built_tree, g) for g in games]
    for spec, pure_games in pure["games"].items():
        fast_games = fast["games"][spec]
        assert len(pure_games) == len(fast_games) == seeds
        for seed, (one, other) in enumerate(zip(pure_games, fast_games)):
            assert one["history"] == other["history"], f"{spec}, seed {seed}: the histories part"
            assert (one["returns"], one["terminal"], one["vp"]) == (other["returns"], other["terminal"], other["vp"]), \
                f"{spec}, seed {seed}"
    # Neither engine leaves reference cycles (compiled, a closure read by another closure makes one with their
    # shared environment): a game dropped is freed at once, not when the cycle collector next runs.
    for engine in (pure, fast):
        cyclic = [(spec, seed, g["cycles"]) for spec, found in engine["games"].items() for seed, g in enumerate(found)
                  if g["cycles"]]
        assert not cyclic, f"{engine['engine']}: games that left reference cycles (game, seed, objects): {cyclic}"
    played = [g for found in pure["games"].values() for g in found]
    per_game = min(150, cap) if player is None else 10  # an AI's games of a made-up game are short, a random one's long
    assert sum(len(g["history"]) for g in played) >= per_game * len(games)  # real games were compared, not empty ones
    if games == ["drive_on_metz"] and player != "mcts":
        assert all(g["terminal"] for g in played)


def test_the_compiled_game_model_checks_every_game_file_as_pure_python_does(compiled, built_tree):
    """Compiled, the game model's classes check each field's type as the checker builds them: every game file (the
    games, the made-up games, the broken ones) gives the same diagnostics and the same generated module as in pure
    Python, and its units and sequence of play pickle and copy back equal."""
    files = sorted(str(p) for folder in ("games", "tests/games", "tests/bad_games")
                   for p in (built_tree / folder).glob("*.rulec"))
    assert len(files) > 150
    pure = _run(compiled, built_tree, False, ["--checked", *files])
    fast = _run(compiled, built_tree, True, ["--checked", *files])
    assert pure["engine"].startswith("pure Python") and fast["engine"] == "compiled engine (mypyc)"
    for name in files:
        assert fast["files"][name] == pure["files"][name], name
    checked = [entry for entry in fast["files"].values() if entry and entry[-1] is True]
    assert len(checked) > 50 and not [name for name, entry in fast["files"].items() if entry and entry[-1] is False]


def test_a_source_changed_since_the_build_runs_as_pure_python(compiled, built_tree, tmp_path):
    """A stale build never plays: once a compiled module's source differs from the one built, the sources run."""
    copy = tmp_path / "tree"
    shutil.copytree(built_tree, copy, symlinks=True, ignore=shutil.ignore_patterns("__pycache__", "build", ".venv", ".git"))
    assert _run(compiled, copy, True, ["--histories", "drive_on_metz", "--seeds", "0"])["engine"] == \
        "compiled engine (mypyc)"
    moves = copy / "rulec" / "engine" / "movement.py"
    moves.write_text(moves.read_text() + "\n# changed after the build\n")
    engine = _run(compiled, copy, True, ["--histories", "drive_on_metz", "--seeds", "1", "--cap", "200"])
    engine = engine["engine"]
    assert engine.startswith("pure Python (the compiled engine is stale: rulec.engine.movement changed since it was built")


def _python(tree: Path, compiled: bool, *args: str) -> subprocess.CompletedProcess:
    """`python ARGS` run on `tree`'s rulec, compiled or pure Python."""
    env = {**os.environ, "PYTHONPATH": str(tree), "RULEC_PURE": "0" if compiled else "1"}
    return subprocess.run([sys.executable, *args], cwd=tree, env=env, capture_output=True, text=True, timeout=600)


def _rulec(tree: Path, compiled: bool, *args: str) -> subprocess.CompletedProcess:
    """`rulec ARGS` run on `tree`'s rulec, compiled or pure Python, as a user runs it."""
    return _python(tree, compiled, "-m", "rulec", *args)


def _answers(tree: Path, script: str) -> dict[bool, dict]:
    """What `script` prints last (JSON), run in pure Python (False) and on the compiled engine (True)."""
    found = {}
    for compiled in (False, True):
        done = _python(tree, compiled, "-c", script)
        assert done.returncode == 0, done.stderr[-2000:]
        found[compiled] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def test_the_commands_a_player_runs_work_on_the_compiled_engine_as_in_pure_python(built_tree, tmp_path):
    """A game played, saved, loaded and replayed from the command line, compiled: the compiled game model checks each
    field's type, so what pure Python lets pass (a save's game hash made from a copy of the game without its file, once
    with a None where a string was declared) must not crash it. The save is the same either way: the same game hash."""
    saves = {}
    for compiled in (False, True):
        save = tmp_path / f"{'compiled' if compiled else 'pure'}.json"
        version = _rulec(built_tree, compiled, "--version")
        assert ("compiled engine (mypyc)" in version.stdout) == compiled, version.stdout
        played = _rulec(built_tree, compiled, "play", "drive_on_metz", "--player", "us=random", "--player",
                        "germany=random", "--seed", "3", "--turns", "1", "--save", str(save), "--no-color")
        assert played.returncode == 0, played.stderr[-2000:]
        go_on = _rulec(built_tree, compiled, "play", "--load", str(save), "--player", "us=random", "--player",
                       "germany=random", "--turns", "1", "--no-color")
        assert go_on.returncode == 0, go_on.stderr[-2000:]
        replayed = _rulec(built_tree, compiled, "replay", str(save), "--no-color")
        assert replayed.returncode == 0 and "(turn 1 of" in replayed.stdout, replayed.stderr[-2000:]
        saves[compiled] = json.loads(save.read_text())
    assert saves[True]["game_hash"] == saves[False]["game_hash"]
    assert saves[True]["history"] == saves[False]["history"]


_BOARD_SESSION = """
import json
from starlette.testclient import TestClient
from rulec.fast_path import engine_kind
from rulec.pipeline import load_game
from rulec.web.app import create_app

client = TestClient(create_app({"drive_on_metz": load_game("drive_on_metz")}))
started = client.post("/api/games", json={"game": "drive_on_metz", "seed": 2,
                                          "players": {"us": "greedy", "germany": "random"}})
game = started.json()["id"]
answers = [started.status_code] + [client.post(f"/api/games/{game}/ai", json={}).status_code for _ in range(6)]
answers.append(client.post(f"/api/games/{game}/undo", json={}).status_code)
save = client.get(f"/api/games/{game}/save")
answers.append(client.post("/api/load", content=save.text, headers={"content-type": "application/json"}).status_code)
print(json.dumps({"engine": engine_kind(), "answers": answers, "save": save.json()}))
"""


def test_the_board_serves_a_game_on_the_compiled_engine_as_in_pure_python(built_tree):
    """The board (rulec serve) on the compiled engine: it starts, plays the AI's moves, undoes one, saves and loads the
    save, answering as in pure Python, with the same save."""
    found = _answers(built_tree, _BOARD_SESSION)
    assert found[True]["engine"] == "compiled engine (mypyc)" and found[False]["engine"].startswith("pure Python")
    assert found[True]["answers"] == found[False]["answers"] == [201, 200, 200, 200, 200, 200, 200, 200, 201]
    assert found[True]["save"] == found[False]["save"]


_MARGINS = """
import json
from rulec.fast_path import engine_kind
from rulec.pipeline import load_game
from rulec.players.victory_margin import VictoryMargin

found = {}
for name in ("drive_on_metz", "the_marne"):
    game = load_game(name)
    margin = VictoryMargin(game)
    sides = list(game.sides)
    scores = [{sides[0]: a, sides[1]: b} for a, b in ((0, 0), (10.5, 3.25), (3, 17.75), (40.125, 40), (7, 2))]
    found[name] = [margin.by_levels, [margin.margins(vp) for vp in scores], margin.by_levels]
print(json.dumps({"engine": engine_kind(), "found": found}))
"""


def test_the_victory_margin_of_projected_scores_is_the_same_compiled(built_tree):
    """The AIs ask the victory levels who wins with projected VP, fractions among them (players/victory_margin.py).
    Compiled, a VP declared an int was checked as one: the fraction raised, the margin fell back to the VP difference
    for the rest of the game, and the compiled AIs played other games than pure Python's. Both builds give the same
    margins, by the levels throughout."""
    found = _answers(built_tree, _MARGINS)
    assert found[True]["engine"] == "compiled engine (mypyc)"
    assert found[True]["found"] == found[False]["found"]
    assert all(first and last for first, _, last in found[True]["found"].values())  # by the levels, start to end
