"""Fresh hostile game files for the fuzz test (tests/test_fuzz_hostile.py) and benchmarks/fuzz.py.

`random_input(rng)` draws one input from a `random.Random`: a file built from the language's
own shapes (blocks, attributes, lists, { } values, ranges, expressions, here-documents) with the
keys and words of the real games, a real game damaged, or one of those stretched by a hostile
pattern (deep nesting, a long line, a huge number, escapes). `run_one(text)` takes it through
the whole pipeline as far as it goes: parse and check (rendering every diagnostic); for what
passes, compile and import the module, and play random actions, drawing the board and telling
each action as `rulec play` does. Anything but diagnostics is a failure.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [path.read_text(encoding="utf-8") for path in
           [*sorted((ROOT / "games").glob("*.rulec")), ROOT / "tests" / "bad_games" / "ok_marne_features.rulec",
            ROOT / "tests" / "bad_games" / "ok_designer_tiny.rulec", ROOT / "tests" / "bad_games" / "ok_minimal.rulec"]]
WORDS = sorted({word for text in SOURCES for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text)})
HOSTILE = ['"\\"\\"\\"; __import__(\\"os\\").system(\\"true\\") #"', '"\\\\"', '"\\u0022"', '"\\N{BULLET}"', "__init__",
           "__class__", "turn", '"\\x1b[2J"', "9" * 30, "1..999999999", "0..", "-0", "1/0", "turn / 0", "turn % 0",
           "count(units(zone = turn))", "min()", "max(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)", '"ﬁ"', '"fi"', "<< >>", "3:0",
           "0:0", "9999999999:1", "0101/0101", "'x'", "\u201cx\u201d"]


def tokens(text: str) -> list[str]:
    return re.findall(r"\s+|[A-Za-z_][A-Za-z0-9_]*|\d+|.", text, re.S)


def random_value(rng: random.Random, depth: int) -> str:
    kind = rng.choice(["int", "word", "text", "range", "ratio", "expr", "list", "object", "hostile", "hex"]
                      if depth < 4 else ["int", "word", "text", "hostile"])
    if kind == "int":
        return str(rng.choice([0, 1, 2, 3, 6, 10, 99, rng.randrange(10**6)]))
    if kind == "word":
        return rng.choice(WORDS)
    if kind == "text":
        return '"' + rng.choice(WORDS + ["", " ", "a b"]) + '"'
    if kind == "range":
        return rng.choice([f"{rng.randrange(10)}..{rng.randrange(20)}", f"..{rng.randrange(5)}", f"{rng.randrange(5)}..",
                           f"0{rng.randrange(1, 9)}0{rng.randrange(1, 9)}..0{rng.randrange(1, 9)}0{rng.randrange(1, 9)}"])
    if kind == "ratio":
        return f"{rng.randrange(10)}:{rng.randrange(10)}"
    if kind == "hex":
        return f"0{rng.randrange(1, 10)}0{rng.randrange(1, 10)}"
    if kind == "expr":
        ops = ["+", "-", "*", "/", "%", "==", "<", ">=", "and", "or", "in"]
        parts = [random_value(rng, 4) for _ in range(rng.randrange(1, 4))]
        text = parts[0]
        for part in parts[1:]:
            text += f" {rng.choice(ops)} {part}"
        return rng.choice([text, f"({text})", f"not {text}", f"{rng.choice(WORDS)}({text})", f"if({text}, 1, 2)"])
    if kind == "list":
        return "[" + ", ".join(random_value(rng, depth + 1) for _ in range(rng.randrange(0, 5))) + "]"
    if kind == "object":
        return "{ " + ", ".join(f"{rng.choice(WORDS)} = {random_value(rng, depth + 1)}" for _ in range(rng.randrange(0, 4))) + " }"
    return rng.choice(HOSTILE)


def random_statements(rng: random.Random, depth: int, count: int) -> str:
    lines = []
    indent = "  " * depth
    for _ in range(count):
        if depth < 3 and rng.random() < 0.35:
            labels = " ".join(rng.choice([rng.choice(WORDS), '"' + rng.choice(WORDS) + '"', str(rng.randrange(20))])
                              for _ in range(rng.randrange(0, 2)))
            body = random_statements(rng, depth + 1, rng.randrange(0, 5))
            lines.append(f"{indent}{rng.choice(WORDS)} {labels} {{\n{body}\n{indent}}}")
        else:
            lines.append(f"{indent}{rng.choice(WORDS)} = {random_value(rng, 0)}")
    return "\n".join(lines)


def damaged(rng: random.Random) -> str:
    text = rng.choice(SOURCES)
    for _ in range(rng.randrange(1, 5)):
        lines = text.split("\n")
        how = rng.choice(["delete", "duplicate", "truncate", "swap", "junk", "replace"])
        if how == "delete":
            start = rng.randrange(len(lines))
            del lines[start:start + rng.randrange(1, 5)]
            text = "\n".join(lines)
        elif how == "duplicate":
            index = rng.randrange(len(lines))
            lines.insert(index, lines[index])
            text = "\n".join(lines)
        elif how == "truncate":
            text = text[:rng.randrange(len(text) + 1)]
        else:
            parts = tokens(text)
            if not parts:
                continue
            i = rng.randrange(len(parts))
            if how == "swap":
                j = rng.randrange(len(parts))
                parts[i], parts[j] = parts[j], parts[i]
            elif how == "junk":
                parts.insert(i, rng.choice(HOSTILE + ["{", "}", "[", "]", "(", ")", "=", ",", "..", "<<", ">>", '"', "\n"]))
            else:
                parts[i] = parts[rng.randrange(len(parts))]
            text = "".join(parts)
    return text


def stretched(rng: random.Random) -> str:
    """A hostile size: deep nesting, a long line, many items, a long chain of operators."""
    n = rng.choice([40, 200, 5000, 20000])
    return rng.choice([
        "x = " + "[" * n + "]" * n,
        "x = " + "(\n" * n + "1" + ")" * n,
        "x = " + " + ".join(["turn"] * n),
        "x = [" + ",\n".join(["1"] * n) + "]",
        "x = " + "-" * n + "1",
        "x = " + "9" * n,
        'x = "' + "\\\\" * n + '"',
        "game g { title = \"" + "a" * n + "\" }",
        "unit u { side = a }\n" * min(n, 3000),
        "x = @ " * n,
    ])


def random_input(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.45:
        return damaged(rng)
    if roll < 0.9:
        return random_statements(rng, 0, rng.randrange(1, 12))
    return stretched(rng)


def run_one(text: str, play_actions: int = 30) -> tuple[str, list]:
    """The input through the pipeline as far as it goes: ("rejected" | "checked" | "played" | "game-error", diagnostics).

    Raises whatever rulec raises that is not a diagnostic: that is what the fuzzing looks for.
    """
    from rulec.compile.codegen import generate_module
    from rulec.diagnostics import DiagnosticError, SourceFile, render
    from rulec.language.parse import parse_text
    from rulec.pipeline import check

    try:
        document = parse_text(text, "fuzz.rulec")
    except DiagnosticError as error:
        for diagnostic in error.diagnostics:
            render(diagnostic, {"fuzz.rulec": SourceFile("fuzz.rulec", text)})
        return "rejected", error.diagnostics
    game, diagnostics = check(document)
    for diagnostic in diagnostics:
        render(diagnostic, {"fuzz.rulec": SourceFile("fuzz.rulec", text)})
    codes = [d.code for d in diagnostics]
    if "internal-error" in codes:
        raise AssertionError(f"internal-error: {[d.message for d in diagnostics if d.code == 'internal-error']}")
    if game is None:
        return "rejected", diagnostics
    namespace: dict = {}
    exec(compile(generate_module(game), "<fuzz>", "exec"), namespace)
    assert namespace["GAME"] == game, "the compiled module does not give back the checked game"
    if game.map is None:  # a battle system: what `rulec play` refuses with a diagnostic
        return "checked", diagnostics
    assert game.sequence, "the checker let a game with a map and no sequence of play through (no-sequence)"
    from rulec.engine import new_game
    from rulec.runtime.errors import ExpressionFailed

    import io

    from rulec.cli.board_view import GameScreen

    rng = random.Random(len(text))
    screen = GameScreen(game, color=bool(rng.randrange(2)), out=io.StringIO(), map_every="action")
    try:
        state = new_game(game, seed=rng.randrange(100))
        screen.show_position(state, legend=True)
        for _ in range(play_actions):
            if state.is_terminal():
                break
            outcomes = state.chance_outcomes() if state.is_chance_node() else [(a, 1) for a in state.legal_actions()]
            action = rng.choice(outcomes)[0]
            screen.narrate(state, action, state.current_player())
            state.apply_action(action)
            screen.flush(state)
    except ExpressionFailed:  # reported as a game error at the expression's line, not a traceback
        return "game-error", diagnostics
    return "played", diagnostics
