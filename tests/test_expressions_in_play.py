"""Awards written with quantifiers, unit attributes and hex queries, played on a made-up game
(tests/games/quantified_awards.rulec), and the made-up games compiled to typed modules."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from rulec.cli.main import main
from rulec.engine import Action, new_game
from rulec.pipeline import load_compiled, load_game

GAMES = Path(__file__).resolve().parent / "games"


@pytest.fixture(scope="module")
def hill():
    return load_game(str(GAMES / "quantified_awards.rulec"))


def scored(state) -> dict[str, int]:
    totals: dict[str, int] = {}
    for entry in state.vp_log:
        totals[entry.source] = totals.get(entry.source, 0) + entry.amount
    return totals


def test_phase_awards_count_sum_and_nest_quantifiers(hill):
    state = new_game(hill)
    state.apply_action(Action.move("r1", "0201"))  # infantry into a forest
    state.apply_action(Action.move("r3", "0304"))  # infantry next to b1 (0305), one hex from the centre
    state.apply_action(Action.end())
    assert state.phase.id == "blue_move"
    assert scored(state) == {
        "red_in_forest": 1,  # r1 only: r2 stayed in the open
        "red_moved_strength": 5,  # r1 (3) and r3 (2) moved; r2 is armour and did not move anyway
        "blue_contact": 1,  # b1 has a Red neighbour, b2 (0405) has none
        "blue_distance": 1,  # the nearest Red unit, r3, is one hex from 0303
    }


def test_what_did_not_move_and_what_is_far_scores_differently(hill):
    state = new_game(hill)
    state.apply_action(Action.move("r2", "0201"))  # armour into a forest: counted there, but not as infantry that moved
    state.apply_action(Action.end())
    assert scored(state) == {"red_in_forest": 1, "blue_distance": 2}  # r2 at 0201 is two hexes from 0303


def test_an_exit_award_reads_the_exiting_units_attributes(hill):
    for turn, unit, expected in ((1, "r2", 3), (2, "r2", 2), (1, "r1", 0)):
        state = new_game(hill).arrange({unit: "0503", "b1": "0105"}, turn=turn, phase="red_move")
        state.apply_action(Action.exit(unit, "east"))
        assert state.status(unit) == "exited"
        assert scored(state).get("red_exit", 0) == expected, (turn, unit)


def test_end_of_game_awards_quantify_over_a_zone_and_the_objectives(hill):
    state = new_game(hill).arrange({"b1": "0204", "b2": "0404", "r1": "0501", "r3": "0505"}, turn=2, phase="blue_move")
    state.apply_action(Action.end())
    assert state.is_terminal()
    assert scored(state) == {"blue_ring": 4, "red_sweep": 5}
    assert [e.source for e in state.vp_log] == ["blue_ring", "red_sweep"]
    assert (state.outcome().winner, state.vp) == ("red", {"red": 5, "blue": 4})
    # Blue on one of the posts: Red holds only the other, and the sweep is lost.
    state = new_game(hill).arrange({"b1": "0204", "b2": "0505", "r1": "0501"}, turn=2, phase="blue_move")
    state.apply_action(Action.end())
    assert scored(state) == {"blue_ring": 2}
    assert state.outcome().winner == "blue"


def test_units_by_status_and_unit_constants(hill):
    from rulec.compile.expressions import to_function
    from rulec.engine.context import EngineContext

    state = new_game(hill).arrange({"r2": "0503", "b1": "0105"}, turn=1, phase="red_move")
    state.apply_action(Action.exit("r2", "east"))
    context = EngineContext(state)
    compiled = _compile(hill, "count(units(side = red, status = exited)) + count(units(status = on_map))")
    assert to_function(compiled)(context) == 2
    assert to_function(_compile(hill, "r2.status == exited and r2.hex == \"\" and b1.hex == 0105"))(context) is True
    forests = "count(h in hexes(terrain = forest) where not occupied(h)) + count(hexes(zone = ring))"
    assert to_function(_compile(hill, forests))(context) == 3 + 3


def _compile(game, text: str) -> str:
    """The Python of an expression over the game's ids."""
    from rulec.compile.expressions import compiler_for
    from rulec.language.parse import parse_text

    return compiler_for(game).source(parse_text(f"x = {text}\n").data["x"]["tree"])


@pytest.fixture(scope="module")
def compiled_games(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("made_up")
    files = sorted(str(p) for p in GAMES.glob("*.rulec"))
    assert main(["compile", *files, "--out", str(folder)]) == 0
    return folder


def test_made_up_games_compile_to_modules_that_play_like_the_game_files(compiled_games, hill):
    loaded = load_compiled(compiled_games / "quantified_awards.py")
    tree = ast.parse((compiled_games / "quantified_awards.py").read_text(encoding="utf-8"))
    functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert "award_blue_contact_amount" in functions
    for game in (hill, loaded):
        state = new_game(game)
        state.apply_action(Action.move("r1", "0201"))
        state.apply_action(Action.move("r3", "0304"))
        state.apply_action(Action.end())
        assert state.vp == {"red": 6, "blue": 2}


def test_made_up_games_pass_a_strict_type_check(compiled_games):
    api = pytest.importorskip("mypy.api")
    files = sorted(str(p) for p in compiled_games.glob("*.py"))
    assert len(files) == len(list(GAMES.glob("*.rulec")))
    limit = sys.getrecursionlimit()
    try:
        out, err, status = api.run(["--strict", "--follow-imports=silent", "--no-incremental", "--no-error-summary", *files])
    finally:
        sys.setrecursionlimit(limit)
    assert status == 0, out + err


def test_attacked_phase_and_phasing_side_read_the_running_game(metz):
    from rulec.compile.expressions import compiler_for, to_function
    from rulec.engine.context import EngineContext
    from rulec.language.parse import parse_text

    compiler = compiler_for(metz)

    def value(text, state):
        return to_function(compiler.source(parse_text(f"x = {text}\n").data["x"]["tree"]))(EngineContext(state))

    state = new_game(metz).arrange({"us_357": "0705", "us_358": "0605", "us_cca": "0707", "de_utrfhr": "0706"},
                                   turn=2, phase="us_combat")
    attackers = "count(u in units(side = us) where attacked(u))"
    assert value(attackers, state) == 0
    assert value("phase == us_combat and phasing_side == us and turn == 2", state) is True
    for step in state.parse_orders("attack 0706 with 357, 358"):
        state.apply_action(step)
    assert value(attackers, state) == 2
    assert value("attacked(us_357) and not attacked(us_cca)", state) is True


@pytest.mark.parametrize("name", ["twice_the_enemy", "last_bridge", "quantified_awards"])
def test_made_up_games_keep_the_engines_promises_in_random_play(name):
    from rulec.engine.conformance import check_game

    assert check_game(load_game(str(GAMES / f"{name}.rulec")), n_games=20) == []
