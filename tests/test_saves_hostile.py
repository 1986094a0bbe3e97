"""Saves under attack: one seed, one game across any number of resumes; tampering refused with its place."""

from __future__ import annotations

import io
import json
import re

import pytest

from fake_games import DiceRace
from rulec.cli.main import main
from rulec.cli.play_command import autosave_path
from rulec.diagnostics import DiagnosticError
from rulec.players import PLAYER_KINDS, saves
from rulec.players.match import ChanceDice, play_match
from rulec.players.saves import SavedGame, checksum, game_hash, history_strings, read_save, restore, write_save


class _RaceModel:
    options: dict = {}


class _Steady:
    """Dashes on an even square, walks on an odd one: a player whose orders follow from the position alone."""

    name = "steady"

    def choose(self, state):
        side = state.players[state.current_player()]
        return "dash" if state.vp[side] % 2 == 0 else "walk"


def _start(game, options=(), seed=0):
    return DiceRace(goal=40, seed=seed)


def _save(path, state, seed):
    write_save(path, SavedGame("race", [], seed, {}, history_strings(state), game_hash(_RaceModel())))


def _resume(path):
    saved, text = read_save(path)
    dice = ChanceDice(saved.seed)
    state = restore(saved, path, text, start=_start, game=_RaceModel(), sides=["red", "blue"], player_kinds=PLAYER_KINDS,
                    dice=dice)
    return state, dice


@pytest.mark.parametrize("seed", [0, 5, 11])
def test_a_game_saved_and_resumed_many_times_rolls_the_dice_of_the_game_played_straight_through(tmp_path, seed):
    straight = play_match(_start(None, seed=seed), [_Steady(), _Steady()], seed=seed).state.history()
    state = _start(None, seed=seed)
    dice = ChanceDice(seed)
    for _ in range(8):  # stop every few actions, save, load, go on
        result = play_match(state, [_Steady(), _Steady()], seed=seed, dice=dice, max_actions=5)
        _save(tmp_path / "g.json", result.state, seed)
        state, dice = _resume(tmp_path / "g.json")
    play_match(state, [_Steady(), _Steady()], seed=seed, dice=dice)
    assert state.history() == straight
    assert any(action.startswith("roll") for action in straight)


def test_metz_resumed_twice_rolls_the_same_dice_as_straight_through(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    players = ["--player", "us=random", "--player", "germany=random"]
    main(["play", "drive_on_metz", *players, "--seed", "3", "--turns", "7", "--save", "straight.json"])
    main(["play", "drive_on_metz", *players, "--seed", "3", "--turns", "2", "--save", "parts.json"])
    main(["play", "--load", "parts.json", "--turns", "2", "--save", "parts.json"])
    main(["play", "--load", "parts.json", "--turns", "3", "--save", "parts.json"])
    capsys.readouterr()

    def rolls(name):
        return [a for a in json.loads((tmp_path / name).read_text())["history"] if a.startswith("roll")]

    straight, parts = rolls("straight.json"), rolls("parts.json")
    assert len(straight) >= 4 and len(parts) >= 4
    shared = min(len(straight), len(parts))
    assert parts[:shared] == straight[:shared]  # the n-th die is the n-th die, whoever ordered the battles


def _race_save(tmp_path, seed=4):
    result = play_match(_start(None, seed=seed), [_Steady(), _Steady()], seed=seed, max_actions=30)
    path = tmp_path / "race.json"
    _save(path, result.state, seed)
    return path


def _rewrite(path, change):
    """Edit a save and give it a correct checksum again: tampering that the checksum alone cannot see."""
    data = json.loads(path.read_text())
    change(data)
    data["checksum"] = checksum(data)
    path.write_text(json.dumps(data, indent=2))


def test_a_die_the_seed_did_not_roll_is_refused_with_its_position(tmp_path):
    path = _race_save(tmp_path)
    data = json.loads(path.read_text())
    index = next(i for i, action in enumerate(data["history"]) if action.startswith("roll"))
    other = {"roll 1": "roll 2", "roll 2": "roll 3", "roll 3": "roll 1"}[data["history"][index]]
    _rewrite(path, lambda d: d["history"].__setitem__(index, other))
    with pytest.raises(DiagnosticError) as caught:
        _resume(path)
    [problem] = caught.value.diagnostics
    assert problem.code == "bad-save-action" and f"history[{index}] '{other}'" in problem.message
    assert "a save cannot choose its dice" in problem.message
    assert path.read_text().splitlines()[problem.span.line - 1].strip().startswith(f'"{other}"')


def test_an_edited_save_fails_its_checksum_at_the_checksum_line(tmp_path):
    path = _race_save(tmp_path)
    path.write_text(path.read_text().replace('"seed": 4', '"seed": 5'))
    with pytest.raises(DiagnosticError) as caught:
        _resume(path)
    [problem] = caught.value.diagnostics
    assert problem.code == "damaged-save" and "checksum" in problem.message
    assert '"checksum"' in path.read_text().splitlines()[problem.span.line - 1]


def test_a_save_of_another_game_is_refused(tmp_path):
    path = _race_save(tmp_path)
    _rewrite(path, lambda d: d.__setitem__("game_hash", "0" * 64))
    with pytest.raises(DiagnosticError) as caught:
        _resume(path)
    assert [d.code for d in caught.value.diagnostics] == ["save-other-game"]


def test_a_save_of_an_edited_game_file_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    source = (saves.Path(__file__).resolve().parent.parent / "games" / "drive_on_metz.rulec").read_text(encoding="utf-8")
    (tmp_path / "metz.rulec").write_text(source, encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    main(["play", "metz.rulec", "--player", "us=random", "--player", "germany=random", "--turns", "1", "--save", "s.json"])
    (tmp_path / "metz.rulec").write_text(re.sub(r"strength = (\d)", lambda m: f"strength = {int(m[1]) + 1}", source, count=1), encoding="utf-8")
    capsys.readouterr()
    assert main(["play", "--load", "s.json"]) == 1
    assert "[save-other-game]" in capsys.readouterr().err


@pytest.mark.parametrize("change,code", [
    (lambda d: d.__setitem__("version", 1), "save-version"),
    (lambda d: d.__setitem__("seed", "many"), "damaged-save"),
    (lambda d: d["history"].append(7), "damaged-save"),
    (lambda d: d.__setitem__("game", "x" * 5000), "damaged-save"),
])
def test_wrong_versions_and_shapes_are_refused(tmp_path, change, code):
    path = _race_save(tmp_path)
    _rewrite(path, change)
    with pytest.raises(DiagnosticError) as caught:
        _resume(path)
    assert code in [d.code for d in caught.value.diagnostics]


def test_a_huge_file_is_refused_before_it_is_read(tmp_path, monkeypatch):
    path = _race_save(tmp_path)
    monkeypatch.setattr(saves, "MAX_SAVE_BYTES", 100)
    with pytest.raises(DiagnosticError) as caught:
        read_save(path)
    assert "larger than" in caught.value.diagnostics[0].message


def test_escape_sequences_in_a_save_do_not_reach_the_terminal(tmp_path, capsys):
    path = _race_save(tmp_path)
    _rewrite(path, lambda d: d["history"].append("\x1b]0;owned\x07\x1b[2J"))
    assert main(["replay", str(path)]) in (1, 2)
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err


def test_an_autosave_never_overwrites_another_and_its_name_is_plain(tmp_path):
    first = autosave_path("drive_on_metz", tmp_path)
    (tmp_path / first).write_text("{}")
    assert autosave_path("drive_on_metz", tmp_path) != first
    name = autosave_path("../../etc/\x1b[2Jpasswd; rm -rf ~", tmp_path)
    assert re.fullmatch(r"rulec-autosave-[A-Za-z0-9_-]+-\d+\.json", saves.Path(name).name)
    assert saves.Path(name).parent == tmp_path


def test_a_game_that_cannot_be_saved_anywhere_does_not_exit_0(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)

    def nowhere(path, text):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(saves, "write_atomically", nowhere)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "drive_on_metz", "--player", "germany=random"]) == 1
    assert "could not be saved anywhere" in capsys.readouterr().out
