"""The terminal's look-up commands: `odds`, `info HEX`, `vp`, `rules CASE`, as text.

Each reads the position only (the same queries the browser board shows, rulec/web/view.py)
and returns lines to print; none changes the game.
"""

from __future__ import annotations

from typing import Any

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
              f"options {view['option_shift']:+d}" if view["option_shift"] else "",
              f"die {view['drm']:+d}" if view["drm"] else ""]
    made = ", ".join(s for s in shifts if s)
    lines = [f"odds: {view['attack']} against {view['defence']}, column {view['column']}"
             + (f" (from {view['base_column']}: {made})" if made else "")]
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
    """`rules 7.43`: what the game's rule references say that case governs; `rules`: every reference."""
    refs = state.game.rule_refs
    case = rest.strip()
    # Cases nest by digits: 7.4 covers 7.41 and 7.43, 7 covers 7.21 (but not 70.1).
    chosen = {m: c for m, c in refs.items()
              if not case or c == case or c.startswith(case + ".") or ("." in case and c.startswith(case))}
    if not chosen:
        known = ", ".join(sorted(set(refs.values()), key=lambda c: [int(p) if p.isdigit() else 0 for p in c.split(".")]))
        return [f"the game cites no case {case}" + (f"; it cites: {known}" if known else "")]
    return [f"  {c}: {m.replace('_', ' ')}" for m, c in sorted(chosen.items(), key=lambda mc: mc[1])]
