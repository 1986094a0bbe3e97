"""`rulec battle` through rulec.cli.main.main, with captured output."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from rulec.cli.main import main

GERMANS = "Germany: panther/good, panzergrenadier/good, infantry"
SOVIETS = "Soviet: infantry x3, mortar, at-gun"
BAD_GAMES = Path(__file__).resolve().parent / "bad_games"


def battle(*extra: str) -> list[str]:
    return ["battle", "engle_ww2_battle", "--side", GERMANS, "--side", SOVIETS, *extra]


@pytest.mark.rule("engle:modifiers")
def test_a_battle_prints_matching_rolls_outcomes_winner_and_states(capsys):
    assert main(battle("--seed", "3")) == 0
    out = capsys.readouterr().out
    assert "Matching, in the attacker's order:" in out
    assert "1. panther  against  anti_tank_gun + infantry" in out
    assert "Germany panther: die 2 +0 tank v anti_tank_gun +1 good +1 German = 4" in out
    assert "Soviet Union reserve mortar: die 5 +0 other v other -1 reserve = 4" in out
    assert "Germany routed, 3 casualty point(s)" in out
    assert "Winner: Soviet Union" in out
    assert "Germany (loser, 5 casualty points" in out and "Soviet Union (winner, 0 casualty points" in out


def test_the_same_seed_prints_the_same_battle(capsys):
    main(battle("--seed", "11", "--json"))
    first = capsys.readouterr().out
    main(battle("--seed", "11", "--json"))
    assert capsys.readouterr().out == first
    data = json.loads(first)
    assert data["seed"] == 11 and data["sides"][0]["role"] == "attacker"
    assert {"combats", "winner", "army_states", "casualty_points", "deployment"} <= set(data)


@pytest.mark.rule("engle:dice")
def test_attacker_option_swaps_who_attacks(capsys):
    assert main(battle("--attacker", "soviet", "--json")) == 0
    data = json.loads(capsys.readouterr().out)
    assert [side["side"] for side in data["sides"]] == ["soviet", "germany"]


@pytest.mark.rule("engle:ambush")
def test_ambush_and_modifier_options(capsys):
    assert main(battle("--ambush", "Soviet", "--modifier", "Germany=-1", "--modifier", "soviet=exhaustion", "--json")) == 0
    sides = json.loads(capsys.readouterr().out)["sides"]
    assert [(m["id"], m["value"]) for m in sides[0]["modifiers"]] == [("german", 1), ("argument", -1)]
    assert [(m["id"], m["value"]) for m in sides[1]["modifiers"]] == [("exhaustion", -1), ("ambush", 1)]


@pytest.mark.rule("engle:skirmish")
def test_skirmish_option(capsys):
    assert main(battle("--skirmish", "--json", "--seed", "2")) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "skirmish" and [len(line) for line in data["deployment"]["line"]] == [1, 1]


def test_odds_say_which_method(capsys):
    assert main(["battle", "engle_ww2_battle", "--side", "Germany: panther/good", "--side", "Soviet: infantry", "--odds"]) == 0
    out = capsys.readouterr().out
    assert "Odds (exact" in out and "Germany wins" in out and "(11/12)" in out
    assert main(["battle", "engle_ww2_battle", "--side", "Germany: panther/good", "--side", "Soviet: infantry", "--odds", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["method"] == "exact" and data["exact"]["Germany wins"] == "11/12"


@pytest.mark.rule("engle:reserves")
def test_interactive_asks_and_re_asks_on_bad_input(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("maybe\n9\n1\n" + "\n" * 20))
    assert main(battle("--interactive", "--seed", "3")) == 0
    out = capsys.readouterr().out
    assert "Commit which reserve unit for Soviet Union?" in out
    assert out.count("Please answer a number from 1 to 1") == 2
    assert "Soviet Union reserve mortar" in out


def test_interactive_end_of_input_declines(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(battle("--interactive", "--seed", "3")) == 0
    out = capsys.readouterr().out
    assert "end of input" in out and "reserve mortar" not in out


@pytest.mark.parametrize("argv, message", [
    (["--side", "Germany: panthr", "--side", SOVIETS], "did you mean 'panther'?"),
    (["--side", "Germny: panther", "--side", SOVIETS], "did you mean 'Germany'?"),
    (["--side", "Germany: panther/gud", "--side", SOVIETS], "unknown quality 'gud'"),
    (["--side", GERMANS], "exactly two --side"),
    (["--side", GERMANS, "--side", "Germany: infantry"], "both forces are Germany"),
    (["--side", "Germany panther", "--side", SOVIETS], "SIDE: UNIT"),
    (["--side", "Germany: panther,, infantry", "--side", SOVIETS], "an empty unit"),
    (["--side", "Germany: infantry x0", "--side", SOVIETS], "a count of 0"),
    (["--side", GERMANS, "--side", SOVIETS, "--modifier", "Germany=+2"], "not +2"),
    (["--side", GERMANS, "--side", SOVIETS, "--modifier", "Germany"], "SIDE=VALUE"),
    (["--side", GERMANS, "--side", SOVIETS, "--ambush", "Britain"], "neither of the battle's sides"),
    (["--side", GERMANS, "--side", SOVIETS, "--odds", "--interactive"], "cannot be --interactive"),
    (["--side", "Germany: infantry/reserve x7", "--side", SOVIETS], "no units in the line"),
    (["--side", "Germany: infantry/reserve", "--side", SOVIETS], "only distance weapons in reserve"),
])
def test_usage_errors_exit_2_with_one_line(capsys, argv, message):
    assert main(["battle", "engle_ww2_battle", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_game_without_a_battle_system_is_a_usage_error(capsys):
    assert main(["battle", "drive_on_metz", "--side", "us: infantry", "--side", "germany: infantry"]) == 2
    assert "has no battle system" in capsys.readouterr().err


def test_a_bad_game_file_exits_1_with_diagnostics(capsys):
    path = str(BAD_GAMES / "battle_outcome_even.rulec")
    assert main(["battle", path, "--side", "red: tank", "--side", "blue: infantry"]) == 1
    assert "[battle-outcome-even]" in capsys.readouterr().err


def test_a_bad_seed_is_an_argparse_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(battle("--seed", "abc"))
    assert exit_.value.code == 2


def test_sides_may_be_named_by_adjective(capsys):
    assert main(battle("--attacker", "Soviet", "--ambush", "german", "--odds", "--json")) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data["army_states"]) == ["soviet", "germany"]
    assert abs(sum(data["winner"].values()) - 1) < 1e-9
