"""The aids of a battle system (no map): matrix, qualities, modifiers, outcome and army-state tables."""

from __future__ import annotations

import pytest

from rulec.aids.render import aid_names, render_html
from rulec.pipeline import load_game
from test_aids_tables import body_rows, read_tables


@pytest.fixture(scope="module")
def game():
    return load_game("engle_ww2_battle")


@pytest.fixture(scope="module")
def tables(game):
    return read_tables(render_html(game))


def number(text: str) -> int:
    return int(text.replace("\u2212", "-"))


def test_a_battle_system_gets_the_battle_aid_only(game):
    assert game.map is None and game.battle is not None
    assert aid_names(game) == ("battle",)


@pytest.mark.rule("engle:type-modifiers")
def test_matrix_cells_are_the_model_matrix(game, tables):
    system = game.battle
    rows = tables["battle-matrix"]
    assert [c.attrs.get("data-category") for c in rows[0].cells[1:]] == list(system.categories)
    for row, category in zip(body_rows(rows), system.categories):
        assert [number(c.text) for c in row.cells[1:]] == [system.matrix[category][other]
                                                           for other in system.categories]


@pytest.mark.rule("engle:modifiers")
def test_quality_and_side_modifiers(game, tables):
    system = game.battle
    qualities = [number(r.cells[1].text) for r in body_rows(tables["battle-qualities"])]
    assert qualities == list(system.qualities.values())
    modifiers = {r.attrs["data-modifier"]: r for r in body_rows(tables["battle-modifiers"]) if "data-modifier" in r.attrs}
    assert set(modifiers) == set(system.modifiers)
    for modifier in system.modifiers.values():
        row = modifiers[modifier.id]
        assert row.cells[0].text == modifier.name and number(row.cells[1].text) == modifier.value
        if modifier.sides:
            assert all(game.sides[s].name in row.cells[2].text for s in modifier.sides)


@pytest.mark.rule("engle:reserves")
def test_reserve_modifier_and_dug_in(game, tables):
    rows = body_rows(tables["battle-modifiers"])
    assert number(rows[-1].cells[1].text) == game.battle.reserve_modifier
    no_reserve = [r.attrs["data-modifier"] for r in rows if r.cells[3].text == "No"]
    assert no_reserve == [m.id for m in game.battle.modifiers.values() if not m.reserves]


@pytest.mark.rule("engle:outcome")
def test_outcome_table(game, tables):
    rows = body_rows(tables["battle-outcomes"])
    assert [r.attrs["data-outcome"] for r in rows] == [b.id for b in game.battle.outcomes]
    for row, band in zip(rows, game.battle.outcomes):
        assert row.cells[1].text == band.name and int(row.cells[2].text) == band.casualty_points
        if band.below:
            assert row.cells[0].text.endswith(f"below {band.below[0]}:{band.below[1]}")
    assert rows[-1].cells[0].text == "3:1 or more"


@pytest.mark.rule("engle:army-state")
def test_army_state_table(game, tables):
    rows = body_rows(tables["battle-states"])
    assert [r.attrs["data-state"] for r in rows] == [s.id for s in game.battle.army_states]
    for row, state in zip(rows, game.battle.army_states):
        condition = row.cells[1].text
        assert condition and not any(code in condition for code in ("==", "<=", ">", "*", "(")), condition
        assert row.cells[2].text.startswith(state.if_loser) and row.cells[3].text.startswith(state.if_winner)
        assert ("(exhausted)" in row.cells[2].text) == state.loser_exhausted


@pytest.mark.rule("engle:skirmish")
def test_procedure_words_the_settings(game):
    html = render_html(game)
    skirmish = game.battle.skirmish
    assert f"each side puts {skirmish.line} unit(s) in the line and up to {skirmish.reserves} in reserve" in html
    assert f"up to {game.battle.double_up} units against one enemy unit" in html


def test_army_state_conditions_are_in_words(tables):
    conditions = [r.cells[1].text for r in body_rows(tables["battle-states"])]
    assert conditions[0] == "No routed units and no beaten units"
    assert conditions[-1] == "Routed units are more than half of all units"
