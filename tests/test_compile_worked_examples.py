"""The rulebooks' worked examples, run on the committed generated modules.

The same examples run on the in-memory model in test_metz_combat.py and
test_engle_rules.py; here they prove that what `rulec compile` wrote into
generated/ plays the same rules.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.battle.forces import parse_force
from rulec.battle.scoring import total, unit_modifiers
from rulec.engine import Action, new_game
from rulec.pipeline import load_compiled

GENERATED = Path(__file__).resolve().parent.parent / "generated"
EXAMPLE = {"us_357": "0705", "us_358": "0605", "us_cca": "0707", "de_utrfhr": "0706"}
ATTACKERS = ("us_357", "us_358", "us_cca")


@pytest.fixture(scope="module")
def compiled_metz():
    return load_compiled(GENERATED / "drive_on_metz.py")


@pytest.mark.rule("metz:10.0")
def test_metz_10_0_fifteen_against_two_in_a_fortified_hex(compiled_metz):
    state = new_game(compiled_metz).arrange(EXAMPLE, turn=2, phase="us_combat")
    odds = state.odds(Action.attack("0706", ATTACKERS))
    assert (odds.attack, odds.defence, odds.differential) == (15, 2, 13)
    assert compiled_metz.tables["main"].columns[odds.base_column].label == "+10 or more"
    assert odds.label == "+4, +5"


@pytest.mark.rule("metz:11.1")
def test_metz_11_1_command_control_after_the_terrain_shift(compiled_metz):
    state = new_game(compiled_metz, options=("command_control",)).arrange(EXAMPLE, turn=2, phase="us_combat")
    assert state.odds(Action.attack("0706", ATTACKERS)).label == "+6, +7"


@pytest.mark.rule("metz:6.2")
def test_metz_turn_track_exit_vp_from_the_compiled_expression(compiled_metz):
    [award] = [a for a in compiled_metz.awards if a.amount.source == "8 - turn"]

    class Turn:
        def __init__(self, turn):
            self.turn = turn

    assert [award.amount(Turn(t)) for t in range(1, 8)] == [7, 6, 5, 4, 3, 2, 1]


@pytest.fixture(scope="module")
def compiled_engle():
    return load_compiled(GENERATED / "engle_ww2_battle.py")


@pytest.mark.rule("engle:modifiers")
@pytest.mark.parametrize(("ours", "theirs", "expected"), [
    ("Germany: panther/good", "Soviet: infantry", (4, 0)),  # tank v other +2, German +1, good +1
    ("Germany: panzergrenadier/good", "Soviet: mortar", (2, 0)),  # other v other 0, German +1, good +1
])
def test_engle_modifier_examples(compiled_engle, ours, theirs, expected):
    side, enemy = parse_force(compiled_engle, ours), parse_force(compiled_engle, theirs)
    mine, other = side.units[0], enemy.units[0]
    assert (total(unit_modifiers(compiled_engle.battle, side, mine, [other])),
            total(unit_modifiers(compiled_engle.battle, enemy, other, [mine]))) == expected
