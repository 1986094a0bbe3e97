"""The HTML player aids carry the compiled model's values: every table is read back and compared."""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction
from types import SimpleNamespace

import jinja2
import pytest

from rulec.aids.environment import environment
from rulec.aids.render import SHEETS, aid_names, render_html
from rulec.pipeline import load_game
from test_aids_tables import body_rows, read_tables


@pytest.fixture(scope="module")
def game():
    return load_game("drive_on_metz")


@pytest.fixture(scope="module")
def tables(game):
    return read_tables(render_html(game))


def plain(text: str) -> str:
    """Cell text with the typographic minus turned back into ASCII."""
    return text.replace("\u2212", "-")


@pytest.mark.rule("metz:10.3")
def test_crt_cells_are_the_model_table(game, tables):
    table = game.tables[game.combat.table]
    rows = tables[f"crt-{table.id}"]
    header = [c.text for c in rows[1].cells[1:]]
    assert header == [c.label for c in table.columns]
    printed = body_rows(rows)
    assert [int(r.cells[0].text) for r in printed] == sorted(table.rows)
    for row in printed:
        assert tuple(c.text for c in row.cells[1:]) == table.rows[int(row.cells[0].text)]


def test_crt_chances_count_die_faces(game, tables):
    table = game.tables[game.combat.table]
    die = game.info.die
    low, high = min(table.rows), max(table.rows)
    for row in body_rows(tables[f"crt-{table.id}-odds"]):
        code = row.attrs["data-code"]
        for index, cell in enumerate(row.cells[1:]):
            faces = sum(1 for f in range(1, die + 1) if table.rows[min(max(f, low), high)][index] == code)
            assert Fraction(cell.attrs["data-chance"]) == Fraction(faces, die)
            assert cell.first == (f"{faces} in {die}" if faces else "\u2013")
    # Each column's chances add up to one.
    columns = zip(*[[Fraction(c.attrs["data-chance"]) for c in r.cells[1:]]
                    for r in body_rows(tables[f"crt-{table.id}-odds"])])
    assert all(sum(column) == 1 for column in columns)


def test_crt_expected_retreats_follow_the_results(game, tables):
    table = game.tables[game.combat.table]
    die = game.info.die
    rows = {r.attrs["data-measure"]: r for r in body_rows(tables[f"crt-{table.id}-expected"])}
    assert set(rows) == {"defender_retreat", "attacker_retreat", "advance"}
    for index in range(len(table.columns)):
        codes = [table.rows[f][index] for f in range(1, die + 1)]
        expected = sum(Fraction(game.results[c].defender_retreat, die) for c in codes)
        assert float(rows["defender_retreat"].cells[index + 1].text) == pytest.approx(float(expected), abs=0.005)
        advance = sum(Fraction(1, die) for c in codes if game.results[c].advance)
        assert rows["advance"].cells[index + 1].text == f"{float(advance) * 100:.0f}%"


@pytest.mark.rule("metz:7.2")
def test_tec_rows_are_the_model_terrain(game, tables):
    rows = body_rows(tables["tec-terrain"])
    assert [r.attrs["data-terrain"] for r in rows] == list(game.terrain)
    for row in rows:
        terrain = game.terrain[row.attrs["data-terrain"]]
        name, movement, shift = row.cells[0].text, row.cells[1].text, plain(row.cells[2].text)
        assert name == terrain.name
        assert movement == (f"{terrain.move} MP" if terrain.move is not None else "As other terrain")
        assert shift == (f"{terrain.combat_shift:+d}" if terrain.combat_shift > 0 else
                         str(terrain.combat_shift) if terrain.combat_shift else "\u2014")
    assert [r.cells[0].text for r in rows if r.cells[1].text == "2 MP"] == ["Clear"]


@pytest.mark.rule("metz:7.23")
def test_tec_hexside_rows(game, tables):
    rows = {r.attrs["data-hexside-type"]: r for r in body_rows(tables["tec-hexsides"])}
    assert set(rows) == set(game.hexside_types)
    road, river = game.hexside_types["road"], game.hexside_types["river"]
    assert rows["road"].cells[1].text.startswith(f"{road.move} MP to enter a hex through it")
    assert plain(rows["river"].cells[2].text).startswith(f"{river.combat_shift} columns")
    assert "every attacking unit" in rows["river"].cells[2].text  # combat_when = all_attackers_across
    assert "Blocks retreat" in rows["river"].cells[3].text


@pytest.mark.rule("metz:10.5")
def test_tec_says_how_effects_combine(game):
    html = render_html(game, aids=("tec",))
    assert "not cumulative" in html and "worst for the attacker" in html
    cumulative = dataclasses.replace(game, combat=dataclasses.replace(game.combat, terrain_effects="cumulative"))
    assert "Terrain effects are cumulative" in render_html(cumulative, aids=("tec",))


@pytest.mark.rule("metz:4.0")
def test_sequence_lists_phases_in_order_with_their_player(game, tables):
    rows = body_rows(tables["sequence"])
    assert [r.attrs["data-phase"] for r in rows] == [p.id for p in game.sequence]
    for row, phase in zip(rows, game.sequence):
        assert row.cells[1].text == phase.name
        assert row.cells[2].text == (game.sides[phase.side].name if phase.side else "Both players")


@pytest.mark.rule("metz:6.2")
def test_turn_track_labels_and_exit_vp(game, tables):
    rows = body_rows(tables["turn-track"])
    assert [r.cells[1].text for r in rows] == list(game.info.turn_labels)
    header = tables["turn-track"][0]
    awards = [c.attrs["data-award"] for c in header.cells if "data-award" in c.attrs]
    assert awards == ["germany_exit_turn_track"]  # the only award that depends on the turn alone
    award = next(a for a in game.awards if a.id == awards[0])
    printed = [int(r.cells[3].text) for r in rows]
    assert printed == [award.amount(SimpleNamespace(turn=t, turns=game.info.turns)) for t in range(1, 8)]
    assert printed == [7, 6, 5, 4, 3, 2, 1]


@pytest.mark.rule("metz:8.3")
@pytest.mark.rule("metz:8.4")
def test_turn_track_reinforcements(game):
    html = render_html(game, aids=("turns",))
    rows = re.findall(r'<tr data-turn="(\d+)">(.*?)</tr>', html, re.S)
    due = {int(turn): re.findall(r'data-unit="([^"]+)"', body) for turn, body in rows}
    for turn in range(1, game.info.turns + 1):
        expected = [u.id for u in game.units.values() if u.arrives and u.arrives.turn == turn]
        assert sorted(due[turn]) == sorted(expected)
    assert "de_106" in due[2] and "us_359" in due[4]


@pytest.mark.rule("metz:6.4")
def test_victory_levels_and_award_texts(game, tables):
    rows = body_rows(tables["victory-levels"])
    printed = [(r.cells[0].text, r.cells[1].text) for r in rows]
    expected = [(level.name, f"lead by at least {level.at_least:g} VP") for level in game.victory.levels]
    assert printed[:-1] == expected
    assert printed[-1][0] == game.victory.draw
    html = render_html(game, aids=("victory",))
    for award in game.awards:
        assert f'data-award="{award.id}">{jinja2.utils.markupsafe.escape(award.text)}<' in html


@pytest.mark.rule("metz:5.0")
def test_order_of_battle_units(game, tables):
    seen = set()
    for side in game.sides:
        for row in body_rows(tables[f"oob-{side}"]):
            unit = game.units[row.attrs["data-unit"]]
            seen.add(unit.id)
            assert unit.side == side
            assert row.cells[0].text == unit.label
            assert (int(row.cells[3].text), int(row.cells[4].text)) == (unit.strength, unit.move)
            placement = row.cells[5].text
            if unit.setup:
                assert placement.startswith(unit.setup)
            else:
                assert placement.startswith(f"Turn {unit.arrives.turn}" if unit.arrives.turn else "Any turn")
            for variant in unit.variants:
                assert f"{variant.strength}-{variant.move or unit.move}" in row.cells[6].text
    assert seen == set(game.units)


@pytest.mark.rule("metz:11.33")
@pytest.mark.rule("metz:11.42")
def test_options_print_their_vp_adjustments(game, tables):
    rows = {r.attrs["data-option"]: r for r in body_rows(tables["options"])}
    assert set(rows) == set(game.options)
    for option in game.options.values():
        for side, vp in option.vp.items():
            assert f"{game.sides[side].name} receives {vp} VP" in rows[option.id].cells[2].text
    assert "Germany receives 5 VP" in rows["screaming_eagles"].cells[2].text


def test_every_aid_is_a_section_on_its_sheet_and_the_map_is_embedded(game):
    html = render_html(game)
    found = list(dict.fromkeys(re.findall(r'data-aid="([a-z_]+)"', html)))
    assert found == list(aid_names(game))
    assert re.findall(r'data-sheet="([a-z-]+)"', html) == [name for name, _ in SHEETS]
    assert html.count("data-hex=") == len(game.map.hexes)  # the map fits one page: one drawing


def test_paper_size_sets_the_page_rule(game):
    assert "size: A4;" in render_html(game, "a4", aids=("crt",))
    assert "size: letter;" in render_html(game, "letter", aids=("crt",))
    assert "@page map-sheet { size: letter; margin: 0;" in render_html(game, "letter", aids=("map",))


def test_a_missing_value_fails_the_build():
    template = environment().from_string("{{ game.info.nothing_here }}")
    with pytest.raises(jinja2.UndefinedError):
        template.render(game=SimpleNamespace(info=SimpleNamespace()))


def test_a_game_without_options_or_map_has_no_such_aids(game):
    bare = dataclasses.replace(game, options={}, map=None)
    assert aid_names(bare) == ("crt", "modifiers", "sequence", "tec", "victory", "turns", "vp_track", "oob",
                               "counter_key", "counters")
    html = render_html(bare)
    assert 'data-aid="options"' not in html and "data-hex=" not in html


@pytest.mark.parametrize("change", [
    dict(victory=None), dict(awards=()), dict(tables={}, combat=None), dict(units={}), dict(options={}),
    dict(sequence=()),
    dict(victory=None, awards=(), tables={}, combat=None, units={}, options={}, sequence=(), map=None),
], ids=["no-victory", "no-awards", "no-crt", "no-units", "no-options", "no-sequence", "almost-nothing"])
def test_a_game_with_less_gets_the_aids_it_has(game, change):
    lesser = dataclasses.replace(game, **change)
    html = render_html(lesser)
    assert list(dict.fromkeys(re.findall(r'data-aid="([a-z_]+)"', html))) == list(aid_names(lesser))
    assert ("data-hex=" in html) == (lesser.map is not None)
