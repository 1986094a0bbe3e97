"""What a unit's movement search is given now, and where its result is kept.

The search itself is movement.py's (MP, terrain, ZOC, objectives passed); this module gives it the unit's allowance
(modifiers.py), its start or its open entry hexes (arrivals.py), the obstacles (enemy units, their zones of control,
friends that may not be passed through: move_memory.obstacles), what steps cost it this phase (step_costs.py), how
it may leave an enemy zone of control (leave_zoc) and its movement modes; and it keeps the result (unit_reach) for
the whole phase where the unit's moves cannot depend on friends that move during it (keeps_moves), else for the
position. The phase's indexes of the units reaching each hex and of what leave_zoc read (note_at) tell a move
which units' answers it may have changed (legal_moves.carry_moves).
"""

from __future__ import annotations

from typing import Any, Callable, Collection, Final

from rulec.engine import answer_reads, modifiers, stacking
from rulec.engine.arrivals import fallback_rings, open_entries, placed_anywhere
from rulec.engine.context import EngineContext
from rulec.engine.move_memory import obstacles
from rulec.engine.movement import NOWHERE, Leave, MoveCosts, Reach, merge_moves, reach_of
from rulec.engine.position import Position
from rulec.engine.statuses import ON_MAP, PENDING
from rulec.engine.step_costs import StepCosts
from rulec.runtime.model import ORDINARY, Hex, MovementMode, Unit


# Per movement phase (GameState._phase_moves): each hex, and the units that reach it in some position of the phase
# (their moves kept for the phase), noted as answers that hang on stacking are made of them (legal_moves: listed
# moves, has_move). A move changes the stacking of two hexes: only these units' answers may change.
REACHING: Final = "units reaching"
# Per movement phase: each hex, and the units whose leave_zoc answers (into_zoc) read who stands there (leave_zoc). A
# move into or out of one asks them again: their moves are kept under those answers (moves_key).
LEAVE_READS: Final = "leave_zoc reads"
LEAVE_ASKED: Final = "leave_zoc asked"  # per movement phase: the (unit, hex) where leave_zoc noted what it read
FALLBACK: Final = "entered by fallback"  # (per position) a unit whose moves enter by hexes outside its area (search_moves)


def note_at(state: Position, index: str, uid: str, hexes: Collection[Hex]) -> None:
    """Note `uid` at each of `hexes` in the phase's index `index` (hex -> units): REACHING, the units reaching
    each hex, or LEAVE_READS (a move into or out of one of them asks the unit again: carry_moves)."""
    # (typed, so that the compiled engine calls the dict and set in C: a listing notes every hex its unit reaches)
    reaching: dict[Hex, set[str]] | None = state._phase_moves.get(index)
    if reaching is None:
        reaching = state._phase_moves[index] = {}
    for h in hexes:
        units = reaching.get(h)
        if units is None:
            reaching[h] = {uid}
        else:
            units.add(uid)


def moves_carry_over(state: Position) -> bool:
    """Do a unit's legal moves depend on nothing a friend's move changes but the stacking of the two hexes it
    changed, and what may_end_move reads (answer_reads.py: checked at each move)? Not where may_end_move reads the
    position otherwise, nor where may_exit, stacking's `counts` or the allowance read it, nor where friends may not
    be passed through (once a game)."""
    found = state._for_the_game.get("moves carry over")
    if found is None:
        movement, rules = state.game.movement, state.game.stacking

        def reads(expression: Any) -> bool:
            return expression is not None and expression.reads_position

        found = state._for_the_game["moves carry over"] = (
            (movement.may_end_move is None or answer_reads.readable(movement.may_end_move.function))
            and not reads(movement.may_exit) and not reads(rules.counts)
            and rules.pass_through_friendly
            and modifiers.read_only_markers(state, state._modifiers[1], "move"))  # the allowance: as the markers
    return found


def moves_key(state: Position, uid: str) -> tuple:
    """What a unit's moves are kept under within the phase: where it stands; its allowance when modifiers may
    change that as the phase goes on (a friendly move may cut a unit's supply); and, where its search asked
    leave_zoc for a way out of an enemy zone and leave_zoc's into_zoc asks who stands in the hexes entered, the
    hexes it may leave into now."""
    where = state.pos.get(uid)
    key: tuple = (uid, where, modifiers.allowance(state, uid)) if state._modifiers[1] else (uid, where)
    if leave_asked(state, uid):
        leave = leave_zoc(state, state._units[uid])
        key += (None if leave is None else leave.into_hexes,)
    return key


def kept_anew(state: Position, uid: str, key: tuple) -> tuple:
    """The key to keep a search's result under, `key` made before it: made again when the search asked leave_zoc
    (the first time it did, `key` lacks its answer)."""
    return moves_key(state, uid) if leave_asked(state, uid) else key


def leave_asked(state: Position, uid: str) -> bool:
    """Has leave_zoc noted, this phase, what it read about `uid` where it stands now (its search asked for a way out
    of an enemy zone: enemy zones stand still in a movement phase)? moves_key then keys its moves by the answer."""
    asked = state._phase_moves.get(LEAVE_ASKED)
    return asked is not None and (uid, state.pos.get(uid)) in asked


def leave_asks_units(state: Position) -> bool:
    """Is leave_zoc's into_zoc a condition that reads nothing a friend's move changes but who stands in the hexes it
    asks of (answer_reads.reads_only)? Then a unit's answers are kept, noted at those hexes (leave_zoc). Once a game."""
    found = state._for_the_game.get("leave asks units")
    if found is None:
        rule = state.game.movement.leave_zoc
        into = rule.into_zoc if rule is not None else False
        found = state._for_the_game["leave asks units"] = (
            not isinstance(into, bool) and answer_reads.reads_only(into.function, ("units_at",)))
    return found


def keeps_moves(state: Position, uid: str) -> bool:
    """May this unit's moves be kept for the rest of the phase?

    Not for a landing, nor when friends may not be passed through, nor for a reinforcement when
    entry_blocked decides its entry hexes, nor for a unit in an enemy ZOC whose leave_zoc asks a
    condition of the hex entered that reads more than who stands there (leave_asks_units): then
    they depend on where the friendly units are, and those move during the phase. Nor where may_exit
    reads the position: the edges a unit may leave by may change with every move (only one unit may
    leave, say). Nor for a unit of a side not moving in the phase (asked of by GameState.may_end_move):
    its enemies are the units that move.
    """
    rules: tuple[bool, bool, bool] | None = state._for_the_game.get(_KEEPS_MOVES)  # (typed: compiled, unpacked in C)
    if rules is None:
        rules = _keeping_rules(state)
    may_keep, entry_blocked, leave_read = rules
    if not may_keep or state.phase.kind != "movement":
        return False
    unit = state._units[uid]
    if unit.side != state.phase.side:
        return False
    where = state.where[uid]
    if where == PENDING and (entry_blocked or placed_anywhere(state, uid)):
        return False
    if leave_read:
        return True
    at = state.pos.get(uid)
    return at is None or at not in state.enemy_zoc(unit.side)


_KEEPS_MOVES: Final = "keeps moves"  # (Position._for_the_game) what keeps_moves asks of the game's rules, once a game


def _keeping_rules(state: Position) -> tuple[bool, bool, bool]:
    """keeps_moves' questions about the game alone: may any unit's moves be kept (friends may be passed through and
    may_exit reads no position); does entry_blocked decide entry hexes; and is a unit's leave_zoc answer kept with
    its moves wherever it stands (no leave_zoc, a fixed into_zoc, or one reading only who stands where)?"""
    movement = state.game.movement
    found = state._for_the_game[_KEEPS_MOVES] = (
        state.game.stacking.pass_through_friendly
        and (movement.may_exit is None or not movement.may_exit.reads_position),
        movement.entry_blocked is not None,
        movement.leave_zoc is None or isinstance(movement.leave_zoc.into_zoc, bool) or leave_asks_units(state))
    return found


def unit_reach(state: Position, uid: str) -> Reach:
    """Where `uid` may go now (movement.Reach): kept for the phase when its moves may be (keeps_moves), else
    for the position."""
    phase = state._phase_moves  # (moves_key's commonest case, a unit's place alone, made here)
    return reach_under(state, uid, moves_key(state, uid) if state._modifiers[1] or LEAVE_ASKED in phase else (
        uid, state.pos.get(uid)))


def reach_under(state: Position, uid: str, moves: tuple) -> Reach:
    """unit_reach, `moves` being the unit's moves_key now (its caller made it already)."""
    return reach_kept(state, uid, moves, None)[0]


def reach_kept(state: Position, uid: str, moves: tuple, keep: bool | None) -> tuple[Reach, tuple | None]:
    """reach_under, `keep` being keeps_moves' answer where the caller has it (legal_moves.unit_moves asks it once for
    both; None: asked here if a search is made), and the moves key a search made now was kept under for the phase
    (kept_anew's: its caller keeps what it makes of it there too), None where none was."""
    phase = state._phase_moves
    key = (REACH, moves)  # (the key nested, not spread into a new tuple: it is made for every unit listed)
    reach = phase.get(key) or state._cache.get(key)
    kept = None
    if reach is None:
        reach = search_moves(state, uid, reach_of)
        if keeps_moves(state, uid) if keep is None else keep:
            kept = kept_anew(state, uid, moves)
            phase[(REACH, kept)] = reach
        else:
            state._cache[key] = reach
    return reach, kept


REACH: Final = "reach"  # (with a unit's moves_key: per phase, else per position) where the unit may go (reach_under)


def search_terms(state: Position, unit: Unit) -> tuple[int, int, int, int, StepCosts]:
    """A unit's terms of search now: its allowance, the enemy hexes, their zones of control and the friends in
    its way (bits of hex numbers, 0 where the game has none) and what steps cost it."""
    allowance = modifiers.allowance(state, unit.id) if state._modifiers[1] else unit.move
    enemy, zoc, friends = obstacles(state, unit.side)
    if state.game.movement.zoc == "none":
        zoc = 0
    if state.game.stacking.pass_through_friendly:
        friends = 0  # no friend is in the way
    tables = state.tables
    costs = step_costs(state, unit) if tables.varying_costs else tables.base_costs
    return allowance, enemy, zoc, friends, costs


def search_moves(state: Position, uid: str, search: Callable[..., Any], held: int = 0) -> Any:
    """Run `search` (movement.reach_of, or movement.costs_of for what moves cost) with the unit's
    allowance, start or entry hexes and obstacles; either result has `destinations`. `held`: objectives left out of
    the paths' masks (reach_of's)."""
    unit = state._units[uid]
    allowance, enemy, zoc, friends, costs = search_terms(state, unit)
    tables = state.tables
    if state.where[uid] == ON_MAP:
        locked = uid in state.locked
        if locked:
            leave = leave_zoc(state, unit)
        elif zoc and not state.game.movement.zoc_to_zoc and zoc & tables.hex_bit[state.pos[uid]]:
            leave = leave_zoc(state, unit)  # starting in an enemy ZOC: the ZOC-to-ZOC exception, if any
        else:
            leave = None
        ways = state.phase.modes  # a phase of some movement modes only (rail movement): no ordinary move in it
        found: Reach | MoveCosts
        if ways is None or ORDINARY in ways:
            if search is reach_of:  # (named, not called through `search`: compiled, a C call with no keywords parsed)
                found = reach_of(tables, allowance=allowance, start=state.pos[uid], enemy=enemy, zoc=zoc,
                                 friends=friends, locked=locked, leave=leave, costs=costs, held=held)
            else:
                found = search(tables, allowance=allowance, start=state.pos[uid], enemy=enemy, zoc=zoc,
                               friends=friends, locked=locked, leave=leave, costs=costs, held=held)
        else:
            found = Reach({}, ()) if search is reach_of else MoveCosts({}, {})
        if state.game.modes and not locked:  # a unit held in an enemy zone of control leaves only as leave_zoc says
            found = moves_by_mode(state, unit, found, search, enemy, zoc, friends, held)
        return found
    arrival = unit.arrives
    if arrival is not None and arrival.placement == "anywhere":
        occupied = stacking.occupants(state)
        allowed = set(arrival.terrain)
        assert state.game.map is not None  # the engine plays map games
        terrain = state.game.map.terrain
        spots = {h: 0 for h in state.tables.hexes
                 if h not in occupied and (not allowed or set(terrain.get(h, ())) <= allowed)}
        # A unit placed anywhere spends no MP (spots hold no objectives mask either).
        return Reach(spots, ()) if search is reach_of else MoveCosts({h: 0 for h in spots}, {})
    hexes = arrival.hexes if arrival is not None else ()
    entry_cost = costs.offmap_entry_cost
    reach = search(state.tables, allowance=allowance, start=None,
                   entries=tuple((h, entry_cost[h]) for h in open_entries(state, unit, hexes)),
                   enemy=enemy, zoc=zoc, friends=friends, costs=costs, held=held)
    if reach.destinations or state.game.movement.blocked_entry != "closest_legal":
        return reach
    # Blocked entry: the closest hexes of the same map edge where entering is legal.
    state._cache[(FALLBACK, uid)] = True  # (these moves depend on the ring's entries too: unit_moves keeps them not)
    for ring in fallback_rings(state, hexes):
        reach = search(state.tables, allowance=allowance, start=None,
                       entries=tuple((h, entry_cost[h]) for h in open_entries(state, unit, ring)),
                       enemy=enemy, zoc=zoc, friends=friends, costs=costs, held=held)
        if reach.destinations:
            return reach
    return NOWHERE if search is reach_of else MoveCosts({}, {})


def path_taken(state: Position, uid: str, reach: Reach, to: Hex | None = None, edge: str | None = None) -> Reach:
    """The search whose path to `to` (or off the map by `edge`) the unit's move takes, as the position stands before
    it: `reach` (unit_reach's), unless that path passes objectives the unit's side holds already.

    A search gives each destination the path that passes the most valuable objectives, whoever holds them
    (Tables.mask_rank, movement._worth_more). Passing one's own takes nothing (changes.enter), and another path there
    might take an enemy's: the player would take it. So where the path given passes one's own, the same search with
    those left out gives the path that takes the most (docs/rulings.md). Where it passes none of them, it is that
    path already: leaving objectives out of a path's set only makes it worth less. Nor is there another where the
    search reaches no objective but the side's: every hex a path passes is one of its destinations, and every path
    to an objective passes it."""
    if edge is not None:
        mask = (reach.exit_masks or {}).get(edge, 0)
    else:
        mask = reach.destinations.get(to, 0) if to is not None else 0
    if not mask:
        return reach
    held = held_objectives(state, state._units[uid].side)
    if not mask & held:
        return reach
    others = ~held
    for passed in reach.destinations.values():  # (up to the first path that passes an objective not the side's)
        if passed & others:  # the same destinations: only their paths' objectives differ
            return search_moves(state, uid, reach_of, held)
    return reach  # (its path takes nothing: passing one's own changes nothing)


def held_objectives(state: Position, side: str) -> int:
    """The objectives `side` holds, as bits of Tables.objectives (the bits of a search's masks). Kept for the game
    by the holders' version: a move whose path passes objectives asks, and the holders seldom change."""
    key = (side, state.holders_version)
    kept: dict[tuple[str, int], int] | None = state._for_the_game.get(_HELD_OBJECTIVES)
    if kept is None or len(kept) > _MOST_HELD_KEPT:
        kept = state._for_the_game[_HELD_OBJECTIVES] = {}
    found = kept.get(key)
    if found is None:
        holders = state.holders
        found = kept[key] = sum(1 << i for i, h in enumerate(state.tables.objectives) if holders.get(h) == side)
    return found


_HELD_OBJECTIVES: Final = "held objectives"  # (Position._for_the_game) held_objectives' answers, by side and holders
_MOST_HELD_KEPT: Final = 1024


def step_costs(state: Position, unit: Unit) -> StepCosts:
    """What steps cost `unit` in this phase (its type's costs, with the cost expressions' values of the phase)."""
    tables = state.tables
    if not tables.varying_costs:
        return tables.base_costs
    return tables.costs_for(unit.type, cost_values(state))


def cost_values(state: Position) -> tuple:
    """The values of the game's cost expressions in this phase (Tables.cost_expressions), worked out as it begins."""
    values = state._phase_moves.get("cost values")
    if values is None:
        context = EngineContext(state)
        values = state._phase_moves["cost values"] = tuple(e(context) for e in state.tables.cost_expressions)
    return values


def moves_by_mode(state: Position, unit: Unit, found: Any, search: Callable[..., Any], enemy: int, zoc: int, friends: int,
                  held: int = 0) -> Any:
    """`found` (a search's result for an ordinary move) with the moves of every movement mode the unit may use."""
    start = state.pos[unit.id]
    ways = state.phase.modes
    for mode in state.game.modes.values():
        if (ways is not None and mode.id not in ways) or not may_use(state, mode, unit):
            continue
        if "enemy_zoc" in mode.may_not_start_in and zoc & state.tables.hex_bit[start]:
            continue
        costs = state.tables.mode_costs_for(mode, cost_values(state))
        blocked = enemy | zoc if "enemy_zoc" in mode.may_not_enter else enemy
        other = search(state.tables, allowance=modifiers.allowance(state, unit.id) * costs.per_mp, start=start, enemy=blocked, zoc=zoc,
                       friends=friends, costs=costs, held=held)
        found = merge_moves(state.tables, found, other, costs.per_mp)
    return found


def may_use(state: Position, mode: MovementMode, unit: Unit) -> bool:
    """May `unit` move in `mode` this phase (its option chosen, the unit eligible)? Worked out once a phase."""
    key = ("mode", mode.id, unit.id)
    allowed = state._phase_moves.get(key)
    if allowed is None:
        allowed = state._phase_moves[key] = (mode.option is None or mode.option in state.options) and (
            mode.eligible is None or bool(mode.eligible(EngineContext(state, unit))))
    return allowed


def leave_zoc(state: Position, unit: Unit) -> Leave | None:
    """How `unit`, in an enemy zone of control, may leave it this phase (None: it may not); see movement.Leave.

    Whether the rule applies to the unit is worked out once a phase; an `into_zoc` condition about
    the hex entered, for each enemy-controlled neighbour once a position (it may ask where friends are).
    """
    key = ("leave", unit.id)
    if key in state._phase_moves:
        leave = state._phase_moves[key]
    else:
        rule = state.game.movement.leave_zoc
        leave = None
        if rule is not None and (rule.option is None or rule.option in state.options) and (
                rule.when is None or rule.when(EngineContext(state, unit))):
            leave = Leave(rule.cost, rule.into_zoc is True, state.tables.hexsides_of(rule.not_across),
                          then_stop=rule.then_stop)
        state._phase_moves[key] = leave
    rule = state.game.movement.leave_zoc
    into = rule.into_zoc if leave is not None and rule is not None else False  # (a leave comes from a rule)
    if isinstance(into, bool):
        return leave
    found = state._cache.get(key)
    if found is None:
        noted = leave_asks_units(state) and state.phase.kind == "movement"
        read: set[Hex] = set()
        context = answer_reads.UnitsAtContext(state, unit, read) if noted else EngineContext(state, unit)
        context.keep_while_hex_varies()
        zoc, allowed, index = state.enemy_zoc(unit.side), set(), state.tables.index
        for n in state.tables.neighbours[state.pos[unit.id]]:
            context.hex = n
            if n in zoc and into(context):
                allowed.add(index[n])
        found = state._cache[key] = leave.with_into_hexes(frozenset(allowed))
        if noted:  # a move into or out of a hex read asks the unit again (carry_moves); its moves are kept under
            # the hexes it may leave into (moves_key)
            note_at(state, LEAVE_READS, unit.id, read)
            asked = state._phase_moves.get(LEAVE_ASKED)
            if asked is None:
                asked = state._phase_moves[LEAVE_ASKED] = set()
            asked.add((unit.id, state.pos[unit.id]))
    return found
