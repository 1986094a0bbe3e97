"""The state of one map game in progress, with an OpenSpiel-like API.

    state = new_game(game, options=("command_control",), seed=1)
    while not state.is_terminal():
        if state.is_chance_node(): ... state.chance_outcomes()
        state.apply_action(state.legal_actions()[0])

A state is a handful of flat dicts and sets of strings and ints (where each unit
is, what has moved or fought this phase, the VP, the markers of markers.py and the
history record of history.py) and a stack of pending decisions
(frames.py: a battle being declared, its die roll, retreats, losses, the advance),
so `clone` is cheap. Everything
fixed about the game lives in the model and in `tables_for(game)`, shared by all
states. Facts about one game come from the model only; this module names none.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from itertools import chain
from typing import Any, Callable, Iterable, KeysView, Sequence

from rulec.diagnostics import did_you_mean
from rulec.engine import battles, history, markers, placement, procedures, scenarios
from rulec.engine import combat as fight
from rulec.engine import duties, modifiers
from rulec.engine.actions import (ATTACK, CANCEL, DELAY, END, EXIT, MOVE, PLACE, RESOLVE, WITH, Action, ActionSyntaxError,
                                  IllegalAction, expand, format_action, parse_words)
from rulec.engine.battles import BattleReport
from rulec.engine.decisions import HANDLERS
from rulec.engine.explain import why_illegal
from rulec.engine.frames import Advance, Declare, Frame, Remove, Retreat, Roll
from rulec.engine.context import EngineContext
from rulec.engine.history import History
from rulec.engine.markers import MarkerTable
from rulec.engine.movement import NOWHERE, Leave, MoveCosts, Reach, costs_of, merge_moves, patch_moves, reach_of
from rulec.engine.step_costs import StepCosts
from rulec.engine.statuses import ELIMINATED, EXITED, ON_MAP, PENDING, UNUSED
from rulec.engine.tables import Tables, tables_for
from rulec.engine.victory import Outcome, VpEntry, award_amount, outcome_of, score_game_end, sudden_death
from rulec.runtime.model import Game, Hex, MovementMode, Phase, Unit

CHANCE = -1
TERMINAL = -4

# Actions after which every unit stands where it stood.
_IN_PLACE = frozenset({DELAY, ATTACK, WITH, RESOLVE, CANCEL, END})
# Cached facts (GameState._cache keys, with a side) that depend on where the units stand and nothing else.
_WHERE_UNITS_STAND = frozenset({"obstacles", "zoc", "enemy"})
# Steps of a battle's declaration: only the battle being declared changes, so the traces (which read the position,
# its markers and the turn, never a declaration) still hold; the AI tries many declarations from one position.
_DECLARING = frozenset({ATTACK, WITH, RESOLVE, CANCEL})
_TRACES = frozenset({"trace", "trace without"})
# MovementRules.control -> the moments a unit entering a hex takes it (see GameState._enter).
_CONTROL_MOMENTS = {"pass_through": frozenset({"pass", "stop", "move"}), "enter": frozenset({"stop", "move"}),
                    "end_move": frozenset({"move"})}



class UnknownOption(ValueError):
    """An option the game does not define."""


def new_game(game: Game, *, options: Iterable[str] = (), seed: int = 0, scenario: str | None = None) -> "GameState":
    """A game at its start (or at `scenario`'s), with `options` chosen and `seed` for its set-up randomness.

    Raises UnknownOption, or scenarios.ScenarioError for an unknown scenario or options that may not be chosen together."""
    options = tuple(options)
    if scenario is None:
        scenario = game.info.scenario  # a game may name the scenario played when none is chosen
    for option in options:
        if option not in game.options:
            hint = did_you_mean(option, list(game.options))
            raise UnknownOption(f"'{game.info.id}' has no option '{option}'" + (f"; {hint}" if hint else ""))
    scenarios.check_choice(game, scenario, options)
    state = GameState.__new__(GameState)
    state._setup(game, tuple(dict.fromkeys(options)), seed, scenario)
    return state


class GameState:
    """One position of a map game; see the module docstring. Build it with `new_game`."""

    game: Game
    options: tuple[str, ...]
    seed: int
    players: tuple[str, ...]
    turn: int
    vp: dict[str, int]
    # set by scenarios.prepare: the scenario played, the last turn, deployment phases still to come
    # before the start phase, and a placement phase's points left (None: it counts none)
    scenario: str | None
    last_turn: int
    _prelude: tuple[int, ...]
    points_left: int | None

    # ------------------------------------------------------------ set-up
    def _setup(self, game: Game, options: tuple[str, ...], seed: int, scenario: str | None = None) -> None:
        self.game, self.options, self.seed = game, options, seed
        self.tables: Tables = tables_for(game)
        self.players = tuple(game.sides)
        added = {uid for o in options for uid in game.options[o].adds}
        in_play = scenarios.in_play(game, scenario, added)
        # The modifiers in play with these options: changing strength, allowance; of battles (engine/modifiers.py).
        self._modifiers = modifiers.in_play(game, options)
        self._folded_traces: dict = {}  # (trace, side) -> the hexes its map conditions let through (traces.py); shared by clones
        self.vp = {side: 0 for side in game.sides}
        self.vp_log: list[VpEntry] = []
        self.turn = 1
        self.phase_index = 0
        self.terminal = False
        self.decided: Outcome | None = None  # the result of a sudden death that ended the game
        self._history: list[Action] = []
        self._cache: dict = {}

        # Variant counters an option chose at set-up: unit -> the variant it plays as (see _choose_variants).
        self.variants: dict[str, str] = self._choose_variants(in_play, options, seed)
        # The units as they start with this scenario and options (their set-up and arrival; scenarios.py); shared by clones.
        self._setup_units: dict[str, Unit] = scenarios.units_for(game, scenario, options)
        self._units: dict[str, Unit] = {uid: self._side_after(uid, 0) if uid in self.variants else unit
                                        for uid, unit in self._setup_units.items()}
        self.lost_steps: dict[str, int] = {}  # units flipped to a reduced side -> steps lost (see steps below)

        self.pos: dict[str, Hex] = {}
        self.where: dict[str, str] = {}
        self.due: dict[str, int | None] = {}
        for uid, unit in self._setup_units.items():
            if uid not in in_play:
                self.where[uid] = UNUSED
            elif unit.setup is not None:
                self.where[uid], self.pos[uid] = ON_MAP, unit.setup
            else:
                self.where[uid] = PENDING
                self.due[uid] = unit.arrives.turn if unit.arrives else None
        self._able_to_attack: dict[str, frozenset[str]] = {}  # side -> its units with the strength and type to attack
        self.exited_from: dict[str, Hex] = {}  # units that left the map -> the hex they left it from
        self.holders: dict[Hex, str] = scenarios.first_holders(game, scenario)
        self.granted: dict[tuple[str, Hex], int] = {}
        for uid, h in self.pos.items():
            if h in self.tables.objectives:
                self.holders[h] = game.units[uid].side
        self.moved: set[str] = set()
        self.locked: frozenset[str] = frozenset()
        self.markers = MarkerTable()  # markers on units and hexes (markers.py)
        self.past = History()  # what each unit did, by phase (history.py)
        self.past.owner = self
        self.attacked: set[str] = set()
        self.defended: set[str] = set()
        self._phase_attackers: frozenset[str] | None = None  # a combat phase's `attackers` (procedures.py)
        self._stack: list[Frame] = []  # pending decisions, the next one last (see frames.py)
        self._combat_began: tuple[int, int] | None = None  # (turn, phase index) the last combat phase began
        self.last_battle: BattleReport | None = None

        scenarios.prepare(self, scenario)  # its start, length, deployment and VP; free set-up units held back
        # VP given when the game is set up are logged under the phase "setup".
        for option in options:
            for side, amount in game.options[option].vp.items():
                self._score(side, amount, f"option:{option}", phase="setup")
        for option in options:
            choice = game.options[option].choose_variant
            if choice is not None and choice.vp_to:
                for uid, name in self.variants.items():
                    variant = game.units[uid].variant(name)
                    if name == choice.variant and variant.vp:
                        self._score(choice.vp_to, variant.vp, f"{name}:{uid}", unit=uid, phase="setup")
        for award in game.awards:
            if award.trigger.kind == "selected":
                self._score(award.side, award_amount(self, award, None), award.id, phase="setup")
        self._enter_phase()

    def _choose_variants(self, in_play: list[str], options: tuple[str, ...], seed: int) -> dict[str, str]:
        """Units an option puts in play as one of their variants (`choose_variant`), chosen at random with `seed`:
        of the units in play with that variant, in file order, a random count within the option's range."""
        chosen: dict[str, str] = {}
        rng = random.Random(seed)
        for option in options:
            choice = self.game.options[option].choose_variant
            if choice is None:
                continue
            candidates = [uid for uid in in_play if uid not in chosen and self.game.units[uid].variant(choice.variant)]
            low, high = choice.count
            count = rng.randint(min(low, len(candidates)), min(high, len(candidates)))
            picked = set(rng.sample(candidates, count))
            chosen.update((uid, choice.variant) for uid in candidates if uid in picked)
        return chosen

    # ------------------------------------------------------------ steps (units with reduced sides)
    def _side_after(self, uid: str, lost: int) -> Unit:
        """The unit as it plays with `lost` steps lost: its set-up counter, or its reduced side number `lost`."""
        full = self._setup_units[uid]
        variant = full.variant(self.variants[uid]) if uid in self.variants else None
        if variant is not None:  # the counter an option chose at set-up
            full = replace(full, strength=variant.strength, move=variant.move if variant.move is not None else full.move)
        move, kind = full.move, full.type
        for step in full.reduced[:lost]:
            move = step.move if step.move is not None else move
            kind = step.type if step.type is not None else kind
        strength = full.reduced[lost - 1].strength if lost else full.strength
        return replace(full, strength=strength, move=move, type=kind)

    def _set_side(self, uid: str, lost: int) -> None:
        self._units = dict(self._units)  # shared with clones: copied when a unit flips, which is rare
        self._units[uid] = self._side_after(uid, lost)
        if lost:
            self.lost_steps[uid] = lost
        else:
            self.lost_steps.pop(uid, None)
        self._cache = {}
        self._phase_moves = {}  # a new allowance: the moves kept for this phase (shared with clones) are stale
        self._able_to_attack = {}  # a new strength or type: who may attack at all is worked out again

    def _lose_step(self, uid: str) -> int:
        """The unit loses one step: it flips to its next reduced side, or with none left is eliminated.
        Returns the strength that step was worth (all that was left when it is eliminated)."""
        unit = self._units[uid]
        lost = self.lost_steps.get(uid, 0)
        if lost < len(unit.reduced):
            self._set_side(uid, lost + 1)
            return unit.strength - self._units[uid].strength
        self._eliminate(uid)
        return unit.strength

    def steps_left(self, uid: str) -> int:
        """How many steps the unit has left (0 once it is off the map for good)."""
        if self.where[uid] == ELIMINATED:
            return 0
        return self._units[uid].steps - self.lost_steps.get(uid, 0)

    def restore_step(self, uid: str) -> bool:
        """Replacements: a reduced unit on the map flips back one side. False if it has no step to regain."""
        lost = self.lost_steps.get(uid, 0)
        if not lost or self.where[uid] != ON_MAP:
            return False
        self._set_side(uid, lost - 1)
        return True

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
        return self.where[uid] == PENDING and self.due.get(uid, -1) == scenarios.NEVER

    def units(self, side: str | None = None, status: str | None = None) -> list[str]:
        """Unit ids in game-file order, of one side and/or with one status ('map', 'pending', ...)."""
        return [uid for uid, unit in self._units.items()
                if (side is None or unit.side == side) and (status is None or self.where[uid] == status)]

    def units_at(self, hex: Hex) -> list[str]:
        return list(self._occupants().get(hex, ()))

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

    def unit_name(self, uid: str) -> str:
        return self.tables.short_name[uid]

    def current_player(self) -> int:
        if self.terminal:
            return TERMINAL
        if self._stack:
            frame = self._stack[-1]
            side = HANDLERS[frame.__class__].decider(self, frame)
            return CHANCE if side is None else self.players.index(side)
        return self.players.index(self.phase.side) if self.phase.side else 0

    def is_chance_node(self) -> bool:
        return bool(self._stack) and self._stack[-1].__class__ is Roll and not self.terminal

    # ------------------------------------------------------------ pending decisions (read-only views)
    @property
    def pending(self) -> Frame | None:
        """The decision due now, if it is not the phase's own (a battle being declared, a retreat, ...)."""
        return self._stack[-1] if self._stack else None

    @property
    def battle(self) -> Roll | None:
        """The battle waiting for its die roll (its `.odds`, `.battle`), if one is."""
        frame = self.pending
        return frame if frame.__class__ is Roll else None

    @property
    def declaring(self) -> Declare | None:
        """The battle being declared (its targets and attackers so far), if one is."""
        frame = self.pending
        return frame if frame.__class__ is Declare else None

    @property
    def retreats(self) -> list[Retreat]:
        """The retreats ordered and not yet made, the next first."""
        return [f for f in reversed(self._stack) if f.__class__ is Retreat]

    @property
    def advancing(self) -> Advance | None:
        """The victor's chance to advance after combat, when it is the decision due."""
        frame = self.pending
        return frame if frame.__class__ is Advance else None

    @property
    def removing(self) -> str | None:
        """The side that must remove units from over-stacked hexes now, if any."""
        frame = self.pending
        return frame.side if frame.__class__ is Remove else None

    def is_terminal(self) -> bool:
        return self.terminal

    def history(self) -> list[Action]:
        return list(self._history)

    def returns(self) -> list[float]:
        if not self.terminal:
            return [0.0] * len(self.players)
        result = self.outcome()
        if result.winner is None:
            return [0.0] * len(self.players)
        return [1.0 if side == result.winner else -1.0 for side in self.players]

    def outcome(self) -> Outcome:
        return outcome_of(self)

    def clone(self) -> "GameState":
        other = GameState.__new__(GameState)
        other.__dict__.update(self.__dict__)
        for name in ("vp", "pos", "where", "due", "holders", "granted", "lost_steps", "exited_from"):
            setattr(other, name, dict(getattr(self, name)))
        for name in ("moved", "attacked", "defended"):
            setattr(other, name, set(getattr(self, name)))
        other.markers = self.markers.copy()
        self.past.owner = None  # shared: whichever changes it first copies it
        other.past = self.past
        other._stack = list(self._stack)
        other.vp_log = list(self.vp_log)
        other._history = list(self._history)
        return other

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

    def may_end_phase(self) -> bool | None:
        """Is `end` among the legal actions, when that is known without listing them all (an AI looking ahead asks of
        many positions whether the mover is free or reacting): True or False, or None when only the list tells."""
        if self.terminal or self._stack:
            return None if self._stack else False
        kind = self.phase.kind
        if kind == "movement":
            delay = self.game.movement.reinforcement_delay
            due = delay is not True and any(self.where[uid] == PENDING and self.due.get(uid) == self.turn
                                            and self._arrives_now(uid) and not self._delay_allowed(uid)
                                            for uid in self._movers if uid not in self.moved)
            return None if due else True  # reinforcements that must enter now may hold the phase open
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

    def _legal_actions(self) -> list[Action]:
        if self.terminal:
            return []
        if self._stack:
            frame = self._stack[-1]
            return HANDLERS[frame.__class__].legal(self, frame)
        kind = self.phase.kind
        if kind == "movement":
            actions = self._movement_actions()
            if self._entries_due():
                return actions  # reinforcement_delay = false: reinforcements due now enter before the phase ends
        elif kind == "combat":
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

    def _movement_actions(self) -> list[Action]:
        actions: list[Action] = []
        full = self._full_hexes()
        free = self._uncounted()
        ends_rule = self.game.movement.may_end_move
        # A move changes the stacking in two hexes only: a unit that can end its move in
        # neither keeps the moves it had before (see apply_action).
        left, entered, before = self._cache.get("moves before") or (None, None, {})
        segments: dict[str, list[Action] | tuple[Action, ...]] = {}  # unit -> its legal moves
        where, moved, unmoved = self.where, self.moved, self._phase_moves
        held = markers.forbidden(self, "move") if self.markers.units else ()
        for uid in self._movers:
            if uid in moved or uid in held:
                continue
            status = where[uid]
            if status == ON_MAP or (status == PENDING and self._arrives_now(uid)):
                kept = unmoved.get(uid)  # None: its moves depend on where friends stand; redo them
                moves, exits, hexes, to = kept or self._unit_moves(uid)
                if ends_rule is not None:  # where a move may end depends on the position: no patching
                    moves, hexes, to = self._allowed_ends(uid, moves, to)
                    kept = None
                legal = before.get(uid) if kept else None
                if uid in free:  # it does not count for stacking: no hex is full for it
                    legal = moves
                elif legal is None:
                    legal = moves if full.isdisjoint(hexes) else [m for m, h in zip(moves, to) if h not in full]
                elif left in hexes or entered in hexes:
                    legal = patch_moves(legal, moves, to, full, (left, entered))
                segments[uid] = legal
                actions.extend(legal)
                actions.extend(exits)
                if status == PENDING and self._may_delay(uid):
                    actions.append(self.tables.delay_action(uid))
        self._cache["moves"] = segments
        return actions

    def _unit_moves(self, uid: str) -> tuple[tuple[Action, ...], tuple[Action, ...], KeysView[Hex], tuple[Hex, ...]]:
        """Every move and exit of one unit, before the stacking check, and the destinations as a set and in order.

        Within a movement phase only the phasing side moves, so the enemy units a
        search depends on stay put: results are kept for the whole phase, keyed by
        where the unit stands, and shared by clones made during the phase. A unit
        that has not moved yet stands where it began the phase: its moves are also
        kept under its id alone.
        """
        key = self._moves_key(uid) if self._modifiers[1] else (uid, self.pos.get(uid))
        found = self._phase_moves.get(key)
        if found is None:
            reach = self._reach(uid)
            destinations = reach.destinations
            if reach.numbers or not destinations:  # a search's: in hex order, with the hex numbers
                to = tuple(destinations)
                moves = tuple(map(self.tables.movement_row(uid).__getitem__, reach.numbers))
            else:
                to = tuple(sorted(destinations))
                interned = self.tables.move_actions
                moves = tuple(interned.get((uid, h)) or interned.setdefault((uid, h), Action.move(uid, h)) for h in to)
            exits = self.tables.exit_actions(uid, reach.exits) if self.game.movement.exit_map else ()
            found = (moves, exits, destinations.keys(), to)
            if self._keeps_moves(uid):
                self._phase_moves[key] = found
                if uid not in self.moved and not self._modifiers[1]:  # where it stands for the whole phase (see _movement_actions)
                    self._phase_moves[uid] = found
        return found

    def _allowed_ends(self, uid: str, moves: tuple[Action, ...], to: tuple[Hex, ...]
                      ) -> tuple[tuple[Action, ...], frozenset[Hex], tuple[Hex, ...]]:
        """The moves (and their destinations, as a set and in order) that end where movement { may_end_move }
        holds, about the unit where it stands and each destination: evaluated per destination, once a position."""
        key = ("ends", uid)
        found = self._cache.get(key)
        if found is None:
            rule = self.game.movement.may_end_move
            context = EngineContext(self, self._units[uid])
            keep = []
            for h in to:
                context.hex = h
                keep.append(bool(rule(context)))
            allowed = tuple(h for h, ok in zip(to, keep) if ok)
            found = self._cache[key] = (tuple(m for m, ok in zip(moves, keep) if ok), frozenset(allowed), allowed)
        return found

    def may_end_move(self, uid: str, h: Hex) -> bool:
        """Does movement { may_end_move } let `uid` end a move in `h` now (True without the rule)?"""
        if self.game.movement.may_end_move is None:
            return True
        moves, _, _, to = self._unit_moves(uid)
        return h in self._allowed_ends(uid, moves, to)[1]

    def _moves_key(self, uid: str) -> tuple:
        """What a unit's moves are kept under within the phase: where it stands, and its allowance when
        modifiers may change that as the phase goes on (a friendly move may cut a unit's supply)."""
        if self._modifiers[1]:
            return uid, self.pos.get(uid), self.allowance(uid)
        return uid, self.pos.get(uid)

    def _keeps_moves(self, uid: str) -> bool:
        """May this unit's moves be kept for the rest of the phase?

        Not for a landing, nor when friends may not be passed through, nor for a reinforcement when
        entry_blocked decides its entry hexes, nor for a unit in an enemy ZOC whose leave_zoc asks a
        condition of the hex entered: then they depend on where the friendly units are, and those
        move during the phase.
        """
        movement = self.game.movement
        return (self.phase.kind == "movement" and not self._placed_anywhere(uid)
                and self.game.stacking.pass_through_friendly
                and (movement.entry_blocked is None or self.where[uid] != PENDING)
                and (movement.leave_zoc is None or isinstance(movement.leave_zoc.into_zoc, bool)
                     or uid not in self.pos or self.pos[uid] not in self.enemy_zoc(self._units[uid].side)))

    def _placed_anywhere(self, uid: str) -> bool:
        arrival = self._units[uid].arrives
        return self.where[uid] == PENDING and arrival is not None and arrival.placement == "anywhere"

    def _ready_to_attack(self) -> set[str]:
        """The phasing side's units that may still attack this phase (if next to an enemy)."""
        able = self._able_to_attack.get(self.phase.side)
        if able is None:  # the same all game (shared with clones)
            able = self._able_to_attack[self.phase.side] = frozenset(
                u for u in self.tables.units_of.get(self.phase.side, ()) if self._can_attack(u))
        ready = able.difference(self.attacked, markers.forbidden(self, "attack")) if self.markers.units else \
            able.difference(self.attacked)
        if self._phase_attackers is not None:
            ready &= self._phase_attackers
        return ready if self.game.combat.may_attack is None else duties.allowed(self, ready)

    def _can_attack(self, uid: str) -> bool:
        """Has the unit the strength and the type to attack at all?"""
        unit = self._units[uid]
        kind = self.game.unit_types.get(unit.type)
        return unit.strength > 0 and (kind is None or kind.can_attack)

    # ------------------------------------------------------------ movement helpers
    def _occupants(self) -> dict[Hex, list[str]]:
        occupants = self._cache.get("occupants")
        if occupants is None:
            occupants = {}
            for uid, h in self.pos.items():
                occupants.setdefault(h, []).append(uid)
            self._cache["occupants"] = occupants
        return occupants

    def _occupant_sides(self) -> dict[Hex, frozenset[str]]:
        """The sides standing in each occupied hex, worked out once a position (occupied, enemy_occupied, ...)."""
        sides = self._cache.get("occupant sides")
        if sides is None:
            units = self._units
            sides = self._cache["occupant sides"] = {h: frozenset(units[uid].side for uid in uids)
                                                     for h, uids in self._occupants().items()}
        return sides

    def _occupants_after(self, occupants: dict[Hex, list[str]], uid: str, left: Hex | None,
                         to: Hex | None) -> dict[Hex, list[str]]:
        """The occupants once `uid` has moved from `left` to `to` (None: off the map), from those before."""
        after = occupants.copy()
        if left is not None:
            if len(after[left]) == 1:
                del after[left]
            else:
                after[left] = [u for u in after[left] if u != uid]
        if to is not None:
            there = after.get(to)
            if there is None:
                after[to] = [uid]
            else:  # in the order of self.pos, as _occupants lists them
                there = set(there)
                there.add(uid)
                after[to] = [u for u in self.pos if u in there]
        return after

    def enemy_zoc(self, side: str) -> frozenset[Hex]:
        """The hexes in the zone of control of `side`'s enemies."""
        key = ("zoc", side)
        zoc = self._cache.get(key)
        if zoc is None:
            zoc_into, typed, units = self.tables.zoc_into, self.tables.zoc_into_typed, self._units
            zoc = self._cache[key] = frozenset(chain.from_iterable(
                [typed.get(units[uid].type, zoc_into)[h] for uid, h in self.pos.items() if units[uid].side != side]))
        return zoc

    def _enemy_occupied(self, side: str) -> frozenset[Hex]:
        key = ("enemy", side)
        hexes = self._cache.get(key)
        if hexes is None:
            hexes = self._cache[key] = frozenset(h for uid, h in self.pos.items() if self._units[uid].side != side)
        return hexes

    def _arrives_now(self, uid: str) -> bool:
        """A pending unit that may enter the map in the current phase."""
        due = self.due.get(uid)
        arrival = self._units[uid].arrives
        if due is None:
            return True
        if due != self.turn:
            return False
        if arrival is not None and arrival.phase is not None:
            return arrival.phase == self.phase.id
        return self.tables.first_movement.get(self.phase.side) == self.phase_index

    def _entries_due(self) -> list[str]:
        """Without reinforcement_delay, the reinforcements due this turn that can enter now and must (docs/rulings.md)."""
        moves = self._cache.get("moves") if self.game.movement.reinforcement_delay is not True else None
        return [u for u, legal in (moves or {}).items() if legal and self.where[u] == PENDING and self.due.get(u) == self.turn
                and not self._delay_allowed(u)]

    def _may_delay(self, uid: str) -> bool:
        return self.due.get(uid) == self.turn and self._delay_allowed(uid)

    def _delay_allowed(self, uid: str) -> bool:
        """May the owner hold `uid` back a turn (movement { reinforcement_delay }, a condition about the unit
        evaluated once a phase)?"""
        rule = self.game.movement.reinforcement_delay
        if isinstance(rule, bool):
            return rule
        key = ("delay", uid)
        allowed = self._phase_moves.get(key)
        if allowed is None:
            allowed = self._phase_moves[key] = bool(rule(EngineContext(self, self._units[uid])))
        return allowed

    def _reach(self, uid: str) -> Reach:
        key = ("reach", *self._moves_key(uid)) if self._modifiers[1] else ("reach", uid, self.pos.get(uid))
        reach = self._phase_moves.get(key) or self._cache.get(key)
        if reach is None:
            reach = self._compute_reach(uid)
            if self._keeps_moves(uid):
                self._phase_moves[key] = reach
            else:
                self._cache[key] = reach
        return reach

    def _compute_reach(self, uid: str) -> Reach:
        return self._search_moves(uid, reach_of)

    def allowance(self, uid: str) -> int:
        """The MP a unit may spend now: its movement allowance through the game's unit modifiers."""
        return modifiers.allowance(self, uid)

    def _search_moves(self, uid: str, search: Callable[..., Any]) -> Any:
        """Run `search` (movement.reach_of, or movement.costs_of for what moves cost) with the unit's
        allowance, start or entry hexes and obstacles; either result has `destinations`."""
        unit = self._units[uid]
        allowance = self.allowance(uid) if self._modifiers[1] else unit.move
        enemy, zoc, friends = self._obstacles(unit.side)
        if self.game.movement.zoc == "none":
            zoc = 0
        if self.game.stacking.pass_through_friendly:
            friends = 0  # no friend is in the way
        tables = self.tables
        costs = self._step_costs(unit) if tables.varying_costs else tables.base_costs
        if self.where[uid] == ON_MAP:
            locked = uid in self.locked
            if locked:
                leave = self._leave_zoc(unit)
            elif zoc and not self.game.movement.zoc_to_zoc and zoc & tables.hex_bit[self.pos[uid]]:
                leave = self._leave_zoc(unit)  # starting in an enemy ZOC: the ZOC-to-ZOC exception, if any
            else:
                leave = None
            found = search(self.tables, allowance=allowance, start=self.pos[uid], enemy=enemy, zoc=zoc, friends=friends,
                           locked=locked, leave=leave, costs=costs)
            if self.game.modes and not locked:  # a unit held in an enemy zone of control leaves only as leave_zoc says
                found = self._moves_by_mode(unit, found, search, enemy, zoc, friends)
            return found
        arrival = unit.arrives
        if arrival is not None and arrival.placement == "anywhere":
            occupied = self._occupants()
            allowed = set(arrival.terrain)
            terrain = self.game.map.terrain
            spots = {h: 0 for h in self.tables.hexes
                     if h not in occupied and (not allowed or set(terrain.get(h, ())) <= allowed)}
            # A unit placed anywhere spends no MP (spots hold no objectives mask either).
            return Reach(spots, ()) if search is reach_of else MoveCosts(spots, {})
        hexes = arrival.hexes if arrival is not None else ()
        entry_cost = costs.offmap_entry_cost
        reach = search(self.tables, allowance=allowance, start=None,
                       entries=tuple((h, entry_cost[h]) for h in self._open_entries(unit, hexes)),
                       enemy=enemy, zoc=zoc, friends=friends, costs=costs)
        if reach.destinations or self.game.movement.blocked_entry != "closest_legal":
            return reach
        # Blocked entry: the closest hexes of the same map edge where entering is legal.
        for ring in self._fallback_rings(hexes):
            reach = search(self.tables, allowance=allowance, start=None,
                           entries=tuple((h, entry_cost[h]) for h in self._open_entries(unit, ring)),
                           enemy=enemy, zoc=zoc, friends=friends, costs=costs)
            if reach.destinations:
                return reach
        return NOWHERE if search is reach_of else MoveCosts({}, {})

    def _open_entries(self, unit: Unit, hexes: Sequence[Hex]) -> Sequence[Hex]:
        """The entry hexes movement { entry_blocked } does not block for `unit` (the search itself skips
        enemy-occupied ones)."""
        rule = self.game.movement.entry_blocked
        if rule is None:
            return hexes
        context = EngineContext(self, unit)
        open_hexes = []
        for h in hexes:
            context.hex = h
            if not rule(context):
                open_hexes.append(h)
        return open_hexes

    def _step_costs(self, unit: Unit) -> StepCosts:
        """What steps cost `unit` in this phase (its type's costs, with the cost expressions' values of the phase)."""
        tables = self.tables
        if not tables.varying_costs:
            return tables.base_costs
        return tables.costs_for(unit.type, self._cost_values())

    def _cost_values(self) -> tuple:
        """The values of the game's cost expressions in this phase (Tables.cost_expressions), worked out as it begins."""
        values = self._phase_moves.get("cost values")
        if values is None:
            context = EngineContext(self)
            values = self._phase_moves["cost values"] = tuple(e(context) for e in self.tables.cost_expressions)
        return values

    def _moves_by_mode(self, unit: Unit, found: Any, search: Callable[..., Any], enemy: int, zoc: int, friends: int) -> Any:
        """`found` (a search's result for an ordinary move) with the moves of every movement mode the unit may use."""
        start = self.pos[unit.id]
        for mode in self.game.modes.values():
            if not self._may_use(mode, unit):
                continue
            if "enemy_zoc" in mode.may_not_start_in and zoc & self.tables.hex_bit[start]:
                continue
            costs = self.tables.mode_costs_for(mode, self._cost_values())
            blocked = enemy | zoc if "enemy_zoc" in mode.may_not_enter else enemy
            other = search(self.tables, allowance=self.allowance(unit.id) * costs.per_mp, start=start, enemy=blocked, zoc=zoc,
                           friends=friends, costs=costs)
            found = merge_moves(self.tables, found, other, costs.per_mp)
        return found

    def _may_use(self, mode: MovementMode, unit: Unit) -> bool:
        """May `unit` move in `mode` this phase (its option chosen, the unit eligible)? Worked out once a phase."""
        key = ("mode", mode.id, unit.id)
        allowed = self._phase_moves.get(key)
        if allowed is None:
            allowed = self._phase_moves[key] = (mode.option is None or mode.option in self.options) and (
                mode.eligible is None or bool(mode.eligible(EngineContext(self, unit))))
        return allowed

    def _leave_zoc(self, unit: Unit) -> Leave | None:
        """How `unit`, in an enemy zone of control, may leave it this phase (None: it may not); see movement.Leave.

        Whether the rule applies to the unit is worked out once a phase; an `into_zoc` condition about
        the hex entered, for each enemy-controlled neighbour once a position (it may ask where friends are).
        """
        key = ("leave", unit.id)
        if key in self._phase_moves:
            leave = self._phase_moves[key]
        else:
            rule = self.game.movement.leave_zoc
            leave = None
            if rule is not None and (rule.option is None or rule.option in self.options) and (
                    rule.when is None or rule.when(EngineContext(self, unit))):
                leave = Leave(rule.cost, rule.into_zoc is True, self.tables.hexsides_of(rule.not_across),
                              then_stop=rule.then_stop)
            self._phase_moves[key] = leave
        into = self.game.movement.leave_zoc.into_zoc if leave is not None else False
        if isinstance(into, bool):
            return leave
        found = self._cache.get(key)
        if found is None:
            context, index = EngineContext(self, unit), self.tables.index
            zoc, allowed = self.enemy_zoc(unit.side), set()
            for n in self.tables.neighbours[self.pos[unit.id]]:
                context.hex = n
                if n in zoc and into(context):
                    allowed.add(index[n])
            found = self._cache[key] = replace(leave, into_hexes=frozenset(allowed))
        return found

    def move_cost(self, uid: str, hex: Hex) -> int | Fraction | None:
        """The MP `uid` would spend to end its move in `hex` now, or None if that is not a legal move.

        The cheapest path's cost; a river crossing (which uses every MP) costs the whole
        allowance, and a unit placed anywhere spends none. Worked out only when asked.
        """
        if not self._is_legal(Action.move(uid, hex)):
            return None
        return self._search_moves(uid, costs_of).destinations.get(hex)

    def exit_cost(self, uid: str, edge: str) -> int | Fraction | None:
        """The MP `uid` would spend to leave the map by `edge` now (the step off included), or None if it cannot."""
        if not self._is_legal(Action.exit(uid, edge)):
            return None
        return self._search_moves(uid, costs_of).exits.get(edge)

    def _obstacles(self, side: str) -> tuple[int, int, int]:
        """Hexes of the enemies of `side`, of their zones of control, and of `side`'s units, as bits of
        hex numbers (see Tables.index)."""
        key = ("obstacles", side)
        found = self._cache.get(key)
        if found is None:
            bit, zoc_bits, units = self.tables.hex_bit, self.tables.zoc_bits, self._units
            typed = self.tables.zoc_bits_typed  # unit types whose ZOC reaches across more hexsides
            enemy = zoc = friends = 0
            for uid, h in self.pos.items():
                if units[uid].side != side:
                    enemy |= bit[h]
                    zoc |= typed[units[uid].type][h] if typed and units[uid].type in typed else zoc_bits[h]
                else:
                    friends |= bit[h]
            found = self._cache[key] = (enemy, zoc, friends)
        return found

    def _fallback_rings(self, hexes: tuple[Hex, ...]) -> list[list[Hex]]:
        """Hexes of the entry area's map edge outside the area, grouped by distance to the area, nearest first."""
        edges = self.game.map.edges
        counts = {e: sum(h in hs for h in hexes) for e, hs in edges.items()}
        if not hexes or not counts or max(counts.values()) == 0:
            return []
        best = max(counts.values())
        candidates = {h for e, hs in edges.items() if counts[e] == best for h in hs} - set(hexes)
        distance = self.tables.distance
        rings: dict[int, list[Hex]] = {}
        for h in candidates:
            rings.setdefault(min(distance[a][h] for a in hexes), []).append(h)
        return [sorted(rings[d]) for d in sorted(rings)]

    def _full_hexes(self) -> set[Hex]:
        """Hexes no moving unit may end its move in (stacking); see _may_end. Do not modify."""
        full = self._cache.get("full")
        if full is None:
            stuck = self.moved | self.locked | markers.forbidden(self, "move")  # units that cannot move away any more
            crowded = self._crowded
            full = self._cache["full"] = {h for h, units in self._occupants().items() if crowded(units, stuck)}
        return full

    def _uncounted(self) -> frozenset[str]:
        """Units that do not count toward the stacking limit (stacking { counts }), worked out per position."""
        counts = self.game.stacking.counts
        if counts is None:
            return frozenset()
        found = self._cache.get("uncounted")
        if found is None:
            found = self._cache["uncounted"] = frozenset(
                uid for uid in chain(self.pos, (u for u, w in self.where.items() if w == PENDING))
                if not counts(EngineContext(self, self._units[uid])))
        return found

    def _crowded(self, units: list[str], stuck: set[str]) -> bool:
        """Is a hex holding `units` full for a moving unit, given the units that cannot move away?"""
        if self.game.stacking.counts is not None:
            free = self._uncounted()
            units = [u for u in units if u not in free]
        over = len(units) + 1 - self.game.stacking.limit
        if over <= 0:
            return False
        if not self.game.stacking.pass_through_friendly:
            return True
        if len(units) == 1:
            return units[0] in stuck
        return len(units) - len(stuck.intersection(units)) < over

    def _may_end(self, uid: str | None, h: Hex) -> bool:
        """Stacking: may this unit end its move in `h`?

        Within the limit, yes. Over it, only when the limit is checked at the end of
        the phase and enough of the units already there can still move away.
        """
        free = self._uncounted()
        if uid in free:
            return True  # a unit that does not count for stacking ends its move anywhere
        others = [u for u in self._occupants().get(h, ()) if u != uid and u not in free]
        over = len(others) + 1 - self.game.stacking.limit
        if over <= 0:
            return True
        if not self.game.stacking.pass_through_friendly:
            return False
        held = markers.forbidden(self, "move")
        movable = [u for u in others if u not in self.moved and u not in self.locked and u not in held]
        return len(movable) >= over

    # ------------------------------------------------------------ combat helpers
    def odds(self, action: Action | None = None) -> fight.Odds:
        """The column and modifiers a battle would be resolved with now.

        With no argument: the battle being declared, as declared so far (or the one waiting
        for its die). With an `attack HEX with UNIT...` action: that battle, if it were declared.
        """
        if action is None:
            frame = self.pending
            if frame.__class__ is Roll:
                return frame.odds
            if frame.__class__ is not Declare or not frame.attackers:
                raise ValueError("no battle is being declared (or it has no attacker yet)")
            return battles.odds(self, frame.targets, frame.attackers)
        return battles.odds(self, (action.hex,), action.units)

    # ------------------------------------------------------------ applying actions
    def apply_action(self, action: Action) -> None:
        action = self._canonical(action)
        self._check(action)
        kind = action.kind
        before = self._cache
        left = self.pos.get(action.unit) if kind == MOVE or kind == EXIT else None
        self._cache = {}
        if kind in _IN_PLACE and "occupants" in before:
            self._cache["occupants"] = before["occupants"]  # no unit moves
        if kind in _DECLARING:  # the battle declared (resolve: its odds) reads the position's traces
            for key, value in before.items():
                if key.__class__ is tuple and key[0] in _TRACES:
                    self._cache[key] = value
        self._history.append(action)
        if kind == MOVE:
            self._move(action.unit, action.hex)
        elif kind == EXIT:
            self._exit(action.unit, action.edge)
        elif kind == DELAY:
            self.due[action.unit] = self.turn + 1
        elif self._stack:
            frame = self._stack[-1]
            HANDLERS[frame.__class__].apply(self, frame, action)
            self._settle()
        elif kind == ATTACK:
            battles.declare(self, action)
        elif kind == PLACE:
            if action.hex is None:
                placement.choose(self, action.unit)  # its hex is the next decision
            else:  # both steps in one order
                placement.place(self, action.unit, action.hex)
        elif kind == END:
            self._end_phase()
        if self.game.victory is not None and self.game.victory.sudden_death and not self.terminal:
            self._sudden_death(("always",))
        during, self._cache = self._cache, {}
        if kind == MOVE or kind == EXIT or kind == DELAY:
            self._carry_over(before, action.unit, left, action.hex)
        if kind in _IN_PLACE:  # every unit stands where it stood: what depends on that alone still holds
            kept = _WHERE_UNITS_STAND | _TRACES if kind in _DECLARING else _WHERE_UNITS_STAND
            for cache in (before, during):
                for key, value in cache.items():
                    if key == "occupants" or (key.__class__ is tuple and key[0] in kept):
                        self._cache.setdefault(key, value)

    def _settle(self) -> None:
        """Let the rules make the decisions that need no player (a forced retreat, the next effect of a
        result), until a player must decide or nothing is pending."""
        stack = self._stack
        while stack:
            frame = stack[-1]
            if not HANDLERS[frame.__class__].settle(self, frame):
                return
            self._cache = {}

    def _carry_over(self, before: dict, uid: str, left: Hex | None, entered: Hex | None) -> None:
        """After a move, exit or delay: patch what it changed in the cached stacking and moves of the
        position before, rather than work them out again (the phase goes on, only `uid` moved)."""
        occupants = before.get("occupants")
        if occupants is None:
            return
        if left is not None or entered is not None:
            occupants = self._occupants_after(occupants, uid, left, entered)
        self._cache["occupants"] = occupants
        full = before.get("full")
        if full is None:
            return
        if left is not None or entered is not None:
            full = set(full)
            stuck = self.moved | self.locked | markers.forbidden(self, "move")
            for h in (left, entered):
                if h is not None:
                    if h in occupants and self._crowded(occupants[h], stuck):
                        full.add(h)
                    else:
                        full.discard(h)
        self._cache["full"] = full
        if "moves" in before:
            self._cache["moves before"] = (left, entered, before["moves"])

    def _canonical(self, action: Action) -> Action:
        """Attackers listed in game-file order, whatever order the player named them in."""
        if action.kind == ATTACK and action.units:
            order = self.tables.unit_order
            units = tuple(sorted(action.units, key=lambda u: order.get(u, len(order))))
            if units != action.units:
                return Action.attack(action.hex, units)
        return action

    def _check(self, action: Action) -> None:
        """Raise IllegalAction unless `action` is one of the legal actions."""
        if not self._is_legal(action):
            message, mechanic = why_illegal(self, action)
            raise IllegalAction(message, markers.rule_cited(self.game, mechanic))

    def _is_legal(self, action: Action) -> bool:
        kind = action.kind
        if kind in (MOVE, EXIT) and self._free_to_move():
            # The common case, checked against the one unit's moves rather than every action.
            uid = action.unit
            unit = self._units.get(uid)
            phase = self.phase
            if unit is None or unit.side != phase.side or uid in self.moved or (
                    self.markers.units and uid in markers.forbidden(self, "move")):
                return False
            if phase.movers is not None and uid not in self._movers:  # a phase for some units only
                return False
            where = self.where[uid]
            if not (where == ON_MAP or (where == PENDING and self._arrives_now(uid))):
                return False
            moves, exits, hexes, to = self._unit_moves(uid)
            if kind == EXIT:
                return action in exits
            h = action.hex
            if h not in hexes:
                return False
            if self.game.movement.may_end_move is not None and h not in self._allowed_ends(uid, moves, to)[1]:
                return False
            move = self.tables.move_actions[(uid, h)]  # the one in `moves`
            return (move is action or move == action) and (h not in self._occupants() or self._may_end(uid, h))
        if kind == PLACE and action.hex is not None and not self._stack and not self.terminal:
            return placement.may_place(self, action.unit, action.hex)  # both steps in one order (not listed)
        if kind == END and not self._stack:
            free = self.may_end_phase()  # known without listing every order, unless something may hold the phase open
            if free is not None:
                return free and action == Action.end()
        legal = self._cache.get("legal")
        if legal is None:
            legal = self._cache["legal"] = self._legal_actions()
        return action in legal

    def _free_to_move(self) -> bool:
        """A movement phase with no removal, battle, retreat or advance pending."""
        return self.phase.kind == "movement" and not self.terminal and not self._stack

    def _move(self, uid: str, h: Hex) -> None:
        reach = self._reach(uid)
        mask = reach.destinations[h]
        entering = self.where[uid] != ON_MAP
        self.where[uid] = ON_MAP
        self.due.pop(uid, None)
        self.moved.add(uid)
        for i, objective in enumerate(self.tables.objectives):
            if mask >> i & 1 and objective != h:
                self._enter(uid, objective, "pass")
        self.pos[uid] = h
        self._enter(uid, h, "move")
        history.moved_into(self, uid, h, self._units[uid].side)
        if entering and self._units[uid].arrives is not None:
            for marker in self._units[uid].arrives.marks:  # an arrival that marks the unit (a landing that holds it)
                markers.mark(self, uid, marker)

    def _exit(self, uid: str, edge: str) -> None:
        mask = (self._reach(uid).exit_masks or {}).get(edge, 0)
        for i, objective in enumerate(self.tables.objectives):
            if mask >> i & 1:
                self._enter(uid, objective, "pass")  # passed through on its way off the map
        self.moved.add(uid)
        history.record(self, "moved", (uid,))
        self.exited_from[uid] = self.pos.pop(uid, "")  # "": it left the map as it entered it
        self.due.pop(uid, None)
        self.where[uid] = EXITED
        if uid in self.markers.units:
            markers.clear(self, uid)
        unit = self._units[uid]
        procedures.run_game_hooks(self, "unit_exited", unit)
        for award in self.game.awards:
            trigger = award.trigger
            # An exit scores for the exiting unit's own side (or the side the trigger names).
            if trigger.kind == "exits" and edge in trigger.edges and unit.side == (trigger.side or award.side):
                amount = award_amount(self, award, unit)
                if amount:
                    self._score(award.side, amount, award.id, unit=uid)

    def _enter(self, uid: str, h: Hex, moment: str = "stop") -> None:
        """A unit entered `h`: passing through it ("pass"), ending a retreat or advance there ("stop"), or
        ending a move there ("move"). As the game's `control` rule says, it may take a 'holds' award from the enemy."""
        if h not in self.tables.objectives or moment not in _CONTROL_MOMENTS[self.game.movement.control]:
            return
        side = self._units[uid].side
        previous = self.holders.get(h)
        if previous == side:
            return
        self.holders[h] = side
        for award in self.game.awards:
            if award.trigger.kind != "holds" or h not in award.trigger.hexes:
                continue
            if award.side == side:
                amount = award_amount(self, award, self._units[uid])
                if amount:
                    self.granted[(award.id, h)] = amount
                    self._score(side, amount, award.id, unit=uid, hex=h)
            elif (award.id, h) in self.granted:
                self._score(award.side, -self.granted.pop((award.id, h)), award.id, unit=uid, hex=h)

    def _relocate(self, uid: str, h: Hex) -> None:
        """The rules put a unit on the map's `h` (a retreat, an advance): what depended on positions is stale."""
        self.pos[uid] = h
        history.entered(self, h, self._units[uid].side)
        self._cache = {}

    def _eliminate(self, uid: str) -> None:
        self._cache = {}
        self.pos.pop(uid, None)
        self.where[uid] = ELIMINATED
        if uid in self.markers.units:  # a counter leaving the map takes its markers with it
            markers.clear(self, uid)
        unit = self._units[uid]
        procedures.run_game_hooks(self, "unit_eliminated", unit)
        for award in self.game.awards:
            if award.trigger.kind == "eliminated" and award.trigger.side == unit.side:
                amount = award_amount(self, award, unit)
                if amount:
                    self._score(award.side, amount, award.id, unit=uid)

    def _score(self, side: str, amount: int, source: str, unit: str | None = None, hex: Hex | None = None,
               phase: str | None = None) -> None:
        self.vp[side] = self.vp.get(side, 0) + amount
        if phase is None:
            phase = self.phase.id if self.game.sequence else ""
        self.vp_log.append(VpEntry(self.turn, phase, side, amount, source, unit, hex))

    # ------------------------------------------------------------ phases
    def _overstacked_units(self) -> list[str]:
        limit = self.game.stacking.limit
        order = self.tables.unit_order
        free = self._uncounted()  # units that do not count are never removed for overstacking
        counted = self._occupants().values() if not free else [[u for u in us if u not in free] for us in self._occupants().values()]
        units = [u for us in counted if len(us) > limit for u in us]
        side = self.phase.side if self.game.sequence else None
        if self.game.stacking.checked == "end_of_movement" and side is not None:
            # checked at the end of a side's own movement phase: its stacks only (the enemy's wait for theirs)
            units = [u for u in units if self._units[u].side == side]
        return sorted(units, key=order.__getitem__)

    def _late_arrivals(self) -> None:
        """The end of a movement phase (or its passing over): reinforcements due in it that have not entered
        come next turn or are removed (movement.late_arrival)."""
        phase = self.phase
        for uid in [u for u, w in self.where.items() if w == PENDING and self._units[u].side == phase.side]:
            if self.due.get(uid) == self.turn and self._arrives_now(uid):
                if self.game.movement.late_arrival == "removed":
                    self.where[uid] = UNUSED
                    self.due.pop(uid)
                else:
                    self.due[uid] = self.turn + 1

    def _end_phase(self) -> None:
        phase = self.phase
        if phase.kind == "movement":
            self._late_arrivals()
        checked = self.game.stacking.checked
        if checked == "end_of_every_phase" or (checked == "end_of_movement" and phase.kind == "movement"):
            stacked = self._overstacked_units()
            if stacked:
                owner = self._units[stacked[0]].side
                if self.game.stacking.overstack == "owner_removes":
                    remover = owner
                else:
                    remover = next(s for s in self.players if s != owner) if len(self.players) > 1 else owner
                self._stack.append(Remove(remover))
                return
        self._finish_phase()

    def _finish_phase(self) -> None:
        procedures.run_hooks(self, "phase_end")
        if self._next_phase():
            self._enter_phase()

    def _next_phase(self) -> bool:
        """Step to the next phase of the sequence (and turn); False when the game is over."""
        last = self.phase_index == len(self.game.sequence) - 1 and not self._prelude
        history.phase_ended(self)
        if self.markers:
            markers.expire(self)
        if self._sudden_death(("always", "end_of_phase", "end_of_turn") if last else ("always", "end_of_phase")):
            return False
        if self._prelude:  # a scenario's deployment phases, then its start phase (scenarios.py)
            self.phase_index, self._prelude = self._prelude[0], self._prelude[1:]
            return True
        self.phase_index += 1
        if self.phase_index >= len(self.game.sequence):
            self.phase_index = 0
            self.turn += 1
        if self.turn > self.last_turn > 0:
            self.turn = self.last_turn
            self.phase_index = len(self.game.sequence) - 1
            self._end_game()
            return False
        return True

    def _sudden_death(self, moments: tuple[str, ...]) -> bool:
        """End the game if a sudden-death condition checked at one of `moments` holds now."""
        decided = sudden_death(self, moments)
        if decided is not None:
            self._end_game(decided)
        return decided is not None

    def _end_game(self, decided: Outcome | None = None) -> None:
        """The game is over: score the end-of-game awards; `decided` is a sudden death's result."""
        self.terminal, self.decided = True, decided
        procedures.run_game_hooks(self, "game_end")
        for award, amount in score_game_end(self):
            if amount:
                self._score(award.side, amount, award.id)

    def _enter_phase(self) -> None:
        """Start the current phase: score its awards, reset its bookkeeping; run phases that need no decision."""
        while True:
            self._cache = {}
            phase = self.phase
            history.phase_began(self)  # every phase of the sequence counts, also one passed over
            if procedures.comes_up(self):  # a phase whose `when` fails is passed over
                for award in self.game.awards:
                    if award.trigger.kind == "phase" and award.trigger.phase == phase.id:
                        amount = award_amount(self, award, None)
                        if amount:
                            self._score(award.side, amount, award.id)
                procedures.run_hooks(self, "phase_start")
                self._cache = {}
                if self._begin_phase():
                    return
                # Automatic phases, and placement phases with nothing to place, have no decisions.
                procedures.run_hooks(self, "phase_end")
            elif phase.kind == "movement":  # passed over: its reinforcements are late, as if it had ended
                self._late_arrivals()
            if not self._next_phase():
                return

    def _begin_phase(self) -> bool:
        """Reset the current phase's bookkeeping; False if the phase has no decisions to make."""
        phase = self.phase
        self._phase_moves = {}
        if self.tables.cost_expressions:
            self._cost_values()  # costs written as expressions are read as the phase begins
        if phase.kind == "movement":
            # The units that may move in this phase: on the map or waiting to arrive as it begins.
            self._movers = procedures.movers(self, phase)
            self.moved = set()
            if self.game.movement.zoc_locks_start:
                zoc, bit, units = self._obstacles(phase.side)[1], self.tables.hex_bit, self._units
                self.locked = frozenset(u for u, h in self.pos.items() if units[u].side == phase.side and zoc & bit[h])
            else:
                self.locked = frozenset()
            return True
        if phase.kind == "combat":
            if not self._same_player_turn(self._combat_began):
                self.attacked = set()  # one attack per unit a phase, or a player turn (CombatRules.one_attack_per_unit)
            self.defended = set()
            self._combat_began = (self.turn, self.phase_index)
            self._phase_attackers = procedures.attackers(self, phase)
            return True
        if phase.kind == "placement":
            return placement.begin(self)
        return False

    def _same_player_turn(self, since: tuple[int, int] | None) -> bool:
        """With one attack per unit a player turn: did a combat phase of this player turn begin at `since`?"""
        if since is None or self.game.combat is None or self.game.combat.one_attack_per_unit != "player_turn":
            return False
        turn, index = since
        sequence = self.game.sequence
        return turn == self.turn and index < self.phase_index and all(
            sequence[i].side in (None, self.phase.side) for i in range(index, self.phase_index + 1))

    # ------------------------------------------------------------ positions for tests and puzzles
    def arrange(self, units: dict[str, str], *, turn: int | None = None, phase: str | None = None) -> "GameState":
        """A copy with only `units` in play, at the start of `phase` of `turn` (no award scored for it).

        Each value is a hex, or 'pending' for a unit waiting to arrive (due this turn,
        or any turn if it arrives when its owner chooses); every other unit is set
        aside. 'Holds' objectives go to the side of a unit placed on them. For tests,
        puzzles and scenario editors.
        """
        other = self.clone()
        if turn is not None:
            other.turn = turn
        if phase is not None:
            ids = [p.id for p in self.game.sequence]
            if phase not in ids:
                raise ValueError(f"no phase '{phase}'; phases are {', '.join(ids)}")
            other.phase_index = ids.index(phase)
        other.pos, other.due, other.holders, other.granted, other.exited_from = {}, {}, {}, {}, {}
        other.where = {uid: UNUSED for uid in self.game.units}
        for uid, place in units.items():
            if uid not in self.game.units:
                raise ValueError(f"no unit '{uid}'")
            if place == PENDING:
                other.where[uid] = PENDING
                arrival = self._units[uid].arrives
                other.due[uid] = None if arrival is not None and arrival.turn is None else other.turn
            else:
                other.where[uid], other.pos[uid] = ON_MAP, place
                if place in self.tables.objectives:
                    other.holders[place] = self._units[uid].side
        other.terminal, other._stack, other.last_battle, other._combat_began = False, [], None, None
        other.decided, other._prelude = None, ()
        other.moved, other.attacked, other.defended = set(), set(), set()
        other.markers, other.past = MarkerTable(), History()
        other.past.owner = other
        other._cache = {}
        history.phase_began(other)
        other._begin_phase()
        return other
