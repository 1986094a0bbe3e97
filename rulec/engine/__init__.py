"""The game-agnostic engine: plays any compiled map game, with an OpenSpiel-like API.

    from rulec.engine import new_game
    state = new_game(game, options=("command_control",), seed=0)   # scenario="NAME": a scenario block's start
    state.legal_actions(); state.apply_action(action); state.clone(); state.outcome()

Modules, one job each, in layers that import only downwards (position.py's docstring; tests/test_engine_layers.py):
    position.py     Position: one position's data (units, hexes, phase, VP, markers, history, pending decisions)
                    and the queries every mechanism reads it by; records.py, marker_table.py, frames.py its records
    state.py        GameState(Position): the public API, listing legal actions, applying one
    sampling.py     a legal action or order drawn uniformly without listing them all (random playouts, rollouts)
    setup.py        a new game's start (options, scenario, units in play, variant counters); arranged positions
    phases.py       the sequence of play: entering, beginning and ending phases, turns, sudden death, the end
    legal_moves.py  which units may move now and where (move UNIT, delay UNIT, a unit's moves), what a move costs
    reach.py        what a unit's movement search is given now (allowance, start or entries, obstacles, costs,
                    leave_zoc, modes), and how long its result is kept
    move_ends.py    movement { may_end_move }: may a unit end its move in a hex (per destination, or as sets)
    arrivals.py     reinforcements waiting to enter: when they arrive, open entry hexes, being held back
    stacking.py     who stands where, the stacking limit: full hexes, units that do not count, over-stacked units
    changes.py      what a move, exit, entry, relocation or elimination changes: objectives, awards, hooks
    steps.py        units with reduced sides: the side a unit plays after losing steps; losing and regaining one
    frames.py       the decision stack's frames: decisions pending within a phase (data only)
    decisions.py    what each kind of frame offers, does alone, and explains (wires the modules below)
    battles.py      battles declared step by step (attack HEX, with UNIT, resolve/cancel), the die roll
    duties.py       who may still attack, who must attack (and what), who must be attacked (combat { may_attack ... })
    joining.py      who may join a given battle (combat { may_join }), the battle as expressions see it
    sight.py        ranged attacks: hexes in range with a clear line of sight
    effects.py      a result's effects carried out in order (eliminate, retreat, exchange, losses, advance);
                    losses are paid a step at a time (units with reduced sides flip: steps.py)
    retreats.py     who retreats, who picks the path, forced retreats
    advances.py     the advance after combat
    actions.py      Action values, their text form, IllegalAction / ActionSyntaxError
    tables.py       per-game precomputed lookups (move costs, ZOC, exits, distances)
    movement.py     the movement search (MP, terrain, roads, rivers, ZOC, objectives passed)
    native.py       the searches' inner loops in C (search_core.pyx, Cython: the movement search's, a trace's
                    spread), loaded only with the compiled engine (make fast); pure Python runs their own
    step_costs.py   what each step costs a unit type in a phase (costs per type, cost expressions, modes)
    combat.py       battle columns, shifts, DRMs, retreat paths
    modifiers.py    the modifiers pipeline: unit strengths and allowances, battle shifts and DRMs
    traces.py       traces (supply ...): the hexes a side reaches from its sources, when asked (trace_sets.py: a set of
                    hexes at a time, where the checker wrote the conditions as set algebra; trace_memory.py: hex by hex)
    end_sets.py     movement { may_end_move } answered for many destinations at once, where the checker wrote it as
                    set algebra (may_end_sets)
    markers.py      markers on units and hexes: put on, taken off, what they forbid, their expiry
    history.py      writing what each unit did (moved, attacked, defended, retreated) and hexes entered, by phase
    context.py      EngineContext: the position as compiled expressions read it
    answer_reads.py what a condition's answers read of the position (from its code, noted as it is evaluated), so
                    that a move that changed none of it keeps them (may_end_move's, legal_moves.carry_moves)
    victory.py      VP awards and scoring them, sudden death and victory levels
    procedures.py   a phase's predicates (when, movers, attackers) and hooks (score, eliminate, mark, unmark)
    placement.py    placement phases: `place UNIT HEX` from a pool into allowed hexes (set-up, replacements)
    scenarios.py    a scenario's start, length, units, deployment and VP; options that exclude each other
    explain.py      why an order is illegal, citing the game's rule_refs
    rule_cases.py   a rulebook case's text (rule_texts) and the refusals that cite it
    conformance.py  random-game checks usable on any map game
Rulings on open rule questions are in docs/rulings.md.

Speed (random playouts; see benchmarks/playouts.py). What is kept, and for how long:
    - per game (Tables, shared by every state): hex numbers and step lists, move/exit
      Actions made once (`attack HEX` and `with UNIT` are made once in actions.py), and
      movement searches remembered with the hexes each looked at: reused, across games, on any
      board that agrees with it there (movement.reach_of);
    - per movement phase (GameState._phase_moves, shared by clones): each unit's moves (legal_moves.py); a
      waiting unit's open entry hexes, with the answers of the queries entry_blocked read, given again where
      those answer the same (answer_reads.NotingContext), and its moves by the entry hexes open;
    - per placing of the units (Position._standing, handed on as it is by every action that moves nobody, a
      marker put on or taken off too, and a phase's end, which drops only the views kept stale; a unit flipped
      to another side drops it all): the occupants
      and their sides, each side's view of the others (their hexes, zones of control, a search's obstacles);
    - per position (GameState._cache, dropped by apply_action): full hexes,
      legal actions, each unit's legal moves, the units conditions read. A move, exit or delay
      says what it changed: it patches the occupants and full hexes of the position before
      (stacking.carry_over), keeps its own side's view of the enemy (their hexes, zones of control) and
      marks the other sides' views stale at the hexes it touched, to be asked again there only when next
      asked (move_memory.py), unless a hook it ran moved or eliminated other units. It hands on every other
      unit's legal moves and whether it has one (by the hex that said so), except for the units a phase-wide
      index names as reaching the two hexes it changed, and patches the movement phase's list of actions for
      those units only (legal_moves.carry_moves); the occupant sides record what they changed from, so a
      trace tells what changed without comparing every hex (stacking.Lineage). A retreat, advance,
      placement or elimination patches who stands where and each side's view the same way (changes.py).
      Choosing a unit to move (or putting it back) keeps all but the legal actions; a sampled action is not
      checked again. A step of a battle's declaration (attack, with, cancel) keeps what it cannot change:
      the traces, who may still attack, who owes an attack and the duties still open (duties.py), may_join's
      answers, kept under the attackers so far only when the condition's code may read them (joining.py),
      and the phase's targets and which of them may be joined (battles.py): a declaration called off lists
      them as they were;
    - per game, by what the answer reads (shared by clones): traces' answers by hex, and the search's layers,
      searched again only from the first layer a change reaches (trace_memory.py); a trace's hexes come as
      bits, made a byte a hex for conditions asked a hex at a time (traces.traced_flags); answers of expressions that
      read only the markers in play, by MarkerTable.version (a unit's allowance); may_attack and stacking's
      `counts` when they read nothing of the position;
    - per asking of a condition hex after hex (an evaluation context, one position and unit): the parts of
      the condition that read no hex (a minimum over every enemy unit in an entry rule), worked out at the
      first hex (EvalContext.once, the compiler's `_kept_per_hex`; contexts made for such an asking call
      keep_while_hex_varies);
    - per movement phase, as a hint only: the hex that last let a unit end its move there, asked first
      next time (legal_moves.has_move).
What a clone shares rather than copies (an AI clones a position tens of thousands of times a game, late in games of
thousands of actions): the actions played but the last few (Position.clone, HISTORY_TAIL), the history's tables
but the entries set since (records.Layered), and the chain of the position's changes of hexes (records.Relocated),
from which a position tells the units that moved since one it was played on from (Position.moved_since: what the
AI's evaluator asks, rather than comparing where every unit stands).
Not worked out until needed: whether a unit has a move is first looked for one step away, with the
search's own first-step rules (movement.first_step_end); the whole search runs only for a unit that
is chosen, or that the step does not answer.

Game rules live in the game file, never here: every engine module plays a general mechanism
of the language (docs/language.md) that any game may declare — two movement and combat phases
are sequence data, disruption is a marker with expiry, supply a trace, strength and MP effects
modifiers, fortifications unit types with their own guards (`retreat { exempt }`, `must_attack`).
"""

from rulec.engine.actions import Action, ActionSyntaxError, IllegalAction, compact, expand
from rulec.engine.combat import Odds
from rulec.engine.records import BattleReport, Outcome, VpEntry
from rulec.engine.state import CHANCE, TERMINAL, GameState, UnknownOption, new_game
from rulec.engine.statuses import ELIMINATED, EXITED, ON_MAP, PENDING, UNUSED
from rulec.engine.context import EngineContext
from rulec.engine.scenarios import ScenarioError

__all__ = [
    "CHANCE", "TERMINAL", "ON_MAP", "PENDING", "EXITED", "ELIMINATED", "UNUSED",
    "Action", "ActionSyntaxError", "compact", "expand", "IllegalAction", "GameState", "new_game", "UnknownOption",
    "Outcome", "VpEntry", "Odds", "BattleReport", "EngineContext", "ScenarioError",
]
