"""The human player: orders typed at a terminal, in the game's readable notation.

A bad or mistyped order never costs the game: it is refused with the reason
(and the rule that forbids it, when the engine names one) and the prompt comes
back. Besides orders the player may type `help`, `list` (the legal orders,
numbered; a number then picks one), `map`, `units`, `save FILE` and `quit`.
The console commands that need the rest of the program (drawing the map,
saving) are supplied by the caller as functions.
"""

from __future__ import annotations

from typing import Any, Callable, TextIO

from rulec.diagnostics import did_you_mean
from rulec.players.base import Action

HELP = """orders: type an order as `list` shows it, e.g. "move 357 0204", "attack 0403 with 358 357",
        "retreat 0503 0603", "advance none", "end" (ends the phase).
commands: list [WORD...] (legal orders, numbered, only those naming every WORD; type a
          number to choose one), map, units,
          save FILE, help, quit"""


class QuitGame(Exception):
    """The human asked to stop (or the input ended)."""


class HumanPlayer:
    name = "human"

    def __init__(self, read_line: Callable[[str], str] = input, out: TextIO | None = None,
                 commands: dict[str, Callable[[Any, str], None]] | None = None):
        self.read_line = read_line
        self.out = out
        self.commands = commands or {}
        self._listed: list[Action] = []

    def say(self, text: str) -> None:
        print(text, file=self.out)

    def choose(self, state: Any) -> Action:
        side = state.players[state.current_player()]
        self._listed = []
        while True:
            try:
                line = self.read_line(f"{side}> ")
            except EOFError:
                raise QuitGame() from None
            line = " ".join(line.split())
            if not line:
                continue
            word, _, rest = line.partition(" ")
            if word in ("quit", "exit"):
                raise QuitGame()
            if word in ("help", "?"):
                self.say(HELP)
            elif word == "list":
                self._list(state, rest)
            elif word in self.commands:
                self.commands[word](state, rest)
            elif line.isdigit() and self._listed:
                index = int(line) - 1
                if 0 <= index < len(self._listed):
                    return self._listed[index]
                self.say(f"no order numbered {line}; `list` shows 1 to {len(self._listed)}")
            else:
                action = self._parse(state, line)
                if action is not None:
                    return action

    def _list(self, state: Any, words: str) -> None:
        """Number the legal orders; `list 357` shows only the orders naming 357 (a unit, a hex, a kind)."""
        wanted = words.lower().split()
        self._listed = [a for a in state.legal_actions()
                        if all(w in state.action_to_string(a).lower().split() for w in wanted)]
        for number, action in enumerate(self._listed, 1):
            self.say(f"{number:4d}  {state.action_to_string(action)}")
        if not self._listed:
            self.say(f"no legal order names {words}" if wanted else "no legal orders")

    def _parse(self, state: Any, line: str) -> Action | None:
        try:
            return state.parse_action(line)
        except ValueError as error:  # ActionSyntaxError and IllegalAction are both ValueErrors
            rule = getattr(error, "rule", None)
            message = getattr(error, "message", None) or str(error)
            self.say(f"illegal ({rule}): {message}" if rule else f"not accepted: {message}")
        except Exception as error:  # an engine slip on odd input must not cost the player the game
            self.say(f"not accepted: could not read '{line}' ({type(error).__name__})")
        hint = did_you_mean(line, [state.action_to_string(a) for a in state.legal_actions()])
        self.say(f"  {hint}" if hint else "  type `list` for the legal orders, `help` for help")
        return None
