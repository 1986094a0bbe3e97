"""Effect amounts computed from the battle, on a made-up game (tests/games/battle_amounts.rulec): the attacker pays
at least what the defender lost in this result, in strength or in steps, choosing which units pay."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import Action, new_game
from rulec.pipeline import check_file, load_game

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAMES / "battle_amounts.rulec"))


def fight(game, roll: int):
    state = new_game(game)
    state.apply_action(Action.attack("0302"))
    state.apply_action(Action.with_unit("b_big"))
    state.apply_action(Action.with_unit("b_small"))
    state.apply_action(Action.resolve())
    state.apply_action(Action.roll(roll))
    return state


def test_steps_for_steps_the_owner_choosing(game):
    state = fight(game, 1)
    assert state.steps_left("r_def") == 1  # the defender lost two steps
    assert state.pending.owed == 2 and state.pending.in_steps and {a.unit for a in state.legal_actions()} == {"b_big", "b_small"}
    state.apply_action(Action.lose("b_small"))
    state.apply_action(Action.lose("b_small"))  # blue pays both steps with its small unit
    assert state.status("b_small") == "eliminated" and state.steps_left("b_big") == 3 and state.pending is None


def test_at_least_the_strength_the_defender_lost(game):
    state = fight(game, 2)
    assert state.status("r_def") == "eliminated" and state.pending.owed == 4 and not state.pending.in_steps
    state.apply_action(Action.lose("b_small"))  # 2 -> 1: one strength paid, three still owed
    assert state.pending.owed == 3
    state.apply_action(Action.lose("b_big"))  # 6 -> 4: two more, one still owed
    state.apply_action(Action.lose("b_big"))  # 4 -> 2: paid in full, one more than owed
    assert state.pending is None and state.unit("b_big").strength == 2 and state.unit("b_small").strength == 1


def test_steps_measured_against_strength(game):
    state = fight(game, 3)
    assert state.unit("r_def").strength == 1  # 4 -> 3 -> 1: three strength lost
    assert state.pending.owed == 3 and state.pending.in_steps


def test_nothing_lost_nothing_to_pay(game):
    state = fight(game, 4)
    assert state.pending is None and state.steps_left("b_big") == 3 and state.steps_left("b_small") == 2


def bad(tmp_path, old: str, new: str):
    text = (GAMES / "battle_amounts.rulec").read_text()
    assert old in text
    path = tmp_path / "bad.rulec"
    path.write_text(text.replace(old, new))
    return check_file(str(path)).diagnostics


def test_a_misspelt_amount_has_a_did_you_mean(tmp_path):
    problems = bad(tmp_path, "lose(attacker, lost(defender))] }\nresult NE", "lose(attacker, lsot(defender))] }\nresult NE")
    assert [p.code for p in problems] == ["effect-argument"] and "did you mean 'lost'" in (problems[0].hint or "")


def test_the_amount_reads_attacker_or_defender(tmp_path):
    problems = bad(tmp_path, "steps_lost(defender))]", "steps_lost(red))]")
    assert [p.code for p in problems] == ["effect-argument"] and "attacker or defender" in problems[0].message
