"""`rulec play`'s console on Drive on Metz: exit as an order, undo, odds, info, vp, rules, the
confirmation before ending a phase that leaves reinforcements off the map, did-you-mean of legal names."""

from __future__ import annotations

import io
import json
import re

import pytest

from rulec.cli.main import main
from rulec.engine import new_game


@pytest.fixture(autouse=True)
def _in_a_temporary_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def _play(capsys, monkeypatch, typed: str, *argv: str) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    assert main(["play", "drive_on_metz", "--player", "germany=greedy", "--seed", "1", *argv]) == 0
    return capsys.readouterr().out


def test_undo_takes_back_the_last_order_and_no_further(capsys, monkeypatch, tmp_path):
    out = _play(capsys, monkeypatch, "move 357 0304\nmove 358 0204\nundo\nundo\nundo\nsave s.json\nquit\n")
    assert out.count("undone: move ") == 2
    assert "nothing to undo" in out
    assert json.loads((tmp_path / "s.json").read_text())["history"] == []


def test_exit_with_a_unit_is_an_order_and_bare_exit_still_stops(capsys, monkeypatch, metz, tmp_path):
    state = new_game(metz, seed=1)
    exit_order = next(state.action_to_string(a) for m in state.legal_actions() if m.kind == "move"
                      for a in state.moves_of(m.unit) if a.kind == "exit")
    out = _play(capsys, monkeypatch, f"{exit_order}\nsave s.json\nexit\n")
    assert json.loads((tmp_path / "s.json").read_text())["history"] == [exit_order]
    assert "`quit` stops the game" in out and "game stopped." in out


def test_info_vp_rules_and_odds(capsys, monkeypatch, metz):
    out = _play(capsys, monkeypatch, "info 807\nvp\nrules 7.4\nrules 99\nmove 357 0304\nend\ny\n"
                                     "odds 0403 with 357\nattack 0403\nwith 357\nodds\nquit\n")
    info = out.split("us> info 807\n", 1)[1]
    assert info.startswith("0807 Metz: Clear, City\n") and "  hexside sw (to 0708): Road\n" in info
    assert "  units: Gar\n" in info and "  zone of control of: Germany\n" in info and "VP for United States" in info
    assert "United States: 0 VP\nGermany: 0 VP\n" in out
    assert re.search(r"^  7\.41: .+\n      cited when refusing: zoc stop\n  7\.43: .+\n      cited when refusing: zoc locked\n", out, re.M)
    assert "the game cites no case 99; it cites: 7.21," in out
    state = new_game(metz, seed=1)
    for step in ("move 357 0304", "end"):
        state.apply_action(state.parse_orders(step)[0])
    for step in state.parse_orders("attack 0403 with 357")[:-1]:
        state.apply_action(step)
    odds = state.odds()
    shown = re.findall(r"^odds: (\d+) against (\d+), column (.+?)(?: \(|$)", out, re.M)
    assert shown == [(str(odds.attack), str(odds.defence), odds.label)] * 2  # before declaring, and while declaring
    percents = [float(p) for p in re.findall(r"^ +([\d.]+)%  ", out, re.M)]
    assert len(percents) % 2 == 0 and sum(percents[: len(percents) // 2]) == pytest.approx(100, abs=0.5)


def test_ending_a_phase_with_reinforcements_due_asks_first(capsys, monkeypatch, tmp_path):
    out = _play(capsys, monkeypatch, "end\nn\nsave s.json\nend\nyes\nsave t.json\nquit\n")
    assert re.search(r"ending the phase now leaves (\S+, )*357(, \S+)* off the map; end anyway\? \(y/n\)", out)
    assert "the phase goes on" in out
    assert json.loads((tmp_path / "s.json").read_text())["history"] == []
    assert json.loads((tmp_path / "t.json").read_text())["history"][0] == "end"


def test_did_you_mean_names_only_units_that_can_take_the_order(capsys, monkeypatch):
    out = _play(capsys, monkeypatch, "move 1126 0304\nmove 1125x 0304\nquit\n")
    refusal = out.split("us> move 1125x 0304\n", 1)[1].split("us>")[0]
    assert "not accepted: no unit '1125x'\n" in refusal  # not "did you mean '1125'?", a German unit
    assert "1125" not in refusal.split("\n", 1)[1]


def test_ending_a_phase_with_an_over_stacked_hex_asks_first(metz):
    from rulec.players.human import HumanPlayer
    state = new_game(metz, seed=1).arrange({"us_357": "0304", "us_358": "0304", "de_gar": "0807"},
                                           turn=2, phase=metz.sequence[1].id)
    assert len(state.units_at("0304")) > metz.stacking.limit
    typed = iter(["end", "n", "end", "y"])
    said = io.StringIO()
    prompts = []

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)

    action = HumanPlayer(read_line=read_line, out=said).choose(state)
    assert action.kind == "end"
    asked = [p for p in prompts if "end anyway" in p]
    assert len(asked) == 2 and "eliminates units of 357, 358 (over-stacked)" in asked[0]
    assert "the phase goes on" in said.getvalue()
