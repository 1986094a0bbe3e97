"""Saved games: atomic versioned JSON; loading reports every problem, never a traceback."""

from __future__ import annotations

import json

import pytest

from fake_games import Nim
from rulec.diagnostics import DiagnosticError
from rulec.players import PLAYER_KINDS
from rulec.players.saves import SAVE_VERSION, SavedGame, game_hash, history_strings, read_save, restore, write_save


class _ToyModel:
    options = {"fast": None}


def _start(game, options=(), seed=0):
    return Nim(stones=10, seed=seed)


def _restore(path):
    saved, text = read_save(path)
    return restore(saved, path, text, start=_start, game=_ToyModel(), sides=["red", "blue"], player_kinds=PLAYER_KINDS)


def _save(tmp_path, history, **changes):
    saved = SavedGame("toy", [], 3, {"red": "human", "blue": "random"}, history, game_hash(_ToyModel()))
    for key, value in changes.items():
        setattr(saved, key, value)
    path = tmp_path / "game.json"
    write_save(path, saved)
    return path


def test_a_saved_game_restores_to_the_same_state(tmp_path):
    state = Nim(stones=10)
    for action in ["take 3", "take 1", "take 2"]:
        state.apply_action(action)
    path = _save(tmp_path, history_strings(state))
    data = json.loads(path.read_text())
    assert data["format"] == "rulec-save" and data["version"] == SAVE_VERSION
    restored = _restore(path)
    assert restored.history() == state.history() and restored.stones == 4
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left behind


def test_saving_over_a_file_replaces_it_whole(tmp_path):
    path = _save(tmp_path, ["take 1"])
    _save(tmp_path, ["take 2", "take 2"])
    assert read_save(path)[0].history == ["take 2", "take 2"]


def test_a_failed_save_keeps_the_old_file_and_reports(tmp_path):
    path = _save(tmp_path, ["take 1"])
    with pytest.raises(DiagnosticError) as error:
        write_save(tmp_path / "missing-folder" / "x.json", SavedGame("toy"))
    assert error.value.diagnostics[0].code == "save-failed"
    assert read_save(path)[0].history == ["take 1"]


def test_every_structural_problem_is_reported_at_once(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "rulec-save", "version": 9, "game": "toy", "options": "fast",
                                "seed": "one", "players": {}, "history": ["take 1", 2]}))
    with pytest.raises(DiagnosticError) as error:
        read_save(path)
    messages = [d.message for d in error.value.diagnostics]
    assert any(m.startswith("history[1]: 2 is not of type 'string'") for m in messages)
    assert any(m.startswith("options:") for m in messages) and any(m.startswith("seed:") for m in messages)
    assert any("version 9" in m for m in messages)


def test_a_file_that_is_not_json_names_the_line(tmp_path):
    path = tmp_path / "cut.json"
    path.write_text('{"format": "rulec-save",\n "version": 1,\n "game": ')
    with pytest.raises(DiagnosticError) as error:
        read_save(path)
    diagnostic = error.value.diagnostics[0]
    assert diagnostic.code == "damaged-save" and diagnostic.span.line == 3


def test_missing_fields_and_a_foreign_file_are_named(tmp_path):
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"format": "something else"}))
    with pytest.raises(DiagnosticError) as error:
        read_save(path)
    messages = " | ".join(d.message for d in error.value.diagnostics)
    assert "not a rulec saved game" in messages and "'history' is missing" in messages


def test_unknown_sides_options_and_players_get_hints(tmp_path):
    path = _save(tmp_path, [], options=["fats"], players={"reed": "human", "blue": "gredy"})
    with pytest.raises(DiagnosticError) as error:
        _restore(path)
    hints = {d.code: d.hint for d in error.value.diagnostics}
    assert hints == {"unknown-option": "did you mean 'fast'?", "unknown-side": "did you mean 'red'?",
                     "unknown-player": "did you mean 'greedy'?"}


def test_an_illegal_action_is_reported_with_its_index_and_line(tmp_path):
    path = _save(tmp_path, ["take 3", "take 1", "take 7", "take 1"])
    with pytest.raises(DiagnosticError) as error:
        _restore(path)
    diagnostic = error.value.diagnostics[0]
    assert diagnostic.message.startswith("history[2] 'take 7': illegal (toy:1)")
    assert "1 later action(s) were not checked" in diagnostic.message
    assert path.read_text().splitlines()[diagnostic.span.line - 1].strip() == '"take 7",'


def test_an_action_after_the_end_is_refused(tmp_path):
    path = _save(tmp_path, ["take 3", "take 3", "take 3", "take 1", "take 1"])
    with pytest.raises(DiagnosticError) as error:
        _restore(path)
    assert "history[4] 'take 1': the game had already ended" in error.value.diagnostics[0].message


def test_a_missing_folder_or_binary_or_non_object_save_is_one_clear_error(tmp_path):
    from rulec.players.saves import read_save

    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xd0\xcf\x11\xe0\x00\xff")
    listed = tmp_path / "list.json"
    listed.write_text("[1, 2]")
    expected = {tmp_path / "missing.json": "no such file or directory", tmp_path: "is a directory",
                binary: "is not a rulec saved game (not a text file)", listed: "is not a rulec saved game (not a JSON object)"}
    for path, message in expected.items():
        with pytest.raises(DiagnosticError) as caught:
            read_save(path)
        assert len(caught.value.diagnostics) == 1 and message in caught.value.diagnostics[0].message


def test_where_a_game_cannot_be_saved_is_known_before_it_starts(tmp_path):
    from rulec.players.saves import check_writable

    assert check_writable(tmp_path / "ok.json") is None
    assert "it is a folder" in check_writable(tmp_path)
    assert "no folder" in check_writable(tmp_path / "nowhere" / "x.json")


def test_a_battle_joined_out_of_the_game_files_order_replays_to_the_same_history(metz):
    """One `attack HEX with UNIT...` line is read back with the attackers in the game file's order: a battle
    whose attackers joined in another order is saved one step a line, so the history replays exactly."""
    import random

    from rulec.engine import new_game

    from rulec.players import GreedyPlayer

    state, rng, players = new_game(metz, seed=1), random.Random(1), [GreedyPlayer(1), GreedyPlayer(2)]
    while True:  # greedy play up to a battle that two units may join
        assert not state.is_terminal()
        if state.pending is None and state.phase.kind == "combat":
            for target in (a for a in state.legal_actions() if a.kind == "attack"):
                trial = state.clone()
                trial.apply_action(target)
                joins = [a for a in trial.legal_actions() if a.kind == "with"]
                if len(joins) >= 2:
                    break
            else:
                joins = []
            if joins:
                break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(players[state.current_player()].choose(state))
    state.apply_action(target)
    for join in reversed(joins[:2]):  # against the game file's order
        state.apply_action(join)
    state.apply_action(next(a for a in state.legal_actions() if a.kind == "resolve"))
    lines = history_strings(state)
    assert [state.action_to_string(j) for j in reversed(joins[:2])] == lines[-3:-1]  # one step a line
    replay = new_game(metz, seed=1)
    for line in lines:
        for action in replay.parse_orders(line):
            replay.apply_action(action)
    assert replay.history() == state.history()
