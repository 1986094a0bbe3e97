"""What each printed aid shows, shaped from the game model for the templates.

Each function takes the checked Game and returns plain data; the templates in
rulec/aids/templates only lay it out. Nothing here names a particular game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulec.aids import crt_odds
from rulec.aids.environment import humanize, signed
from rulec.aids.game_words import say
from rulec.aids.palette import division_colours
from rulec.aids.tec import DASH, hexside_combat
from rulec.aids.turn_values import TurnAward, turn_dependent_awards
from rulec.aids.vp_range import vp_range
from rulec.runtime.model import Award, Game, Modifier, Option, Phase, Unit, VictoryLevel

_PHASE_ACTIVITY = {
    "movement": "Move units",
    "combat": "Attack adjacent enemy units",
    "placement": "Place units",
}


def _activity(game: Game, phase: Phase, scoring: tuple[str, ...], last: bool) -> str:
    """What players do in a phase, and when it comes up; an automatic phase is named by what it does."""
    text = _what_happens(game, phase, scoring, last)
    if phase.when is None or _constant(phase.when) is True:
        return text
    return f"{text} (only when {say(game, phase.when)})"


def _constant(expression: Any) -> bool | None:
    """True or False for an expression written as that constant (`when = false`), else None."""
    source = getattr(expression, "source", "").strip().lower()  # the checker writes them True and False
    return {"true": True, "false": False}.get(source)


def setup_only(phase: Phase) -> bool:
    """A phase the turns never play (`when = false`): only a scenario that starts in it (a set-up) does."""
    return phase.when is not None and _constant(phase.when) is False


def _what_happens(game: Game, phase: Phase, scoring: tuple[str, ...], last: bool) -> str:
    ways = ""
    if phase.modes is not None:  # a phase of some movement modes only (rail movement)
        ways = " by " + " or ".join(game.modes[w].name if w in game.modes else "ordinary movement" for w in phase.modes)
    if phase.movers is not None:
        return f"Move units{ways}: only {say(game, phase.movers)}"
    if ways:
        return f"Move units{ways} only"
    if phase.attackers is not None:
        return f"Attack adjacent enemy units: only {say(game, phase.attackers)} attack"
    if phase.kind != "automatic":
        return _PHASE_ACTIVITY.get(phase.kind, humanize(phase.kind))
    if scoring or any(e.kind == "score" for hook in phase.hooks for e in hook.effects):
        return "Score victory points"
    if any(hook.effects for hook in phase.hooks):
        return "Carry out the phase's effects"
    return "Advance the Game Turn marker" if last else "Nothing to decide"


# ---------------------------------------------------------------------- CRT
@dataclass(frozen=True)
class CrtSheet:
    id: str
    kind: str
    is_main: bool
    labels: tuple[str, ...]
    rows: tuple[tuple[int, tuple[str, ...]], ...]
    codes: tuple[tuple[str, str], ...]  # (code, name) in declaration order
    chances: tuple[tuple[str, tuple[Fraction, ...]], ...]  # code -> chance per column
    expectations: tuple[crt_odds.Expectation, ...]
    die: int


def crt_sheets(game: Game) -> tuple[CrtSheet, ...]:
    sheets = []
    main = game.combat.table if game.combat else None
    for table in game.tables.values():
        odds = crt_odds.column_odds(table, game.info.die)
        order = crt_odds.result_order(table, game.results)
        sheets.append(CrtSheet(
            id=table.id, kind=table.kind, is_main=table.id == main,
            labels=tuple(c.label for c in table.columns),
            rows=tuple(sorted(table.rows.items())),
            codes=tuple((code, game.results[code].name if code in game.results else code) for code in order),
            chances=tuple((code, tuple(column.chances.get(code, Fraction(0)) for column in odds)) for code in order),
            expectations=crt_odds.expectations(odds, game.results),
            die=game.info.die,
        ))
    return tuple(sorted(sheets, key=lambda s: (not s.is_main, s.id)))


# ---------------------------------------------------------- key modifiers
@dataclass(frozen=True)
class ModifierLine:
    group: str
    name: str
    effect: str


def modifier_effect(game: Game, modifier: Modifier) -> str:
    """'1 column right when <condition>', '×0.5 strength, -1 MP when not supplied(unit)': a modifier in words."""
    parts = []
    if modifier.shift:
        parts.append(_columns(modifier.shift))
    if modifier.drm:
        parts.append(f"{signed(modifier.drm)} to the die roll")
    for what, label in (("strength", "strength"), ("move", "MP")):
        times, plus = getattr(modifier, f"{what}_times"), getattr(modifier, f"{what}_plus")
        if times != 1:
            parts.append(f"×{times:g} {label}")
        if plus:
            parts.append(f"{plus:+g} {label}")
    if modifier.text:  # the designer's words
        return ", ".join(parts) + f" when {modifier.text}"
    when = f" when {say(game, modifier.when)}" if modifier.when is not None else ""
    return ", ".join(parts) + when


def _columns(shift: int) -> str:
    return f"{signed(shift)} column{'s' if abs(shift) != 1 else ''}"


def key_modifiers(game: Game) -> tuple[ModifierLine, ...]:
    """The combat modifiers a player looks up during play, for the card beside the CRT."""
    lines = []
    for terrain in game.terrain.values():
        effects = []
        if terrain.combat_shift:
            effects.append(_columns(terrain.combat_shift))
        if terrain.combat_drm:
            effects.append(f"{signed(terrain.combat_drm)} to the die roll")
        if effects:
            lines.append(ModifierLine("Defender's hex", terrain.name, ", ".join(effects)))
    for hexside in game.hexside_types.values():
        effect = hexside_combat(hexside)
        if effect != DASH:
            lines.append(ModifierLine("Attacking across", hexside.name, effect))
    for modifier in game.modifiers:
        effect = modifier_effect(game, modifier)
        label = game.options[modifier.option].name if modifier.option in game.options else (modifier.name or humanize(modifier.id))
        lines.append(ModifierLine("Optional rule" if modifier.option else "Modifier", label, effect))
    return tuple(lines)


# -------------------------------------------------------- sequence of play
@dataclass(frozen=True)
class PhaseRow:
    number: int
    phase: Phase
    side_name: str
    activity: str
    scoring: tuple[str, ...]  # award texts scored in this phase


def sequence_rows(game: Game) -> tuple[PhaseRow, ...]:
    """The phases of a game turn, numbered in order (set-up phases, which no turn plays, left out: setup_phases)."""
    rows = []
    played = [phase for phase in game.sequence if not setup_only(phase)]
    for number, phase in enumerate(played, 1):
        scoring = tuple(a.text or a.id for a in game.awards if a.trigger.kind == "phase" and a.trigger.phase == phase.id)
        activity = _activity(game, phase, scoring, number == len(played))
        side_name = game.sides[phase.side].name if phase.side in game.sides else "Both players"
        rows.append(PhaseRow(number, phase, side_name, activity, scoring))
    return tuple(rows)


def setup_phases(game: Game) -> tuple[Phase, ...]:
    """The set-up phases a scenario may begin with, which no game turn plays (`when = false`)."""
    return tuple(phase for phase in game.sequence if setup_only(phase))


# ------------------------------------------------------------ units and OOB
def area_name(game: Game, area: str | None) -> str:
    if not area:
        return ""
    if game.map and area in game.map.edges:
        return f"{humanize(area)} edge"
    return humanize(area)


def arrival_text(game: Game, unit: Unit) -> str:
    arrival = unit.arrives
    if arrival is None:
        return ""
    when = f"Turn {arrival.turn}" if arrival.turn is not None else "Any turn"
    if arrival.placement == "anywhere":
        terrain = " or ".join(game.terrain[t].name.lower() if t in game.terrain else t for t in arrival.terrain)
        where = f"any {terrain} hex" if terrain else "anywhere"
    else:
        where = area_name(game, arrival.area)
    return f"{when}: {where}" if where else when


def setup_text(game: Game, unit: Unit) -> str:
    if unit.setup is None:
        return ""
    place = game.map.places.get(unit.setup) if game.map else None
    return f"{unit.setup} ({place})" if place else unit.setup


def options_adding(game: Game, unit: Unit) -> tuple[Option, ...]:
    return tuple(o for o in game.options.values() if unit.id in o.adds)


def short_option_names(options: tuple[Option, ...]) -> str:
    """Options named briefly for a table cell: each name up to its first colon (the Optional Rules
    table gives the rest); names that differ only in their last word share the rest once
    ("Red OB Option A: No Reserve..." and "... Option B: ..." give "Red OB Option A, B")."""
    short = [o.name.split(":", 1)[0].strip() or o.id for o in options]
    heads = {name.rsplit(" ", 1)[0] for name in short}
    if len(short) > 1 and len(heads) == 1 and all(" " in name for name in short):
        return f"{heads.pop()} " + ", ".join(name.rsplit(" ", 1)[1] for name in short)
    return ", ".join(short)


@dataclass(frozen=True)
class UnitRow:
    unit: Unit
    type_name: str
    placement: str  # set-up hex or arrival
    variants: str  # "strength-move (n VP)" per variant counter, or ""
    notes: str
    colour: str


@dataclass(frozen=True)
class SideOrder:
    side_id: str
    side_name: str
    rows: tuple[UnitRow, ...]


def order_of_battle(game: Game) -> tuple[SideOrder, ...]:
    orders = []
    bands = division_colours((u.side, u.division) for u in game.units.values() if u.division)
    for side in game.sides.values():
        rows = []
        for unit in game.units.values():
            if unit.side != side.id:
                continue
            notes = []
            adding = options_adding(game, unit)
            if unit.optional:
                notes.append("Optional" + (": " + short_option_names(adding) if adding else ""))
            notes.extend(game.info.flag_names.get(flag) or humanize(flag) for flag in unit.flags)
            variants = []
            for variant in unit.variants:
                move = variant.move if variant.move is not None else unit.move
                variants.append(f"{variant.strength}-{move}" + (f" ({variant.vp} VP)" if variant.vp else "")
                                + ("" if len(unit.variants) == 1 else f" {humanize(variant.name).lower()}"))
            variants_text = ", ".join(variants)
            rows.append(UnitRow(
                unit=unit, type_name=game.unit_types[unit.type].name if unit.type in game.unit_types else unit.type,
                placement=setup_text(game, unit) or arrival_text(game, unit) or ("Set-up phase" if unit.placed else ""),
                variants=variants_text,
                notes="; ".join(notes), colour=bands.get((unit.side, unit.division), "#ffffff"),
            ))
        # Set-up units first (by hex), then arrivals by turn; stable within each.
        rows.sort(key=lambda r: (r.unit.setup is None, r.unit.setup or "",
                                 r.unit.arrives.turn if r.unit.arrives and r.unit.arrives.turn is not None else 999))
        orders.append(SideOrder(side.id, side.name, tuple(rows)))
    return tuple(orders)


# -------------------------------------------------------- turn record track
@dataclass(frozen=True)
class TurnRow:
    turn: int
    label: str
    arrivals: tuple[tuple[str, tuple[tuple[Unit, str], ...]], ...]  # (side name, ((unit, note), ...))
    values: tuple[object, ...]  # one per turn-dependent award


@dataclass(frozen=True)
class TurnTrack:
    rows: tuple[TurnRow, ...]
    awards: tuple[TurnAward, ...]
    any_turn: tuple[tuple[Unit, str], ...]


def _arrival_note(game: Game, unit: Unit) -> str:
    adding = options_adding(game, unit)
    where = area_name(game, unit.arrives.area) if unit.arrives else ""
    note = where
    if unit.optional:
        note += (" — " if note else "") + "optional" + (f" ({', '.join(o.name for o in adding)})" if adding else "")
    return note


def turn_track(game: Game) -> TurnTrack:
    awards = turn_dependent_awards(game)
    rows = []
    for turn in range(1, game.info.turns + 1):
        arrivals = []
        for side in game.sides.values():
            due = tuple((u, _arrival_note(game, u)) for u in game.units.values()
                        if u.side == side.id and u.arrives is not None and u.arrives.turn == turn)
            if due:
                arrivals.append((side.name, due))
        rows.append(TurnRow(turn, game.info.turn_label(turn), tuple(arrivals),
                            tuple(a.values[turn - 1] for a in awards)))
    any_turn = tuple((u, arrival_text(game, u)) for u in game.units.values()
                     if u.arrives is not None and u.arrives.turn is None)
    return TurnTrack(tuple(rows), awards, any_turn)


# ------------------------------------------------------------------ victory
TRACK_LIMIT = 100  # boxes on the VP track at most; past it a marker's "+100" side goes round again


@dataclass(frozen=True)
class VictorySheet:
    awards_by_side: tuple[tuple[str, tuple[Award, ...]], ...]
    measure: str
    levels: tuple[tuple[str, str], ...]  # (name, threshold text), best first, then the draw
    track: tuple[tuple[int, str], ...]  # VP track boxes: (value, level mark or "")
    most: int  # the most VP a side can reach, as far as the aids can tell
    wraps: bool  # the track is shorter than `most`: markers go round with their "+N" side up


def track_length(game: Game, observed_vp: int | None = None) -> tuple[int, int]:
    """(boxes on the VP track, the most VP a side can reach): long enough for the awards' range, the
    best victory level twice over and the most any side scored in simulated games; whole rows of ten."""
    rules = game.victory
    leads = [level.at_least for level in rules.levels if level.at_least is not None] if rules else []
    top = max(leads, default=10) if rules and rules.measure != "ratio" else 10
    most = max([*vp_range(game).most.values(), int(observed_vp or 0), 0])
    needed = max(30, int(2 * top + 1), most + 1)
    size = min(TRACK_LIMIT, int(math.ceil(needed / 10)) * 10)
    return size, most


def victory_sheet(game: Game, observed_vp: int | None = None) -> VictorySheet:
    by_side = tuple((side.name, tuple(a for a in game.awards if a.side == side.id)) for side in game.sides.values())
    rules = game.victory
    size, most = track_length(game, observed_vp)
    marks: dict[int, str] = {}
    if rules is None:
        levels: tuple[tuple[str, str], ...] = ()
    else:
        leads = [level.at_least for level in rules.levels if level.at_least is not None]
        if len(leads) < len(rules.levels) or not rules.levels or rules.otherwise or rules.sudden_death:
            # Levels written as conditions, sudden deaths, a game with no draw: each condition and its winner.
            sudden = tuple((rule.name, f"{_winner(game, rule.winner, 'nobody')} wins at once if {say(game, rule.when)}")
                           for rule in rules.sudden_death)
            levels = sudden + tuple((level.name, _level_condition(game, level)) for level in rules.levels)
            winner = game.sides[rules.otherwise].name if rules.otherwise in game.sides else ""
            levels += ((rules.draw, f"no level above holds{f': {winner} wins' if winner else ''}"),)
        else:
            if rules.measure == "ratio":
                levels = tuple((level.name, f"VP ratio of at least {level.at_least:g} : 1") for level in rules.levels)
            else:
                levels = tuple((level.name, f"lead by at least {level.at_least:g} VP") for level in rules.levels)
                marks = {int(lead): level.name for lead, level in zip(leads, rules.levels)}
            lowest = min(leads, default=0)
            draw_text = (f"ratio below {lowest:g} : 1" if rules.measure == "ratio" else f"lead of less than {lowest:g} VP")
            levels += ((rules.draw, draw_text),)
    return VictorySheet(by_side, rules.measure if rules else "", levels,
                        tuple((v, marks.get(v, "")) for v in range(size)), most, most >= size)


def _level_condition(game: Game, level: VictoryLevel) -> str:
    """'Red wins if vp(red) > vp(blue)': a victory level written as a condition, in the file's words."""
    who = _winner(game, level.winner, "the side with most VP")
    if level.when is None:
        return f"{who} wins"
    if _constant(level.when) is True:  # the last level, taken when no other holds
        return f"{who} wins in every other case"
    return f"{who} wins if {say(game, level.when)}"


def _winner(game: Game, side: str | None, otherwise: str) -> str:
    return game.sides[side].name if side in game.sides else otherwise


# ----------------------------------------------------------------- options
@dataclass(frozen=True)
class OptionRow:
    option: Option
    effects: tuple[str, ...]


def option_rows(game: Game) -> tuple[OptionRow, ...]:
    rows = []
    for option in game.options.values():
        effects = []
        if option.adds:
            effects.append("Adds " + ", ".join(game.units[u].label if u in game.units else u for u in option.adds))
        for side, vp in sorted(option.vp.items()):
            effects.append(f"{game.sides[side].name if side in game.sides else side} receives {vp} VP")
        effects.extend(modifier_effect(game, modifier) for modifier in game.modifiers if modifier.option == option.id)
        leave = game.movement.leave_zoc
        if leave is not None and leave.option == option.id:
            who = f"Units for which {say(game, leave.when)}" if leave.when is not None else "Units"
            effects.append(f"{who} may leave an enemy ZOC for {leave.cost} extra MP")
        choice = option.choose_variant
        if choice:
            low, high = choice.count
            count = f"{low}" if low == high else f"{low}\u2013{high}"
            effects.append(f"{count} random unit(s) use their {humanize(choice.variant).lower()} counters")
            if choice.vp_to:
                side = game.sides[choice.vp_to].name if choice.vp_to in game.sides else choice.vp_to
                effects.append(f"{side} receives the VP printed on {humanize(choice.variant).lower()} counters used")
        rows.append(OptionRow(option, tuple(effects)))
    return tuple(rows)
