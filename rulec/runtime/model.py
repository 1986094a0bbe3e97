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

import copyreg
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, Callable, Final, Literal

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
    # Whether it reads the position (where units stand, markers, history, VP, turn...), as the checker worked out
    # (rulec/compile/functions.py: `depends`); one that does not gives the same answer in every position.
    reads_position: bool = field(default=True, compare=False)
    # Whether all it reads of the position is the markers in play (marked, marked_hex): the same answer in every
    # position with the same markers (MarkerTable.version), as the engine keeps allowances (modifiers.py).
    reads_only_markers: bool = field(default=False, compare=False)
    # The zones its calls name (`zone = NAME` arguments), as the checker read them from its parse tree: where an
    # award's amount counts units (the AI's objectives, players/evaluation.py), known without parsing it again.
    zones: tuple[str, ...] = field(default=(), compare=False)

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
    scenario: str | None = None  # the scenario played when none is chosen (a game whose full set-up is no game)
    # The parts of the published game this file rebuilds without the originals (game { reconstructed }),
    # and the players' note on how (game { reconstruction_note }).
    reconstructed: tuple[str, ...] = ()
    reconstruction_note: str = ""
    flag_names: dict[str, str] = field(default_factory=dict)  # unit flag -> the name the aids print for it

    @property
    def reconstruction_notice(self) -> str:
        """One sentence for every place a player sees the game ("" when nothing is reconstructed)."""
        if not self.reconstructed:
            return ""
        parts = [RECONSTRUCTED_PARTS[p] for p in self.reconstructed]
        listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
        verb = "is a reconstruction" if len(parts) == 1 else "are reconstructions"
        note = f" {self.reconstruction_note}" if self.reconstruction_note else ""
        return f"RECONSTRUCTED: {listed} {verb}, not the published game's.{note}"

    def turn_label(self, turn: int) -> str:
        if 1 <= turn <= len(self.turn_labels):
            return self.turn_labels[turn - 1]
        return f"Turn {turn}"


# What `game { reconstructed }` may name, as a player reads it.
RECONSTRUCTED_PARTS: Final = {
    "map": "the map",
    "combat_table": "the combat results table",
    "terrain_chart": "the terrain effects chart",
    "counters": "the counters",
    "setup": "the set-up",
    "reinforcements": "the reinforcement chart",
}


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

    def features_between(self, a: Hex, b: Hex) -> tuple[str, ...]:
        return self.hexside_features.get(hexside_key(a, b), ())


# ------------------------------------------------------------- terrain effects
@dataclass(frozen=True)
class TerrainType:
    """A row of the Terrain Effects Chart for hex terrain."""

    id: str
    name: str
    move: int | Expr | None = None  # MP to enter; None: as the other terrain in the hex; an Expr: evaluated as each phase begins
    move_extra: int | Expr = 0  # MP added to the cost of entering (cumulative games)
    prohibited: bool = False
    move_for: dict[str, int | Expr] = field(default_factory=dict)  # unit type -> its MP to enter, instead of `move`
    prohibited_for: tuple[str, ...] = ()  # unit types that may not enter
    combat_shift: int = 0  # columns; negative is to the left (favours the defender)
    combat_drm: int = 0  # die-roll modifier for the attacker
    blocks_zoc: bool = False
    blocks_los: bool = False  # a hex of this terrain between a ranged attacker and its target hides the target


@dataclass(frozen=True)
class HexsideType:
    """A row of the Terrain Effects Chart for hexside features."""

    id: str
    name: str
    kind: Literal["road", "river", "other"] = "other"
    move: int | Expr | None = None  # a road: MP to enter a hex through this hexside
    move_extra: int | Expr = 0
    crossing: Literal["normal", "all_mp_from_start_adjacent", "prohibited"] = "normal"
    move_extra_for: dict[str, int | Expr] = field(default_factory=dict)  # unit type -> its MP to cross, instead of `move_extra`
    prohibited_for: tuple[str, ...] = ()  # unit types that may not cross
    road_negates_crossing: bool = False
    combat_shift: int = 0
    combat_drm: int = 0
    combat_when: Literal["always", "all_attackers_across", "any_attacker_across"] = "always"
    blocks_retreat: bool = False
    blocks_advance: bool | Literal["attacker", "defender"] = False  # True: any victor's; a side: only its units'
    blocks_zoc: bool = False


# ---------------------------------------------------------------------- units
@dataclass(frozen=True)
class UnitType:
    id: str
    name: str
    symbol: str = "infantry"  # NATO symbol drawn on counters
    can_attack: bool = True
    range: int = 1  # hexes away its units may attack: 1 next to the target; more along a clear line of sight
    # Hexside types its units' ZOC extends across even where they block ZOC (a fortress's guns over a river).
    zoc_across: tuple[str, ...] = ()


@dataclass(frozen=True)
class Arrival:
    """When and where a unit not set up on the map enters play."""

    turn: int | None  # None: any turn (the owner chooses)
    area: str | None = None  # a zone or edge name
    hexes: tuple[Hex, ...] = ()  # the entry hexes (resolved from the area)
    placement: Literal["edge", "anywhere"] = "edge"
    terrain: tuple[str, ...] = ()  # placement "anywhere": allowed terrain
    phase: str | None = None  # the phase it arrives in; None: its side's first movement phase
    marks: tuple[str, ...] = ()  # markers put on the unit when it enters the map (a landing that holds it)


@dataclass(frozen=True)
class Variant:
    """Another counter for a unit (an improved back, say), put in play instead of its own when an
    option chooses it at set-up (Option.choose_variant); `vp` go to the side the option names."""

    name: str
    strength: int
    move: int | None = None  # None: the unit's own
    vp: int = 0


@dataclass(frozen=True)
class VariantChoice:
    """An option's choice at set-up: `count` (low, high) random units with the variant `variant` use it."""

    variant: str
    count: tuple[int, int]
    vp_to: str | None = None  # the side given each chosen variant's vp


@dataclass(frozen=True)
class Step:
    """A reduced side of a unit with steps: what it plays as after losing one more step."""

    strength: int
    move: int | None = None  # None: the move of the side before
    type: str | None = None  # None: the type of the side before


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
    variants: tuple[Variant, ...] = ()  # its other counters, in the order the file gives them
    reduced: tuple[Step, ...] = ()  # the sides it flips to, one per step lost; no step left: eliminated
    placed: bool = False  # `setup = free`: set up by a placement phase, never arriving by movement
    steps_lost: int = 0  # it starts (or arrives) on its reduced side number steps_lost (0: its full side)

    def variant(self, name: str) -> Variant | None:
        return next((v for v in self.variants if v.name == name), None)

    @property
    def steps(self) -> int:
        """How many steps the full unit has (1: a unit without reduced sides)."""
        return 1 + len(self.reduced)

    @property
    def label(self) -> str:
        """How players refer to the unit: division/designation."""
        return f"{self.division}/{self.designation}" if self.division else self.designation


# ------------------------------------------------------------ movement, stacking
@dataclass(frozen=True)
class LeaveZoc:
    """How a unit that began its movement phase in an enemy ZOC (`zoc_locks_start`) may still leave it:
    its first step costs `cost` MP more, into a hex in no enemy ZOC unless `into_zoc`, across none of the
    hexside types `not_across` (nor a crossing that takes all MP); then it moves on as usual."""

    when: Expr | None = None  # about the unit (`move >= 8`); None: every unit
    cost: int = 0
    # May the first step enter an enemy ZOC: always, never, or where a condition about `unit` and `hex` (the
    # hex entered) holds. With zoc_to_zoc = false (and no zoc_locks_start) the rule is the exception for a
    # unit starting in an enemy ZOC: its first step may enter another enemy-controlled hex where this allows.
    into_zoc: bool | Expr = False
    then_stop: bool = False  # a first step into an enemy ZOC under this rule ends the unit's move
    not_across: tuple[str, ...] = ()  # hexside types
    option: str | None = None  # played only when this option is chosen


@dataclass(frozen=True)
class MovementMode:
    """A way of moving along a network (rail): a move in this mode follows only hexsides carrying the
    hexside type `network`, each step costing `cost` MP (a fraction such as 1/4: four steps a MP).
    A unit moves in one mode per move; its destinations are those of every mode it may use."""

    id: str
    name: str
    network: str  # a hexside type
    cost: int | float | Expr = 1  # evaluated as each phase begins; 0 or less closes the network for the phase
    eligible: Expr | None = None  # about the unit; None: every unit
    may_not_start_in: tuple[Literal["enemy_zoc"], ...] = ()
    may_not_enter: tuple[Literal["enemy_zoc"], ...] = ()
    option: str | None = None  # played only when this option is chosen


@dataclass(frozen=True)
class MovementRules:
    zoc: Literal["stop_on_entry", "extra_cost", "none"] = "stop_on_entry"
    zoc_extra_cost: int = 0
    zoc_locks_start: bool = False  # a unit starting in an enemy ZOC may not leave it
    zoc_to_zoc: bool = True  # may move directly from one enemy-controlled hex to another
    zoc_across_rivers: bool = True
    leave_zoc: LeaveZoc | None = None
    # Who holds an objective hex: the last side to enter or pass through it (moving, retreating,
    # advancing), the last to stop in it (end of a move, retreat or advance), or the last to end a move in it.
    control: Literal["pass_through", "enter", "end_move"] = "pass_through"
    exit_map: bool = False
    exit_cost: Literal["as_hex_left"] | int = "as_hex_left"
    # By which edges a unit may leave the map: a condition about `unit` and `edge` (the edge it would leave by),
    # such as `edge == east and side == red`; None: by any edge. An edge units arrive by and none may leave by.
    may_exit: Expr | None = None
    # May the owner hold a reinforcement due now back a turn: for every unit, or where the condition about
    # the arriving unit holds (`side == red`).
    reinforcement_delay: bool | Expr = False
    blocked_entry: Literal["closest_legal", "delay"] = "closest_legal"
    # Which entry hexes of a reinforcement's area are blocked besides enemy-occupied ones: a condition about
    # `unit` (the arriving unit) and `hex` (an entry hex), such as enemy_zoc(unit.side, hex); None: none more.
    entry_blocked: Expr | None = None
    # Where a move may end: a condition about `unit` (the mover, where it stands before the move) and `hex`
    # (a destination); None: wherever the search reaches.
    may_end_move: Expr | None = None
    # may_end_move as set algebra over a unit's destinations, worked out by the checker (rulec/check/end_sets.py
    # gives its forms), so that the engine answers it for all of them at once (engine/end_sets.py); None: hex by hex.
    may_end_sets: Any = None
    # A reinforcement due this turn that has not entered when its movement phase ends: it comes
    # next turn, or it is removed from the game (an arrival schedule that does not wait).
    late_arrival: Literal["next_turn", "removed"] = "next_turn"
    # More hexes whose holder is tracked (by `control`), besides those of 'holds' awards; `first_holder`
    # holds them as the game starts (None: nobody does until a unit takes them).
    control_of: tuple[Hex, ...] = ()
    first_holder: str | None = None


@dataclass(frozen=True)
class StackingRules:
    limit: int = 1
    checked: Literal["end_of_every_phase", "end_of_movement"] = "end_of_every_phase"
    pass_through_friendly: bool = True
    # May a unit end its move over the limit while enough of the units already there may still move away this
    # phase (the limit enforced only when `checked` says)? False: a move never ends over the limit.
    moves_end_over_limit: bool = False
    overstack: Literal["opponent_chooses_destroyed", "owner_removes"] = "opponent_chooses_destroyed"
    # Which units count toward the limit (about the unit); None: every unit. A unit it fails for is never
    # counted and never removed for overstacking (a fort counter).
    counts: Expr | None = None


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
    drm: Literal["attacker", "defender"] = "attacker"  # the side a positive die-roll modifier helps

    @property
    def die_range(self) -> tuple[int, int]:
        return min(self.rows), max(self.rows)


Who = Literal["attacker", "defender"]


@dataclass(frozen=True)
class Effect:
    """One thing a combat result does, carried out in the order the result lists them.

    eliminate(who): every unit of that side of the battle is eliminated.
    retreat(who, hexes): each of its units retreats `amount` hexes (by the game's retreat policy).
    exchange: the defender is eliminated and the attacker loses at least the defender's
        strength, choosing which of its units pay, one at a time.
    lose(who, strength): that side loses units worth at least `amount` strength, its owner
        choosing which, one at a time.
    lose_steps(who, steps): that side loses `amount` steps, its owner choosing which unit loses
        each one, one at a time (a unit without reduced sides has one step).
        The amount of lose and lose_steps may instead be what the other side lost in this result so far:
        lost(defender) in strength, steps_lost(defender) in steps (`lost_by`, `lost_in`).
    advance(who, count): up to `amount` units of that side of the battle (None: the attacker) may advance
        into the hexes the other side vacated (by the game's advance policy).
    mark(who, marker) / unmark(who, marker): put a marker on (take it off) that side's units,
        or on their hexes for a marker on hexes (the attackers' hexes, the attacked hexes).
    """

    kind: Literal["eliminate", "retreat", "exchange", "lose", "lose_steps", "advance", "mark", "unmark"]
    who: Who | None = None
    amount: int = 0
    # lose, lose_steps: the amount is what `lost_by`'s side of the battle has lost so far in this result, in
    # `lost_in` (strength or steps), instead of `amount`: lose(attacker, lost(defender)) pays at least what the
    # defender lost. None: the amount is `amount`.
    lost_by: Who | None = None
    lost_in: Literal["strength", "steps"] = "strength"
    marker: str = ""  # mark, unmark: the marker's id


@dataclass(frozen=True)
class ResultCode:
    """What a CRT result does: its effects, in order; every code is declared in the game file.

    The read-only properties below sum the effects up for the player aids (how far
    each side retreats, whether the victor may advance, ...).
    """

    id: str
    name: str
    effects: tuple[Effect, ...] = ()

    def _amount(self, kind: str, who: str | None = None) -> int:
        return max((e.amount for e in self.effects if e.kind == kind and e.who == who), default=0)

    def _has(self, kind: str, who: str | None = None) -> bool:
        return any(e.kind == kind and e.who == who for e in self.effects)

    @property
    def defender_retreat(self) -> int:
        return self._amount("retreat", "defender")

    @property
    def attacker_retreat(self) -> int:
        return self._amount("retreat", "attacker")

    @property
    def advance(self) -> int:
        """How many victorious units may advance, the attacker's or the defender's (0: none)."""
        return max((e.amount for e in self.effects if e.kind == "advance"), default=0)

    @property
    def defender_eliminated(self) -> bool:
        return self._has("eliminate", "defender")

    @property
    def attacker_eliminated(self) -> bool:
        return self._has("eliminate", "attacker")

    @property
    def exchange(self) -> bool:
        return self._has("exchange")

    def loses(self, who: str) -> bool:
        """Does the result cost that side strength or steps (without eliminating it outright)?"""
        return self._has("lose", who) or self._has("lose_steps", who)


HexRule = Literal["enemy_zoc", "occupied"]


@dataclass(frozen=True)
class RetreatPolicy:
    """How a beaten unit retreats (combat { retreat { ... } }).

    Every step of a retreat path is a neighbour across a hexside whose type does not
    block retreats (HexsideType.blocks_retreat), chosen by `direction`:
    "away": one hex farther from the unit's start and no nearer any hex it retreats
    from (the attackers' hexes for a defender, the attacked hexes for an attacker);
    "toward_edge": one hex nearer its side's map edge in `edges`; "toward_edge_rows": nearer
    that edge counted across the hex rows along it (the straight hex and both diagonals toward
    the edge, on every column: runtime.hexes.rows_to_edge). A path may not
    enter a hex of a kind in `may_not_enter`, nor end in one in `may_not_end`; a path
    that would leave the map does not exist (`off_map`). With no path left the unit
    is eliminated, or stays where it is (`when_blocked`). Every hex of a path must meet
    `may_enter`, a condition about `hex` and `unit` (the retreating unit), and its last `may_end`.
    Of the legal paths, each item of `prefer` in turn keeps those whose last hex (`hex`) is best:
    a condition keeps the paths that meet it, if any does; a number keeps those with the lowest
    value (the checker writes the names outside_enemy_zoc and unoccupied as conditions).
    Units of a type in `exempt` (a fort) never retreat: a retreat result leaves them in place.
    Several units retreat one at a time, in `order`: as the battle lists them ("listed": the
    order they stand in their hexes), or strongest (weakest) first, ties in game-file order.
    """

    chosen_by: Literal["owner", "victor"] = "owner"
    direction: Literal["away", "toward_edge", "toward_edge_rows"] = "away"
    edges: dict[str, str] = field(default_factory=dict)  # side -> map edge (direction toward_edge)
    may_not_enter: tuple[HexRule, ...] = ("enemy_zoc", "occupied")
    may_not_end: tuple[HexRule, ...] = ()
    prefer: tuple[Expr, ...] = ()  # ordered preferences for the path's end: conditions and numbers
    may_enter: Expr | None = None  # about `hex` and `unit`: None, no condition
    may_end: Expr | None = None  # about `hex` (the path's last) and `unit`: None, no condition
    order: Literal["listed", "strongest_first", "weakest_first"] = "listed"
    exempt: tuple[str, ...] = ()  # unit types that do not retreat
    when_blocked: Literal["eliminated", "stays"] = "eliminated"
    # Displacement: about the retreating unit and `hex`, a hex of friendly units: a unit with no other path may end
    # its retreat there when it holds, pushing those friends aside (each retreats one hex, displacing nobody).
    # None: no displacement.
    displace: Expr | None = None
    off_map: Literal["eliminated"] = "eliminated"


@dataclass(frozen=True)
class AdvancePolicy:
    """Where the victor may advance after combat (combat { advance { ... } }).

    `into`: the vacated hexes offered, the defender's own hex ("defender_hex") and the
    hexes the defenders' retreat paths passed through ("retreat_path"), which are
    reached through the defender's hex. With `stops_at_enemy_zoc`, an advancing unit
    entering an enemy zone of control there stops. A hexside whose type blocks advances
    (HexsideType.blocks_advance, for every victor or for one side of the battle) may not be crossed.
    Units advance within the stacking limit, into hexes no enemy holds.
    """

    into: tuple[Literal["defender_hex", "retreat_path"], ...] = ("defender_hex",)
    stops_at_enemy_zoc: bool = False


@dataclass(frozen=True)
class CombatRules:
    table: str
    terrain_effects: Literal["worst_for_attacker", "cumulative"] = "worst_for_attacker"
    one_attack_per_unit: Literal["phase", "player_turn"] = "phase"
    one_battle_per_defender: Literal["phase"] = "phase"
    defenders: Literal["hex"] = "hex"
    retreat: RetreatPolicy = RetreatPolicy()
    advance: AdvancePolicy = AdvancePolicy()
    # "each": a battle is fought as soon as it is declared; "all_first": every battle of the phase
    # is declared first, then the attacker fights them one by one in the order it chooses.
    declare: Literal["each", "all_first"] = "each"
    multi_hex: bool = False
    # About a unit in an attackers' hex that is not attacking (`unit`, `attackers`, `defenders`): when it
    # holds, the unit suffers the attackers' elimination, retreat and markers with them. None: nobody does.
    share_fate: Expr | None = None
    # About a unit taking part in a battle, attacker or defender (`unit` and the battle's names), asked before the
    # result's first effect: when it holds, its side's effects pass it by (a unit that fired only at range is not
    # retreated, eliminated or made to pay an exchange). None: nobody is spared.
    spared: Expr | None = None
    # Who may, must, and must be attacked: conditions about one unit (engine/duties.py). None: any unit
    # whose type can attack may; nobody must.
    may_attack: Expr | None = None
    must_attack: Expr | None = None
    must_be_attacked: Expr | None = None
    # Who may join a given battle: a condition about a phasing unit (`unit`) and the battle so far
    # (attackers, defenders, defender_hexes...), checked as it joins and as the battle takes another hex.
    may_join: Expr | None = None
    # What a unit under `must_attack` must attack: a condition about an enemy unit (`unit`); None: any enemy.
    must_attack_target: Expr | None = None
    # A side's total strength in a battle after unit modifiers: "keep" its fraction, or round it.
    fractions: Literal["keep", "down", "up", "nearest"] = "keep"


# ---------------------------------------------------------------- sequence
# The closed set of procedures a phase follows (rulec/engine/procedures.py plays them). The checker
# rewrites the older kinds victory_points and end_of_turn as automatic.
PhaseKind = Literal["movement", "combat", "placement", "automatic"]


@dataclass(frozen=True)
class HookEffect:
    """One thing a hook does: score(side, amount) adds VP; eliminate(units) removes units from the map;
    mark(units, marker) and unmark(units, marker) put a marker on units (or hexes) or take it off;
    set(variable, amount) gives a game variable a value, add(variable, amount) adds to it;
    lose_step(units) and restore_step(units) flip units on the map one side down (eliminated with no step left)
    or back up one side."""

    kind: Literal["score", "eliminate", "mark", "unmark", "set", "add", "lose_step", "restore_step"]
    side: str | None = None
    amount: Expr | None = None  # score: a number
    units: Expr | None = None  # eliminate, mark, unmark: a set of units (mark, unmark: of hexes, for a hex marker)
    marker: str | None = None  # mark, unmark
    variable: str | None = None  # set, add: the game variable changed (its value is `amount`)


@dataclass(frozen=True)
class Hook:
    """Effects carried out when `event` happens, if `when` holds (None: always).

    phase_start and phase_end belong to a phase; the others to the whole game (sequence { on ... }).
    The effects of unit_eliminated and unit_exited are about that unit (`unit`, `side`, `strength`).
    """

    event: Literal["phase_start", "phase_end", "unit_eliminated", "unit_exited", "battle_resolved", "game_end"]
    effects: tuple[HookEffect, ...]
    when: Expr | None = None


@dataclass(frozen=True)
class Placement:
    """A placement phase: the side places units of `pool` into `hexes`, one `place UNIT HEX` at a time.

    `pool`, `hexes` and `points` are evaluated as each decision comes up (`points` once, at the
    phase start); with `points`, each unit placed costs `cost` (an expression about the unit) and
    the phase offers only units it can still pay for. Eliminated units placed come back (on the side
    `steps_lost` gives, if given); with `restore`, a reduced unit on the map is chosen to flip back.
    """

    pool: Expr
    hexes: Expr
    points: Expr | None = None
    cost: Expr | None = None
    all: bool = False  # the phase may not end while a unit of the pool can still be placed
    # `pool` written as a list of sets: each set in order (pool is their union); a unit of a later set may be
    # placed only while no unit of an earlier set can be (eliminated units before new ones, say). Empty: one set.
    tiers: tuple[Expr, ...] = ()
    steps_lost: Expr | None = None  # about the unit placed: the steps it has lost as it enters (None: as it was)
    restore: bool = False  # a unit of the pool on the map with a step lost may be chosen, and regains a step


ORDINARY: Final = "ordinary"  # in a phase's `modes`: an ordinary move (terrain costs), as opposed to a movement mode


@dataclass(frozen=True)
class Phase:
    id: str
    name: str
    kind: PhaseKind
    side: str | None = None
    when: Expr | None = None  # the phase is skipped when this fails as it comes up (a weather phase in winter only)
    movers: Expr | None = None  # movement: the units that may move, evaluated at the phase start (None: all the side's)
    # movement: the ways units may move in it, movement modes by id and ORDINARY for an ordinary move (None: every way)
    modes: tuple[str, ...] | None = None
    attackers: Expr | None = None  # combat: the units that may attack, evaluated at the phase start
    hooks: tuple[Hook, ...] = ()
    placement: Placement | None = None


# ------------------------------------------------------------------ victory
@dataclass(frozen=True)
class Trigger:
    """When an award is scored.

    kind "phase": at the start of `phase`; "holds": the side's unit was the last
    to enter or pass through `hexes`; "exits": a unit leaves the map by one of
    `edges`; "eliminated": a unit of `side` is eliminated; "selected": once,
    when the game starts; "game_end": once, when the game ends (before the
    winner is decided).
    """

    kind: Literal["phase", "holds", "exits", "eliminated", "selected", "game_end"]
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


@dataclass(frozen=True)
class VictoryLevel:
    """A result of the game: the first level, in file order, whose `when` holds at the end decides it.

    `winner` is a side id, or None for the side with most VP (`winner = leader`).
    A level written with `at_least` (the lead it needs, measured as
    VictoryRules.measure says) keeps that number for the player aids; the
    checker writes its `when` (lead > 0 and lead >= N, or lead_ratio >= N).
    """

    id: str
    name: str
    at_least: int | float | None = None  # the shorthand's lead: a VP difference, or a ratio as a float
    when: Expr | None = None
    winner: str | None = None


@dataclass(frozen=True)
class SuddenDeath:
    """A condition that ends the game at once, checked `check` ("always": after every action,
    "end_of_phase", "end_of_turn"); `winner` is a side id, or None for a draw."""

    id: str
    name: str
    when: Expr
    winner: str | None = None
    check: Literal["always", "end_of_phase", "end_of_turn"] = "end_of_phase"


@dataclass(frozen=True)
class VictoryRules:
    measure: Literal["difference", "ratio"]  # how `at_least` levels measure the lead
    levels: tuple[VictoryLevel, ...]  # in the order they are tried
    draw: str = "Draw"  # the name of the result when no level holds
    sudden_death: tuple[SuddenDeath, ...] = ()
    otherwise: str | None = None  # the side that wins when no level holds; None: a draw


# ----------------------------------------------------- traces and modifiers
@dataclass(frozen=True)
class Trace:
    """A path searched from sources (supply, communication): `trace NAME { ... }` (engine/traces.py).

    A hex is traced for a side when a path of at most `max_length` steps leads to it from one
    of the side's `sources`, every hex of it (the source and the end included) meeting the
    file's `through` (a condition on `hex`, with `friendly` the side tracing). The checker
    splits it: `through_static`, the conditions on the map alone (folded into a set of hexes
    once per game and side), and `through`, those on the position. A source for which
    `lost_when` holds (a condition on the source `hex`) supplies nobody. Each step of the
    path, from `from_hex` into `hex`, meets the file's `across` (a hexside it may not cross),
    split the same way: `across_static` folded into a set of blocked steps, `across` asked
    at each search.
    """

    id: str
    sources: dict[str, tuple[Hex, ...]]  # side -> its source hexes
    through: Expr | None = None  # None: no condition on the position
    through_static: Expr | None = None  # None: no condition on the map alone
    max_length: int | None = None  # None: no limit
    lost_when: Expr | None = None
    across: Expr | None = None  # None: no step condition on the position
    across_static: Expr | None = None  # None: no step condition on the map alone
    # The facts of the position the conditions read, each only at the hex they are about (functions.HEX_FACTS):
    # the engine then asks them again only where those facts changed. None: they read more (every search afresh).
    reads_at_hex: tuple[str, ...] | None = None
    # `through` and `lost_when` (None: none) as set algebra over the hex facts of the position, when they read it only
    # so: ("enemy" | "friends" | "occupied" | "zoc", SIDE) the hexes enemies of SIDE (None: the side tracing) stand
    # in, its own units stand in, any unit stands in, enemies of SIDE control; ("held", SIDE) the hexes SIDE holds;
    # ("hexes", Expr) the hexes a condition on the map alone holds for (folded once a game and side); ("not", f),
    # ("and", (f, ...)), ("or", (f, ...)). The engine then works the search out a set at a time (engine/trace_sets.py).
    # None: the conditions are asked hex by hex (or the trace has an `across` on the position).
    sets: tuple[Any, Any] | None = None


@dataclass(frozen=True)
class Modifier:
    """One step of the modifiers pipeline (`modifier NAME { ... }`, engine/modifiers.py).

    applies "unit": while `when` holds for a unit (`unit`), its strength in battle and its
    movement allowance are multiplied by `*_times`, then `*_plus` added, modifier after
    modifier in file order (fractions as CombatRules.fractions says; MP rounded down).
    applies "battle": while `when` holds for a battle (attackers, defenders ...), its column
    moves `shift` columns (after terrain, clamped to the table) and its die `drm`.
    `option`: the modifier is in play only when that option is chosen.
    """

    id: str
    applies: Literal["unit", "battle"]
    name: str = ""  # its name on the aids
    when: Expr | None = None  # None: always
    option: str | None = None
    # (written as whole numbers or decimals, and kept as written: `int | float`, or the compiled build would make
    # every whole number a float)
    strength_times: int | float = 1
    strength_plus: int | float = 0
    move_times: int | float = 1
    move_plus: int | float = 0
    shift: int = 0
    drm: int = 0
    text: str = ""  # when it applies, in words for the aids ("" : the aids word `when` themselves)


# -------------------------------------------------------- options, scenarios
@dataclass(frozen=True)
class Option:
    """An optional rule or scenario a player may choose before the game."""

    id: str
    name: str
    text: str = ""
    adds: tuple[str, ...] = ()  # optional units brought into play
    vp: dict[str, int] = field(default_factory=dict)  # VP given on selection
    choose_variant: VariantChoice | None = None  # units that use a variant counter, chosen at set-up
    excludes: tuple[str, ...] = ()  # options that may not be chosen with this one
    # Where units start, or how they arrive, when the option is chosen (units it adds, or whose schedule it
    # changes), as Scenario.setup and Scenario.arrivals; a scenario's entry for the same unit wins.
    setup: dict[str, Hex | None] = field(default_factory=dict)
    arrivals: dict[str, Arrival] = field(default_factory=dict)


@dataclass(frozen=True)
class Scenario:
    """A scenario: where the game starts, how long it lasts, which units and options it uses.

    `deployment` lists placement phases played first, in that order, before `start_phase`.
    `options`: the options a player may choose with it (all, when None). `setup` and `arrivals`
    override units' own set-up and arrival in this scenario (a unit due before the start arrives on the
    start turn); `holders` says which side holds which tracked hexes (MovementRules.control_of) at its start.
    """

    id: str
    name: str
    text: str = ""
    start_turn: int = 1
    start_phase: str | None = None  # None: the first phase of the sequence
    turns: int | None = None  # the last turn played (None: the game's)
    add: tuple[str, ...] = ()  # optional units brought into play
    remove: tuple[str, ...] = ()  # units left out
    vp: dict[str, int] = field(default_factory=dict)  # VP given when the scenario starts
    deployment: tuple[str, ...] = ()
    options: tuple[str, ...] | None = None
    arrivals: dict[str, Arrival] = field(default_factory=dict)  # unit -> how it arrives in this scenario
    setup: dict[str, Hex | None] = field(default_factory=dict)  # unit -> its set-up hex here (None: free, placed)
    holders: dict[str, tuple[Hex, ...]] = field(default_factory=dict)  # side -> tracked hexes it holds at the start


# -------------------------------------------------------------------- markers
MarkerForbids = Literal["move", "attack", "advance"]


@dataclass(frozen=True)
class Marker:
    """A marker put on units or hexes by results, arrivals or the engine API (rulec/engine/markers.py).

    A unit carrying a marker may not do what `forbids` lists (move: move or leave the
    map; attack: join a battle; advance: advance after combat). `expires` is evaluated
    at the end of every phase for each marker of this kind in play; the marker comes
    off when it holds. `rule` is the rulebook case a refusal cites.
    """

    id: str
    name: str
    on: Literal["unit", "hex"] = "unit"
    forbids: tuple[MarkerForbids, ...] = ()
    expires: Expr | None = None
    rule: str = ""


@dataclass(frozen=True)
class Variable:
    """A named value on the game (a counter, or a flag: true/false), not on any unit or hex.

    It starts at `initial` (whose type, a number or a flag, it keeps), is read by any expression by its
    name, and is changed by hook effects set(NAME, VALUE) and add(NAME, AMOUNT); GameState.variables
    holds it, so it is saved, cloned and replayed with the game.
    """

    id: str
    name: str
    initial: int | float | bool = 0


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
    modes: dict[str, MovementMode] = field(default_factory=dict)
    stacking: StackingRules = field(default_factory=StackingRules)
    tables: dict[str, CombatTable] = field(default_factory=dict)
    results: dict[str, ResultCode] = field(default_factory=dict)
    combat: CombatRules | None = None
    sequence: tuple[Phase, ...] = ()
    hooks: tuple[Hook, ...] = ()  # the game's own hooks (unit_eliminated, unit_exited, battle_resolved, game_end)
    awards: tuple[Award, ...] = ()
    victory: VictoryRules | None = None
    options: dict[str, Option] = field(default_factory=dict)
    scenarios: dict[str, Scenario] = field(default_factory=dict)
    battle: BattleSystem | None = None
    traces: dict[str, Trace] = field(default_factory=dict)
    modifiers: tuple[Modifier, ...] = ()  # in file order: the order they apply in
    markers: dict[str, Marker] = field(default_factory=dict)
    variables: dict[str, Variable] = field(default_factory=dict)
    # The game file it was compiled from; None in the copy a save's game hash is made of (players/saves.py), which
    # leaves out where the file lies (a type of its own: the compiled model checks each field's type)
    source: str | None = ""
    # Rulebook case references by engine mechanic (e.g. "enemy_occupied" -> "7.31"),
    # so that an illegal move can cite the game's own rule.
    rule_refs: dict[str, str] = field(default_factory=dict)
    # The text of rulebook cases by case number ("7.41" -> "A unit must stop..."), shown with a refusal.
    rule_texts: dict[str, str] = field(default_factory=dict)


def _by_constructor(obj: Any) -> tuple:
    """How a model object pickles and copies: its class called with its fields. The compiled build (make fast) makes
    these classes native, and a frozen native object cannot be restored field by field as a Python one is."""
    return type(obj), tuple(getattr(obj, f.name) for f in fields(obj))


for _model_class in [c for c in list(globals().values()) if isinstance(c, type) and is_dataclass(c)]:
    copyreg.pickle(_model_class, _by_constructor)
