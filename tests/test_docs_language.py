"""docs/language.md, the language reference, against the schema and itself.

* every field a designer may write (schemas/game.schema.json) is named, in code, in
  the reference's section for its block;
* every section of the schema has a heading, and the contents list every heading;
* every link inside the page leads to a heading there is;
* every diagnostic code the reference names is one the checker has.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rulec.check.codes import CODES

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
SCHEMA = json.loads((ROOT / "schemas" / "game.schema.json").read_text(encoding="utf-8"))

# The battle section has its own schema and checker, and its own codes (battle-*); the reference points to them.
OWN_SCHEMA = {"battle"}
# Reported by the checker's generic "unknown <what>" reference check but missing from rulec/check/codes.py.
UNREGISTERED_CODES = {"unknown-scenario"}


def _anchor(title: str) -> str:
    """The anchor a Markdown renderer gives a heading (lower case, punctuation dropped, spaces to '-')."""
    return re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")


def _headings(markdown: str) -> list[tuple[int, str]]:
    """(level, title) of every heading outside fenced code."""
    found, in_code = [], False
    for line in markdown.split("\n"):
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and (match := re.match(r"^(#{1,4}) (.+)$", line)):
            found.append((len(match.group(1)), match.group(2)))
    return found


def _sections() -> dict[str, str]:
    """Each schema section's keyword -> the text of the '### keyword, ...' section naming it (up to the next ## or ###)."""
    parts = re.split(r"^(#{2,3} .+)$", REFERENCE, flags=re.M)
    found = {}
    for heading, body in zip(parts[1::2], parts[2::2]):
        if heading.startswith("### "):
            for keyword in heading[4:].split("(")[0].split(","):
                found[keyword.strip()] = body
    return found


def _code_words(text: str) -> set[str]:
    """The words written in code: fenced blocks and `inline` spans."""
    code = re.findall(r"^```\n(.*?)^```", text, flags=re.M | re.S) + re.findall(r"`([^`\n]+)`", text)
    return set(re.findall(r"\w+", " ".join(code)))


def _fields(node: dict, seen: set[str]):
    """Every property name under a schema node, each $defs entry walked once (its fields belong to the first
    block that uses it). Names starting with '$' and 'tree' are how parsed values are stored, not fields."""
    ref = node.get("$ref", "")
    if ref:
        if not ref.startswith("#/$defs/") or ref in seen:
            return
        seen.add(ref)
        node = SCHEMA["$defs"][ref.rsplit("/", 1)[1]]
    for name, value in node.get("properties", {}).items():
        if not name.startswith("$") and name != "tree":
            yield name
        yield from _fields(value, seen)
    for keyword in ("additionalProperties", "items"):
        if isinstance(node.get(keyword), dict):
            yield from _fields(node[keyword], seen)
    for keyword in ("anyOf", "oneOf", "allOf"):
        for option in node.get(keyword, ()):
            yield from _fields(option, seen)


SECTIONS = [name for name in SCHEMA["properties"] if name not in OWN_SCHEMA]


@pytest.mark.parametrize("section", SECTIONS)
def test_every_field_of_a_section_is_named_in_its_part_of_the_reference(section):
    sections = _sections()
    assert section in sections, f"no '### {section}' heading in docs/language.md"
    words = _code_words(sections[section])
    seen: set[str] = set()
    missing = sorted({name for name in _fields(SCHEMA["properties"][section], seen) if name not in words})
    assert not missing, f"fields of '{section}' the reference does not name in its section: {missing}"


def test_the_walk_finds_the_fields_it_is_meant_to_check():
    seen: set[str] = set()
    combat = set(_fields(SCHEMA["properties"]["combat"], seen))
    assert {"table", "retreat", "prefer", "stops_at_enemy_zoc", "one_battle_per_defender"} <= combat
    assert "tree" not in combat and not any(name.startswith("$") for name in combat)


def test_the_contents_link_every_section_and_subsection_heading():
    contents = REFERENCE.split("## Contents", 1)[1].split("\n---", 1)[0]
    linked = set(re.findall(r"\]\(#([^)]+)\)", contents))
    headings = {_anchor(title) for level, title in _headings(REFERENCE) if level in (2, 3, 4) and title != "Contents"}
    assert headings - linked == set(), "headings missing from the contents"
    assert linked - headings == set(), "contents entries with no heading"


def test_every_link_inside_the_page_leads_to_a_heading():
    anchors = {_anchor(title) for _, title in _headings(REFERENCE)}
    broken = sorted(set(re.findall(r"\]\(#([^)]+)\)", REFERENCE)) - anchors)
    assert not broken, f"links to no heading: {broken}"


def test_every_code_the_reference_names_is_a_code_of_the_checker():
    body = REFERENCE.split("### Diagnostic codes", 1)[0]
    named = set(re.findall(r"`([a-z]+(?:-[a-z]+)+)`", body))
    commands = {"no-such-game"}  # every named code is looked up, none is a command name
    unknown = sorted(named - set(CODES) - UNREGISTERED_CODES - commands)
    assert not unknown, f"codes the reference names that the checker does not have: {unknown}"
