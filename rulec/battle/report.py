"""Reports: a battle or its odds as text for a player, or as JSON data.

The text shows the matching, each roll with its modifiers, each combat's
outcome and casualty points, the winner and both armies' states. The JSON
holds the same facts; probabilities are numbers (and exact fractions as
"p/q" strings when the odds are exact).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rulec.battle.deployment import Deployment
from rulec.battle.forces import Force
from rulec.battle.odds import Odds
from rulec.battle.resolve import BattleResult, CombatResult, Roll, SideResult


def _sign(value: int) -> str:
    return f"{value:+d}"


def _units(force: Force, indices: tuple[int, ...]) -> str:
    return " + ".join(force.units[i].label for i in indices) or "-"


def _roll_text(forces: tuple[Force, Force], roll: Roll) -> str:
    unit = forces[roll.side].units[roll.unit]
    mods = " ".join(f"{_sign(m.value)} {m.label}" for m in roll.modifiers)
    source = "reserve " if roll.from_reserve else ""
    return f"{forces[roll.side].name} {source}{unit.label}: die {roll.die} {mods} = {roll.score}".replace("  ", " ")


def deployment_lines(forces: tuple[Force, Force], deployment: Deployment, skirmish: bool) -> list[str]:
    lines = []
    for side, force in enumerate(forces):
        role = "attacker" if side == 0 else "defender"
        extra = f"; reserve: {_units(force, deployment.reserve[side])}" if deployment.reserve[side] else ""
        held = f"; held back: {_units(force, deployment.held_back[side])}" if deployment.held_back[side] else ""
        lines.append(f"  {force.name} ({role}) line: {', '.join(force.units[i].label for i in deployment.line[side])}{extra}{held}")
    for note in deployment.notes:
        lines.append(f"  ({note})")
    lines.append("Matching" + (" (skirmish)" if skirmish else "") + ", in the attacker's order:")
    for combat in deployment.combats:
        lines.append(f"  {combat.number}. {_units(forces[0], combat.units[0])}  against  {_units(forces[1], combat.units[1])}")
    return lines


def combat_lines(forces: tuple[Force, Force], combat: CombatResult) -> list[str]:
    lines = [f"Combat {combat.combat.number}: {_units(forces[0], combat.combat.units[0])} against {_units(forces[1], combat.combat.units[1])}"]
    lines += [f"  {_roll_text(forces, roll)}" for roll in combat.rolls]
    a, b = combat.scores
    if combat.loser is None:
        lines.append(f"  {forces[0].name} {a}, {forces[1].name} {b}: {combat.outcome.name} ({combat.outcome.text})")
    else:
        loser = forces[combat.loser].name
        lines.append(f"  {forces[0].name} {a}, {forces[1].name} {b}: {loser} {combat.outcome.name.lower()}, "
                     f"{combat.outcome.casualty_points} casualty point(s) ({combat.outcome.text})")
    return lines


def side_line(force: Force, result: SideResult) -> str:
    role = "drawn" if result.lost is None else ("loser" if result.lost else "winner")
    tired = "; -1 for exhaustion if it fights next turn" if result.exhausted else ""
    # The state's id first: the same word the odds and the aids use (steady, shaken, ...).
    return (f"  {force.name} ({role}, {result.casualty_points} casualty points, {result.counts!r}): "
            f"{result.state.id} ({result.state.name}). {result.effect}{tired}")


def battle_text(result: BattleResult, seed: int | None = None) -> str:
    setup = result.setup
    forces = setup.forces
    kind = "Skirmish" if setup.skirmish else "Battle"
    lines = [f"{kind}: {forces[0].name} attacks {forces[1].name}" + (f" (seed {seed})" if seed is not None else "")]
    for force in forces:
        if force.modifiers:
            lines.append(f"  {force.name} modifiers: " + ", ".join(f"{_sign(m.value)} {m.name}" for m in force.modifiers))
    lines.append("Deployment:")
    lines += deployment_lines(forces, result.deployment, setup.skirmish)
    for combat in result.combats:
        lines += combat_lines(forces, combat)
    lines.append(f"Casualty points: {forces[0].name} {result.sides[0].casualty_points}, {forces[1].name} {result.sides[1].casualty_points}")
    if result.escalated:
        lines.append("Both sides committed their whole reserve: an open battle follows with the full armies.")
        lines.append("")
        return "\n".join(lines) + "\n" + battle_text(result.escalated)
    if result.loser is None:  # the rulebook: the force with the higher total is the loser; here neither is
        points = result.sides[0].casualty_points
        lines.append(f"Winner: none; no loser: both armies have {points} casualty point(s) (a drawn battle)")
    else:
        lines.append(f"Winner: {forces[1 - result.loser].name}")
    lines += [side_line(forces[side], result.sides[side]) for side in (0, 1)]
    return "\n".join(lines)


def battle_json(result: BattleResult, seed: int | None = None) -> dict[str, Any]:
    forces = result.setup.forces

    def unit_ref(side: int, index: int) -> dict[str, Any]:
        unit = forces[side].units[index]
        return {"index": index, "kind": unit.kind.id, "quality": unit.quality, "label": unit.label}

    data: dict[str, Any] = {
        "kind": "skirmish" if result.setup.skirmish else "battle",
        "seed": seed,
        "sides": [{"side": f.side, "name": f.name, "role": role,
                   "modifiers": [{"id": m.id, "name": m.name, "value": m.value} for m in f.modifiers]}
                  for f, role in zip(forces, ("attacker", "defender"))],
        "deployment": {
            "line": [[unit_ref(s, i) for i in result.deployment.line[s]] for s in (0, 1)],
            "reserve": [[unit_ref(s, i) for i in result.deployment.reserve[s]] for s in (0, 1)],
            "held_back": [[unit_ref(s, i) for i in result.deployment.held_back[s]] for s in (0, 1)],
            "notes": list(result.deployment.notes),
        },
        "combats": [{
            "number": c.combat.number,
            "units": [[unit_ref(s, i) for i in c.combat.units[s]] for s in (0, 1)],
            "rolls": [{"side": r.side, "unit": unit_ref(r.side, r.unit), "die": r.die, "reserve": r.from_reserve,
                       "modifiers": [{"label": m.label, "value": m.value} for m in r.modifiers], "score": r.score}
                      for r in c.rolls],
            "scores": list(c.scores),
            "outcome": c.outcome.id,
            "loser": None if c.loser is None else forces[c.loser].side,
            "casualty_points": c.outcome.casualty_points if c.loser is not None else 0,
        } for c in result.combats],
        "casualty_points": [s.casualty_points for s in result.sides],
        "winner": None if result.loser is None else forces[1 - result.loser].side,
        "army_states": [{"side": forces[s.side].side, "state": s.state.id, "name": s.state.name,
                         "result": "drawn" if s.lost is None else ("loser" if s.lost else "winner"),
                         "effect": s.effect, "exhausted": s.exhausted, "counts": dict(s.counts)} for s in result.sides],
    }
    if result.escalated:
        data["open_battle"] = battle_json(result.escalated)
    return data


def _show(p: float | Fraction) -> str:
    if isinstance(p, Fraction):
        return f"{float(p):7.2%}  ({p.numerator}/{p.denominator})"
    return f"{p:7.2%}"


def odds_text(odds: Odds, forces: tuple[Force, Force], skirmish: bool) -> str:
    if odds.method == "exact":
        lines = ["Odds (exact: every die enumerated; reserves by the default policy):"]
    else:
        lines = [f"Odds (Monte Carlo estimate from {odds.samples} seeded battles, too many dice to enumerate; "
                 f"reserves by the default policy):"]
    for key, p in odds.winner.items():
        error = f"  ± {odds.standard_error[key]:.2%} (standard error)" if key in odds.standard_error else ""
        lines.append(f"  {key:<24} {_show(p)}{error}")
    if skirmish and odds.escalation is not None:
        lines.append(f"  skirmish grows into an open battle: {_show(odds.escalation)}")
    for side, force in enumerate(forces):
        lines.append(f"  {force.name} army state:")
        lines += [f"    {state:<22} {_show(p)}" for state, p in odds.states[side].items()]
    return "\n".join(lines)


def odds_json(odds: Odds, forces: tuple[Force, Force]) -> dict[str, Any]:
    def number(p: float | Fraction) -> float:
        return float(p)

    data: dict[str, Any] = {
        "method": odds.method,
        "winner": {k: number(p) for k, p in odds.winner.items()},
        "army_states": {force.side: {k: number(p) for k, p in states.items()} for force, states in zip(forces, odds.states)},
    }
    if odds.method == "exact":
        data["exact"] = {k: f"{p.numerator}/{p.denominator}" for k, p in odds.winner.items()}
    else:
        data["samples"] = odds.samples
        data["standard_error"] = dict(odds.standard_error)
    if odds.escalation is not None:
        data["escalation"] = number(odds.escalation)
    return data
