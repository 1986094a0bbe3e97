"""The game model: what a compiled game is.

This module is the contract between the compiler and everything that runs or
prints a game. The checker builds these objects from a game file; the code
generator writes them out as Python literals in a generated module; the
engine, the battle resolver and the player aids read them. Nothing here names
a particular game.

All objects are frozen; collections are tuples or dicts built once. Hexes are
their printed numbers as strings ("0807"). A hexside is written as the two hex
numbers in sorted order joined by "/" ("0701/0801").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Literal

Hex = str
HexsideKey = str


def hexside_key(a: Hex, b: Hex) -> HexsideKey:
    """The canonical key of the hexside between two adjacent hexes."""
    return f"{a}/{b}" if a < b else f"{b}/{a}"


# ------------------------------------------------------------------ expressions
@dataclass(frozen=True)
class Expr:
    """A compiled expression of the game language.

    `source` is the designer's text; `function` takes an evaluation context
    (see rulec.runtime.context.EvalContext) and returns the value.
    """

    source: str
    function: Callable[[Any], Any] = field(compare=False, repr=False)

    def __call__(self, context: Any) -> Any:
        try:
            return self.function(context)
        # The expression's own failures (a division by zero, a text compared with a number): a game error, not a
        # traceback. Whatever the context raises on purpose (the aids' NeedsPlay) passes through.
        except (ArithmeticError, TypeError, ValueError, AttributeError, LookupError, AssertionError) as error:
            from rulec.runtime.errors import ExpressionFailed

            raise ExpressionFailed(self.source, error) from error


# ------------------------------------------------------------------ game facts
@dataclass(frozen=True)
class Side:
    id: str
    name: str
    adjective: str = ""
    color: str = ""


@dataclass(frozen=True)
class GameInfo:
    id: str
    title: str
    edition: str = ""
    scale: str = ""
    die: int = 6
    turns: int = 0
    turn_labels: tuple[str, ...] = ()

    def turn_label(self, turn: int) -> str:
        if 1 <= turn <= len(self.turn_labels):
            return self.turn_labels[turn - 1]
        return f"Turn {turn}"


# ------------------------------------------------------------------------ map
Orientation = Literal["flat_top", "pointy_top"]
# flat_top: columns zig-zag; "even_columns_down" means column 2 sits half a hex lower.
# pointy_top: rows zig-zag; "even_rows_right" means row 2 sits half a hex to the right.
Offset = Literal["even_columns_down", "odd_columns_down", "even_rows_right", "odd_rows_right"]


@dataclass(frozen=True)
class HexGrid:
    orientation: Orientation
    offset: Offset
    numbering: str  # e.g. "CCRR": column digits then row digits
    columns: tuple[int, int]  # first, last
    rows: tuple[int, int]

    @property
    def directions(self) -> tuple[str, ...]:
        if self.orientation == "flat_top":
            return ("n", "ne", "se", "s", "sw", "nw")
        return ("ne", "e", "se", "sw", "w", "nw")


@dataclass(frozen=True)
class HexsideSet:
    """A named set of hexsides carrying one hexside feature (a road, a river)."""

    id: str
    feature: str  # a HexsideType id
    name: str = ""
    sides: tuple[HexsideKey, ...] = ()
    exits: dict[Hex, tuple[str, ...]] = field(default_factory=dict)  # off-map ends, by direction


@dataclass(frozen=True)
class MapDef:
    grid: HexGrid
    hexes: tuple[Hex, ...]
    # Precomputed at compile time:
    coordinates: dict[Hex, tuple[int, int]]  # hex -> (column, row)
    neighbours: dict[Hex, dict[str, Hex]]  # hex -> direction -> on-map neighbour
    terrain: dict[Hex, tuple[str, ...]]  # base terrain first, then features
    places: dict[Hex, str]
    hexside_sets: tuple[HexsideSet, ...]
    hexside_features: dict[HexsideKey, tuple[str, ...]]  # every featured hexside -> feature ids
    edge_exits: dict[Hex, dict[str, tuple[str, ...]]]  # hex -> off-map direction -> features (e.g. road)
    edges: dict[str, tuple[Hex, ...]]  # named map edges
    edge_directions: dict[str, tuple[str, ...]]  # edge -> the off-map directions it faces
    zones: dict[str, tuple[Hex, ...]]
    sheet: str = ""
    hex_vp: dict[Hex, int] = field(default_factory=dict)  # VP printed on towns and cities (held in supply)

    def features_between(self, a: Hex, b: Hex) -> tuple[str, ...]:
        return self.hexside_features.get(hexside_key(a, b), ())


# ------------------------------------------------------------- terrain effects
@dataclass(frozen=True)
class TerrainType:
    """A row of the Terrain Effects Chart for hex terrain."""

    id: str
    name: str
    move: int | None = None  # MP to enter; None: as the other terrain in the hex
    move_extra: int = 0  # MP added to the cost of entering (cumulative games)
    prohibited: bool = False
    combat_shift: int = 0  # columns; negative is to the left (favours the defender)
    combat_drm: int = 0  # die-roll modifier for the attacker
    defense_multiplier: float = 1.0
    blocks_zoc: bool = False


@dataclass(frozen=True)
class HexsideType:
    """A row of the Terrain Effects Chart for hexside features."""

    id: str
    name: str
    kind: Literal["road", "river", "other"] = "other"
    move: int | None = None  # a road: MP to enter a hex through this hexside
    move_extra: int = 0
    crossing: Literal["normal", "all_mp_from_start_adjacent", "prohibited"] = "normal"
    road_negates_crossing: bool = False
    combat_shift: int = 0
    combat_drm: int = 0
    combat_when: Literal["always", "all_attackers_across", "any_attacker_across"] = "always"
    blocks_retreat: bool = False
    blocks_advance: bool = False
    blocks_zoc: bool = False
    blocks_supply: bool = False
    no_attack_after_move: bool = False  # may not attack across after moving this turn


# ---------------------------------------------------------------------- units
@dataclass(frozen=True)
class UnitType:
    id: str
    name: str
    symbol: str = "infantry"  # NATO symbol drawn on counters
    can_attack: bool = True
    # Fixed works such as forts: never move or retreat, destroyed only by the listed results.
    fixed: bool = False
    eliminated_only_by: tuple[str, ...] = ()  # result codes; empty: any eliminating result
    adds_to_defense: bool = False  # its strength adds to friendly units defending in its hex
    must_be_attacked: bool = False  # adjacent enemy units must attack it
    blocks_enemy_entry: bool = False  # enemy units may not enter its hex while it stands
    zoc_across_rivers: bool | None = None  # None: as MovementRules.zoc_across_rivers


@dataclass(frozen=True)
class Arrival:
    """When and where a unit not set up on the map enters play."""

    turn: int | None  # None: any turn (the owner chooses)
    area: str | None = None  # a zone or edge name
    hexes: tuple[Hex, ...] = ()  # the entry hexes (resolved from the area)
    placement: Literal["edge", "anywhere"] = "edge"
    terrain: tuple[str, ...] = ()  # placement "anywhere": allowed terrain
    phase: str | None = None  # the phase it arrives in; None: its side's first movement phase
    locked: bool = False  # may not move further nor attack in the following combat phase


@dataclass(frozen=True)
class Improved:
    """An alternative, better counter for a unit (e.g. an 'improved' back)."""

    strength: int
    move: int | None = None
    vp: int = 0


@dataclass(frozen=True)
class Unit:
    id: str
    side: str
    designation: str
    type: str
    strength: int
    move: int
    division: str = ""
    size: str = ""
    setup: Hex | None = None
    arrives: Arrival | None = None
    optional: bool = False
    flags: tuple[str, ...] = ()
    vp: int = 0
    improved: Improved | None = None
    name: str = ""

    @property
    def label(self) -> str:
        """How players refer to the unit: division/designation."""
        return f"{self.division}/{self.designation}" if self.division else self.designation


# ------------------------------------------------------------ movement, stacking
@dataclass(frozen=True)
class MovementRules:
    zoc: Literal["stop_on_entry", "extra_cost", "none"] = "stop_on_entry"
    zoc_extra_cost: int = 0
    zoc_locks_start: bool = False  # a unit starting in an enemy ZOC may not leave it
    zoc_to_zoc: bool = True  # may move directly from one enemy-controlled hex to another
    zoc_across_rivers: bool = True
    exit_map: bool = False
    exit_cost: Literal["as_hex_left"] | int = "as_hex_left"
    reinforcement_delay: bool = False
    blocked_entry: Literal["closest_legal", "delay"] = "closest_legal"
    blocked_entry_by_side: dict[str, str] = field(default_factory=dict)  # side -> "closest_legal" | "delay"
    leapfrog: bool = False  # from an enemy ZOC into an adjacent enemy-controlled hex held by a friend; then stop


@dataclass(frozen=True)
class StackingRules:
    limit: int = 1
    checked: Literal["end_of_every_phase", "end_of_movement"] = "end_of_every_phase"
    pass_through_friendly: bool = True
    overstack: Literal["opponent_chooses_destroyed", "owner_removes"] = "opponent_chooses_destroyed"


# --------------------------------------------------------------------- combat
@dataclass(frozen=True)
class CrtColumn:
    """One column: a differential range or an odds ratio range (low/high inclusive; None open)."""

    label: str
    low: int | tuple[int, int] | None
    high: int | tuple[int, int] | None


@dataclass(frozen=True)
class CombatTable:
    id: str
    kind: Literal["differential", "odds"]
    columns: tuple[CrtColumn, ...]
    rows: dict[int, tuple[str, ...]]  # modified die roll -> result code per column
    beyond: Literal["clamp"] = "clamp"
    odds_rounding: Literal["defender"] = "defender"

    @property
    def die_range(self) -> tuple[int, int]:
        return min(self.rows), max(self.rows)


@dataclass(frozen=True)
class ResultCode:
    """What a CRT result does; every code is declared in the game file."""

    id: str
    name: str
    defender_retreat: int = 0
    attacker_retreat: int = 0
    advance: int = 0  # how many victorious units may advance (0: none)
    defender_eliminated: bool = False
    attacker_eliminated: bool = False
    exchange: bool = False
    defender_disrupted: bool = False
    attacker_disrupted: bool = False


@dataclass(frozen=True)
class CombatRules:
    table: str
    terrain_effects: Literal["worst_for_attacker", "cumulative"] = "worst_for_attacker"
    one_attack_per_unit: Literal["phase", "player_turn"] = "phase"
    one_battle_per_defender: Literal["phase"] = "phase"
    defenders: Literal["hex"] = "hex"
    retreat_chosen_by: Literal["owner", "victor"] = "owner"
    retreat_through_units: bool = False
    retreat_into_enemy_zoc: bool = False
    off_map_retreat: Literal["eliminated"] = "eliminated"
    advance_ignores_zoc: bool = True
    multi_hex: bool = False
    flank_attack_drm: int = 0  # attackers adjacent to every hex around the defender
    disrupted_defender_drm: int = 0
    retreat_priorities: tuple[str, ...] = ()  # named preferences for the victor's choice of retreat hex, best first
    retreated_units_share_fate: bool = False  # units retreated into a hex about to fight share its result
    advance_across_rivers: Literal["any", "attackers_only", "none"] = "any"


# ---------------------------------------------------------------- sequence
PhaseKind = Literal["movement", "combat", "victory_points", "end_of_turn", "reinforcement", "recovery"]


@dataclass(frozen=True)
class Phase:
    id: str
    name: str
    kind: PhaseKind
    side: str | None = None
    only_undisrupted: bool = False
    attackers_disrupted: bool = False
    recover: bool = False


# ------------------------------------------------------------------ victory
@dataclass(frozen=True)
class Trigger:
    """When an award is scored.

    kind "phase": at the start of `phase`; "holds": the side's unit was the last
    to enter or pass through `hexes`; "exits": a unit leaves the map by one of
    `edges`; "eliminated": a unit of `side` is eliminated; "selected": once,
    when the game starts.
    """

    kind: Literal["phase", "holds", "exits", "eliminated", "selected"]
    phase: str | None = None
    hexes: tuple[Hex, ...] = ()
    edges: tuple[str, ...] = ()
    side: str | None = None


@dataclass(frozen=True)
class Award:
    id: str
    side: str
    trigger: Trigger
    amount: Expr
    only: Expr | None = None  # a condition on the unit that triggers it
    text: str = ""
    requires_supply: bool = False  # scores only if the unit (or the hex it exits from) is in supply


@dataclass(frozen=True)
class VictoryLevel:
    id: str
    name: str
    at_least: float  # a VP difference, or a ratio as a float


@dataclass(frozen=True)
class VictoryRules:
    measure: Literal["difference", "ratio"]
    levels: tuple[VictoryLevel, ...]  # best first
    draw: str = "Draw"


# -------------------------------------------------------- options, scenarios
@dataclass(frozen=True)
class CombatModifier:
    """A column shift or die-roll modifier applied when its condition holds."""

    column_shift: int = 0
    drm: int = 0
    when: str = "always"  # a named battle condition, e.g. "attackers_share_division"


@dataclass(frozen=True)
class ZocWithdrawal:
    min_move: int
    cost: int
    first_hex_across_river: bool = False


@dataclass(frozen=True)
class Option:
    """An optional rule or scenario a player may choose before the game."""

    id: str
    name: str
    text: str = ""
    adds: tuple[str, ...] = ()  # optional units brought into play
    vp: dict[str, int] = field(default_factory=dict)  # VP given on selection
    combat_modifiers: tuple[CombatModifier, ...] = ()
    zoc_withdrawal: ZocWithdrawal | None = None
    improve_random: tuple[int, int] | None = None  # how many units get their improved counter
    improved_vp_to: str | None = None
    landing_locks: bool = False  # units it adds may not move further nor attack in the phase they land
    # Scenarios: where the game starts and how long it lasts.
    start_turn: int | None = None
    turns: int | None = None
    first_side: str | None = None  # the side whose player-turn comes first on the start turn
    free_setup: dict[str, str] = field(default_factory=dict)  # side -> zone its units may set up anywhere inside
    strength_multiplier: dict[str, float] = field(default_factory=dict)  # side -> multiplier (fractions kept)
    strength_multiplier_until_turn: int | None = None


# ------------------------------------------------------------------- supply
@dataclass(frozen=True)
class SupplyRules:
    """Supply lines: a path of hexes to a source, and what lacking one costs."""

    range: int = 0  # hexes from the unit to a source; 0: any length
    sources: dict[str, tuple[str, ...]] = field(default_factory=dict)  # side -> zones or map edges that supply it
    source_lost_when_enemy_held: bool = False  # a source hex held by the enemy supplies nobody
    blocked_by_enemy_units: bool = True
    blocked_by_enemy_zoc: bool = True
    friendly_units_negate_zoc: bool = True  # an enemy-controlled hex with a friendly unit does not block
    move_penalty: int = 0  # MP an unsupplied unit loses
    strength_multiplier: float = 1.0  # attack and defence strength out of supply (fractions kept)
    move_only_toward_supply: bool = False
    attack_only_to_reopen_supply: bool = False
    checked_for_movement: Literal["start_of_movement_phase"] = "start_of_movement_phase"
    checked_for_combat: Literal["instant_of_combat"] = "instant_of_combat"


# ----------------------------------------------------- battle systems (no map)
# A battle system resolves one battle between two forces without a map (the
# battle rules of matrix games). Everything a battle needs is read
# from these objects by rulec.battle; see docs/rulings.md, "Battle systems".
@dataclass(frozen=True)
class BattleUnitKind:
    """A kind of unit a force may contain (a tank, a mortar, an infantry platoon)."""

    id: str
    name: str
    category: str  # its row and column of the type-versus-type matrix
    distance_weapon: bool = False  # mortars, artillery: fill a reserve first
    quality: str = ""  # its quality when none is given ("": the system's default quality)
    aliases: tuple[str, ...] = ()  # other names players may use for it


@dataclass(frozen=True)
class BattleModifier:
    """A modifier to the die of every unit of one side (a scenario rule, an ambush, exhaustion)."""

    id: str
    name: str
    value: int
    sides: tuple[str, ...] = ()  # sides it always applies to; empty: only when chosen for a battle
    reserves: bool = True  # False: units fed in from reserve never get it (a dug-in bonus)
    text: str = ""


@dataclass(frozen=True)
class OutcomeBand:
    """One row of the outcome table, by the ratio of the higher score to the lower.

    The `even` band applies when the scores are equal and has no loser. The
    others apply, in order, while the ratio is below `below` (a ratio
    (high, low)); the last band has `below` None and takes every larger ratio.
    """

    id: str
    name: str
    casualty_points: int
    below: tuple[int, int] | None = None
    even: bool = False
    text: str = ""


@dataclass(frozen=True)
class ArmyState:
    """One row of the army-state table: what a battle does to a side in this state.

    `when` is evaluated over the side's counts (rulec.battle.army.ArmyCounts:
    `units`, and how many units suffered each losing outcome, by outcome id);
    exactly one row holds for any counts (the checker proves it).
    """

    id: str
    name: str
    when: Expr
    if_loser: str
    if_winner: str
    loser_exhausted: bool = False
    winner_exhausted: bool = False


@dataclass(frozen=True)
class SkirmishRules:
    """A skirmish: a few units a side fight first, with a small reserve each."""

    line: int = 1  # units a side puts in the line
    reserves: int = 2  # at most this many more units a side holds in reserve
    escalate: bool = True  # both sides commit their whole reserve: an open battle with the full armies


@dataclass(frozen=True)
class BattleSystem:
    """The rules of one battle system: how two forces fight one battle without a map.

    Built from a game file's `battle { ... }` section (rulec/check/build_battle.py)
    and read by rulec/battle; the rulings behind the choice fields are in
    docs/rulings.md, "Battle systems".
    """

    categories: tuple[str, ...]
    matrix: dict[str, dict[str, int]]  # a unit's category -> its enemy's category -> modifier
    kinds: dict[str, BattleUnitKind]
    qualities: dict[str, int]  # quality -> modifier
    default_quality: str
    outcomes: tuple[OutcomeBand, ...]  # the even band first, then by rising ratio
    army_states: tuple[ArmyState, ...]
    modifiers: dict[str, BattleModifier]
    # Matching: a unit of a listed category meets enemy units of these categories first, in order.
    match_first: dict[str, tuple[str, ...]] = field(default_factory=dict)
    double_up: int = 2  # the larger side may put this many units against one enemy unit
    distance_reserve_first: bool = True  # distance weapons fill a reserve before other units
    smaller_side_reserve: Literal["any", "distance_weapons", "none"] = "distance_weapons"
    reserve_modifier: int = -1  # added to the die of a unit fed in from reserve
    argument_values: tuple[int, ...] = (-1, 1)  # the modifiers a matrix argument may give a side
    ambush: str | None = None  # the modifier an ambushing side gets
    exhaustion: str | None = None  # the modifier an exhausted side gets
    score_floor: int = 1  # a combat score below this counts as this for the ratio
    pair_matrix: Literal["least_favourable", "most_favourable"] = "least_favourable"
    drawn_battle: Literal["both_as_winner", "both_as_loser"] = "both_as_winner"
    skirmish: SkirmishRules = field(default_factory=SkirmishRules)


# ----------------------------------------------------------------- the game
@dataclass(frozen=True)
class Game:
    """A whole compiled game."""

    info: GameInfo
    sides: dict[str, Side]
    map: MapDef | None = None
    terrain: dict[str, TerrainType] = field(default_factory=dict)
    hexside_types: dict[str, HexsideType] = field(default_factory=dict)
    unit_types: dict[str, UnitType] = field(default_factory=dict)
    units: dict[str, Unit] = field(default_factory=dict)
    movement: MovementRules = field(default_factory=MovementRules)
    stacking: StackingRules = field(default_factory=StackingRules)
    tables: dict[str, CombatTable] = field(default_factory=dict)
    results: dict[str, ResultCode] = field(default_factory=dict)
    combat: CombatRules | None = None
    sequence: tuple[Phase, ...] = ()
    awards: tuple[Award, ...] = ()
    victory: VictoryRules | None = None
    options: dict[str, Option] = field(default_factory=dict)
    battle: BattleSystem | None = None
    source: str = ""  # the game file it was compiled from
    # Rulebook case references by engine mechanic (e.g. "enemy_occupied" -> "7.31"),
    # so that an illegal move can cite the game's own rule.
    rule_refs: dict[str, str] = field(default_factory=dict)
    supply: SupplyRules | None = None
