"""`rulec play`, `rulec replay` and `rulec simulate` on Drive on Metz, through the real CLI."""

from __future__ import annotations

import io
import json
import re

import pytest

from rulec.cli.main import main
from rulec.engine import new_game

ANSI = re.compile(r"\x1b\[")


def _play(capsys, monkeypatch, argv: list[str], typed: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    status = main(["play", "drive_on_metz", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_an_ai_game_stopped_after_turns_prints_orders_map_and_result(capsys, monkeypatch):
    status, out, _ = _play(capsys, monkeypatch, ["--player", "us=greedy", "--player", "germany=greedy",
                                                 "--seed", "1", "--turns", "1"])
    assert status == 0
    assert "players: United States (greedy), Germany (greedy); seed 1" in out
    assert "== 7 Sep 1944 (turn 1 of 7) | American Movement Phase | VP: United States 0, Germany 0 ==" in out
    assert re.search(r"^  United States: move \S+ \d{4}$", out, re.M)
    assert "0807:G1-1" in out  # the Metz garrison drawn in its hex
    assert "stopped after 1 game turn(s)." in out and "result so far:" in out
    assert not ANSI.search(out)  # not a terminal: no colour


def test_unknown_sides_and_players_get_did_you_mean(capsys, monkeypatch):
    status, _, err = _play(capsys, monkeypatch, ["--player", "usa=greedy", "--player", "germany=gredy"])
    assert status == 1
    assert "the game has no side 'usa'" in err and "did you mean 'us'?" in err
    assert "'gredy' is not a kind of player" in err and "did you mean 'greedy'?" in err


def test_unknown_option_is_refused_with_a_hint(capsys, monkeypatch):
    status, _, err = _play(capsys, monkeypatch, ["--option", "no-such-option"])
    assert status == 1 and "no option or scenario 'no-such-option'" in err


def test_a_bad_order_is_refused_with_its_rule_and_the_game_goes_on(capsys, monkeypatch, metz, tmp_path):
    state = new_game(metz, seed=4)
    legal = state.action_to_string(state.legal_actions()[0])
    unit = legal.split()[1]
    expected = state.explain(f"move {unit} 0911")  # the engine's own reason, rule reference included
    assert expected and "(" in expected
    save = tmp_path / "hot.json"
    typed = f"fly to metz\nmove {unit} 0911\nlist {unit}\n{legal}\nsave {save}\nquit\n"
    status, out, _ = _play(capsys, monkeypatch, ["--seed", "4", "--player", "germany=random"], typed)
    assert status == 0
    assert "not accepted: unknown action 'fly'" in out
    assert expected in out
    assert f"United States: {legal}" in out
    saved = json.loads(save.read_text())
    assert saved["history"] == [legal] and saved["players"] == {"us": "human", "germany": "random"}


def test_a_saved_game_loads_and_an_ai_finishes_it(capsys, monkeypatch, tmp_path):
    save = tmp_path / "g.json"
    _play(capsys, monkeypatch, ["--player", "us=random", "--player", "germany=random", "--seed", "2",
                                "--turns", "1", "--save", str(save)])
    first = json.loads(save.read_text())["history"]
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    status = main(["play", "--load", str(save), "--turns", "1", "--save", str(save)])
    out = capsys.readouterr().out
    assert status == 0 and "turn 2 of 7" in out
    second = json.loads(save.read_text())["history"]
    assert second[:len(first)] == first and len(second) > len(first)


def test_a_damaged_save_is_reported_not_lost(capsys, monkeypatch, tmp_path):
    save = tmp_path / "bad.json"
    text = json.dumps({"format": "rulec-save", "version": 1, "game": "drive_on_metz", "options": [], "seed": 0,
                       "players": {"us": "random"}, "history": ["end", "fly away"]}, indent=1)
    save.write_text(text)
    status = main(["play", "--load", str(save)])
    err = capsys.readouterr().err
    assert status == 1 and "history[1] 'fly away': does not parse" in err
    assert save.read_text() == text


def test_human_end_of_input_stops_cleanly(capsys, monkeypatch):
    status, out, _ = _play(capsys, monkeypatch, ["--player", "germany=random"], "")
    assert status == 0 and "game stopped." in out


def test_replay_prints_every_action_and_the_same_result(capsys, monkeypatch, tmp_path):
    save = tmp_path / "r.json"
    _, played, _ = _play(capsys, monkeypatch, ["--player", "us=greedy", "--player", "germany=random", "--seed", "5",
                                               "--turns", "1", "--save", str(save)])
    history = json.loads(save.read_text())["history"]
    assert main(["replay", str(save)]) == 0
    out = capsys.readouterr().out
    assert f"end of the saved game ({len(history)} actions)." in out
    assert played.strip().splitlines()[-1] == out.strip().splitlines()[-1]
    orders = [h for h in history if not h.startswith("roll")]
    assert all(f": {order}" in out for order in orders)


def test_simulate_does_not_depend_on_the_number_of_jobs(capsys):
    assert main(["simulate", "drive_on_metz", "-n", "4", "--seed", "10", "--jobs", "1", "--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main(["simulate", "drive_on_metz", "-n", "4", "--seed", "10", "--jobs", "2", "--json"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert one == two
    assert one["games"] == 4 and sum(one["wins_total"].values()) + one["draws"] == 4
    assert one["players"] == {"us": "random", "germany": "random"} and one["mean_actions"] > 0


def test_simulate_prints_a_readable_summary(capsys):
    assert main(["simulate", "drive_on_metz", "-n", "2", "--jobs", "1", "--player", "us=greedy"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 games of The Drive on Metz: United States greedy, Germany random")
    assert "mean game length:" in out and "VP Germany: min" in out


def test_simulate_refuses_a_human(capsys):
    assert main(["simulate", "drive_on_metz", "-n", "1", "--player", "us=human"]) == 1
    assert "'human' is not a kind of player" in capsys.readouterr().err


def test_replay_step_draws_the_map_after_every_action(capsys, monkeypatch, tmp_path):
    save = tmp_path / "s.json"
    _play(capsys, monkeypatch, ["--player", "us=random", "--player", "germany=random", "--seed", "6",
                                "--turns", "1", "--save", str(save)])
    history = json.loads(save.read_text())["history"]
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["replay", str(save), "--step"]) == 0
    out = capsys.readouterr().out
    maps = out.count("\n0101")  # the first hex of every map drawn
    assert maps >= len([h for h in history if not h.startswith("roll")])
