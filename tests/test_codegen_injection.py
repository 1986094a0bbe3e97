"""No text of a game file runs as code: generated modules are escaped by construction, then checked.

Game files full of quotes, backslashes, newlines, triple quotes, unicode escapes and dunder names
are compiled with `rulec compile`, imported, and must (a) run nothing (no marker file appears)
and (b) agree with the source (every text reads back exactly). Removing the escaping of
`rulec/compile/codegen.py` makes these tests fail: the module no longer parses, no longer passes
the safety check, or runs the payload.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulec.compile import codegen
from rulec.compile.safety import UnsafeModule, check_generated_source
from rulec.pipeline import load_compiled, load_game

ROOT = Path(__file__).resolve().parent.parent
METZ = load_game("drive_on_metz")
TINY = (ROOT / "tests" / "bad_games" / "ok_designer_tiny.rulec").read_text(encoding="utf-8")


def payloads(marker: Path) -> list[str]:
    """Texts that would run `touch marker` if they escaped from their literal (as written in a game file's quotes)."""
    run = f'__import__(\\"pathlib\\").Path(r\\"{marker}\\").touch()'
    return [
        f'\\"\\"\\"; {run} #',  # ends a docstring
        f"'''; {run} #",  # ends a single-quoted docstring
        f"'; {run} #",  # ends a repr'd text
        f'\\n{run}\\n\\"\\"\\"',  # a newline, then code at the start of a line
        "a backslash at the end \\\\",  # would escape the closing quote
        f'\\u0022\\u0022\\u0022; {run} #',  # quotes written as unicode escapes
        f'\\N{{QUOTATION MARK}}\\N{{QUOTATION MARK}}\\N{{QUOTATION MARK}}; {run} #',
        '\\\\x22\\\\x22\\\\x22 \\\\N{QUOTATION MARK} {{!r}} %s',  # escapes that must stay text
    ]


def hostile_game(marker: Path) -> tuple[str, list[str]]:
    texts = payloads(marker)
    source = TINY.replace('title = "Bridge at Ostburg"', f'title = "{texts[0]}"')
    source = source.replace('side red  { name = "Red" }', f'side red  {{ name = "{texts[1]}"  adjective = "{texts[2]}" }}')
    source = source.replace('text = "Red scores 8 minus the turn for Ostburg"', f'text = "{texts[3]}"')
    source = source.replace('places { 0303 = "Ostburg" }', f'places {{ 0303 = "{texts[4]}" }}')
    source = source.replace('unit_type infantry { name = "Infantry" }', f'unit_type infantry {{ name = "{texts[5]}" }}')
    source = source.replace('name = "Attacker Eliminated"', f'name = "{texts[6]}"')
    source = source.replace('name = "No Effect"', f'name = "{texts[7]}"')
    # Dunder and clashing ids: labels may be any text in quotes.
    source = source.replace("award red_kills {", 'award "__import__\\"); import os #" {')
    source = source.replace("unit r1 {", 'unit "__init__" {')
    source = source.replace("unit r2 {", 'unit "GAME" {')
    return source, texts


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    marker = folder / "PWNED"
    source, _ = hostile_game(marker)
    (folder / "hostile.rulec").write_text(source, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "rulec", "compile", str(folder / "hostile.rulec"), "--out", str(folder / "out")],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    return folder, marker, done


def test_a_hostile_game_compiles_and_its_import_runs_nothing(compiled):
    folder, marker, done = compiled
    assert done.returncode == 0, done.stderr
    game = load_compiled(folder / "out" / "hostile.py")
    # Imported a second time in a fresh interpreter too, the way `rulec play` would.
    subprocess.run([sys.executable, "-c", f"import runpy; runpy.run_path({str(folder / 'out' / 'hostile.py')!r})"],
                   check=True, cwd=ROOT, timeout=60)
    assert not marker.exists()
    assert game.info.title.startswith('"""; __import__("pathlib")')


def test_the_module_says_exactly_what_the_game_file_says(compiled):
    folder, _, _ = compiled
    from_source = load_game(str(folder / "hostile.rulec"))
    from_module = load_compiled(folder / "out" / "hostile.py")
    assert from_module == from_source
    assert set(from_module.units) == {"__init__", "GAME", "b1", "b2"}
    assert "__import__\"); import os #" in {award.id for award in from_module.awards}


def test_dunder_and_clashing_ids_get_plain_distinct_function_names(compiled):
    folder, _, _ = compiled
    text = (folder / "out" / "hostile.py").read_text(encoding="utf-8")
    names = [line.split("(")[0][4:] for line in text.splitlines() if line.startswith("def ")]
    assert len(names) == len(set(names)) and all(name.isascii() and not name.startswith("_") for name in names)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(title=st.text(max_size=40), text=st.text(max_size=40))
def test_any_text_reads_back_exactly_from_the_generated_module(title, text):
    game = METZ
    game = dataclasses.replace(game, info=dataclasses.replace(game.info, title=title),
                               awards=(dataclasses.replace(game.awards[0], text=text), *game.awards[1:]))
    source = codegen.generate_module(game)
    namespace: dict = {}
    exec(compile(source, "<generated>", "exec"), namespace)
    assert namespace["GAME"].info.title == title
    assert namespace["GAME"].awards[0].text == text


def test_without_its_escaping_the_generator_is_caught(monkeypatch):
    """The docstring writer without its escapes: the second lock refuses the module instead of writing it."""
    monkeypatch.setattr(codegen, "_DOCSTRING_ESCAPES", {})
    monkeypatch.setattr(codegen, "_escape", lambda character: character)
    game = METZ
    hostile = dataclasses.replace(game, info=dataclasses.replace(game.info, title='"""\n__import__("os").system("true")\n"""'))
    with pytest.raises((UnsafeModule, ValueError, SyntaxError)):
        codegen.generate_module(hostile)


@pytest.mark.parametrize("source", [
    "import os\n",
    "GAME = __import__('os')\n",
    "def f(ctx):\n    return ctx.__class__\n",
    "from os import system\n",
    "x = [c for c in ()]\n",
    '"""a"""\nprint("hello")\n',
])
def test_the_safety_check_refuses_what_rulec_never_writes(source):
    with pytest.raises(UnsafeModule):
        check_generated_source(source)


def test_the_committed_modules_pass_the_safety_check():
    for path in sorted((ROOT / "generated").glob("*.py")):
        check_generated_source(path.read_text(encoding="utf-8"))
