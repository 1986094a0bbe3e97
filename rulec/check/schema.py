"""Schema check: the document against schemas/game.schema.json.

The schema fixes which blocks and fields exist and what kind of value each
takes; this module runs it with jsonschema (`iter_errors`, so every problem is
reported) and turns each validation error into a diagnostic at the place in
the game file its document path points to. Messages quote the schema's
`description` of what was expected, so the schema is where designer wording
lives.

The top-level `battle` section is described by schemas/battle.schema.json,
written separately; until that file exists, any block is accepted there.
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from jsonschema import Draft202012Validator, ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from rulec.diagnostics import Diagnostic, Span, did_you_mean
from rulec.language.document import Document
from rulec.language.document import Path as DocPath

SCHEMA_DIR = Path(__file__).resolve().parent.parent.parent / "schemas"
GAME_SCHEMA = "game.schema.json"
BATTLE_SCHEMA = "battle.schema.json"

# JSON Schema types in designer words.
TYPE_WORDS = {
    "integer": "a whole number",
    "number": "a number",
    "string": "a text or a name",
    "boolean": "true or false",
    "array": "a list [...]",
    "object": "a block { ... }",
    "null": "nothing",
}


@lru_cache(maxsize=1)
def validator() -> Draft202012Validator:
    """The validator for game documents, with the battle schema registered when present."""
    schema = json.loads((SCHEMA_DIR / GAME_SCHEMA).read_text(encoding="utf-8"))
    base = schema["$id"].rsplit("/", 1)[0]
    battle_path = SCHEMA_DIR / BATTLE_SCHEMA
    if battle_path.is_file():
        battle = json.loads(battle_path.read_text(encoding="utf-8"))
    else:
        battle = {"$schema": schema["$schema"], "description": "a battle block", "type": "object"}
    resource = Resource.from_contents(battle, default_specification=DRAFT202012)
    registry = Registry().with_resources([(f"{base}/{BATTLE_SCHEMA}", resource)])
    if "$id" in battle:
        registry = registry.with_resource(battle["$id"], resource)
    return Draft202012Validator(schema, registry=registry)


def check_schema(document: Document) -> list[Diagnostic]:
    """Every schema problem of the document, in file order."""
    return schema_problems(document)[0]


def schema_problems(document: Document) -> tuple[list[Diagnostic], list[DocPath]]:
    """Every schema problem of the document in file order, and the paths of the values that are wrong.

    The paths let the later layers go on without the wrong values (see `without`): an
    unknown field, a value of the wrong kind or out of range, or a whole list holding a
    wrong item (list items keep their positions). A missing field leaves no path.
    """
    diagnostics: list[Diagnostic] = []
    paths: list[DocPath] = []
    for error in validator().iter_errors(document.data):
        diagnostics.extend(_diagnostics(error, document))
        paths.extend(_wrong_values(error))
    start = Span(document.file, 1, 1)  # problems of the whole file point at its start
    placed = [d if d.span else Diagnostic(d.code, d.message, start, d.severity, d.hint) for d in diagnostics]
    return sorted(_unique(placed), key=_position), paths


def _wrong_values(error: ValidationError) -> list[DocPath]:
    path = tuple(error.absolute_path)
    if error.validator == "required":
        return []
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        return [path + (key,) for key in error.instance if key not in known]
    if "propertyNames" in error.relative_schema_path and isinstance(error.instance, str):
        return [path + (error.instance,)]
    while path and isinstance(path[-1], int):  # drop the whole list: later items keep their index and span
        path = path[:-1]
    return [path] if path else []


def without(document: Document, paths: Iterable[DocPath]) -> Document:
    """A copy of the document without the values at `paths` (spans unchanged)."""
    data = copy.deepcopy(document.data)
    for path in sorted(set(paths), key=len):
        parent: Any = data
        for part in path[:-1]:
            if isinstance(parent, dict) and part in parent:
                parent = parent[part]
            elif isinstance(parent, list) and isinstance(part, int) and part < len(parent):
                parent = parent[part]
            else:
                parent = None
                break
        if isinstance(parent, dict):
            parent.pop(path[-1], None)
    return Document(document.file, document.text, data, document.spans, document.key_spans)


def _diagnostics(error: ValidationError, document: Document) -> Iterable[Diagnostic]:
    path = tuple(error.absolute_path)
    kind = error.validator
    where = _where(path)
    if kind == "additionalProperties" and isinstance(error.instance, dict):
        known = sorted(error.schema.get("properties", {}))
        for key in sorted(k for k in error.instance if k not in known):
            message = f"'{key}' is not a field of {where}" if known else f"'{key}' is not allowed in {where}"
            if not path:
                message = f"'{key}' is not a section of a game file"
            hint = did_you_mean(key, known) or (f"the fields are: {', '.join(known)}" if known and len(known) <= 12 else None)
            yield Diagnostic("unknown-field", message, document.key_span(path + (key,)), hint=hint)
        return
    if kind == "required":
        missing = error.validator_value
        for name in missing:
            if isinstance(error.instance, dict) and name not in error.instance:
                fields = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
                if path and fields and any(key not in fields and did_you_mean(key, [name]) for key in error.instance):
                    continue  # `strenght = 3`: the unknown field and its hint say it all
                message = f"a game file needs a '{name}' block" if not path else f"{where} needs '{name}'"
                yield Diagnostic("missing-field", message, document.key_span(path))
        return
    if kind == "propertyNames":
        yield Diagnostic("bad-value", f"'{path[-1] if path else ''}' of {where}: {_expected(error)}", document.key_span(path))
        return
    if "propertyNames" in error.relative_schema_path and isinstance(error.instance, str):
        # A key of the wrong form (`x = [...]` among a CRT's rows): point at the key itself.
        yield Diagnostic("wrong-type", f"{where}: expected {_expected(error)}, found '{error.instance}'",
                         document.key_span(path + (error.instance,)) or document.key_span(path))
        return
    span = document.span(path)
    found = show(error.instance)
    if kind in ("type", "anyOf", "oneOf", "pattern", "const", "prefixItems", "items"):
        yield Diagnostic("wrong-type", f"{where}: expected {_expected(error)}, found {found}", span)
    elif kind == "enum":
        choices = [str(c) for c in error.validator_value]
        yield Diagnostic("bad-value", f"{where}: expected {_choice_words(choices)}, found {found}", span,
                         hint=did_you_mean(str(error.instance), choices))
    elif kind in ("minimum", "exclusiveMinimum"):
        yield Diagnostic("out-of-range", f"{where}: expected {error.validator_value} or more, found {found}", span)
    elif kind in ("maximum", "exclusiveMaximum"):
        yield Diagnostic("out-of-range", f"{where}: expected {error.validator_value} or less, found {found}", span)
    elif kind == "minProperties" and error.validator_value == 1 and error.schema.get("maxProperties") == 1:
        yield Diagnostic("game-block", "a game file needs exactly one 'game NAME { ... }' block", span)
    elif kind == "maxProperties" and error.validator_value == 1:
        second = list(error.instance)[1] if isinstance(error.instance, dict) and len(error.instance) > 1 else None
        yield Diagnostic("game-block", f"a game file needs exactly one {where} block",
                         document.key_span(path + (second,)) if second is not None else span)
    elif kind in ("minItems", "minProperties"):
        yield Diagnostic("empty", f"{where} may not be empty", span)
    elif kind in ("maxItems", "maxProperties"):
        yield Diagnostic("wrong-type", f"{where}: expected {_expected(error)}, found {found}", span)
    else:  # a keyword this module does not word yet: still a diagnostic, never a crash
        yield Diagnostic("schema", f"{where}: {error.message}", span)


def _expected(error: ValidationError) -> str:
    """What the schema wanted here, from the nearest description, else from the keyword."""
    schema = error.schema if isinstance(error.schema, dict) else {}
    if "description" in schema:
        return schema["description"]
    if "$ref" in schema:
        target = _resolve(schema["$ref"])
        if target and "description" in target:
            return target["description"]
    if error.validator == "type":
        types = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        return " or ".join(TYPE_WORDS.get(t, t) for t in types)
    if error.validator == "const":
        return str(error.validator_value)
    if error.validator == "pattern":
        return "a name (letters, digits and '_')"
    return "something else"


def _resolve(reference: str) -> dict | None:
    if not reference.startswith("#/$defs/"):
        return None
    return validator().schema.get("$defs", {}).get(reference.rsplit("/", 1)[1])


def _where(path: tuple) -> str:
    """A document path as a designer reads it: `unit us_1 strength`, `map zones east`."""
    if not path:
        return "the game file"
    words = [str(p) if not isinstance(p, int) else f"item {p + 1}" for p in path]
    return "'" + " ".join(words) + "'"


def _choice_words(choices: list[str]) -> str:
    if len(choices) == 1:
        return choices[0]
    return ", ".join(choices[:-1]) + " or " + choices[-1]


def show(value: Any) -> str:
    """A value as the designer wrote it (near enough)."""
    if isinstance(value, dict):
        if "$expr" in value:
            return str(value["$expr"])
        if "$range" in value and isinstance(value["$range"], list) and len(value["$range"]) == 2:
            low, high = value["$range"]
            return f"{'' if low is None else show(low)}..{'' if high is None else show(high)}"
        if "$ratio" in value and isinstance(value["$ratio"], list):
            return ":".join(str(v) for v in value["$ratio"])
        if "$hexside" in value and isinstance(value["$hexside"], list):
            return "/".join(str(v) for v in value["$hexside"])
        return "a block { ... }"
    if isinstance(value, list):
        return "a list [...]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        if "\n" in value:
            return "a picture << >>"
        return f"'{value}'" if value.isidentifier() or value.isdigit() else f'"{value}"'
    return str(value)


def _unique(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    seen, result = set(), []
    for diagnostic in diagnostics:
        key = (diagnostic.code, diagnostic.message, diagnostic.span)
        if key not in seen:
            seen.add(key)
            result.append(diagnostic)
    return result


def _position(diagnostic: Diagnostic) -> tuple[int, int]:
    span = diagnostic.span
    return (span.line, span.column) if span else (0, 0)
