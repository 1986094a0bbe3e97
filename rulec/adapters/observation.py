"""A position as fixed-size tensors and as text, from one player's point of view.

The games are of perfect information: every player sees the whole position, so
an observation differs between players only in the `player` piece. The engine's
position holds everything that matters for what follows (it is Markov), so the
information-state tensor is the observation tensor; the information-state string
is the whole history in the game's notation (perfect recall).

Pieces (name: shape), each a view of one flat float32 tensor:
    player (P)            the observing player, one-hot
    to_move (P+1)         the player to move, one-hot; the last slot is chance
    turn (T)              the turn, one-hot (T: the game's turns, 1 when unlimited, capped)
    phase (S)             the phase of the sequence, one-hot
    unit_hex (U, H)       where each unit stands
    unit_status (U, K)    each unit's status (on the map, pending, exited, eliminated, unused)
    unit_flags (U, 4)     moved, attacked, defended this phase; landed this turn (as the engine keeps them)
    unit_values (U, 2)    each unit's strength and movement allowance as it plays now (an improved
                          counter, a reduced side)
    vp (P)                each side's victory points
    holders (H, P)        the side holding each objective hex
    decision (F+1)        the kind of decision pending within the phase (none first, then each frame kind)
    battle_hexes (H)      the target hexes of the battle being declared, fought or carried out
    battle_units (U)      its attackers (those of the battle being declared, or fought)
    chosen_units (U)      the units of the decision pending: the retreating unit, the units that
                          may pay for an exchange or advance
    unit_markers (U, M)   in a game that declares markers: the markers each unit carries
    hex_markers (H, M)    and each hex
"""

from __future__ import annotations

import typing
from math import prod

import numpy as np

from rulec.engine import statuses
from rulec.engine.frames import Frame
from rulec.engine.state import GameState
from rulec.engine.statuses import ON_MAP
from rulec.runtime.model import Game

# A new status or kind of pending decision gets its slot by itself.
STATUSES = tuple(value for name, value in vars(statuses).items() if name.isupper() and isinstance(value, str))
FRAME_KINDS = tuple(typing.get_args(Frame))
FLAGS = ("moved", "attacked", "defended", "landed")  # sets of unit ids on the state; one the engine lacks stays 0
MAX_TURN_SLOTS = 100


class Layout:
    """The pieces of one game's observation tensor and where each lies in the flat tensor."""

    def __init__(self, game: Game):
        self.game = game
        self.sides = tuple(game.sides)
        self.units = tuple(game.units)
        self.hexes = tuple(game.map.hexes)
        self.unit_index = {u: i for i, u in enumerate(self.units)}
        self.hex_index = {h: i for i, h in enumerate(self.hexes)}
        self.side_index = {s: i for i, s in enumerate(self.sides)}
        self.markers = tuple(getattr(game, "markers", None) or ())
        self.marker_index = {m: i for i, m in enumerate(self.markers)}
        P, U, H = len(self.sides), len(self.units), len(self.hexes)
        self.shapes: dict[str, tuple[int, ...]] = {
            "player": (P,), "to_move": (P + 1,), "turn": (min(max(game.info.turns, 1), MAX_TURN_SLOTS),),
            "phase": (len(game.sequence),), "unit_hex": (U, H), "unit_status": (U, len(STATUSES)),
            "unit_flags": (U, 4), "unit_values": (U, 2), "vp": (P,), "holders": (H, P), "decision": (len(FRAME_KINDS) + 1,),
            "battle_hexes": (H,), "battle_units": (U,), "chosen_units": (U,),
        }
        if self.markers:
            self.shapes.update({"unit_markers": (U, len(self.markers)), "hex_markers": (H, len(self.markers))})
        self._slices = []  # (name, start, stop, shape) of each piece in the flat tensor
        at = 0
        for name, shape in self.shapes.items():
            self._slices.append((name, at, at + prod(shape), shape))
            at += prod(shape)
        self.size = at

    def views(self, flat: np.ndarray) -> dict[str, np.ndarray]:
        """Named, reshaped views into `flat` (writing a view writes the flat tensor)."""
        return {name: flat[start:stop].reshape(shape) for name, start, stop, shape in self._slices}

    def fill(self, views: dict[str, np.ndarray], state: GameState, player: int) -> None:
        """Write `state` as `player` sees it into `views` (zeroed first by the caller)."""
        if 0 <= player < len(self.sides):
            views["player"][player] = 1
        current = state.current_player()
        if state.is_chance_node():
            views["to_move"][-1] = 1
        elif current >= 0:
            views["to_move"][current] = 1
        views["turn"][min(state.turn, len(views["turn"])) - 1] = 1
        views["phase"][state.phase_index] = 1
        unit, hex_ = self.unit_index, self.hex_index
        for uid, h in state.pos.items():
            views["unit_hex"][unit[uid], hex_[h]] = 1
        for uid, where in state.where.items():
            views["unit_status"][unit[uid], STATUSES.index(where)] = 1
        for column, flag in enumerate(FLAGS):
            for uid in getattr(state, flag, ()):
                views["unit_flags"][unit[uid], column] = 1
        values = views["unit_values"]
        for uid, i in unit.items():
            counter = state.unit(uid)
            values[i, 0], values[i, 1] = counter.strength, counter.move
        for side, vp in state.vp.items():
            views["vp"][self.side_index[side]] = vp
        for h, side in state.holders.items():
            views["holders"][hex_[h], self.side_index[side]] = 1
        frame = state.pending
        views["decision"][0 if frame is None else 1 + FRAME_KINDS.index(type(frame))] = 1
        battle = getattr(frame, "battle", None) or frame  # a Roll or Effects frame holds its battle
        for h in getattr(battle, "targets", ()) or ():
            views["battle_hexes"][hex_[h]] = 1
        for uid in getattr(battle, "attackers", ()) or ():
            views["battle_units"][unit[uid]] = 1
        chosen = getattr(frame, "units", None) or ((frame.unit,) if getattr(frame, "unit", None) else ())
        for uid in chosen:
            views["chosen_units"][unit[uid]] = 1
        table = getattr(state, "markers", None) if self.markers else None
        if table is not None:  # markers.MarkerTable: unit id / hex -> {marker id: when it was put on}
            marker = self.marker_index
            for piece, index, carried in (("unit_markers", unit, table.units), ("hex_markers", hex_, table.hexes)):
                for target, marks in carried.items():
                    for m in marks:
                        views[piece][index[target], marker[m]] = 1


def position_text(state: GameState) -> str:
    """The position in words: turn, phase, VP, where every unit is, the decision pending."""
    lines = [str(state)]
    for uid in state.units():
        where = state.status(uid)
        lines.append(f"  {state.unit_name(uid)}: {state.positions[uid] if where == ON_MAP else where}")
    frame = state.pending
    if frame is not None:
        lines.append(f"  pending: {frame!r}")
    return "\n".join(lines)


def history_text(state: GameState, player: int) -> str:
    """The information state of `player`: who they are and every action so far, in the game's notation."""
    return "\n".join([f"player {state.players[player]}", *map(state.action_to_string, state.history())])
