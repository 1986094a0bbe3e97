"""An expression written as in a game file, compiled for a game and evaluated in a context (a position's
EngineContext, scores alone, a made-up position): how tests ask what an expression function answers."""

from __future__ import annotations

from rulec.compile.expressions import compiler_for, to_function
from rulec.language.parse import parse_text


def evaluate(game, context, source: str, about_unit: bool = False):
    """The value of the expression `source`, compiled for `game` (about a unit: `unit` names it), in `context`."""
    tree = parse_text(f"x = {source}").data["x"]["tree"]
    return to_function(compiler_for(game, about_unit).source(tree))(context)
