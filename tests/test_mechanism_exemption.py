"""Per-unit exemption from a result, combat { spared }, on a made-up game (tests/games/ranged_exemption.rulec):
with the option, an attacker that fought only at range is not eliminated, retreated, reduced or made to pay an
exchange; without it, it shares every attacker result."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import Action, new_game
from rulec.pipeline import check_file, load_game

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAMES / "ranged_exemption.rulec"))


def fight(game, roll: int, exempt: bool):
    """Blue attacks foe (0401) with the infantry next to it and the artillery two hexes away; the die shows `roll`."""
    state = new_game(game, options=["ranged_exempt"] if exempt else [])
    state.apply_action(Action.attack("0401"))
    state.apply_action(Action.with_unit("art"))
    state.apply_action(Action.with_unit("inf"))
    state.apply_action(Action.resolve())
    state.apply_action(Action.roll(roll))
    return state


def test_an_attacker_eliminated_spares_the_ranged_unit(game):
    state = fight(game, 1, exempt=True)
    assert state.status("inf") == "eliminated" and state.status("art") == "map"
    plain = fight(game, 1, exempt=False)
    assert plain.status("inf") == "eliminated" and plain.status("art") == "eliminated"


def settle_retreats(state) -> None:
    while state.retreats:
        state.apply_action(state.legal_actions()[0])


def test_a_retreat_moves_only_the_adjacent_attacker(game):
    state = fight(game, 2, exempt=True)
    settle_retreats(state)
    assert state.positions["art"] == "0201" and state.positions.get("inf") != "0301"
    plain = fight(game, 2, exempt=False)
    settle_retreats(plain)
    assert plain.positions.get("art") != "0201" and plain.positions.get("inf") != "0301"


def test_an_exchange_is_paid_by_the_adjacent_attacker_alone(game):
    state = fight(game, 3, exempt=True)
    assert state.status("foe") == "eliminated"
    assert state.pending is None  # nothing to choose: the artillery does not pay
    assert state.status("inf") == "eliminated" and state.unit("art").strength == 4
    plain = fight(game, 3, exempt=False)
    assert plain.pending is not None and {a.unit for a in plain.legal_actions()} == {"art", "inf"}  # blue chooses


def test_a_loss_of_steps_falls_on_the_adjacent_attacker(game):
    state = fight(game, 4, exempt=True)
    assert state.status("inf") == "eliminated" and state.steps_left("art") == 2
    plain = fight(game, 4, exempt=False)
    assert plain.pending is not None  # blue chooses which of the two loses the step


def test_a_misspelt_name_in_spared_has_a_did_you_mean(tmp_path):
    text = (GAMES / "ranged_exemption.rulec").read_text().replace("side == attacker_side", "side == attacker_sid")
    path = tmp_path / "bad.rulec"
    path.write_text(text)
    problems = check_file(str(path)).diagnostics
    assert [p.code for p in problems] == ["unknown-name"] and "did you mean 'attacker_side'" in (problems[0].hint or "")
    line = text.split("\n")[problems[0].span.line - 1]
    assert "spared =" in line and line.index("attacker_sid") + 1 == problems[0].span.column
