"""The page of a map-less battle system: two forces typed as `rulec battle` reads them, their exact
odds (or a seeded estimate), and a battle fought with seeded dice, shown combat by combat."""

from __future__ import annotations

from typing import Any

from rulec.battle.decisions import DefaultDecider
from rulec.battle.forces import ForceError, parse_force
from rulec.battle.odds import battle_odds
from rulec.battle.report import battle_json, battle_text, odds_json
from rulec.battle.resolve import BattleSetup, SeededDice, fight_battle

MAX_FORCE_TEXT = 300  # characters per force
MAX_UNITS = 16  # per force: the odds of bigger battles are estimated, still at a cost
SAMPLES = 2000  # Monte Carlo battles when the exact odds are too many to enumerate


class BattleRequestError(ValueError):
    pass


def fight(game: Any, sides: list[str], seed: int, skirmish: bool) -> dict[str, Any]:
    """The odds of the battle and one battle fought with `seed`, as the CLI's JSON gives them."""
    if len(sides) != 2 or not all(isinstance(s, str) and s.strip() for s in sides):
        raise BattleRequestError("give two forces, each written 'SIDE: UNIT, UNIT/QUALITY, UNIT xN'")
    if any(len(s) > MAX_FORCE_TEXT for s in sides):
        raise BattleRequestError(f"a force is written in at most {MAX_FORCE_TEXT} characters")
    try:
        forces = [parse_force(game, text) for text in sides]
    except ForceError as error:
        raise BattleRequestError(error.message + (f" ({error.hint})" if error.hint else "")) from None
    if forces[0].side == forces[1].side:
        raise BattleRequestError(f"both forces are {forces[0].name}: give two different sides")
    if any(len(f.units) > MAX_UNITS for f in forces):
        raise BattleRequestError(f"at most {MAX_UNITS} units a force on this page")
    setup = BattleSetup(game.battle, (forces[0], forces[1]), die=game.info.die, skirmish=skirmish)
    odds = battle_odds(setup, samples=SAMPLES, seed=seed)
    result = fight_battle(setup, SeededDice(seed, game.info.die), DefaultDecider())
    return {"odds": odds_json(odds, setup.forces), "battle": battle_json(result, seed),
            "text": battle_text(result, seed).splitlines()}
