"""What the board page shows, as JSON: a position and its legal orders, read from the engine's public API.

Generic on purpose: every legal action is listed with its kind, the unit it names and
the hex it points at (a move's or attack's hex, a retreat path's last hex), so an
action kind the engine gains later appears on the page as a plain choice with no
change here. Nothing here changes a state.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rulec.engine import CHANCE, TERMINAL, Action, GameState
from rulec.engine import combat as fight
from rulec.runtime.model import Game


def action_view(state: GameState, action: Action) -> dict[str, Any]:
    """One legal order: its text (what the server is sent back) and what the map needs to place it."""
    target = action.hex or (action.path[-1] if action.path else None)
    return {"text": state.action_to_string(action), "kind": action.kind, "unit": action.unit,
            "hex": target, "edge": action.edge}


def odds_view(game: Game, odds: fight.Odds) -> dict[str, Any]:
    """The column, the shifts and modifiers that made it, and the chance of each result on the die."""
    table = game.tables[game.combat.table]
    die = game.info.die
    codes = Counter(fight.result_code(table, odds.column, roll, odds.drm) for roll in range(1, die + 1))
    results = [{"code": code, "name": game.results[code].name if code in game.results else code,
                "percent": round(100 * count / die, 1)} for code, count in codes.items()]
    return {"attack": odds.attack, "defence": odds.defence, "column": odds.label, "column_index": odds.column,
            "base_column": table.columns[odds.base_column].label if odds.base_column < len(table.columns) else None,
            "terrain_shift": odds.terrain_shift, "modifier_shift": odds.modifier_shift, "drm": odds.drm,
            "modifiers": list(odds.modifiers), "results": results}


def position_view(state: GameState, kinds: dict[str, str]) -> dict[str, Any]:
    """The position: turn, phase, whose decision, units on and off the map, VP with their sources."""
    game = state.game
    seat = state.current_player()
    if seat == TERMINAL:
        deciding = None
    elif seat == CHANCE:
        deciding = "chance"
    else:
        deciding = state.players[seat]
    units = []
    for uid in state.units():
        status = state.status(uid)
        if status == "unused":
            continue
        unit = state.unit(uid)
        units.append({"id": uid, "name": state.unit_name(uid), "side": unit.side, "type": unit.type,
                      "strength": unit.strength, "move": unit.move, "status": status,
                      "hex": state.positions.get(uid), "due": state.arrival_turn(uid) if status == "pending" else None,
                      "face": counter_face(state, uid)})
    # Orders are offered only to a human: an AI's decision is made with the page's "AI move".
    human_decides = deciding not in (None, "chance") and kinds.get(deciding, "human") == "human"
    legal = state.legal_orders() if human_decides else []  # a move at once: the board sends "move UNIT HEX"
    texts = award_texts(game)
    view: dict[str, Any] = {
        "title": game.info.title, "reconstruction": game.info.reconstruction_notice, "turn": state.turn, "turn_label": game.info.turn_label(state.turn),
        "phase": state.phase.name, "phase_side": state.phase.side, "deciding": deciding,
        "player_kind": kinds.get(deciding, "") if deciding not in (None, "chance") else "",
        "terminal": state.is_terminal(), "steps": len(state.history()),
        "sides": {sid: {"name": side.name, "color": side.color, "vp": state.vp.get(sid, 0), "player": kinds.get(sid, "human")}
                  for sid, side in game.sides.items()},
        "vp_log": [{"turn": e.turn, "phase": e.phase, "side": e.side, "amount": e.amount, "source": e.source,
                    "text": texts.get(e.source, e.source),
                    "unit": state.unit_name(e.unit) if e.unit else None, "hex": e.hex} for e in state.vp_log],
        "units": units, "legal": [action_view(state, a) for a in legal],
        "pending": type(state.pending).__name__.lower() if state.pending is not None else None,
        "odds": None, "declaring": None, "last_battle": None, "outcome": None,
        # Each side's zone of control: the hexes its units exert ZOC into (what its enemies move through).
        "zoc": {sid: sorted(state.enemy_zoc(_other_side(state, sid))) for sid in game.sides} if game.map else {},
    }
    declaring = state.declaring
    if declaring is not None:
        view["declaring"] = {"targets": list(declaring.targets),
                             "attackers": [state.unit_name(u) for u in declaring.attackers]}
        if declaring.attackers:
            view["odds"] = odds_view(game, state.odds())
    elif state.battle is not None:
        view["odds"] = odds_view(game, state.battle.odds)
    report = getattr(state, "last_battle", None)
    if report is not None:
        view["last_battle"] = {"hex": report.hex, "roll": report.roll, "result": report.result,
                               "name": game.results[report.result].name if report.result in game.results else report.result,
                               "column": report.odds.label}
    if state.is_terminal():
        view["outcome"] = outcome_view(state)
    return view


def hex_info(state: GameState, hex_id: str) -> dict[str, Any]:
    """What `info HEX` tells: terrain, hexside features, units, whose ZOC covers it, place name."""
    game, map_def = state.game, state.game.map
    terrain = map_def.terrain.get(hex_id, ())
    sides = []
    for direction, other in map_def.neighbours.get(hex_id, {}).items():
        features = map_def.features_between(hex_id, other)
        if features:
            sides.append({"direction": direction, "towards": other,
                          "features": [game.hexside_types[f].name if f in game.hexside_types else f for f in features]})
    return {"hex": hex_id, "place": map_def.places.get(hex_id),
            "terrain": [game.terrain[t].name if t in game.terrain else t for t in terrain],
            "hexsides": sides, "units": [state.unit_name(u) for u in state.units_at(hex_id)],
            "zoc_of": [sid for sid in game.sides if hex_id in state.enemy_zoc(_other_side(state, sid))],
            "zones": [z for z, hexes in map_def.zones.items() if hex_id in hexes]}


def _other_side(state: GameState, side: str) -> str:
    """A side other than `side`: enemy_zoc(side) is the ZOC of everyone not on `side`."""
    return next((s for s in state.players if s != side), side)


def counter_face(state: Any, uid: str) -> str:
    """The face of the unit's counter that shows now: "base", "variant" (the variant an option chose for it,
    printed on its back) or "reduced" (a step lost, when its back is its first reduced side)."""
    unit = state.game.units[uid]
    if state.lost_steps.get(uid) and unit.reduced and not unit.variants:
        return "reduced"
    if unit.variants and state.variants.get(uid) == unit.variants[0].name:
        return "variant"
    return "base"


# ------------------------------------------------------------ the event log
def award_texts(game: Game) -> dict[str, str]:
    """What each VP source is called on the page: an award's text, an option's name (VP given at set-up)."""
    texts = {award.id: award.text or award.id for award in game.awards}
    texts.update({f"option:{oid}": f"option: {option.name}" for oid, option in game.options.items()})
    return texts


def outcome_view(state: GameState) -> dict[str, Any]:
    """The result of a finished game, the winner named: "Blue wins: Decisive Victory"."""
    outcome = state.outcome()
    level = str(getattr(outcome, "level", "") or "")
    winner = outcome.winner
    name = state.game.sides[winner].name if winner in state.game.sides else winner
    text = f"{name} wins" + (f": {level}" if level else "") if winner else (level or "a draw")
    return {"winner": winner, "winner_name": name, "level": level, "text": text}


def _retreat_was_blocked(game: Game, report: Any, uid: str) -> bool:
    """Was `uid`, eliminated just now, a unit of the last battle whose result only made it retreat?
    Then no retreat path was open (a blocked retreat eliminates), not the table's result itself."""
    if report is None or report.result not in game.results:
        return False
    result = game.results[report.result]
    if uid in report.defenders:
        return result.defender_retreat > 0 and not (result.defender_eliminated or result.exchange or result.loses("defender"))
    if uid in report.attackers:
        return result.attacker_retreat > 0 and not (result.attacker_eliminated or result.loses("attacker"))
    return False


def step_events(before: GameState, action: Action, after: GameState, step: int) -> list[dict[str, Any]]:
    """What action number `step` did, as lines of the board's log: the order, a battle with its die and
    result, retreats, eliminations (a blocked retreat named as such), exits, lost steps, VP, the end."""
    game = before.game
    base = {"step": step, "turn": before.turn, "turn_label": game.info.turn_label(before.turn), "phase": before.phase.name}
    events: list[dict[str, Any]] = []

    def add(kind: str, text: str) -> None:
        events.append({**base, "kind": kind, "text": text})

    seat = before.current_player()
    side = before.players[seat] if seat >= 0 else None
    who = game.sides[side].name if side in game.sides else ""
    name = before.unit_name
    kind, uid = action.kind, action.unit
    if kind in ("move", "place") and action.hex is not None:
        start = before.positions.get(uid)
        verb = "moves" if kind == "move" else "is placed"
        add(kind, f"{who}: {name(uid)} {verb} {start + ' → ' if start and kind == 'move' else 'in '}{action.hex}"
            if start or kind == "place" else f"{who}: {name(uid)} enters the map at {action.hex}")
    elif kind == "exit":
        add(kind, f"{who}: {name(uid)} exits by the {action.edge} edge")
    elif kind == "delay":
        add(kind, f"{who}: {name(uid)} is held back a turn")
    elif kind == "attack":
        add(kind, f"{who} attacks {action.hex}" + (f" with {', '.join(name(u) for u in action.units)}" if action.units else ""))
    elif kind == "with":
        add(kind, f"{who}: {name(uid)} joins the attack")
    elif kind == "advance":
        add(kind, f"{who}: {name(uid)} advances into {action.hex}" if uid else f"{who} does not advance")
    elif kind == "remove":
        add(kind, f"{who}: {name(uid)} is removed from an over-stacked hex")
    elif kind == "cancel":
        add(kind, f"{who} calls it off")
    elif kind == "end":
        add(kind, f"{who + ': ' if who else ''}end of the {before.phase.name}")
    report = after.last_battle
    if kind == "roll" and report is not None and report is not before.last_battle:
        result = game.results[report.result].name if report.result in game.results else report.result
        add("battle", f"Battle at {report.hex}: {', '.join(name(u) for u in report.attackers)} against "
                      f"{', '.join(name(u) for u in report.defenders)}, column {report.odds.label}, die {report.roll}: "
                      f"{report.result}" + (f" ({result})" if result != report.result else ""))
    elif kind == "roll":
        add("roll", f"die {action.number}" if getattr(action, "number", None) is not None else "die rolled")
    # What the step did to units besides its order: retreats, eliminations, exits, steps lost.
    for unit in before.where:
        was, now = before.where[unit], after.where[unit]
        old_hex, new_hex = before.positions.get(unit), after.positions.get(unit)
        if now == "eliminated" and was != "eliminated":
            if kind == "lose":
                add("eliminated", f"{name(unit)} is eliminated to pay for the exchange")
            elif _retreat_was_blocked(game, report, unit):
                add("eliminated", f"{name(unit)} is eliminated: no retreat was open from {old_hex}")
            else:
                add("eliminated", f"{name(unit)} is eliminated" + (f" in {old_hex}" if old_hex else ""))
        elif now == "exited" and was != "exited" and kind != "exit":
            add("exited", f"{name(unit)} leaves the map")
        elif old_hex and new_hex and old_hex != new_hex and not (unit == uid and kind in ("move", "advance")):
            verb = "retreats" if kind in ("roll", "retreat", "lose", "advance") else "moves"
            add("retreat" if verb == "retreats" else "moved", f"{name(unit)} {verb} {old_hex} → {new_hex}")
        if after.lost_steps.get(unit, 0) > before.lost_steps.get(unit, 0) and now == "map":
            add("step", f"{name(unit)} loses a step")
    texts = award_texts(game)
    for entry in after.vp_log[len(before.vp_log):]:
        scorer = game.sides[entry.side].name if entry.side in game.sides else entry.side
        where = ", ".join(x for x in (before.unit_name(entry.unit) if entry.unit else "", entry.hex or "") if x)
        add("vp", f"{scorer} {entry.amount:+d} VP: {texts.get(entry.source, entry.source)}" + (f" ({where})" if where else ""))
    if after.is_terminal() and not before.is_terminal():
        add("end-of-game", f"The game is over. {outcome_view(after)['text']}")
    return events
