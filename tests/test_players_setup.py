"""--player SIDE=KIND words: what a player may type, and what is refused."""

import pytest

from rulec.diagnostics import DiagnosticError
from rulec.players.setup import parse_player_specs

SIDES = ["us", "germany"]


def test_side_ids_are_matched_without_regard_to_case():
    assert parse_player_specs(["US=Greedy", "germany=random"], SIDES) == {"us": "greedy", "germany": "random"}


def test_every_problem_is_reported_at_once():
    with pytest.raises(DiagnosticError) as caught:
        parse_player_specs(["us=greedy", "US=random", "germny=mcts", "us:human"], SIDES)
    codes = [d.code for d in caught.value.diagnostics]
    assert codes == ["repeated-player", "unknown-side", "bad-player"]
    assert caught.value.diagnostics[1].hint == "did you mean 'germany'?"
