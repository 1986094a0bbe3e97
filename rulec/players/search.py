"""The actions an AI may search: the legal actions minus the steps that lead back to a position already left.

Some decisions are made in steps that can be taken back: a battle is declared
(`attack HEX`, `with UNIT`...) and then fought (`resolve`) or called off
(`cancel`); a unit is chosen to move or be placed (`move UNIT`, `place UNIT`)
and then sent somewhere or put back (`cancel`). A cancel returns to the very
position the declaration or choice started from, so a search that may pick
it can go round that circle for ever: MCTS, whose one-ply values of "declare"
and "cancel" are the same position's, did so on a published game in its first
combat phase. A human keeps every legal action; an AI asks `search_actions`:

- `cancel` is not offered while something else is (going on always changes the
  position: an attacker joins, the battle is fought, the unit moves);
- a step that opened a frame (`attack HEX`, `move UNIT`, `place UNIT`) that
  was cancelled since the position last changed is not offered again (a
  declaration that could only be cancelled, say a unit bound to attack that
  may not join it, is not made twice).

Both rules read nothing but the legal actions and the history, so they hold
for any frame the engine may add whose steps are `cancel`led back, and each
decision's steps are bounded: every opener is tried at most once between two
changes of the position. Actions are told by their `kind` (the engine's
Action); a state whose actions have none (a toy game) is searched whole.
"""

from __future__ import annotations

from typing import Any, Final

from rulec.players.base import Action, legal_orders

CANCEL: Final = "cancel"
# A frame's steps (between its opener and its resolve or cancel): they change nothing outside the frame.
_INSIDE: Final = frozenset(("with", "attack"))


def _opens_frame(action: Any) -> bool:
    """A first step that opens a frame a `cancel` may close: a target named (its attackers to follow), a unit
    chosen to move or to be placed (its hex to follow)."""
    kind = getattr(action, "kind", None)
    if kind == "attack":
        return not action.units
    if kind == "move" or kind == "place":
        return action.hex is None and getattr(action, "edge", None) is None
    return False


def cancelled_openers(history: list) -> set:
    """The openers cancelled since the position last changed: the tail of `history` made only of
    opener, steps inside its frame, cancel (repeated), and perhaps one frame still open at its end."""
    start = len(history)
    while start > 0:  # back to the last action that changed the position
        action = history[start - 1]
        kind = getattr(action, "kind", None)
        if kind == CANCEL or kind in _INSIDE and not (kind == "attack" and action.units) or _opens_frame(action):
            start -= 1
        else:
            break
    cancelled: set = set()
    opener = None
    for action in history[start:]:
        kind = getattr(action, "kind", None)
        if kind == CANCEL:
            if opener is not None:
                cancelled.add(opener)
            opener = None
        elif opener is None and _opens_frame(action):
            opener = action
    return cancelled


_OPENER_KINDS: Final = frozenset(("attack", "move", "place"))  # kinds whose first step (no hex, no units) opens a frame


def _without_loops(state: Any, actions: list) -> list:
    if not actions or getattr(actions[-1], "kind", None) is None:
        return actions  # a toy game's actions: nothing to tell apart
    kinds = {a.kind for a in actions}  # one cheap pass: most decisions offer neither a cancel nor a cancelled opener
    tried = cancelled_openers(state.history()) if kinds & _OPENER_KINDS else ()
    if CANCEL not in kinds and not tried:
        return actions
    kept = [a for a in actions if a.kind != CANCEL and a not in tried]
    if kept:
        return kept
    # Nothing else is left: a frame that can only be cancelled (its opener will not be offered again), or
    # (a game that would loop whatever is done) every legal action.
    cancels = [a for a in actions if a.kind == CANCEL]
    return cancels or actions


def search_actions(state: Any) -> list[Action]:
    """`state.legal_actions()` without the steps that lead back to a position already left in this decision
    (see the module docstring): what MCTS and random search and play (greedy's plans of a battle or a placement
    leave out `cancel` and a target whose plans all end in it alike). Never empty while a legal action is."""
    return _without_loops(state, state.legal_actions())


def draw_search_action(state: Any, rng: Any) -> Action:
    """An action of `search_actions(state)`, uniformly at random (as rng.choice(search_actions(state)) would draw):
    random play and MCTS rollouts. Drawn by the engine's sampler (sample_legal_action: a movement phase's action
    without listing every unit's) where the state has one and no opener was cancelled in this decision (the last
    action was no `cancel`); a `cancel` it draws is set aside and one drawn from the list without it, which keeps
    the draw uniform over the rest (each of N others: 1/(N+1) drawn at once, 1/(N+1) x 1/N after a cancel)."""
    sample = getattr(state, "sample_legal_action", None)
    last = getattr(state, "last_action", None)
    if sample is None or last is None or getattr(last(), "kind", None) == CANCEL:
        return rng.choice(search_actions(state))
    drawn = sample(rng)
    if drawn.kind == CANCEL:
        return rng.choice(search_actions(state))
    return drawn


def search_orders(state: Any) -> list[Action]:
    """`legal_orders(state)` (a move given at once) without the steps that lead back, as `search_actions`."""
    return _without_loops(state, legal_orders(state))
