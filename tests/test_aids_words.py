"""Expressions of the game language in words, as the aids print them (no code on a card)."""

from __future__ import annotations

import pytest

from rulec.aids.words import Wording, in_words

NAMES = {"units": "all units", "routed": "routed units", "beaten": "beaten units"}


@pytest.mark.parametrize("source, words", [
    ("routed == 0 and beaten == 0", "No routed units and no beaten units"),
    ("routed > 0", "Some routed units"),
    ("0 < routed", "Some routed units"),
    ("routed * 2 > units", "Routed units are more than half of all units"),
    ("2 * beaten <= units", "Beaten units are at most half of all units"),
    ("routed >= 3", "Routed units are at least 3"),
    ("turn != 2", "Turn is not 2"),
    ("(routed > 0 and beaten == 0) or units < 2",
     "Either some routed units and no beaten units, or all units are less than 2"),
    ("not (routed > 0 or beaten > 0)", "Not (some routed units or some beaten units)"),
    ("8 - turn", "8 minus turn"),
    ("-(turn + 1)", "Minus (turn plus 1)"),
    ("if(count(units(side = us)) == 0, 1, 0)", "1 if no units (side us), otherwise 0"),
    ("true", "Always"),
])
def test_expressions_in_words(source, words):
    assert in_words(source, NAMES) == words


def test_an_unknown_node_kind_falls_back_to_the_words_of_its_parts():
    wording = Wording(NAMES)
    assert wording.words(["ternary", ["name", "routed"], ["const", 3]]) == "routed units 3"
    assert wording.words(["op", "**", ["name", "turn"], ["const", 2]]) == "turn ** 2"
    # A known kind with an unexpected shape also falls back instead of failing.
    assert wording.words(["not", ["name", "routed"], ["name", "beaten"]]) == "routed units beaten units"


def test_text_that_does_not_parse_is_returned_as_it_is():
    assert in_words("routed ==") == "routed =="
