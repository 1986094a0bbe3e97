"""Expressions of the game language in words, as the aids print them (no code on a card)."""

from __future__ import annotations

import pytest

from rulec.aids.function_words import FUNCTION_WORDS, NAME_WORDS as NAMES_OF_LANGUAGE
from rulec.aids.words import Wording, in_words
from rulec.compile.functions import AGGREGATES, FILTERS, FUNCTIONS, NAMES as LANGUAGE_NAMES, SPECIAL, UNIT_ATTRIBUTES

NAMES = {"units": "all units", "routed": "routed units", "beaten": "beaten units"}


@pytest.mark.parametrize("source, words", [
    ("routed == 0 and beaten == 0", "No routed units and no beaten units"),
    ("routed > 0", "Some routed units"),
    ("0 < routed", "Some routed units"),
    ("routed * 2 > units", "Routed units are more than half of all units"),
    ("2 * beaten <= units", "Beaten units are at most half of all units"),
    ("routed >= 3", "Routed units are at least 3"),
    ("turn != 2", "The turn is not 2"),
    ("(routed > 0 and beaten == 0) or units < 2",
     "Either some routed units and no beaten units, or all units are less than 2"),
    ("not (routed > 0 or beaten > 0)", "Not (some routed units or some beaten units)"),
    ("8 - turn", "8 minus the turn"),
    ("-(turn + 1)", "Minus (the turn plus 1)"),
    ("if(count(units(side = us)) == 0, 1, 0)", "1 if no us units, otherwise 0"),
    ("true", "Always"),
])
def test_expressions_in_words(source, words):
    assert in_words(source, NAMES) == words


def test_an_unknown_node_kind_falls_back_to_the_words_of_its_parts():
    wording = Wording(NAMES)
    assert wording.words(["ternary", ["name", "routed"], ["const", 3]]) == "routed units 3"
    assert wording.words(["op", "**", ["name", "turn"], ["const", 2]]) == "the turn ** 2"
    # A known kind with an unexpected shape also falls back instead of failing.
    assert wording.words(["not", ["name", "routed"], ["name", "beaten"]]) == "routed units beaten units"


def test_text_that_does_not_parse_is_returned_as_it_is():
    assert in_words("routed ==") == "routed =="


# ------------------------------------------------ every entry of the function table has words
# A made-up game's names: what a player reads for each id.
GAME_NAMES = {"red": "Red", "blue": "Blue", "us": "American", "germany": "Germany", "east_bank": "East Bank",
              "0807": "0807 (Town)", "supply": "supply", "pinned": "pinned", "elite": "elite", "city": "city",
              "red_move": "Red Movement", "u": "u", "river": "river"}
ADJECTIVES = {"us": "American", "red": "Red", "blue": "Blue"}
SAMPLE = {"flag": "elite", "hex": "0807", "hexes": "hexes(zone = east_bank)", "marker": "pinned", "number": "turn",
          "phase": "red_move", "phase kind": "combat", "scope": "this_turn", "side": "red", "terrain": "city",
          "trace": "supply", "unit": "unit", "units": "units(side = us)", "hexside type": "river", "option": "night"}


def game_words(source: str) -> str:
    return in_words(source, lambda n: GAME_NAMES.get(n) or NAMES_OF_LANGUAGE.get(n) or n,
                    lambda n: ADJECTIVES.get(n, n))


FORMS = [form for forms in FUNCTIONS.values() for form in forms]


def raw(text: str, name: str) -> bool:
    """Whether worded text still shows code: a call (the plain wording of a function with no words is
    'name (arguments)'), an operator or an identifier."""
    return "(" in text.replace("0807 (Town)", "") or f"{name}(" in text or any(op in text for op in ("==", ">=", "_"))


@pytest.mark.parametrize("form", FORMS, ids=lambda f: f.signature())
def test_every_function_of_the_table_reads_as_words(form):
    forms = FUNCTION_WORDS.get(form.name, {})
    assert len(form.params) in forms or (form.variadic and -1 in forms), f"no wording for {form.signature()}"
    source = f"{form.name}({', '.join(SAMPLE[kind] for kind in form.params)})"
    text = game_words(source)
    assert not raw(text, form.name), (source, text)


@pytest.mark.parametrize("name", sorted(LANGUAGE_NAMES))
def test_every_built_in_name_has_words(name):
    assert name in NAMES_OF_LANGUAGE
    assert "_" not in game_words(name)


@pytest.mark.parametrize("attribute", sorted(UNIT_ATTRIBUTES))
def test_every_unit_attribute_reads_as_words(attribute):
    assert game_words(f"unit.{attribute}") != f"Unit.{attribute}"
    assert "." not in game_words(f"unit.{attribute}")


@pytest.mark.parametrize("function", sorted(set(FILTERS) | set(AGGREGATES) | set(SPECIAL)))
def test_every_quantifier_and_special_form_reads_as_words(function):
    if function in SPECIAL:
        source = f"{function}(turn > 1, 2, 3)"
    elif function in AGGREGATES:
        source = f"{function}(u.strength for u in units(side = red) where supplied(u))"
    else:
        source = f"{function}(u in units(side = red) where marked(u, pinned))"
    text = game_words(source)
    assert not raw(text, function), (source, text)


@pytest.mark.parametrize("source, words", [
    ("vp(red) >= 2 * vp(blue)", "Red's VP are at least twice Blue's VP"),
    ("controls(germany, 0807)", "Germany controls 0807 (Town)"),
    ("count(h in neighbours(0807) where occupied(h))", "The number of the hexes next to 0807 (Town) for which an unit "
                                                       "stands in the hex"),
    ("crossing(unit.hex, 0807, river)", "A river hexside lies between the unit's hex and 0807 (Town)"),
    ("count(u in units(side = us) where u.hex in east_bank)", "The number of American units in East Bank"),
    ("sum(u.strength for u in units(side = red) where supplied(u))",
     "The total strength of Red units for which the unit is supplied"),
    ("all(u in units(side = red) where not moved(u, this_turn))",
     "For each of Red units, the unit did not move this turn"),
    ("count(u in units(side = blue) where any(e in units(side = red) where adjacent(u.hex, e.hex))) == 0",
     "No Blue units for which there is at least one of Red units for which the unit's hex is next to the other "
     "unit's hex"),
    ("units(side = red, status = eliminated)", "Eliminated Red units"),
    ('any(a in attackers where a.division != "")',
     "There is at least one of the attacking units for which the unit has a division"),
    ("occupied_by(us, 0807)", "An American unit stands in 0807 (Town)"),
    ("not has_terrain(0807, city)", "0807 (Town) does not have city terrain"),
    ("lead > 0", "The VP margin of the side ahead is more than 0"),
    ("vp(red) >= vp(blue) + 12", "Red's VP are at least 12 more than Blue's VP"),
    ("2 * count(h in east_bank where occupied_by(blue, h))",
     "Twice the number of the hexes of East Bank for which a Blue unit stands in the hex"),
])
def test_the_new_expression_language_in_words(source, words):
    assert game_words(source) == words
