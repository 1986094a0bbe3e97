"""The state of one map game in progress, with an OpenSpiel-like API.

    state = new_game(game, options=("command_control",), seed=1)
    while not state.is_terminal():
        if state.is_chance_node(): ... state.chance_outcomes()
        state.apply_action(state.legal_actions()[0])

A state is a position (position.py: a handful of flat dicts and sets of strings and ints, and
a stack of pending decisions, so `clone` is cheap) with the public API over it. Everything fixed
about the game lives in the model and in `tables_for(game)`, shared by all states. Facts about
one game come from the model only; this module names none.

This module holds the public API (most of it thin methods over the modules that do the work),
the list of legal actions by kind of decision, and apply_action: which checks an action (for
the one action, not by listing every legal one, where its kind allows), hands it to the module
of its job and keeps what it did not change. The work itself, in the order of play: setup.py
(a new game), phases.py (the sequence of play), legal_moves.py (who may move where),
stacking.py, changes.py (what a move or an elimination changes), steps.py (reduced sides), and
for decisions within a phase decisions.py and the modules it wires together; sampling.py draws
a legal action without listing them all. It provides what the mechanisms below it ask of a
position but may not import: an evaluation context, and running the game's hooks.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final, Iterable

from rulec.diagnostics import did_you_mean
from rulec.engine import (arrivals, battles, changes, duties, legal_moves, markers, modifiers, move_memory, phases,
                          placement, procedures, sampling, setup, stacking, steps)
from rulec.engine import combat as fight
from rulec.engine.actions import (ATTACK, CANCEL, DELAY, END, EXIT, MOVE, PLACE, WITH, Action, ActionSyntaxError,
                                  IllegalAction, expand, format_action, parse_words)
from rulec.engine.context import EngineContext
from rulec.engine.decisions import HANDLERS
from rulec.engine.explain import why_illegal
from rulec.engine.frames import Advance, Declare, Moving, Remove, Retreat, Roll
from rulec.engine.movement import costs_of
from rulec.engine.position import Position
from rulec.engine.reach import path_taken, search_moves, unit_reach
from rulec.engine.records import Outcome
from rulec.engine.setup import UnknownOption  # noqa: F401 (new_game raises it: exported with it)
from rulec.engine.statuses import ELIMINATED, EXITED, PENDING
from rulec.engine.victory import outcome_of
from rulec.runtime.model import Game, Hex, Unit

CHANCE: Final = -1
TERMINAL: Final = -4

# Steps of a battle's declaration: only the battle being declared changes, so the traces (which read the position,
# its markers, history and the turn, never a declaration) still hold; the AI tries many declarations from one
# position. Not `resolve`: it records the attack in the history, which a trace's condition may read.
_DECLARING: Final = frozenset({ATTACK, WITH, CANCEL})
# What a declaration's steps keep for the same reason: the traces; who may still attack, who owes an attack and the
# duties still open (duties.py); which unit may join which battle, under the attackers it was asked with, and which
# hex holds a duty's target (joining.py, duties.py); the phase's targets, and which may be joined (battles.py).
# Asked of every unit and target at each step of the declaration, and again when it is called off.
_KEPT_WHILE_DECLARING: Final = frozenset({"trace", "trace bits", "trace flags", "trace without", "may_join", "duty target",
                                   duties.READY, duties.MUST_ATTACK, duties.OPEN, duties.DUTY_HEXES, battles.TARGETS,
                                   battles.JOINABLE_TARGETS, battles.JOINED})


def _two_steps_at_once(action: Action) -> bool:
    """An order legal without being listed when no decision is pending: `move UNIT HEX`, `exit UNIT EDGE` or
    `place UNIT HEX` (legal_orders). Every other legal action is in the list of legal actions."""
    kind = action.kind
    return kind == EXIT or ((kind == MOVE or kind == PLACE) and action.hex is not None)


def _kept_while_declaring(cache: dict) -> dict:
    """The entries of `cache` a declaration's step keeps (those above), in one pass over the cache (asked of every
    key at every step). Most are kept: the cache copied (in C, no key hashed again), the others taken out."""
    dropped = [key for key in cache
               if not (key in _KEPT_WHILE_DECLARING if type(key) is str
                       else type(key) is tuple and key[0] in _KEPT_WHILE_DECLARING)]
    kept = cache.copy()
    for key in dropped:
        del kept[key]
    return kept


def new_game(game: Game, *, options: Iterable[str] = (), seed: int = 0, scenario: str | None = None) -> "GameState":
    """A game at its start (or at `scenario`'s), with `options` chosen and `seed` for its set-up randomness.

    Raises UnknownOption, or scenarios.ScenarioError for an unknown scenario or options that may not be chosen together."""
    options = tuple(options)
    if scenario is None:
        scenario = game.info.scenario  # a game may name the scenario played when none is chosen
    setup.check_choice(game, options, scenario)
    if game.map is not None and not game.sequence:  # the checker refuses it (no-sequence); a model built in code may not
        raise ValueError(f"game '{game.info.id}' has no sequence of play; the map engine cannot play it")
    state = GameState.__new__(GameState)
    setup.set_up(state, game, tuple(dict.fromkeys(options)), seed, scenario)
    return state


class GameState(Position):
    """One position of a map game; see the module docstring. Build it with `new_game`."""

    # ------------------------------------------------------------ basic queries
    def units_at(self, hex: Hex) -> list[str]:
        return list(stacking.occupants(self).get(hex, ()))

    def off_map(self) -> dict[str, list[str]]:
        """Units not on the map, by status, in game-file order."""
        groups: dict[str, list[str]] = {PENDING: [], EXITED: [], ELIMINATED: []}
        for uid, where in self.where.items():
            if where in groups:
                groups[where].append(uid)
        return groups

    def arrival_turn(self, uid: str) -> int | None:
        """The turn a pending unit is now due (after delays); None: any turn."""
        return self.due.get(uid)

    def steps_left(self, uid: str) -> int:
        """How many steps the unit has left (0 once it is off the map for good)."""
        return steps.steps_left(self, uid)

    def restore_step(self, uid: str) -> bool:
        """Replacements: a reduced unit on the map flips back one side. False if it has no step to regain."""
        return steps.restore_step(self, uid)

    def current_player(self) -> int:
        if self.terminal:
            return TERMINAL
        if self._stack:
            frame = self._stack[-1]
            side = HANDLERS[type(frame)].decider(self, frame)
            return CHANCE if side is None else self.players.index(side)
        return self.players.index(self.phase.side) if self.phase.side else 0

    def is_chance_node(self) -> bool:
        return bool(self._stack) and type(self._stack[-1]) is Roll and not self.terminal

    def context(self, unit: Unit | None = None, marking: tuple[str | None, tuple[int, int]] | None = None) -> EngineContext:
        return EngineContext(self, unit, marking)

    def run_game_hooks(self, event: str, unit: Unit | None = None) -> None:
        procedures.run_game_hooks(self, event, unit)

    # ------------------------------------------------------------ pending decisions (read-only views)
    @property
    def battle(self) -> Roll | None:
        """The battle waiting for its die roll (its `.odds`, `.battle`), if one is."""
        frame = self.pending
        return frame if type(frame) is Roll else None

    @property
    def declaring(self) -> Declare | None:
        """The battle being declared (its targets and attackers so far), if one is."""
        frame = self.pending
        return frame if type(frame) is Declare else None

    @property
    def retreats(self) -> list[Retreat]:
        """The retreats ordered and not yet made, the next first."""
        return [f for f in reversed(self._stack) if type(f) is Retreat]

    @property
    def advancing(self) -> Advance | None:
        """The victor's chance to advance after combat, when it is the decision due."""
        frame = self.pending
        return frame if type(frame) is Advance else None

    @property
    def removing(self) -> str | None:
        """The side that must remove units from over-stacked hexes now, if any."""
        frame = self.pending
        return frame.side if type(frame) is Remove else None

    def is_terminal(self) -> bool:
        return self.terminal

    def history(self) -> list[Action]:
        return [*self._played, *self._history]

    def last_action(self) -> Action | None:
        """The action played last (None before the first): history()[-1] without copying the history."""
        if self._history:
            return self._history[-1]
        return self._played[-1] if self._played else None

    def returns(self) -> list[float]:
        if not self.terminal:
            return [0.0] * len(self.players)
        result = self.outcome()
        if result.winner is None:
            return [0.0] * len(self.players)
        return [1.0 if side == result.winner else -1.0 for side in self.players]

    def outcome(self) -> Outcome:
        return outcome_of(self)

    def arrange(self, units: dict[str, str], *, turn: int | None = None, phase: str | None = None) -> "GameState":
        """A copy with only `units` in play, at the start of `phase` of `turn` (no award scored for it).

        Each value is a hex, or 'pending' for a unit waiting to arrive (due this turn,
        or any turn if it arrives when its owner chooses); every other unit is set
        aside. 'Holds' objectives go to the side of a unit placed on them. For tests,
        puzzles and scenario editors.
        """
        return setup.arrange(self, units, turn=turn, phase=phase)

    # ------------------------------------------------------------ markers (for hooks, scenarios and tests)
    def mark(self, target: str, marker: str) -> None:
        """Put `marker` on a unit (its id) or a hex (its number), stamped with the current phase."""
        markers.mark(self, target, marker)

    def unmark(self, target: str, marker: str) -> None:
        """Take `marker` off a unit or a hex (nothing happens if it carries none)."""
        markers.unmark(self, target, marker)

    def markers_on(self, target: str) -> tuple[str, ...]:
        """The markers a unit (by id) or a hex (by number) carries, in the order they were put on."""
        return tuple(markers.on_unit(self, target) or markers.on_hex(self, target))

    # ------------------------------------------------------------ text
    def action_to_string(self, action: Action) -> str:
        return format_action(action, self.tables.short_name)

    def parse_action(self, text: str) -> Action:
        """The action `text` names, if it is legal here (ActionSyntaxError, IllegalAction otherwise).

        One action only: a line that stands for several ("attack 0807 with 357 358") is
        read by `parse_orders`.
        """
        action = self._canonical(parse_words(text, self._unit_id, self._hex_id))
        if len(expand(action)) > 1:
            raise ActionSyntaxError(f"'{text.strip()}' is several orders: a battle is declared with "
                                    f"'attack HEX', then 'with UNIT' for each attacker, then 'resolve'")
        self._check(action)
        return action

    def parse_orders(self, text: str) -> list[Action]:
        """The actions one line of orders stands for, each legal after the ones before it.

        "attack 0807 with 357, 358" (the one-line notation of humans and old saved games)
        gives `attack 0807`, `with 357`, `with 358`, `resolve`; any other line one action.
        ActionSyntaxError or IllegalAction (for the step that is refused) otherwise.
        """
        steps = expand(self._canonical(parse_words(text, self._unit_id, self._hex_id)))
        if len(steps) == 1:
            self._check(steps[0])
            return steps
        trial = self.clone()
        for step in steps:
            trial.apply_action(step)
        return steps

    def explain(self, text: str) -> str | None:
        """Why the order `text` is illegal here (None if it is legal; a one-line attack is checked step by step)."""
        try:
            self.parse_orders(text)
        except (ActionSyntaxError, IllegalAction) as error:
            return str(error)
        return None

    def _unit_id(self, word: str) -> str:
        uid = self.tables.unit_names.get(word.lower())
        if uid is None:
            hint = did_you_mean(word, sorted(self.tables.short_name.values()))
            raise ActionSyntaxError(f"no unit '{word}'" + (f"; {hint}" if hint else ""))
        return uid

    def _hex_id(self, word: str) -> Hex:
        if word in self.tables.distance:
            return word
        padded = word.zfill(len(self.tables.hexes[0]))
        if padded in self.tables.distance:
            return padded
        raise ActionSyntaxError(f"no hex '{word}' on the map")

    def __str__(self) -> str:
        side = self.phase.side or ""
        return f"{self.game.info.turn_label(self.turn)} (turn {self.turn}), {self.phase.name} [{side}], VP {self.vp}"

    # ------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        cached = self._cache.get("legal")
        if cached is None:
            cached = self._cache["legal"] = self._legal_actions()
        return list(cached)

    def legal_orders(self) -> list[Action]:
        """The legal actions with each `move UNIT` (a move's first step) replaced by that unit's moves given at
        once (`move UNIT HEX`, `exit UNIT EDGE`): every order a player may type now, for lists, help and AIs
        that weigh a move by where it ends. Longer than legal_actions() in a movement phase, by design."""
        if "legal" not in self._cache and not self._stack and not self.terminal and self.phase.kind == "movement":
            return legal_moves.movement_orders(self)  # (the list of actions itself not made: no one asked for it)
        actions = self.legal_actions()
        if self._stack or self.phase.kind != "movement":
            return actions
        orders: list[Action] = []
        for a in actions:
            if a.kind == MOVE and a.hex is None and a.unit is not None:
                orders += legal_moves.listed_moves(self, a.unit)
            else:
                orders.append(a)
        return orders

    def sample_legal_action(self, rng) -> Action:
        """A legal action drawn uniformly at random with `rng` (a random.Random): the distribution of
        rng.choice(self.legal_actions()), without listing every action where a movement phase allows (sampling.py)."""
        drawn = sampling.sample_action(self, rng)
        if drawn is None:
            drawn = sampling.choice(rng, self.legal_actions())
        self._cache["drawn"] = drawn  # known legal in this position: apply_action need not ask again
        return drawn

    def sample_legal_order(self, rng) -> Action:
        """A legal order drawn uniformly at random: the distribution of rng.choice(self.legal_orders()) (sampling.py)."""
        drawn = sampling.sample_order(self, rng)
        if drawn is None:
            drawn = sampling.choice(rng, self.legal_orders())
        self._cache["drawn"] = drawn  # known legal in this position: apply_action need not ask again
        return drawn

    def is_legal(self, action: Action) -> bool:
        """May `action` be played now? True for the listed actions, and for orders that do two steps at once
        (`move UNIT HEX`, `exit UNIT EDGE`, `place UNIT HEX`), which are legal without being listed."""
        return self._is_legal(self._canonical(action))

    def moves_of(self, uid: str) -> list[Action]:
        """Every legal one-step order of `uid` now: `move UNIT HEX` for each hex it may end its move in, and
        `exit UNIT EDGE` for each edge it may leave by (a move's second step lists these; each is also legal
        at once, in place of both steps). Empty when the unit may not move now."""
        return legal_moves.moves_of(self, uid)

    def may_end_move(self, uid: str, h: Hex) -> bool:
        """Does movement { may_end_move } let `uid` end a move in `h` now (True without the rule)?"""
        return legal_moves.may_end_move(self, uid, h)

    def move_cost(self, uid: str, hex: Hex) -> int | Fraction | None:
        """The MP `uid` would spend to end its move in `hex` now, or None if that is not a legal move.

        The cheapest path's cost; a river crossing (which uses every MP) costs the whole
        allowance, and a unit placed anywhere spends none. Worked out only when asked.
        """
        if not self.is_legal(Action.move(uid, hex)):
            return None
        return search_moves(self, uid, costs_of).destinations.get(hex)

    def exit_cost(self, uid: str, edge: str) -> int | Fraction | None:
        """The MP `uid` would spend to leave the map by `edge` now (the step off included), or None if it cannot."""
        if not self.is_legal(Action.exit(uid, edge)):
            return None
        return search_moves(self, uid, costs_of).exits.get(edge)

    def may_end_phase(self) -> bool | None:
        """Is `end` among the legal actions, when that is known without listing them all (an AI looking ahead asks of
        many positions whether the mover is free or reacting): True or False, or None when only the list tells."""
        if self.terminal or self._stack:
            return None if self._stack else False
        kind = self.phase.kind
        if kind == "movement":
            return None if arrivals.entries_may_be_due(self) else True  # reinforcements that must enter hold it open
        if kind == "combat":
            return None if duties.binding(self) else True  # a duty still open holds the phase open
        if kind == "placement" and placement.rules(self).all:
            return not placement.placements(self)  # units still to place hold the phase open
        return True

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if not self.is_chance_node():
            return []
        die = self.game.info.die
        return [(Action.roll(n), 1.0 / die) for n in range(1, die + 1)]

    def chance_results(self) -> list[str]:
        """What each of chance_outcomes() leads to, in the same order: the battle's result code for each die roll
        (the combat results table's, after the die modifier). Outcomes of one result leave the same position (only
        the battle's report and the history tell the roll), so an AI that weighs every outcome plays one of each."""
        if not self.is_chance_node():
            return []
        frame = self._stack[-1]
        assert type(frame) is Roll  # (is_chance_node)
        return battles.roll_results(self, frame)

    def _legal_actions(self) -> list[Action]:
        if self.terminal:
            return []
        if self._stack:
            frame = self._stack[-1]
            return HANDLERS[type(frame)].legal(self, frame)
        kind = self.phase.kind
        if kind == "movement":  # (reinforcement_delay = false: reinforcements due now enter before the phase ends)
            return legal_moves.with_end(self, legal_moves.movement_actions(self))
        if kind == "combat":
            actions = battles.target_actions(self)
            if duties.binding(self) and any(duties.open_duties(self)):
                return actions  # mandatory combat: the phase goes on until every duty is met
        elif kind == "placement":
            actions = placement.placements(self)
            if actions and placement.rules(self).all:
                return actions  # placement { all = true }: every unit that can be placed must be, first
        else:
            actions = []
        actions.append(Action.end())
        return actions

    # ------------------------------------------------------------ zones of control, allowances, odds
    def allowance(self, uid: str) -> int:
        """The MP a unit may spend now: its movement allowance through the game's unit modifiers."""
        return modifiers.allowance(self, uid)

    def odds(self, action: Action | None = None) -> fight.Odds:
        """The column and modifiers a battle would be resolved with now.

        With no argument: the battle being declared, as declared so far (or the one waiting
        for its die). With an `attack HEX with UNIT...` action: that battle, if it were declared.
        """
        if action is None:
            frame = self.pending
            if type(frame) is Roll:
                return frame.odds
            if type(frame) is not Declare or not frame.attackers:
                raise ValueError("no battle is being declared (or it has no attacker yet)")
            return battles.odds(self, frame.targets, frame.attackers)
        assert action.hex is not None, "odds of an attack"
        return battles.odds(self, (action.hex,), action.units)

    # ------------------------------------------------------------ applying actions
    def apply_action(self, action: Action) -> None:
        """Play `action` (IllegalAction if it is not legal now): the module of its job carries it out (changes.py,
        battles.py, placement.py, phases.py, or the pending frame's handler in decisions.py), and what is still
        known of the position is kept (a move patches the stacking of the position before, stacking.carry_over)."""
        action = self._canonical(action)
        self._check(action)
        kind = action.kind
        stack = self._stack
        if stack and type(stack[-1]) is Moving:
            stack.pop()  # a move's second step: the chosen unit moves, exits, or is put back (cancel)
            if kind == CANCEL:
                self._history.append(action)
                self._keep_position()
                return
        elif kind == MOVE and action.hex is None:  # a move's first step: the unit is chosen, nothing moves yet
            assert action.unit is not None and self.phase.side is not None  # a movement phase is a side's
            self._history.append(action)
            stack.append(Moving(self.phase.side, action.unit))
            self._keep_position()
            return
        before = self._cache
        standing = self._standing  # (handed on as it is unless a unit changes hexes: Position._standing)
        relocated = self.last_relocated
        mover = action.unit if kind == MOVE or kind == EXIT else None
        left = self.pos.get(mover) if mover is not None else None
        # The mover's reach, which tells the objectives its path passed: asked in the position before, whose cache
        # knows it (the action's check asked for it), not in an empty one; or, where that path passes objectives the
        # mover's side holds, the search that gives the path taking the most (path_taken)
        reach = path_taken(self, mover, unit_reach(self, mover), action.hex, action.edge) if mover is not None else None
        # What a declaration keeps: the battle being declared may read it (who may join)
        fresh = self._cache = _kept_while_declaring(before) if kind in _DECLARING else {}
        self._history.append(action)
        if kind == MOVE:
            assert action.unit is not None and action.hex is not None and reach is not None  # a second step names both
            changes.move(self, action.unit, action.hex, reach)
        elif kind == EXIT:
            assert action.unit is not None and action.edge is not None and reach is not None
            changes.leave_map(self, action.unit, action.edge, reach)
        elif kind == DELAY:
            assert action.unit is not None
            self.due[action.unit] = self.turn + 1
        elif stack:
            frame = stack[-1]
            HANDLERS[type(frame)].apply(self, frame, action)
            self._settle()
        elif kind == ATTACK:
            battles.declare(self, action)
        elif kind == PLACE:
            assert action.unit is not None
            if action.hex is None:
                placement.choose(self, action.unit)  # its hex is the next decision
            else:  # both steps in one order
                placement.place(self, action.unit, action.hex)
        elif kind == END:
            phases.end_phase(self)
        if self.game.victory is not None and self.game.victory.sudden_death and not self.terminal:
            phases.check_sudden_death(self, ("always",))
        during = self._cache
        # A move, exit or delay changed where one unit stands (a delay: none), unless a hook it ran moved or
        # eliminated others (changes.relocate and eliminate make a new cache: `fresh` is gone): patch what it
        # changed, keep the rest. Whatever else the action did, who stands where is known as it left it: handed on
        # where nobody moved, patched by changes.py where a unit changed hexes.
        if (kind == MOVE or kind == EXIT or kind == DELAY) and during is fresh:
            assert action.unit is not None
            self._cache = {}
            if kind != DELAY:  # (a delay moves nobody: who stands where is known as it was)
                self._standing = {}  # (not what the action asked meanwhile: patched from the position before)
            stacking.carry_over(self, before, standing, action.unit, left, action.hex)
            if not self._looking_ahead:  # (worked out when asked, if ever, in a position only looked at)
                if kind != DELAY:
                    move_memory.carry_views(self, standing, action.unit, left, action.hex)
                legal_moves.carry_moves(self, before, standing, action.unit, left, action.hex)
        else:  # what a declaration keeps (`during` holds those of `before`, copied as the action began), unless a
            # hook moved or eliminated a unit (Position.last_relocated tells)
            self._cache = (_kept_while_declaring(during) if kind in _DECLARING and self.last_relocated is relocated
                           else {})

    def look_ahead(self, action: Action) -> GameState:
        """The position after `action` (IllegalAction if it is not legal now), to be looked at: a clone with the
        action played, as an AI weighing each order of a decision makes. What a move would carry over for the
        movement phase's next decisions (every unit's moves, each side's view of the enemy) is not: the position is
        the same, and anything asked of it (of a position played on from it too) is worked out when asked."""
        other = self.clone()
        other._looking_ahead = True
        other.apply_action(action)
        return other

    def _keep_position(self) -> None:
        """After a step that moved nothing (a unit chosen to move, or put back): what is known of the position
        still holds, but not the list of legal actions. A new dict: clones may share the old one."""
        kept = self._cache = self._cache.copy()  # (copied in C, then the two taken out: the cache may be large)
        kept.pop("legal", None)
        kept.pop("drawn", None)

    def _settle(self) -> None:
        """Let the rules make the decisions that need no player (a forced retreat, the next effect of a
        result), until a player must decide or nothing is pending."""
        stack = self._stack
        while stack:
            frame = stack[-1]
            if not HANDLERS[type(frame)].settle(self, frame):
                return
            self._cache = {}  # (who stands where is known as the step left it: Position._standing)

    def _canonical(self, action: Action) -> Action:
        """Attackers listed in game-file order, whatever order the player named them in."""
        if action.kind == ATTACK and action.units:
            order = self.tables.unit_order
            units = tuple(sorted(action.units, key=lambda u: order.get(u, len(order))))
            if units != action.units:
                assert action.hex is not None  # an attack names its target
                return Action.attack(action.hex, units)
        return action

    def _check(self, action: Action) -> None:
        """Raise IllegalAction unless `action` is one of the legal actions (or the one a sampler just drew here)."""
        if self._cache.get("drawn") is not action and not self._is_legal(action):
            message, mechanic = why_illegal(self, action)
            raise IllegalAction(message, markers.rule_cited(self.game, mechanic))

    def _is_legal(self, action: Action) -> bool:
        kind = action.kind
        if kind == MOVE and action.hex is None and not self._stack and legal_moves.free_to_move(self):
            return legal_moves.is_legal_move(self, action)  # the unit's own answer, not a search of every mover's
        listed = self._cache.get("legal")
        if listed is not None and (self._stack or not _two_steps_at_once(action)):
            return action in listed  # listed in this position already (an AI or a player who chose from the list)
        if kind in (MOVE, EXIT, CANCEL) and legal_moves.free_to_move(self):
            return legal_moves.is_legal_move(self, action)  # the common case: the one unit's moves, not every action
        if kind == ATTACK and not action.units and not self._stack and not self.terminal and self.phase.kind == "combat":
            assert action.hex is not None
            return battles.may_attack(self, action.hex)  # the one target's, not every legal action
        if kind == PLACE and action.hex is not None and action.unit is not None and not self._stack and not self.terminal:
            return placement.may_place(self, action.unit, action.hex)  # both steps in one order (not listed)
        if kind == END and not self._stack:
            free = self.may_end_phase()  # known without listing every order, unless something may hold the phase open
            if free is not None:
                return free and action == Action.end()
        legal = self._cache.get("legal")
        if legal is None:
            legal = self._cache["legal"] = self._legal_actions()
        return action in legal

