"""Decisions during a battle: whether to feed a reserve unit into a combat.

After a combat's dice are seen, each side may send reserve units into it one
at a time (docs/rulings.md: the side behind is asked first, the attacker on
an even score; asking goes on until both sides decline, which accepts the
result). A decider answers with the unit to commit, or None.

`DefaultDecider` is the stated default policy: a side behind in the combat
commits the reserve unit that scores best there (the first written on a tie);
a side level or ahead commits nothing. `PromptDecider` asks a person.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol, TextIO

from rulec.battle.forces import Force
from rulec.battle.scoring import Modifier, total


@dataclass(frozen=True)
class ReserveOffer:
    """What a side sees when it may commit a reserve unit to a combat."""

    side: int
    combat: int  # the combat's number
    scores: tuple[int, int]  # both sides' scores so far (side 0 the attacker)
    options: tuple[tuple[int, tuple[Modifier, ...]], ...]  # reserve units and their modifiers here
    units: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # the combat's line units, per side

    @property
    def behind(self) -> bool:
        return self.scores[self.side] < self.scores[1 - self.side]


class Decider(Protocol):
    def commit(self, offer: ReserveOffer, forces: tuple[Force, Force]) -> int | None:
        """The reserve unit to feed into the combat, or None to decline."""
        ...


class DefaultDecider:
    """Commit the best-scoring reserve unit while behind; otherwise decline."""

    def commit(self, offer: ReserveOffer, forces: tuple[Force, Force]) -> int | None:
        if not offer.behind or not offer.options:
            return None
        best = max(offer.options, key=lambda option: total(option[1]))  # max keeps the first of equals
        return best[0]


class PromptDecider:
    """Ask on a terminal; re-ask after bad input; end of input declines."""

    def __init__(self, ask: Callable[[str], str | None], out: TextIO):
        self.ask = ask
        self.out = out
        self.finished = False  # input ran out: decline everything from now on

    def commit(self, offer: ReserveOffer, forces: tuple[Force, Force]) -> int | None:
        if self.finished or not offer.options:
            return None
        force, enemy = forces[offer.side], forces[1 - offer.side]
        fighting = " against ".join(" + ".join(forces[side].units[i].label for i in offer.units[side]) for side in (0, 1))
        print(f"  Combat {offer.combat} ({fighting}): {force.name} {offer.scores[offer.side]}, "
              f"{enemy.name} {offer.scores[1 - offer.side]}. {force.name} reserve:", file=self.out)
        for number, (index, modifiers) in enumerate(offer.options, 1):
            print(f"    {number}. {force.units[index].label} ({total(modifiers):+d})", file=self.out)
        while True:
            choices = "y/n, or 1" if len(offer.options) == 1 else f"1-{len(offer.options)}, n or Enter for none"
            answer = self.ask(f"  Commit which reserve unit for {force.name}? [{choices}] ")
            if answer is None:
                self.finished = True
                print("  (end of input: no more reserves committed)", file=self.out)
                return None
            answer = answer.strip().lower()
            if answer in ("", "n", "no", "none"):
                return None
            if answer in ("y", "yes") and len(offer.options) == 1:  # one unit to commit: yes means it
                return offer.options[0][0]
            if answer.isdigit() and 1 <= int(answer) <= len(offer.options):
                return offer.options[int(answer) - 1][0]
            print(f"  Please answer a number from 1 to {len(offer.options)}{', or y' if len(offer.options) == 1 else ''}"
                  ", or n (Enter: none).", file=self.out)
