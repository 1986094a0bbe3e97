"""Game variables, on a made-up game (tests/games/game_variables.rulec): a counter and flags on the game,
changed by hook effects set() and add(), read by a phase's `when`, other hooks and the victory levels;
kept apart by clone, and the same after a replay of the history."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import Action, new_game
from rulec.pipeline import check_file, load_game

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAMES / "game_variables.rulec"))


def kill(state, target: str) -> None:
    """Attack `target` with every red unit next to it, rolling a 1 (6 to 1 wins on any roll here)."""
    state.apply_action(Action.attack(target))
    for action in [a for a in state.legal_actions() if a.kind == "with"]:
        state.apply_action(action)
    state.apply_action(Action.resolve())
    state.apply_action(Action.roll(1))


def test_variables_start_at_their_initial_values(game):
    assert new_game(game).variables == {"losses": 0, "bridge_first": 0, "alarm": False}


def test_a_flag_variable_set_by_a_hook_lets_a_phase_come_up(game):
    state = new_game(game)
    state.apply_action(Action.end())  # red_move: nobody near the town
    state.apply_action(Action.end())  # red_fight; blue_move does not come up (no alarm); bookkeeping runs
    assert state.phase.id == "red_move" and state.turn == 2 and state.variables["alarm"] is False
    state.apply_action(Action.move("r1", "0402"))
    state.apply_action(Action.end())
    state.apply_action(Action.end())
    assert state.variables["alarm"] is True
    assert state.variables["bridge_first"] == 1  # red got to the bridge first, and it is remembered
    assert state.phase.id == "blue_move" and state.turn == 3  # now it comes up, first in the turn


def test_a_counter_counts_eliminations_and_the_victory_reads_it(game):
    state = new_game(game).arrange({"r1": "0502", "r2": "0402", "b1": "0602", "b2": "0603"}, phase="red_fight")
    kill(state, "0602")
    assert state.status("b1") == "eliminated" and state.variables["losses"] == 1
    while not state.is_terminal():
        state.apply_action(Action.end())
    assert state.variables["bridge_first"] == 1  # r2 stood on the bridge at the first bookkeeping
    result = state.outcome()
    assert result.winner == "red" and result.level == "red_first"


def test_without_the_counter_the_same_bridge_is_no_win_for_red(game):
    state = new_game(game).arrange({"r2": "0402", "b1": "0602", "b2": "0603"}, phase="red_move")
    while not state.is_terminal():
        state.apply_action(Action.end())
    assert state.variables == {"losses": 0, "bridge_first": 1, "alarm": True}
    assert state.outcome().level != "red_first" and state.outcome().winner == "blue"  # otherwise = blue


def test_clones_keep_their_own_variables(game):
    state = new_game(game).arrange({"r1": "0502", "b1": "0602"}, phase="red_fight")
    copy = state.clone()
    kill(state, "0602")
    assert state.variables["losses"] == 1 and copy.variables["losses"] == 0


def test_a_replay_of_the_history_gives_the_same_variables(game):
    state = new_game(game, seed=5)
    state.apply_action(Action.move("r1", "0402"))
    for _ in range(6):
        if state.is_terminal():
            break
        state.apply_action(state.legal_actions()[-1] if state.is_chance_node() else Action.end())
    again = new_game(game, seed=5)
    for action in state.history():
        again.apply_action(action)
    assert again.variables == state.variables and again.variables["bridge_first"] == 1


def bad(tmp_path, old: str, new: str):
    text = (GAMES / "game_variables.rulec").read_text()
    assert text.count(old) == 1
    path = tmp_path / "bad.rulec"
    path.write_text(text.replace(old, new))
    return check_file(str(path)).diagnostics, text.replace(old, new)


def test_an_unknown_variable_in_an_effect_has_a_did_you_mean(tmp_path):
    problems, text = bad(tmp_path, "add(losses, 1)", "add(loses, 1)")
    assert [p.code for p in problems] == ["unknown-variable"]
    assert "did you mean 'losses'" in problems[0].hint
    assert problems[0].span.line == next(n for n, l in enumerate(text.split("\n"), 1) if "loses" in l)


def test_a_value_of_the_wrong_kind_is_refused(tmp_path):
    problems, _ = bad(tmp_path, "set(alarm, alarm or", "set(alarm, 1 + count(units()) > 0 or")
    assert problems == []  # a condition is fine for a flag
    problems, _ = bad(tmp_path, "add(losses, 1)", "add(alarm, 1)")
    assert [p.code for p in problems] == ["wrong-kind"] and "flag" in problems[0].message
    problems, _ = bad(tmp_path, "when = bridge_first == 2", "when = bridge_first")
    assert [p.code for p in problems] == ["wrong-kind"]


def test_the_play_screen_shows_the_variables_by_name(game):
    from rulec.cli.board_view import GameScreen

    state = new_game(game)
    line = GameScreen(game).status_line(state)
    assert "Blue losses: 0" in line and "Alarm raised: no" in line


def test_the_aids_name_variables_by_their_names(game):
    from rulec.aids.game_words import say

    assert say(game, game.victory.levels[0].when) == "first at the bridge is 1 and blue losses is at least 1"


def test_a_variable_named_like_another_id_is_a_warning(tmp_path):
    problems, _ = bad(tmp_path, "variable alarm        { name = \"Alarm raised\"  initial = false }",
                      "variable alarm        { name = \"Alarm raised\"  initial = false }\nvariable red { initial = 0 }")
    assert [(p.code, p.severity) for p in problems] == [("ambiguous-name", "warning")]
    assert "'red' names both a side and a variable" in problems[0].message


def test_a_saved_game_loads_with_its_variables(tmp_path):
    import os
    import subprocess
    import sys

    save = tmp_path / "save.json"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}

    def play(*args: str, orders: str) -> str:
        return subprocess.run([sys.executable, "-m", "rulec", "play", *args, "--no-color"], input=orders, text=True,
                              capture_output=True, env=env, timeout=120, cwd=tmp_path).stdout  # its autosave here

    play(str(GAMES / "game_variables.rulec"), "--save", str(save), orders="move r1 0402\nend\nend\nquit\n")
    shown = [line for line in play("--load", str(save), orders="quit\n").splitlines() if line.startswith("==")]
    assert shown and "First at the bridge: 1 | Alarm raised: yes" in shown[0]
