"""Properties of any battle: no input escapes as a traceback; scores and points add up."""

from __future__ import annotations

import functools

from hypothesis import given, settings
from hypothesis import strategies as st

from rulec.battle.decisions import DefaultDecider
from rulec.battle.deployment import DeploymentError
from rulec.battle.forces import ForceError, parse_force
from rulec.battle.resolve import BattleSetup, SeededDice, fight_battle
from rulec.pipeline import load_game


@functools.cache
def _engle():
    return load_game("engle_ww2_battle")


KINDS = ["tank", "panther", "t70", "at-gun", "mortar", "artillery", "infantry", "panzergrenadier", "half-track"]
unit = st.builds(lambda kind, mark: kind + mark, st.sampled_from(KINDS), st.sampled_from(["", "/good", "/poor", "/reserve"]))
force = st.lists(unit, min_size=1, max_size=7).map(", ".join)


@settings(max_examples=60, deadline=None)
@given(force, force, st.booleans(), st.integers(0, 10_000))
def test_any_battle_resolves_or_is_refused_cleanly(attacker, defender, skirmish, seed):
    game = _engle()
    forces = (parse_force(game, f"Britain: {attacker}"), parse_force(game, f"Soviet: {defender}"))
    try:
        result = fight_battle(BattleSetup(game.battle, forces, game.info.die, skirmish), SeededDice(seed), DefaultDecider())
    except DeploymentError:
        return
    for combat in result.combats:
        for side in (0, 1):
            assert combat.scores[side] == sum(r.score for r in combat.rolls if r.side == side)
    final = result.final
    points = [sum(c.outcome.casualty_points for c in final.combats if c.loser == side) for side in (0, 1)]
    assert points == [s.casualty_points for s in final.sides]
    assert final.loser == (None if points[0] == points[1] else points.index(max(points)))


@settings(max_examples=80, deadline=None)
@given(st.text(max_size=40))
def test_any_force_text_parses_or_is_refused_cleanly(text):
    try:
        parse_force(_engle(), text)
    except ForceError as error:
        assert error.message
