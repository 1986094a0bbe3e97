"""The game model as JSON data: what `rulec compile` writes next to the module.

Fields still at their default value are left out, as in the generated
module (the defaults are documented in rulec/runtime/model.py); that keeps
generated files unchanged when the model gains a new field. Expressions become
{"$expr": "<the designer's text>"}; tuples become lists; dictionary keys
become strings (a CRT row's die roll "3"). Order follows the model, which
follows the game file, so the output is the same bytes every time.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from rulec.compile.codegen import non_default_fields
from rulec.runtime import model as m

FORMAT = "rulec-game-model/1"


def to_data(value: Any) -> Any:
    """Plain JSON data for a model object (or any value inside one)."""
    if isinstance(value, m.Expr):
        return {"$expr": value.source}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: to_data(item) for name, item in non_default_fields(value)}
    if isinstance(value, dict):
        return {str(key): to_data(item) for key, item in value.items()}
    if isinstance(value, (tuple, list)):
        return [to_data(item) for item in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def generate_json(game: m.Game) -> str:
    """The JSON text for `game`, ending in a newline."""
    document = {"format": FORMAT, "generated_by": "rulec, do not edit", "source": game.source, "game": to_data(game)}
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"
