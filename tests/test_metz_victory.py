"""Drive on Metz, rules 6.x: victory points and the winner."""

from __future__ import annotations

import pytest

from rulec.engine import Action, new_game
from rulec.engine.victory import outcome

rule = pytest.mark.rule


def at(metz, units, phase="us_movement", turn=2, options=()):
    return new_game(metz, options=options).arrange(units, turn=turn, phase=phase)


def sum_of_log(state):
    totals = {side: 0 for side in state.players}
    for entry in state.vp_log:
        totals[entry.side] += entry.amount
    return totals


@rule("metz:6.1")
def test_us_vp_for_units_east_of_the_moselle(metz):
    # Two US units east of the Moselle when the American Moselle VP phase starts.
    state = at(metz, {"us_357": "0901", "us_358": "0902", "us_2": "0101", "de_1010": "0507"},
               phase="germany_combat", turn=1)
    state.apply_action(Action.end())
    assert (state.turn, state.phase.id) == (2, "us_movement")
    assert state.vp == {"us": 2, "germany": 0}  # and no German VP: US units are east
    assert [e.source for e in state.vp_log] == ["us_east_bank"]


@rule("metz:6.1")
def test_us_vp_for_thionville_and_metz_last_entered(metz):
    state = at(metz, {"us_357": "0601", "de_1010": "0911"})
    state.apply_action(Action.move("us_357", "0701"))
    assert state.vp["us"] == 5
    # Metz, entered along the land side from 0708.
    state = at(metz, {"us_357": "0708", "de_1010": "0911"})
    state.apply_action(Action.move("us_357", "0807"))
    assert state.vp["us"] == 20
    # Passing through counts: CCA drives along the road through Thionville to 0703.
    state = at(metz, {"us_cca": "0601", "de_1010": "0911"})
    state.apply_action(Action.move("us_cca", "0703"))
    assert state.vp["us"] == 5 and state.holders["0701"] == "us"


@rule("metz:6.1")
def test_german_reentry_takes_the_city_vp_back(metz):
    # RULING (docs/rulings.md): 'last to enter' is held, not banked; a German re-entry cancels it.
    state = at(metz, {"us_357": "0601", "de_1010": "0704"})
    state.apply_action(Action.move("us_357", "0701"))
    assert state.vp["us"] == 5
    for _ in range(4):  # to turn 3's US movement phase, the German standing still
        state.apply_action(Action.end())
    assert (state.turn, state.phase.id) == (3, "us_movement")
    state.apply_action(Action.move("us_357", "0402"))  # leaving does not lose the VP
    assert state.vp["us"] == 5
    state.apply_action(Action.end())
    state.apply_action(Action.end())
    state.apply_action(Action.move("de_1010", "0701"))  # by road 0703, 0702, 0701
    assert state.vp["us"] == 0 and state.holders["0701"] == "germany"
    assert state.vp == sum_of_log(state)


@rule("metz:6.1")
def test_us_vp_for_exiting_east(metz):
    state = at(metz, {"us_357": "0905", "de_1010": "0101"})
    state.apply_action(Action.exit("us_357", "east"))
    assert state.vp["us"] == 5 and state.status("us_357") == "exited"


@rule("metz:6.2")
def test_german_vp_for_exits(metz):
    state = at(metz, {"de_1126": "0102", "us_357": "0911"}, phase="germany_movement", turn=1)
    state.apply_action(Action.exit("de_1126", "west"))
    assert state.vp["germany"] == 10
    # 3rd PzGr and 17th SS PzGr units: 7 VP on turn 1, one less each turn, east or south.
    for turn, expected in ((1, 7), (3, 5), (7, 1)):
        state = at(metz, {"de_37": "0906", "us_357": "0101"}, phase="germany_movement", turn=turn)
        state.apply_action(Action.exit("de_37", "east"))
        assert state.vp["germany"] == expected
    state = at(metz, {"de_8": "0611", "us_357": "0101"}, phase="germany_movement", turn=2)
    state.apply_action(Action.exit("de_8", "south"))
    assert state.vp["germany"] == 6
    # Other German units score nothing for the east edge, and give the American nothing either.
    state = at(metz, {"de_1010": "0906", "us_357": "0101"}, phase="germany_movement", turn=1)
    state.apply_action(Action.exit("de_1010", "east"))
    assert state.vp == {"us": 0, "germany": 0}
    # An American unit leaving by the west edge scores nothing for the German.
    state = at(metz, {"us_357": "0102", "de_1010": "0911"}, turn=1)
    state.apply_action(Action.exit("us_357", "west"))
    assert state.vp == {"us": 0, "germany": 0}


@rule("metz:6.2")
def test_german_vp_for_an_empty_east_bank_and_us_losses(metz):
    state = at(metz, {"us_357": "0101", "de_1010": "0507"}, phase="germany_combat", turn=1)
    state.apply_action(Action.end())
    assert state.vp == {"us": 0, "germany": 1}
    state = at(metz, {"us_357": "0901", "de_1010": "0507"}, phase="germany_combat", turn=1)
    state.apply_action(Action.end())
    assert state.vp["germany"] == 0
    # A US unit destroyed (it cannot retreat): 1 VP per strength point.
    state = at(metz, {"us_357": "0102", "de_fhnjkr": "0202", "de_1010": "0103", "de_8": "0201"},
               phase="germany_combat")
    for step in state.parse_orders("attack 0102 with Fhnjkr 1010 8"):  # 6 against 4: +2
        state.apply_action(step)
    state.apply_action(Action.roll(1))  # DR
    assert state.status("us_357") == "eliminated"
    assert state.vp["germany"] == 4


@rule("metz:6.4")
def test_victory_levels(metz):
    def level(us, germany):
        result = outcome(metz, {"us": us, "germany": germany})
        return result.winner, result.level

    assert level(10, 6) == (None, "Draw")
    assert level(6, 10) == (None, "Draw")
    assert level(15, 10) == ("us", "Marginal Victory")
    assert level(1, 11) == ("germany", "Substantial Victory")
    assert level(24, 9) == ("us", "Decisive Victory")
    assert level(3, 3) == (None, "Draw")


@rule("metz:6.1")
def test_passing_through_metz_on_the_way_off_the_map_counts(metz):
    # CCA drives from 0708 through Metz and off the east edge by the road out of 0907:
    # 20 VP for Metz and 5 for the exit.
    state = at(metz, {"us_cca": "0708", "de_1010": "0101"})
    state.apply_action(Action.exit("us_cca", "east"))
    assert state.vp["us"] == 25 and state.holders["0807"] == "us"
