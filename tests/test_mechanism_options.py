"""Options read in expressions, option(NAME), on a made-up game (tests/games/option_rules.rulec): an option
changes existing rules (which phase comes up, who moves, what an award is worth, a sudden death)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import Action, IllegalAction, new_game
from rulec.pipeline import check_file, load_game

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAMES / "option_rules.rulec"))


def movers(state) -> set[str]:
    return {a.unit for a in state.legal_actions() if a.kind == "move"}


def test_without_the_option_every_unit_moves_and_blue_has_a_phase(game):
    state = new_game(game)
    assert movers(state) == {"r_inf", "r_arm"}
    state.apply_action(Action.end())
    assert state.phase.id == "blue_move"


def test_the_option_narrows_the_movers_and_passes_over_a_phase(game):
    state = new_game(game, options=["night"])
    assert movers(state) == {"r_inf"}
    with pytest.raises(IllegalAction):
        state.apply_action(Action.move("r_arm", "0202"))
    state.apply_action(Action.end())
    assert state.phase.id == "red_move" and state.turn == 2  # blue_move does not come up at night


@pytest.mark.parametrize("options, scored", [((), 1), (("night",), 2)])
def test_an_award_amount_reads_the_option(game, options, scored):
    state = new_game(game, options=options)
    state.apply_action(Action.move("r_inf", "0301"))
    assert state.vp["red"] == scored


def test_a_sudden_death_only_with_its_option(game):
    plain = new_game(game)
    plain.apply_action(Action.move("r_inf", "0301"))
    assert not plain.is_terminal()
    sudden = new_game(game, options=["sudden_end"])
    sudden.apply_action(Action.move("r_inf", "0301"))
    assert sudden.is_terminal() and sudden.outcome().winner == "red"


def test_clone_and_replay_keep_the_options(game):
    state = new_game(game, options=["night"], seed=3)
    copy = state.clone()
    assert movers(copy) == {"r_inf"}


def test_an_unknown_option_name_is_reported_with_did_you_mean(tmp_path):
    text = (GAMES / "option_rules.rulec").read_text().replace("if(option(night), 2, 1)", "if(option(nigth), 2, 1)")
    path = tmp_path / "bad.rulec"
    path.write_text(text)
    problems = check_file(str(path)).diagnostics
    assert len(problems) == 1
    problem = problems[0]
    line = next(n for n, l in enumerate(text.split("\n"), 1) if "nigth" in l)
    assert problem.code == "wrong-kind-argument" and "option" in problem.message and "nigth" in problem.message
    assert (problem.span.line, problem.span.column) == (line, text.split("\n")[line - 1].index("nigth") + 1)
    assert "did you mean 'night'" in (problem.hint or "")


def test_an_option_named_where_a_number_belongs_is_a_kind_error(tmp_path):
    text = (GAMES / "option_rules.rulec").read_text().replace("if(option(night), 2, 1)", "night + 1")
    path = tmp_path / "bad.rulec"
    path.write_text(text)
    problems = check_file(str(path)).diagnostics
    assert [p.code for p in problems] == ["wrong-kind"]
