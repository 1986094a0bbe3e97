"""A condition asked of hex after hex works out the parts that read no hex once (rulec/compile/expressions.py
`_kept_per_hex`, EvalContext.once): The Marne's entry_blocked compares each entry hex with a minimum over the
Allied units east of the Suippes, and asked of a dozen entry hexes it worked that minimum out a dozen times, in
every position. Its answers are also kept for the movement phase, with what they read, and given again where that
answers the same (answer_reads.NotingContext, arrivals.open_entries).

The made-up game tests/games/far_watch.rulec has such conditions: Blue's relief may not enter north of Red's
northernmost unit (a minimum over Red's units) nor next to a Blue unit, and a Blue unit may end next to Red only
while Red has at most one unit in the west (a count over the map)."""

from __future__ import annotations

import ast
import random
import sys
from pathlib import Path

import pytest

from rulec.compile.codegen import generate_module
from rulec.compile.expressions import compiler_for, to_function
from rulec.compile.functions import IN_MOVE, IN_TRACE
from rulec.compile.safety import UnsafeModule, check_generated_source
from rulec.engine import PENDING, answer_reads, new_game
from rulec.engine.actions import Action
from rulec.engine.conformance import check_game
from rulec.engine.context import EngineContext
from rulec.language.parse import parse_text
from rulec.pipeline import load_compiled, load_game

GAMES = Path(__file__).resolve().parent / "games"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAMES / "far_watch.rulec"))


def _python(compiler, text: str) -> str:
    return compiler.source(parse_text(f"x = {text}\n").data["x"]["tree"])


def _kept_parts(python: str) -> list[str]:
    """The Python of each part `ctx.once` keeps."""
    return [ast.unparse(node.args[1].body) for node in ast.walk(ast.parse(python, mode="eval"))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "once"]


def test_a_part_that_reads_neither_the_hex_nor_a_variable_around_it_is_kept(game):
    about_a_move = compiler_for(game).inside(IN_MOVE, about_unit=True)
    kept = _kept_parts(_python(about_a_move, "distance_to(north, hex) < min(distance_to(north, u.hex) for u in units(side = red))"))
    assert kept == ["min((ctx.distance_to(ctx.zone('north'), ctx.hex_of(v_u)) for v_u in ctx.once('k04d42bce3144', "
                    "lambda: ctx.units(side='red'))), default=0)", "ctx.units(side='red')"]
    # a part reading the hex, or the variable of a quantifier around it, is asked each time
    assert _kept_parts(_python(about_a_move, "any(n in neighbours(hex) where count(units(hex = n)) > 1)")) == []
    assert _kept_parts(_python(about_a_move, "distance_to(north, hex) > 2")) == []
    both = _kept_parts(_python(about_a_move, "count(units(side = unit.side)) > 2 and hex in north"))
    assert both == ["ctx.units(side=ctx.unit.side)"]


def test_nothing_is_kept_in_a_condition_not_asked_hex_by_hex(game):
    compiler = compiler_for(game, about_unit=True)
    assert "once" not in _python(compiler, "count(units(side = red)) > 1 and min(u.strength for u in units()) > 1")
    # a trace's condition is asked hex by hex, but a part reading the side tracing varies with it: not kept
    tracing = compiler_for(game).inside(IN_TRACE)
    assert _kept_parts(_python(tracing, "count(units(side = friendly)) > 1 or hex in north")) == []
    assert _kept_parts(_python(tracing, "count(units(side = red)) > 1 or hex in north")) == ["ctx.units(side='red')"]


def test_a_generated_module_may_hold_a_lambda_of_no_arguments_only():
    check_generated_source("def f(ctx):\n    return ctx.once('k1', lambda: ctx.turn)\n")
    with pytest.raises(UnsafeModule, match="lambda with arguments"):
        check_generated_source("def f(ctx):\n    return (lambda x: x)(ctx.turn)\n")


class _Counting(EngineContext):
    """An EngineContext that counts the calls of units(side = red) (the minimum's, which reads no hex)."""

    def __init__(self, state, unit):
        super().__init__(state, unit)
        self.asked = 0

    def units(self, side=None, zone=None, hex=None, type=None, flag=None, status=None):
        self.asked += side == "red"
        return super().units(side, zone, hex, type, flag, status)


def test_asked_of_hex_after_hex_a_kept_part_is_worked_out_once_with_the_same_answers(game):
    state = new_game(game).arrange({"r_north": "0303", "r_south": "0205", "b_guard": "0302", "b_relief": PENDING},
                                   turn=2, phase="blue_move")
    rule, relief = game.movement.entry_blocked, state.unit("b_relief")
    entries = ["0601", "0602", "0603", "0604", "0605"]
    each_afresh = []
    for h in entries:
        context = _Counting(state, relief)
        context.hex = h
        each_afresh.append(rule(context))
        assert context.asked == 1
    kept = _Counting(state, relief)
    kept.keep_while_hex_varies()
    answers = []
    for h in entries:
        kept.hex = h
        answers.append(rule(kept))
    assert answers == each_afresh == [True, True, False, False, False]  # nothing north of row 3
    assert kept.asked == 1


def test_the_relief_enters_where_the_position_allows_it_at_every_decision_of_random_games(game):
    """In play, where each position's contexts keep parts while they ask hex after hex, the relief's moves and
    every unit's are those of the same position set up from scratch; and the rules bite both ways."""
    blocked_somewhere = open_somewhere = kept_away = next_to_red = 0
    for seed in range(12):
        rng, state = random.Random(seed), new_game(game, seed=seed)
        while not state.is_terminal():
            if state.phase.id == "blue_move" and state.pending is None:
                # (set up afresh, a pending unit is due now: the relief is compared from turn 2, when it is)
                waiting = {"b_relief": PENDING} if state.status("b_relief") == PENDING and state.turn >= 2 else {}
                fresh = new_game(game).arrange({**state.positions, **waiting}, turn=state.turn, phase="blue_move")
                red = [h for u, h in state.positions.items() if u.startswith("r_")]
                near_red = {n for h in red for n in state.tables.neighbours[h]}
                in_the_west = sum(h in game.map.zones["western"] for h in red)
                for uid in state.units(side="blue"):
                    if uid in state.moved or (uid == "b_relief" and state.status(uid) == PENDING and not waiting):
                        continue
                    moves = state.moves_of(uid)
                    assert moves == fresh.moves_of(uid), (seed, state.turn, uid)
                    ends = {a.hex for a in moves}
                    if in_the_west > 1:
                        assert not ends & near_red
                        kept_away += 1
                    else:
                        next_to_red += bool(ends & near_red)
                    if uid == "b_relief" and waiting:  # some entry hexes blocked (Red is not on row 1), some open
                        blocked_somewhere += min(int(h[2:]) for h in red) > 1
                        open_somewhere += bool(moves)
            state.apply_action(rng.choice(state.legal_actions()))
    assert blocked_somewhere and open_somewhere and kept_away and next_to_red


def test_random_games_keep_the_engines_promises(game):
    assert check_game(game, n_games=30, seed=5) == []


def test_the_generated_module_passes_a_strict_type_check_and_plays_as_the_file_does(game, tmp_path):
    module = tmp_path / "far_watch.py"
    module.write_text(generate_module(game), encoding="utf-8")
    assert "ctx.once(" in module.read_text()
    units = {"r_north": "0303", "r_south": "0205", "b_guard": "0302", "b_relief": PENDING}
    built = new_game(load_compiled(str(module))).arrange(units, turn=2, phase="blue_move")
    read = new_game(game).arrange(units, turn=2, phase="blue_move")
    assert built.moves_of("b_relief") == read.moves_of("b_relief") and read.moves_of("b_relief")
    api = pytest.importorskip("mypy.api")
    limit = sys.getrecursionlimit()
    try:
        out, err, status = api.run(["--strict", "--follow-imports=silent", "--no-incremental", "--no-error-summary",
                                    str(module)])
    finally:
        sys.setrecursionlimit(limit)  # mypy raises it for the whole process; other tests rely on the default
    assert status == 0, out + err


def test_entry_answers_are_kept_for_the_phase_while_what_they_read_answers_the_same(game, monkeypatch):
    """arrivals.open_entries: entry_blocked's answers are kept for the movement phase with the answers of the
    position's queries they read (answer_reads.NotingContext), and worked out again where one of those differs."""
    assert answer_reads.notes_all(game.movement.entry_blocked.function)
    asked = []

    class Noting(answer_reads.NotingContext):
        def __init__(self, state, unit=None):
            super().__init__(state, unit)
            asked.append(unit.id)

    monkeypatch.setattr(answer_reads, "NotingContext", Noting)
    units = {"r_north": "0303", "r_south": "0205", "b_guard": "0402", "b_relief": PENDING}
    state = new_game(game).arrange(units, turn=2, phase="blue_move")
    first = state.moves_of("b_relief")
    assert first and asked == ["b_relief"]
    far, near = state.clone(), state.clone()
    far.apply_action(Action.move("b_guard", "0302"))  # away from the east edge: nothing the rule read changed
    assert far.moves_of("b_relief") == first and asked == ["b_relief"]
    near.apply_action(Action.move("b_guard", "0504"))  # next to entry hexes Red leaves open: they are jammed now
    after = near.moves_of("b_relief")
    assert asked == ["b_relief", "b_relief"] and after != first
    assert after == new_game(game).arrange({**units, "b_guard": "0504"}, turn=2, phase="blue_move").moves_of("b_relief")


def test_an_entry_rule_is_kept_only_when_it_reads_nothing_but_the_noted_queries(game):
    compiler = compiler_for(game).inside(IN_MOVE, about_unit=True)
    for text, noted in [("vp(red) > 2 and hex in north", False), ("turn > 2 and hex in north", True),
                        ("any(units(side = red, hex = hex))", True), ("count(units(side = red)) > 1 and moved(unit)", True),
                        ("sum(u.strength for u in units_at(hex)) > 2", True),
                        ("moved(r_north, this_phase) and hex in north", False)]:
        assert answer_reads.notes_all(to_function(_python(compiler, text))) is noted, text
