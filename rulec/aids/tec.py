"""The Terrain Effects Chart, worded from the model's TerrainType and HexsideType rows."""

from __future__ import annotations

from dataclasses import dataclass

from rulec.aids.environment import signed
from rulec.aids.game_words import say
from rulec.aids.words import in_words
from rulec.aids.palette import TerrainStyle, terrain_style
from rulec.runtime.model import Game, HexsideType, TerrainType

DASH = "\u2014"  # printed in a cell that has no effect

_COMBAT_WHEN = {
    "always": "",
    "all_attackers_across": "only if every attacking unit attacks across it",
    "any_attacker_across": "if any attacking unit attacks across it",
}
_CROSSING = {
    "normal": "",
    "all_mp_from_start_adjacent": "Crossing uses all of a unit's MP; it must start its movement phase adjacent",
    "prohibited": "May not be crossed",
}
_COMBINATION = {
    "worst_for_attacker": ("Terrain effects are not cumulative: of the defender's hex terrain and the hexsides "
                           "attacked across, only the single effect worst for the attacker applies."),
    "cumulative": ("Terrain effects are cumulative: add the shifts and modifiers of every terrain in the "
                   "defender's hex and of every hexside attacked across."),
}


@dataclass(frozen=True)
class TerrainRow:
    id: str
    name: str
    style: TerrainStyle
    movement: str
    shift: str
    drm: str
    notes: str


@dataclass(frozen=True)
class HexsideRow:
    id: str
    name: str
    kind: str
    movement: str
    combat: str
    notes: str


@dataclass(frozen=True)
class TerrainChart:
    terrain: tuple[TerrainRow, ...]
    hexsides: tuple[HexsideRow, ...]
    show_drm: bool
    combination: tuple[str, ...]


def shift_text(columns: int) -> str:
    return signed(columns) if columns else DASH


def terrain_movement(terrain: TerrainType, game: Game | None = None) -> str:
    if terrain.prohibited:
        return "Prohibited"
    if terrain.move is None:
        text = "As other terrain"
    else:
        text = f"{_mp(terrain.move, game)} MP"
    if terrain.move_extra:
        text += f", {_signed_mp(terrain.move_extra, game)} MP"
    for unit_type, cost in terrain.move_for.items():
        text += f"; {unit_type}: {_mp(cost, game)} MP"
    if terrain.prohibited_for:
        text += f"; prohibited to {', '.join(terrain.prohibited_for)}"
    return text


def _mp(cost, game: Game | None = None) -> str:
    """A cost as the chart prints it: a number, or an expression in words (a cost that changes with the weather)."""
    return str(cost) if isinstance(cost, int) else f"({_cost_words(cost, game)})"


def _signed_mp(cost, game: Game | None = None) -> str:
    return signed(cost) if isinstance(cost, int) else f"+({_cost_words(cost, game)})"


def _cost_words(cost, game: Game | None) -> str:
    return say(game, cost) if game is not None else in_words(cost.source)


def hexside_movement(hexside: HexsideType, game: Game | None = None) -> str:
    parts = []
    if hexside.move is not None:
        parts.append(f"{_mp(hexside.move, game)} MP to enter a hex through it")
    if hexside.move_extra:
        parts.append(f"{_signed_mp(hexside.move_extra, game)} MP to cross")
    for unit_type, cost in hexside.move_extra_for.items():
        parts.append(f"{unit_type}: {_signed_mp(cost, game)} MP to cross")
    if hexside.prohibited_for:
        parts.append(f"prohibited to {', '.join(hexside.prohibited_for)}")
    if _CROSSING[hexside.crossing]:
        parts.append(_CROSSING[hexside.crossing])
    return "; ".join(parts) or DASH


def hexside_combat(hexside: HexsideType) -> str:
    effects = []
    if hexside.combat_shift:
        effects.append(f"{signed(hexside.combat_shift)} column{'s' if abs(hexside.combat_shift) != 1 else ''}")
    if hexside.combat_drm:
        effects.append(f"{signed(hexside.combat_drm)} to the die roll")
    if not effects:
        return DASH
    condition = _COMBAT_WHEN[hexside.combat_when]
    return ", ".join(effects) + (f" {condition}" if condition else "")


def hexside_notes(hexside: HexsideType, game: Game) -> str:
    notes = []
    if hexside.blocks_retreat:
        notes.append("Blocks retreat")
    if hexside.blocks_advance is True:
        notes.append("Blocks advance after combat")
    elif hexside.blocks_advance:
        notes.append(f"Blocks the {hexside.blocks_advance}'s advance after combat")
    if hexside.blocks_zoc:
        notes.append("Blocks zones of control")
    if hexside.road_negates_crossing:
        roads = [t.name for t in game.hexside_types.values() if t.kind == "road"] or ["a road"]
        notes.append(f"{' or '.join(roads)} across it (a bridge) negates its crossing cost")
    return "; ".join(notes) or DASH


def terrain_chart(game: Game) -> TerrainChart:
    terrain_rows = tuple(
        TerrainRow(
            id=t.id, name=t.name, style=terrain_style(t.id), movement=terrain_movement(t, game),
            shift=shift_text(t.combat_shift), drm=signed(t.combat_drm) if t.combat_drm else DASH,
            notes="; ".join(note for note, on in (("Blocks zones of control", t.blocks_zoc),
                                                  ("Blocks line of sight", t.blocks_los)) if on) or DASH,
        )
        for t in game.terrain.values()
    )
    hexside_rows = tuple(
        HexsideRow(h.id, h.name, h.kind, hexside_movement(h, game), hexside_combat(h), hexside_notes(h, game))
        for h in game.hexside_types.values()
    )
    combination = []
    if game.combat is not None:
        combination.append(_COMBINATION[game.combat.terrain_effects])
    as_other = [t.name for t in game.terrain.values() if t.move is None and not t.prohibited]
    if as_other:
        combination.append(f"Movement: {', '.join(as_other)} cost{'s' if len(as_other) == 1 else ''} what the other "
                           "terrain in the hex costs.")
    if any(t.combat_shift for t in game.terrain.values()) or any(h.combat_shift for h in game.hexside_types.values()):
        combination.append("Column shifts: a negative shift moves left on the Combat Results Table, in the "
                           "defender's favour.")
    return TerrainChart(
        terrain=terrain_rows, hexsides=hexside_rows,
        show_drm=any(t.combat_drm for t in game.terrain.values()),
        combination=tuple(combination),
    )
