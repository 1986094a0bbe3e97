"""The data of one position of a map game, and the queries every mechanism reads it by.

A position is a handful of flat dicts and sets of strings and ints (where each unit
is, what has moved or fought this phase, the VP, the markers and the history record)
and a stack of pending decisions (frames.py), so a copy is cheap. Everything fixed
about the game lives in the model and in its Tables (tables.py), shared by all positions.

The layers of rulec/engine/, each importing only those below it (tests/test_engine_layers.py):
    data        statuses, actions, step_costs, sight, rule_cases, hex_bits: names and values; native: the
                searches' loops in C, where the compiled engine runs
    tables      tables, movement, combat: what is fixed about a game, and searches over it
    position    frames, marker_table, records, position: a position's data
    mechanisms  markers, stacking, traces, context, modifiers, legal_moves, battles, ...: functions of the
                tables and a position, each importing only the mechanisms it builds on
    decisions   decisions, phases, setup, sampling, explain: the decisions of a phase, wired together
    façade      state (GameState: the public API), conformance
Compiled expressions read a position through an evaluation context (context.py), a mechanism that
itself reads markers, stacking and traces: the few mechanisms below it that must evaluate an expression
(a marker's expiry, stacking's `counts`) ask the position for a context (`Position.context`), and a
change that runs the game's hooks asks it to run them (`Position.run_game_hooks`); the façade provides both.
"""

from __future__ import annotations

from itertools import chain, count
from typing import Any, Final, TypeVar

# Imported when run, not only for the type checker: compiled (make fast), a class's annotations may be built from
# these classes as this module loads (a plain class's were: a crash), so theirs load first (none imports this one).
from rulec.engine.actions import Action
from rulec.engine.frames import Frame
from rulec.engine.hex_bits import hexes_in_order
from rulec.engine.marker_table import MarkerTable
from rulec.engine.records import BattleReport, History, Outcome, Relocated, VpEntry
from rulec.engine.statuses import NEVER, PENDING
from rulec.engine.tables import Tables
from rulec.runtime.model import Game, Hex, Modifier, Phase, Unit

P = TypeVar("P", bound="Position")  # a position's own class: a GameState's clone is a GameState
# A clone copies at most this many of the actions played (the rest it shares): an AI clones a position thousands of
# times a decision, late in a game of thousands of actions.
HISTORY_TAIL: Final = 32
# moved_since follows at most this many changes of hexes back (more: the caller compares the positions).
MOST_RELOCATIONS_TOLD: Final = 64
# Each side's views of the others kept with who stands where (Position._standing), and the kind of a view's stale
# copy, kept over moves and asked again only where units moved since (move_memory.py); dropped as a phase begins. A
# view is known exact or stale, never both: the stale copy is dropped when the view is asked again (a move carries
# each over by its kind alone, move_memory.carry_views).
VIEWS: Final[tuple[str, ...]] = ("zoc", "enemy", "obstacles")
STALE: Final = {kind: "stale " + kind for kind in VIEWS}
_STALE_VIEWS: Final = frozenset(STALE.values())


class ViewKeys:
    """The keys of one side's views in Position._standing, exact and stale, made once a side (view_keys): a move
    carries three views of every side over, and the searches ask for them again and again."""

    __slots__ = ("zoc", "stale_zoc", "enemy", "stale_enemy", "obstacles", "stale_obstacles", "stale")

    # (typed tuple[str, ...], not tuple[str, str]: compiled, a fixed-length tuple is kept unboxed and would be built
    # anew at every read, a new key to hash and compare)
    def __init__(self, side: str) -> None:
        self.zoc: tuple[str, ...] = ("zoc", side)
        self.stale_zoc: tuple[str, ...] = (STALE["zoc"], side)
        self.enemy: tuple[str, ...] = ("enemy", side)
        self.stale_enemy: tuple[str, ...] = (STALE["enemy"], side)
        self.obstacles: tuple[str, ...] = ("obstacles", side)
        self.stale_obstacles: tuple[str, ...] = (STALE["obstacles"], side)
        # a view's kind -> the key of its stale copy
        self.stale: dict[str, tuple[str, ...]] = {"zoc": self.stale_zoc, "enemy": self.stale_enemy,
                                                  "obstacles": self.stale_obstacles}


_VIEW_KEYS: Final[dict[str, ViewKeys]] = {}  # side -> its keys (a side's name is the same in every game)


def view_keys(side: str) -> ViewKeys:
    """The keys of `side`'s views (ViewKeys), made when first asked for."""
    found = _VIEW_KEYS.get(side)
    if found is None:
        found = _VIEW_KEYS[side] = ViewKeys(side)
    return found


class Position:
    """One position's data (declared here, filled in by setup.set_up) and its basic queries; GameState
    (state.py) is the public API over it."""

    # ------------------------------------------------------------ the data (filled in by setup.set_up)
    game: Game
    options: tuple[str, ...]
    seed: int
    tables: Tables  # everything fixed about the game, shared by all its states (tables.py)
    players: tuple[str, ...]
    # set by scenarios.prepare: the scenario played, the last turn, deployment phases still to come
    # before the start phase, and a placement phase's points left (None: it counts none)
    scenario: str | None
    last_turn: int
    _prelude: tuple[int, ...]
    points_left: int | None
    turn: int
    phase_index: int
    terminal: bool
    decided: Outcome | None  # the result of a sudden death that ended the game
    vp: dict[str, int]
    vp_log: list[VpEntry]
    # The actions played, in order: all but the last few in a tuple that clones share, the last few in a list of the
    # state's own (a clone copies those alone; clone folds them into the tuple now and then: HISTORY_TAIL).
    _played: tuple[Action, ...]
    _history: list[Action]
    # The modifiers in play with these options: changing strength, allowance; of battles (modifiers.py).
    _modifiers: tuple[tuple[Modifier, ...], tuple[Modifier, ...], tuple[Modifier, ...]]
    _folded_traces: dict  # (trace, side) -> the hexes its map conditions let through (traces.py); shared by clones
    _for_the_game: dict  # answers that hold in every position (stacking's uncounted units); shared by clones

    # the units: variant counters an option chose at set-up (unit -> the variant it plays as); the units as they
    # start with this scenario and options (shared by clones); each as it plays now, and the steps it lost (steps.py)
    variants: dict[str, str]
    _setup_units: dict[str, Unit]
    _units: dict[str, Unit]
    lost_steps: dict[str, int]
    pos: dict[str, Hex]  # units on the map -> their hex
    last_relocated: Relocated  # the last time a unit changed hexes (changes.py): while it stays, so does who stands where
    # Each unit on the map (and maybe some that left it) -> a number that grows in the order of pos, and the highest
    # given; None: worked out when asked (pos_ranks). A unit that changes hexes keeps its place in pos: only one coming
    # onto the map (last) changes it (came_onto_map), and a position whose units are placed anew forgets it (forget).
    _pos_ranks: tuple[dict[str, int], int] | None
    where: dict[str, str]  # every unit -> its status (statuses.py)
    due: dict[str, int | None]  # pending units -> the turn they are due (None: any turn)
    exited_from: dict[str, Hex]  # units that left the map -> the hex they left it from
    holders: dict[Hex, str]  # objectives -> the side holding them (changed in place, then holders_changed)
    holders_version: int  # names the holders: a copy keeps it, every change takes a new one (holders_changed)
    granted: dict[tuple[str, Hex], int]  # ('holds' award, hex) -> the VP it gave its holder
    markers: MarkerTable  # markers on units and hexes (markers.py)
    past: History  # what each unit did, by phase (history.py)
    variables: dict[str, int | float | bool]  # the game's variables (variable blocks) -> their values now

    # the phase's bookkeeping (phases.begin_phase)
    moved: set[str]
    locked: frozenset[str]  # units held in an enemy zone of control since the movement phase began
    _movers: tuple[str, ...]  # the units that may move in this movement phase
    _phase_moves: dict  # what is kept for the movement phase: each unit's moves (legal_moves.py); shared by clones
    attacked: set[str]
    defended: set[str]
    _able_to_attack: dict[str, frozenset[str]]  # side -> its units with the strength and type to attack
    _phase_attackers: frozenset[str] | None  # a combat phase's `attackers` (procedures.py)
    _combat_began: tuple[int, int] | None  # (turn, phase index) the last combat phase began
    _stack: list[Frame]  # pending decisions, the next one last (see frames.py)
    last_battle: BattleReport | None
    _cache: dict  # what is known of this position, dropped by apply_action (see rulec/engine/__init__.py)
    # What is known of where the units stand and nothing else (who stands in each hex, the sides there, each side's
    # view of the others: move_memory.py), the same for every position with the units where they stand: handed on as
    # it is by an action that moves nobody, made anew (patched from the one before) when a unit changes hexes
    _standing: dict
    # A position only looked at (GameState.look_ahead, and positions played on from it): a move does not carry over
    # what the next decisions of a movement phase would ask (each unit's moves, each side's view of the enemy)
    _looking_ahead: bool

    # ------------------------------------------------------------ basic queries
    @property
    def phase(self) -> Phase:
        return self.game.sequence[self.phase_index]

    @property
    def positions(self) -> dict[str, Hex]:
        """Every unit on the map -> its hex (do not modify)."""
        return self.pos

    def unit(self, uid: str) -> Unit:
        """The unit as it plays in this game (a variant counter if one was chosen, its current side if it has steps)."""
        return self._units[uid]

    def status(self, uid: str) -> str:
        """'map', 'pending' (not yet arrived), 'exited', 'eliminated' or 'unused' (not in this game)."""
        return self.where[uid]

    def awaiting_placement(self, uid: str) -> bool:
        """Whether the unit waits off the map for a placement phase (set up free), not for a turn of arrival."""
        return self.where[uid] == PENDING and self.due.get(uid, -1) == NEVER

    def moved_since(self, earlier: Relocated) -> tuple[list[str], bool] | None:
        """The units that changed hexes (moved, came onto the map, left it) since the position whose last change of
        hexes was `earlier` (its `last_relocated`), and whether any came onto the map or left it: when this position
        was played on from that one, in at most MOST_RELOCATIONS_TOLD changes; None otherwise. A unit may be listed
        that stands where it stood then (it moved and came back)."""
        node = self.last_relocated
        steps = node.count - earlier.count
        if steps < 0 or steps > MOST_RELOCATIONS_TOLD:
            return None
        moved: list[str] = []
        reorders = False
        for _ in range(steps):
            uid = node.uid
            before = node.before
            if uid is None or before is None:  # every unit placed anew
                return None
            moved.append(uid)
            reorders = reorders or node.reorders
            node = before
        return (moved, reorders) if node is earlier else None

    def units(self, side: str | None = None, status: str | None = None) -> list[str]:
        """Unit ids in game-file order, of one side and/or with one status ('map', 'pending', ...)."""
        return [uid for uid, unit in self._units.items()
                if (side is None or unit.side == side) and (status is None or self.where[uid] == status)]

    def forget(self) -> None:
        """Drop all that is known of this position (its cache and where its units stand): worked out again when
        next asked, as in a position set up anew. A unit flipped to another side forgets it all."""
        self._cache = {}
        self._standing = {}
        self._pos_ranks = None

    def forget_but_exact_views(self) -> None:
        """As a new phase begins: drop the cache, and the views of who stands where kept stale over the last phase's
        moves (bringing those up to date costs more than working them out anew), but keep those that are exact: they
        read nothing but where the units stand and what they are, which a phase changing does not change."""
        self._cache = {}
        standing = self._standing
        # (none kept stale, as after a combat phase: who stands where is handed on as it is, by a phase moving nobody)
        if any(type(key) is tuple and key[0] in _STALE_VIEWS for key in standing):
            self._standing = {key: value for key, value in standing.items()
                              if not (type(key) is tuple and key[0] in _STALE_VIEWS)}

    def answers(self, kind: str) -> dict[str, Any]:
        """What this position knows of one kind, by unit (its moves listed, whether it has one, may_end_move's
        answers ...: legal_moves.py, move_ends.py): a dict in its cache, made empty when first asked for."""
        found = self._cache.get(kind)
        if found is None:
            found = self._cache[kind] = {}
        return found

    def unit_name(self, uid: str) -> str:
        return self.tables.short_name[uid]

    def occupants(self) -> dict[Hex, list[str]]:
        """Each occupied hex -> the units in it, in the order of pos. Do not modify."""
        found = self._standing.get("occupants")
        if found is None:
            found = {}
            for uid, h in self.pos.items():
                found.setdefault(h, []).append(uid)
            self._standing["occupants"] = found
        return found

    def enemy_zoc(self, side: str) -> frozenset[Hex]:
        """The hexes in the zone of control of `side`'s enemies."""
        keys = view_keys(side)
        zoc = self._standing.get(keys.zoc)
        if zoc is None:
            stale = self._standing.get(keys.stale_zoc)
            if stale is not None:  # kept from an earlier position: asked again only where units moved since
                known, touched_bits = stale
                touched = hexes_in_order(touched_bits, self.tables.numbered)
                zoc = known.difference(touched).union(h for h in touched if self.in_enemy_zoc(h, side))
                del self._standing[keys.stale_zoc]  # (exact now: never both, VIEWS)
            else:
                zoc_into, typed, units = self.tables.zoc_into, self.tables.zoc_into_typed, self._units
                zoc = frozenset(chain.from_iterable(
                    [typed.get(units[uid].type, zoc_into)[h] for uid, h in self.pos.items() if units[uid].side != side]))
            self._standing[keys.zoc] = zoc
        return zoc

    def in_enemy_zoc(self, h: Hex, side: str) -> bool:
        """Is `h` in the zone of control of an enemy of `side`? Asked of the units that may control it only."""
        occupants, units = self.occupants(), self._units
        typed, plain = self.tables.zoc_into_typed, self.tables.zoc_into
        for x in self.tables.zoc_sources.get(h, ()):
            for u in occupants.get(x, ()):
                unit = units[u]
                if unit.side != side and h in typed.get(unit.type, plain)[x]:
                    return True
        return False

    def _enemy_occupied(self, side: str) -> frozenset[Hex]:
        """The hexes where enemies of `side` stand."""
        keys = view_keys(side)
        hexes = self._standing.get(keys.enemy)
        if hexes is None:
            stale = self._standing.get(keys.stale_enemy)
            if stale is not None:  # kept from an earlier position: asked again only where units moved since
                known, touched_bits = stale
                touched = hexes_in_order(touched_bits, self.tables.numbered)
                occupants, units = self.occupants(), self._units
                hexes = known.difference(touched).union(
                    h for h in touched if any(units[u].side != side for u in occupants.get(h, ())))
                del self._standing[keys.stale_enemy]  # (exact now: never both, VIEWS)
            else:
                hexes = frozenset(h for uid, h in self.pos.items() if self._units[uid].side != side)
            self._standing[keys.enemy] = hexes
        return hexes

    @property
    def pending(self) -> Frame | None:
        """The decision due now, if it is not the phase's own (a battle being declared, a retreat, ...)."""
        return self._stack[-1] if self._stack else None

    def clone(self: P) -> P:
        if len(self._history) > HISTORY_TAIL:  # (folded now and then, before the clone shares them: each fold copies
            self._played += tuple(self._history)  # the whole history once)
            self._history = []
        other = type(self).__new__(type(self))  # a GameState's clone is a GameState
        copy_fields(self, other)
        # .copy(), not dict(): a dict a unit was taken out of (an elimination, an exit) is copied in one piece by
        # .copy() while it has few holes, and key by key by dict() (a hundred-odd units: 0.3 against 2.7 µs)
        other.vp = self.vp.copy()
        other.pos = self.pos.copy()
        other.where = self.where.copy()
        other.due = self.due.copy()
        other.holders = self.holders.copy()
        other.granted = self.granted.copy()
        other.lost_steps = self.lost_steps.copy()
        other.exited_from = self.exited_from.copy()
        other.variables = self.variables.copy()
        other.moved = self.moved.copy()
        other.attacked = self.attacked.copy()
        other.defended = self.defended.copy()
        other.markers = self.markers.copy()
        self.past.owner = None  # shared: whichever changes it first copies it
        other.past = self.past
        other._stack = list(self._stack)
        other.vp_log = list(self.vp_log)
        other._history = list(self._history)
        return other

    # ------------------------------------------------------------ provided by the façade (state.py)
    def context(self, unit: Unit | None = None, marking: tuple[str | None, tuple[int, int]] | None = None) -> Any:
        """An evaluation context of this position for compiled expressions (context.EngineContext)."""
        raise NotImplementedError

    def run_game_hooks(self, event: str, unit: Unit | None = None) -> None:
        """Run the game's hooks for `event` (unit_exited, unit_eliminated) about `unit` (procedures.py)."""
        raise NotImplementedError


def copy_fields(source: Position, dest: Position) -> None:
    """Every field of `source` onto `dest`, shallow (clone, and traces' view of a position without some units): its
    __dict__ in pure Python; compiled (make fast), where the class keeps its fields in slots, each field declared
    above (_copy_declared)."""
    fields = getattr(source, "__dict__", None)
    if fields is not None:
        dest.__dict__.update(fields)
        return
    try:
        _copy_declared(source, dest)
    except AttributeError:  # a position still being set up (a view of one made meanwhile): the fields it has so far
        for name in getattr(type(source), "__mypyc_attrs__"):
            value = getattr(source, name, _UNSET)
            if value is not _UNSET:
                setattr(dest, name, value)


def pos_ranks(state: Position) -> dict[str, int]:
    """Each unit on the map -> a number that grows in the order of state.pos (Position._pos_ranks): where one unit
    goes among others in a hex, the occupants listed in that order, without going through every unit."""
    found = state._pos_ranks
    if found is None:
        ranks = {u: i for i, u in enumerate(state.pos)}
        found = state._pos_ranks = (ranks, len(ranks) - 1)
    return found[0]


def came_onto_map(state: Position, uid: str) -> None:
    """`uid`, not on the map, was just put on it (last in state.pos): the ranks, if known, given one more."""
    found = state._pos_ranks
    if found is not None:
        ranks, top = found
        ranks = ranks.copy()  # (clones share them)
        ranks[uid] = top + 1
        state._pos_ranks = (ranks, top + 1)


_UNSET: Final = object()
_HOLDERS_VERSIONS: Final = count(1)  # every change of any position's holders takes the next: one version, the same holders


def holders_changed(state: Position) -> None:
    """After `state.holders` changed (or was first filled): a new version, so that what was worked out from the
    holders alone, kept by their version, is worked out again (trace_sets.held_bits, answer_reads.snapshot)."""
    state.holders_version = next(_HOLDERS_VERSIONS)


def _copy_declared(s: Position, d: Position) -> None:
    """Each field declared on Position, one by one: compiled, each is a direct copy (a loop over the names by getattr
    and setattr was a twentieth of an AI's decision). tests/test_engine_api.py checks that every field is here."""
    d.game = s.game
    d.options = s.options
    d.seed = s.seed
    d.tables = s.tables
    d.players = s.players
    d.scenario = s.scenario
    d.last_turn = s.last_turn
    d._prelude = s._prelude
    d.points_left = s.points_left
    d.turn = s.turn
    d.phase_index = s.phase_index
    d.terminal = s.terminal
    d.decided = s.decided
    d.vp = s.vp
    d.vp_log = s.vp_log
    d._played = s._played
    d._history = s._history
    d._modifiers = s._modifiers
    d._folded_traces = s._folded_traces
    d._for_the_game = s._for_the_game
    d.variants = s.variants
    d._setup_units = s._setup_units
    d._units = s._units
    d.lost_steps = s.lost_steps
    d.pos = s.pos
    d.last_relocated = s.last_relocated
    d._pos_ranks = s._pos_ranks
    d.where = s.where
    d.due = s.due
    d.exited_from = s.exited_from
    d.holders = s.holders
    d.holders_version = s.holders_version
    d.granted = s.granted
    d.markers = s.markers
    d.past = s.past
    d.variables = s.variables
    d.moved = s.moved
    d.locked = s.locked
    d._movers = s._movers
    d._phase_moves = s._phase_moves
    d.attacked = s.attacked
    d.defended = s.defended
    d._able_to_attack = s._able_to_attack
    d._phase_attackers = s._phase_attackers
    d._combat_began = s._combat_began
    d._stack = s._stack
    d.last_battle = s.last_battle
    d._cache = s._cache
    d._standing = s._standing
    d._looking_ahead = s._looking_ahead
