"""The terminal's look-up commands: `odds`, `info HEX`, `vp`, `rules CASE`, as text.

Each reads the position only (the same queries the browser board shows, rulec/web/view.py)
and returns lines to print; none changes the game.
"""

from __future__ import annotations

from typing import Any

from rulec.engine.rule_cases import cases_under, known_cases
from rulec.web.view import hex_info, odds_view


def odds_lines(state: Any, rest: str) -> list[str]:
    """`odds` (the battle being declared) or `odds HEX with UNIT...` (a battle not yet declared)."""
    try:
        if rest.strip():
            line = f"attack {rest.strip()}" if not rest.strip().startswith("attack") else rest.strip()
            if " with " not in f" {line} ":
                return ["odds needs the attackers: odds HEX with UNIT UNIT..."]
            problem = state.explain(line)
            if problem is not None:
                return [f"no such battle now: {problem}"]
            from rulec.engine import Action
            steps = state.parse_orders(line)
            odds = state.odds(Action.attack(steps[0].hex, tuple(s.unit for s in steps if s.unit)))
        else:
            odds = state.odds()
    except ValueError as error:
        return [f"{error}; e.g. odds 0403 with 357 358"]
    view = odds_view(state.game, odds)
    shifts = [f"terrain {view['terrain_shift']:+d}" if view["terrain_shift"] else "",
              f"modifiers {view['modifier_shift']:+d}" if view["modifier_shift"] else "",
              f"die {view['drm']:+d}" if view["drm"] else ""]
    made = ", ".join(s for s in shifts if s)
    lines = [f"odds: {view['attack']} against {view['defence']}, column {view['column']}"
             + (f" (from {view['base_column']}: {made})" if made else "")
             + (f"; modifiers: {', '.join(view['modifiers'])}" if view["modifiers"] else "")]
    lines += [f"  {r['percent']:5.1f}%  {r['code']} ({r['name']})" for r in view["results"]]
    return lines


def info_lines(state: Any, rest: str) -> list[str]:
    hex_id = rest.strip().zfill(len(state.game.map.hexes[0])) if rest.strip().isdigit() else rest.strip()
    if hex_id not in state.game.map.terrain:
        return [f"no hex '{rest.strip()}' on the map; e.g. info {state.game.map.hexes[0]}"]
    info = hex_info(state, hex_id)
    lines = [f"{hex_id}{' ' + info['place'] if info['place'] else ''}: {', '.join(info['terrain'])}"]
    lines += [f"  hexside {s['direction']} (to {s['towards']}): {', '.join(s['features'])}" for s in info["hexsides"]]
    lines.append(f"  units: {', '.join(info['units']) or 'none'}")
    zoc = [state.game.sides[s].name for s in info["zoc_of"]]
    lines.append(f"  zone of control of: {', '.join(zoc) or 'no one'}")
    if info["zones"]:
        lines.append(f"  zones: {', '.join(info['zones'])}")
    for award in state.game.awards:
        if hex_id in award.trigger.hexes:  # a VP hex: held by the last side to enter it
            side = state.game.sides[award.side].name if award.side in state.game.sides else award.side
            lines.append(f"  VP for {side}: {award.text or award.id}")
    return lines


def vp_lines(state: Any, rest: str = "") -> list[str]:
    """Each side's VP and where every point came from."""
    lines = []
    for side_id, side in state.game.sides.items():
        lines.append(f"{side.name}: {state.vp.get(side_id, 0)} VP")
        for entry in (e for e in state.vp_log if e.side == side_id):
            about = ", ".join(x for x in (state.unit_name(entry.unit) if entry.unit else "", entry.hex or "") if x)
            lines.append(f"  {entry.amount:+d}  turn {entry.turn}, {entry.phase}: {entry.source}"
                         + (f" ({about})" if about else ""))
    return lines


def rules_lines(state: Any, rest: str) -> list[str]:
    """`rules 7.43`: the case's text and the refusals that cite it (7.4: also 7.41, 7.43...); `rules`: every case."""
    case = rest.strip()
    found = cases_under(state.game, case)
    if not found:
        known = ", ".join(known_cases(state.game))
        return [f"the game cites no case {case}" + (f"; it cites: {known}" if known else "")]
    lines = []
    for rule in found:
        lines.append(f"  {rule.case}: {rule.text or '(the game file gives no text for this case)'}")
        if rule.cited_by:
            lines.append(f"      cited when refusing: {', '.join(rule.cited_by)}")
    return lines
