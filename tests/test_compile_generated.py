"""Code generation: generated modules rebuild the same model, byte for byte, importing only rulec.runtime."""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path

import pytest

from rulec.cli import compile_command
from rulec.compile.codegen import generate_module
from rulec.compile.json_export import generate_json
from rulec.pipeline import GAMES_DIR, ROOT, load_compiled, load_game

GENERATED = ROOT / "generated"
GAMES = sorted(p.stem for p in GAMES_DIR.glob("*.rulec"))


def run_compile(*arguments: str) -> int:
    parser = argparse.ArgumentParser(prog="rulec")
    compile_command.register(parser.add_subparsers())
    args = parser.parse_args(["compile", *arguments])
    return args.func(args)


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("generated")
    assert run_compile(*GAMES, "--out", str(out)) == 0
    return out


@pytest.mark.parametrize("name", GAMES)
def test_committed_generated_files_are_up_to_date(name, regenerated):
    for suffix in (".py", ".json"):
        committed = GENERATED / f"{name}{suffix}"
        assert committed.is_file(), f"generated/{name}{suffix} is missing: run `rulec compile games/*.rulec`"
        assert (regenerated / f"{name}{suffix}").read_bytes() == committed.read_bytes(), (
            f"generated/{name}{suffix} is stale: run `rulec compile games/*.rulec` and commit generated/")


@pytest.mark.parametrize("name", GAMES)
def test_generated_module_rebuilds_the_same_model(name, regenerated):
    built = load_game(name)
    loaded = load_compiled(regenerated / f"{name}.py")
    assert loaded == built  # Expr compares by source
    for mine, theirs in zip(built.awards, loaded.awards):
        assert theirs.amount.function.__name__ == f"award_{mine.id}_amount"


@pytest.mark.parametrize("name", GAMES)
def test_generation_is_deterministic(name):
    game = load_game(name)
    assert generate_module(game) == generate_module(load_game(name))
    assert generate_json(game) == generate_json(load_game(name))


@pytest.mark.parametrize("name", GAMES)
def test_generated_module_imports_only_the_runtime(name, regenerated):
    tree = ast.parse((regenerated / f"{name}.py").read_text())
    modules = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    modules |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert modules <= {"__future__", "collections.abc", "rulec.runtime.model", "rulec.runtime.context"}
    docstring = ast.get_docstring(tree)
    assert f"Source: games/{name}.rulec" in docstring and "do not edit" in docstring


def test_expressions_become_documented_typed_functions(metz, regenerated):
    tree = ast.parse((regenerated / "drive_on_metz.py").read_text())
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    award = next(a for a in metz.awards if a.amount.source.startswith("count("))
    function = functions[f"award_{award.id}_amount"]
    assert ast.unparse(function.returns) == "int" and ast.unparse(function.args.args[0].annotation) == "EvalContext"
    assert award.amount.source in ast.get_docstring(function) and award.text in ast.get_docstring(function)


def test_compiled_expressions_evaluate_like_the_in_memory_ones(metz, regenerated):
    loaded = load_compiled(regenerated / "drive_on_metz.py")

    class Context:
        turn, turns, phasing_side, unit = 3, 7, None, next(iter(metz.units.values()))

        def units(self, **filters):
            return [u for u in metz.units.values() if all(getattr(u, k if k != "zone" else "side") == v for k, v in filters.items() if k != "zone")]

        def vp(self, side):
            return 0

    for built, compiled in zip(metz.awards, loaded.awards):
        assert compiled.amount(Context()) == built.amount(Context())


def test_json_is_the_model_as_data(metz, regenerated):
    data = json.loads((regenerated / "drive_on_metz.json").read_text())
    assert data["source"] == "games/drive_on_metz.rulec"
    game = data["game"]
    assert list(game["units"]) == list(metz.units)
    assert game["map"]["neighbours"]["0807"] == metz.map.neighbours["0807"]
    amounts = [award["amount"] for award in game["awards"]]
    assert amounts == [{"$expr": award.amount.source} for award in metz.awards]


def test_compile_refuses_a_bad_game_and_writes_nothing(tmp_path, capsys):
    bad = ROOT / "tests" / "bad_games" / "unknown-side.rulec"
    assert run_compile(str(bad), "--out", str(tmp_path)) == 1
    assert list(tmp_path.iterdir()) == []
    assert "[unknown-side]" in capsys.readouterr().err


def test_load_compiled_reports_problems_as_diagnostics(tmp_path):
    from rulec.diagnostics import DiagnosticError

    broken = tmp_path / "broken.py"
    broken.write_text("GAME = 1 / 0\n")
    with pytest.raises(DiagnosticError) as caught:
        load_compiled(broken)
    assert caught.value.diagnostics[0].code == "not-a-compiled-game"
    with pytest.raises(DiagnosticError):
        load_compiled(tmp_path / "missing.py")


# A game of the designer tests with every kind of expression a type checker could trip on: a unit that may be
# None, a division (a fraction), a flag, a text that reads like code.
EXPRESSIVE = (ROOT / "tests" / "bad_games" / "ok_designer_tiny.rulec").read_text(encoding="utf-8").replace(
    "award red_kills { side = red  when = eliminated(blue)  amount = strength }",
    'award red_kills { side = red  when = eliminated(blue)  amount = strength / 2 + vp(blue) * max(1, turn) % 3\n'
    '  only = has_flag(elite) or side == red or phasing_side == "ctx.unit.side" }').replace(
    "strength = 3  move = 3  setup = 0101 }", "strength = 3  move = 3  setup = 0101  flags = [elite] }")


@pytest.fixture(scope="module")
def expressive(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("expressive")
    (folder / "expressive.rulec").write_text(EXPRESSIVE, encoding="utf-8")
    assert run_compile(str(folder / "expressive.rulec"), "--out", str(folder)) == 0
    return folder / "expressive.py"


def test_generated_modules_pass_a_strict_type_check(regenerated, expressive):
    api = pytest.importorskip("mypy.api")
    files = [str(regenerated / f"{name}.py") for name in GAMES] + [str(expressive)]
    limit = sys.getrecursionlimit()
    try:
        out, err, status = api.run(["--strict", "--follow-imports=silent", "--no-incremental", "--no-error-summary", *files])
    finally:
        sys.setrecursionlimit(limit)  # mypy raises it for the whole process; other tests rely on the default
    assert status == 0, out + err


def test_an_expression_about_a_unit_reads_it_once_and_says_it_is_there(expressive):
    tree = ast.parse(expressive.read_text(encoding="utf-8"))
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    only = ast.unparse(functions["award_red_kills_only"])
    assert "unit = ctx.unit" in only and "assert unit is not None" in only
    assert "'ctx.unit.side'" in only  # a text in quotes is left as written
    assert ast.unparse(functions["award_red_kills_amount"].returns) == "float"  # '/' may leave a fraction
    assert ast.unparse(functions["award_red_town_amount"].returns) == "int"
    assert "unit = " not in ast.unparse(functions["award_red_town_amount"])


def test_expressions_about_a_unit_evaluate_like_the_in_memory_ones(expressive):
    built = load_game(str(expressive.with_suffix(".rulec")))
    loaded = load_compiled(expressive)

    class Context:
        turns, phasing_side = 4, "blue"

        def __init__(self, turn, unit):
            self.turn, self.unit = turn, unit

        def units(self, **filters):
            return []

        def vp(self, side):
            return 5

    for turn in (1, 2, 3):
        for unit in built.units.values():
            for mine, theirs in zip(built.awards, loaded.awards):
                assert theirs.amount(Context(turn, unit)) == mine.amount(Context(turn, unit))
                if mine.only is not None:
                    assert theirs.only(Context(turn, unit)) == mine.only(Context(turn, unit))
