"""Victory as ordered conditions with a winner, sudden death, and a game with no draw, played on made-up games."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import Action, new_game
from rulec.pipeline import load_game

GAMES = Path(__file__).resolve().parent / "games"


@pytest.fixture(scope="module")
def twice():
    return load_game(str(GAMES / "twice_the_enemy.rulec"))


@pytest.fixture(scope="module")
def bridge():
    return load_game(str(GAMES / "last_bridge.rulec"))


def play_out(state, blue_leaves_on_turn: int | None = None):
    """End every phase to the end of the game; Blue's unit leaves the hill country on the turn given."""
    while not state.is_terminal():
        if state.phase.id == "blue_move" and state.turn == blue_leaves_on_turn:
            state.apply_action(Action.move("b1", "0203"))
        state.apply_action(Action.end())
    return state


def red_takes(state, towns: int):
    for uid, town in (("r1", "0201"), ("r2", "0202"))[:towns]:
        state.apply_action(Action.move(uid, town))
    return state


@pytest.mark.parametrize("towns,blue_leaves,vp,winner,level", [
    (2, None, {"red": 4, "blue": 3}, "red", "Red Minor Victory"),    # 4 is more, but not twice 3
    (2, 3, {"red": 4, "blue": 2}, "red", "Red Major Victory"),       # exactly twice counts
    (2, 1, {"red": 4, "blue": 0}, "red", "Red Major Victory"),
    (1, 2, {"red": 2, "blue": 1}, "red", "Red Major Victory"),
    (1, None, {"red": 2, "blue": 3}, "blue", "Blue Victory"),
    (0, 1, {"red": 0, "blue": 0}, "blue", "Blue Victory"),            # 0 >= 2 * 0, but the major level needs VP
])
def test_a_ratio_table_twice_the_enemys_vp(twice, towns, blue_leaves, vp, winner, level):
    state = play_out(red_takes(new_game(twice), towns), blue_leaves)
    result = state.outcome()
    assert state.vp == vp
    assert (result.winner, result.level) == (winner, level)
    assert state.returns() == ([1.0, -1.0] if winner == "red" else [-1.0, 1.0])


def test_the_first_level_that_holds_decides_in_file_order(twice):
    # With 4 against 0 both Red levels hold; the major one is written first.
    state = play_out(red_takes(new_game(twice), 2), blue_leaves_on_turn=1)
    assert [level.id for level in twice.victory.levels if level.when(_context(state))] == ["red_major", "red_minor"]
    assert state.outcome().level == "Red Major Victory"


def _context(state):
    from rulec.engine.context import EngineContext

    return EngineContext(state)


def test_sudden_death_checked_always_ends_the_game_at_once(bridge):
    state = new_game(bridge)
    state.apply_action(Action.move("r1", "0302"))
    state.apply_action(Action.end())
    state.apply_action(Action.end())
    assert not state.is_terminal() and state.turn == 2
    state.apply_action(Action.move("r1", "0303"))  # the bridge falls in the middle of Red's movement phase
    assert state.is_terminal() and state.legal_actions() == []
    assert (state.turn, state.phase.id) == (2, "red_move")
    result = state.outcome()
    assert (result.winner, result.level) == ("red", "The Bridge Falls")
    assert state.returns() == [1.0, -1.0]


def test_sudden_death_checked_at_the_end_of_the_turn(bridge):
    state = new_game(bridge)
    state.apply_action(Action.end())
    state.apply_action(Action.end())
    assert not state.is_terminal()  # turn 1 is not the turn the condition names
    state.apply_action(Action.end())
    assert not state.is_terminal()  # the end of Red's phase is no end of the turn
    state.apply_action(Action.end())
    assert state.is_terminal() and state.turn == 2
    assert (state.outcome().winner, state.outcome().level) == ("blue", "Red Stalls")


def test_a_game_with_no_draw_goes_to_the_side_named_otherwise(bridge):
    state = new_game(bridge)
    state.apply_action(Action.move("r1", "0302"))  # near enough not to stall, and never takes the bridge
    while not state.is_terminal():
        state.apply_action(Action.end())
    assert state.turn == 3
    result = state.outcome()
    assert (result.winner, result.level) == ("blue", "Blue Holds the Bridge")
    assert state.returns() == [-1.0, 1.0]


def test_a_sudden_death_result_survives_clone_and_arrange_clears_it(bridge):
    state = new_game(bridge).arrange({"r1": "0302", "b1": "0505"}, turn=2, phase="red_move")
    state.apply_action(Action.move("r1", "0303"))
    assert state.clone().outcome().level == "The Bridge Falls"
    fresh = state.arrange({"r1": "0101", "b1": "0505"}, turn=1, phase="red_move")
    assert not fresh.is_terminal() and fresh.decided is None


def test_levels_written_as_a_lead_are_conditions_the_checker_wrote(metz):
    sources = [level.when.source for level in metz.victory.levels]
    assert sources == ["lead > 0 and lead >= 15", "lead > 0 and lead >= 10", "lead > 0 and lead >= 5"]
    assert [level.at_least for level in metz.victory.levels] == [15, 10, 5]
    assert all(level.winner is None for level in metz.victory.levels)  # the side that leads


def test_the_references_victory_example_checks_on_drive_on_metz(tmp_path):
    from rulec.language.parse import parse_text
    from rulec.pipeline import check

    reference = (Path(__file__).resolve().parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    section = reference[reference.index("### award, victory"):]
    example = section[section.index("```\n") + 4:section.index("\n```", section.index("```\n") + 4)]
    game = (Path(__file__).resolve().parent.parent / "games" / "drive_on_metz.rulec").read_text(encoding="utf-8")
    start = game.index("\nvictory {")
    game = game[:start] + game[game.index("\n}\n", start) + 2:]  # the file's own victory block gives way to the example's
    built, found = check(parse_text(game + example.replace("award us_metz", "award us_metz_again") + "\n", "t.rulec"))
    assert [d for d in found if d.is_error] == [] and built is not None
    assert [level.id for level in built.victory.levels] == ["decisive", "twice", "marginal"]
    assert [(rule.id, rule.winner, rule.check) for rule in built.victory.sudden_death] == [("fall_of_city", "germany", "end_of_phase")]
    assert built.victory.levels[2].when.source == "lead > 0 and lead >= 5"


def test_sudden_death_checked_at_the_end_of_a_phase_and_won_by_nobody(tmp_path):
    text = (GAMES / "last_bridge.rulec").read_text(encoding="utf-8")
    text = text.replace("    winner = red\n    check = always\n", "    winner = draw\n    check = end_of_phase\n")
    path = tmp_path / "variant.rulec"
    path.write_text(text, encoding="utf-8")
    state = new_game(load_game(str(path))).arrange({"r1": "0302", "b1": "0505"}, turn=2, phase="red_move")
    state.apply_action(Action.move("r1", "0303"))
    assert not state.is_terminal()  # checked only when the phase ends
    state.apply_action(Action.end())
    assert state.is_terminal() and (state.turn, state.phase.id) == (2, "red_move")
    assert (state.outcome().winner, state.outcome().level) == (None, "The Bridge Falls")
    assert state.returns() == [0.0, 0.0]


def test_the_victory_aid_prints_levels_written_as_conditions(twice, bridge):
    from rulec.aids.sheets import victory_sheet
    from rulec.aids.turn_values import turn_dependent_awards

    sheet = victory_sheet(twice)
    assert sheet.levels[0] == ("Red Major Victory", "Red wins if Red's VP are more than 0 and Red's VP are at least twice Blue's VP")
    assert sheet.levels[-1] == ("Draw", "no level above holds")
    assert sheet.track and not any(mark for _, mark in sheet.track)  # a plain VP track: no lead marks a level
    assert victory_sheet(bridge).levels == (
        ("The Bridge Falls", "Red wins at once if Red controls 0303"),
        ("Red Stalls", "Blue wins at once if the turn is 2 and there is none of Red units for which the distance in hexes "
                       "from the unit's hex to 0303 is at most 1"),
        ("Blue Holds the Bridge", "no level above holds: Blue wins"))
    hill = load_game(str(GAMES / "quantified_awards.rulec"))  # awards that read the position stay off the turn track
    assert [(track.award.id, track.values) for track in turn_dependent_awards(hill)] == [("red_exit", (3, 2))]


def test_winners_name_a_side_leader_or_draw_with_a_did_you_mean():
    from rulec.language.parse import parse_text
    from rulec.pipeline import check

    text = (GAMES / "last_bridge.rulec").read_text(encoding="utf-8").replace("winner = red", "winner = rde").replace(
        "otherwise = blue", "otherwise = bleu\n  level l { when = turn > 1  winner = lader }")
    _, found = check(parse_text(text, "t.rulec"))
    assert [(d.code, d.message, d.hint) for d in found] == [
        ("unknown-side", "unknown side 'rde'", "did you mean 'red'?"),
        ("unknown-side", "unknown side 'bleu'", "did you mean 'blue'?"),
        ("unknown-side", "unknown side 'lader'", "did you mean 'leader'?"),
    ]
