"""What the language server knows of a game file, without the protocol: names, completion, hover, definition."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulec.editor.analysis import Symbols, complete, definition, diagnose, hover
from rulec.editor.outline import Frame, frames_at

METZ = Path(__file__).resolve().parent.parent / "games" / "drive_on_metz.rulec"


@lru_cache(maxsize=1)
def _metz():
    text = METZ.read_text(encoding="utf-8")
    document, diagnostics = diagnose(text, "games/drive_on_metz.rulec")
    assert document is not None and not [d for d in diagnostics if d.is_error]
    return text, Symbols.of(document)


def test_a_field_is_offered_the_kinds_of_names_the_file_already_gives_it_first():
    _, symbols = _metz()
    for typed, kind in (("side = ", "side"), ("type = ", "unit type"), ("setup = ", "hex")):
        text = f"unit x {{ {typed}"
        items = complete(text, len(text), symbols)
        likely = [item for item in items if item.likely]
        assert likely and {item.kind for item in likely} == {kind}, typed
        assert items[:len(likely)] == likely  # and they come first
    text = "unit x { arrives = { turn = 2, area = "
    assert {item.kind for item in complete(text, len(text), symbols) if item.likely} == {"zone"}


def test_a_label_that_names_something_is_offered_those_names():
    # A top-level block whose labels name units elsewhere in the file (no such block in Drive on Metz since
    # its improved counters became variants inside the units): a new block of that keyword is offered units.
    text = METZ.read_text(encoding="utf-8") + "\nreserve de_gar { }\n"
    document, _ = diagnose(text, "games/drive_on_metz.rulec")
    symbols = Symbols.of(document)
    text = "reserve "
    offered = complete(text, len(text), symbols)
    assert offered and {item.kind for item in offered} == {"unit"}
    text = "unit "  # a new unit's label is a new name: nothing to offer
    assert complete(text, len(text), symbols) == []
    text = "unit x {\n  optional "  # a field without its '=' yet
    assert complete(text, len(text), symbols) == []


def test_where_the_cursor_is_in_a_half_typed_file():
    assert frames_at("map {\n  zones {\n    a = [0101,\n", 30) == (Frame("map"), Frame("zones"))
    assert frames_at("unit a { side = us }\nunit b { ", 30) == (Frame("unit", ("b",)),)
    assert frames_at("legend = { C = clear, ", 22) == (Frame("legend"),)


def test_hover_and_definition_of_names_and_fields():
    text, symbols = _metz()
    at_setup = text.index("setup = 0807") + len("setup = ") + 1
    place_line = text[:text.index('0807 = "Metz"')].count("\n") + 1
    assert hover(text, at_setup, symbols) == f"hex **0807** — Metz (line {place_line})"
    assert [span.line for span in definition(text, at_setup, symbols)] == [place_line]
    at_die = text.index("die = 6") + 1
    assert "the number of faces of the die" in hover(text, at_die, symbols)
    assert definition(text, at_die, symbols) == []


@st.composite
def half_typed(draw) -> tuple[str, int]:
    """A game file cut off, or with a stretch deleted, and a cursor somewhere in what is left: typing in progress."""
    text = METZ.read_text(encoding="utf-8")
    start = draw(st.integers(0, len(text)))
    end = draw(st.integers(start, min(len(text), start + 400)))
    text = text[:start] + draw(st.sampled_from(["", "{", "}", "= ", "[", "unit x { ", '"', "<<", "(", "side = "])) + (
        text[end:] if draw(st.booleans()) else "")
    return text, draw(st.integers(0, len(text)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(half_typed())
def test_a_half_typed_file_never_breaks_completion_hover_or_definition(case):
    text, offset = case
    _, symbols = _metz()
    document, diagnostics = diagnose(text, "games/drive_on_metz.rulec")
    assert document is not None or diagnostics
    Symbols.of(document)
    assert all(item.label for item in complete(text, offset, symbols))
    hover(text, offset, symbols)
    definition(text, offset, symbols)
