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
from rulec.players.base import Action, legal_orders

ORDER_FORMS = {
    "move": "move UNIT HEX", "exit": "exit UNIT EDGE", "delay": "delay UNIT (enter on a later turn)",
    "attack": "attack HEX (then with UNIT..., resolve) | attack HEX with UNIT UNIT...",
    "with": "with UNIT (joins the battle being declared)", "resolve": "resolve (fights the declared battle)",
    "cancel": "cancel (calls the declared battle off, or puts back the unit chosen to be placed)", "retreat": "retreat HEX [HEX...] (the path)",
    "lose": "lose UNIT (pays for an exchange)",
    "advance": "advance UNIT HEX | advance none", "remove": "remove UNIT",
    "place": "place UNIT, then place UNIT HEX; or place UNIT HEX at once (set-up, replacements)", "end": "end (ends the phase)",
}
COMMANDS_HELP = """commands: list (the legal orders, one line per unit), list WORD... (numbered, only the orders
          naming every WORD, e.g. `list UNIT`; then type a number to choose one), map, units,
          undo (takes back your last order, not past a die roll), odds [HEX with UNIT...],
          info HEX, vp (where each point came from), rules [CASE] (what the game cites it for),
          save FILE, help, quit (the game is saved first; Ctrl-C and the end of input too)
see docs/playing.md for a player's guide"""


def help_text(state: Any) -> str:
    """The order forms, one legal example of each kind allowed now, and the console commands."""
    examples: dict[str, str] = {}
    for action in legal_orders(state):
        text = state.action_to_string(action)
        examples.setdefault(text.split()[0], text)
    lines = ["orders now:"] if examples else ["no orders now"]
    for kind, example in examples.items():
        form = ORDER_FORMS.get(kind, kind)
        lines.append(f"  {form:<42} e.g. {example}" if example != kind else f"  {form}")
    return "\n".join([*lines, COMMANDS_HELP])


LIST_IN_FULL = 30  # a bare `list` numbers this many orders or fewer; more are summed up per unit
ORDER_WORDS = tuple(ORDER_FORMS)  # the engine's order words, known even when none is legal now
UNIT_ORDERS = ("move", "exit", "delay", "remove", "advance", "with", "lose", "place")  # orders whose second word is a unit
CONSOLE_WORDS = ("help", "list", "map", "units", "save", "quit", "undo", "odds", "info", "vp", "rules")


class QuitGame(Exception):
    """The human asked to stop (or the input ended)."""


class HumanPlayer:
    name = "human"

    def __init__(self, read_line: Callable[[str], str] = input, out: TextIO | None = None,
                 commands: dict[str, Callable[[Any, str], None]] | None = None,
                 before_choice: Callable[[Any], None] | None = None):
        self.read_line = read_line
        self.out = out
        self.commands = commands or {}
        # Called before the prompt, so that what the last order caused (a new phase, a battle's
        # result) is on the screen before the player is asked for the next one.
        self.before_choice = before_choice
        self._listed: list[Action] = []
        self._last_phase: Any = None  # (turn, phase) of this player's last order
        self._queued: list[Action] = []  # the rest of a line that stood for several steps (a whole attack)
        self._queued_at: Any = None  # (state id, history length) the next queued step is for

    def say(self, text: str) -> None:
        print(text, file=self.out)

    def choose(self, state: Any) -> Action:
        if self._queued and self._queued_at == (id(state), len(state.history())):
            return self._next_queued(state)
        self._queued = []
        side = state.players[state.current_player()]
        self._listed = []
        if self.before_choice is not None:
            self.before_choice(state)
        phase = (getattr(state, "turn", None), getattr(state, "phase_index", None), side)
        if phase == self._last_phase:  # the phase goes on: a one-line reminder instead of the map
            self._remind(state)
        self._last_phase = phase
        while True:
            try:
                line = self.read_line(f"{side}> ")
            except EOFError:
                raise QuitGame() from None
            line = " ".join(line.split())
            if not line:
                continue
            word, _, rest = line.partition(" ")
            if word == "quit" or line == "exit":
                if word == "exit":  # `exit UNIT EDGE` is an order; a bare `exit` still leaves, saying so
                    self.say("(`exit UNIT EDGE` moves a unit off the map; `quit` stops the game)")
                raise QuitGame()
            if line == "end" and not self._confirm_end(state):
                continue
            if word in ("help", "?"):
                self.say(help_text(state))
            elif word == "list":
                self._list(state, rest)
            elif word in self.commands:
                self.commands[word](state, rest)
            elif line.isdigit() and self._listed:
                index = int(line) - 1
                if 0 <= index < len(self._listed):
                    return self._listed[index]
                self.say(f"no order numbered {line}; `list` shows 1 to {len(self._listed)}")
            elif line.isdigit():
                self.say("no numbered orders shown: type `list UNIT` (or `list attack`, `list HEX`) first")
            else:
                actions = self._parse(state, line)
                if actions:
                    self._queued, self._queued_at = actions, (id(state), len(state.history()))
                    return self._next_queued(state)

    def _confirm_end(self, state: Any) -> bool:
        """Ending a phase that eliminates units (over-stacked) or leaves due reinforcements off the map asks first."""
        legal = legal_orders(state)
        end = next((a for a in legal if a.kind == "end"), None)
        if end is None or not hasattr(state, "clone"):
            return True
        due = sorted({state.unit_name(a.unit) for a in legal if a.kind == "move" and a.unit
                      and state.status(a.unit) == "pending" and (state.arrival_turn(a.unit) or 0) >= 1})
        after = state.clone()
        after.apply_action(end)
        lost = [state.unit_name(u) for u in state.units(status="map") if after.status(u) == "eliminated"]
        if getattr(after, "removing", None):  # over-full hexes: units must be removed before the phase ends
            limit = state.game.stacking.limit
            lost += [state.unit_name(u) for h in sorted(set(state.positions.values()))
                     if len(state.units_at(h)) > limit for u in state.units_at(h)]
        worries = []
        if lost:
            worries.append(f"eliminates units of {', '.join(dict.fromkeys(lost))} (over-stacked)")
        if due:
            worries.append(f"leaves {', '.join(due)} off the map")
        if not worries:
            return True
        try:
            answer = self.read_line(f"ending the phase now {' and '.join(worries)}; end anyway? (y/n) ")
        except EOFError:
            raise QuitGame() from None
        if answer.strip().lower() in ("y", "yes"):
            return True
        self.say("the phase goes on")
        return False

    def _next_queued(self, state: Any) -> Action:
        action = self._queued.pop(0)
        self._queued_at = (id(state), len(state.history()) + 1)
        return action

    def _list(self, state: Any, words: str) -> None:
        """Show the legal orders. `list 357` numbers only the orders naming every word (a unit, a hex, a
        kind); a bare `list` numbers them all when they are few and otherwise sums them up one line per
        unit, since a movement phase has hundreds."""
        wanted = words.lower().split()
        texts = [(a, state.action_to_string(a)) for a in legal_orders(state)]
        chosen = [(a, t) for a, t in texts if all(w in t.lower().split() for w in wanted)]
        if not chosen:
            self._listed = []
            self.say(f"no legal order names {words}" if wanted else "no legal orders")
            hint = did_you_mean(wanted[-1], sorted({w for _, t in texts for w in t.split()})) if wanted else None
            if hint:
                self.say(f"  {hint}")
            return
        if wanted or len(chosen) <= LIST_IN_FULL:
            self._listed = [a for a, _ in chosen]
            for number, (_, text) in enumerate(chosen, 1):
                self.say(f"{number:4d}  {text}")
            return
        self._listed = []
        for line in summarize_orders([t for _, t in chosen], self._unit_names(state)):
            self.say(line)
        self.say("(0101-0104: 0101 to 0104) type `list UNIT` (or `list attack`, `list HEX`) to number "
                 "those orders, or type an order")

    def _remind(self, state: Any) -> None:
        """'  units with orders left: 358 2 CCB (`list UNIT` for one, `end` ends the phase)'."""
        units = self._unit_names(state)
        if not units:
            return
        texts = [state.action_to_string(a) for a in legal_orders(state)]
        left = list(dict.fromkeys(w for t in texts if t.split()[0] in UNIT_ORDERS or t.startswith("attack")
                                  for w in t.split()[1:] if w in units))
        if left and any(t == "end" for t in texts):
            self.say(f"  units with orders left: {' '.join(left)} (`list UNIT` for one, `end` ends the phase)")

    def _unit_names(self, state: Any) -> set[str]:
        game = getattr(state, "game", None)
        if game is None or not hasattr(state, "unit_name"):
            return set()
        return {state.unit_name(uid) for uid in game.units}

    def _parse(self, state: Any, line: str) -> list[Action] | None:
        """The steps the line stands for (one, or a whole attack: `attack HEX with UNIT...`)."""
        words = line.split()
        texts = [state.action_to_string(a) for a in legal_orders(state)]
        order_words = sorted({t.split()[0] for t in texts} | set(ORDER_WORDS))
        if words[0].lower() not in order_words:  # not an order at all: a typo of an order word or command?
            hint = (did_you_mean(line, texts) if len(words) > 1 else None) or \
                did_you_mean(words[0].lower(), [*order_words, *CONSOLE_WORDS, *self.commands])
            shown = f"'{words[0]}'" if words[0].isprintable() else repr(words[0])
            self.say(f"not an order: {shown}" + (f"; {hint}" if hint else ""))
            self.say("  type `list` for the legal orders, `help` for help")
            return None
        try:
            parse_orders = getattr(state, "parse_orders", None)
            return parse_orders(line) if parse_orders else [state.parse_action(line)]
        except ValueError as error:  # ActionSyntaxError and IllegalAction are both ValueErrors
            rule = getattr(error, "rule", None)
            message = getattr(error, "message", None) or str(error)
            if message.startswith("no unit '"):  # the engine's guess may be any unit: the hint below names only legal ones
                message = message.split(";")[0]
            self.say(f"illegal ({rule}): {message}" if rule else f"not accepted: {message}")
        except Exception as error:  # an engine slip on odd input must not cost the player the game
            self.say(f"not accepted: could not read '{line}' ({type(error).__name__})")
        self.say(f"  {self._hint(state, words, texts)}")
        return None

    def _hint(self, state: Any, words: list[str], texts: list[str]) -> str:
        """Point at what the player can do with the order they meant: its unit's orders, or a close unit."""
        units = self._unit_names(state)
        acting = sorted({w for t in texts for w in t.split()[1:] if w in units})
        for word in words[1:]:
            if word in acting:
                return f"`list {word}` shows the orders {word} may be given"
        if acting and words[0].lower() in UNIT_ORDERS and len(words) > 1:
            close = did_you_mean(words[1], acting)
            if close:
                return close
            return f"units with orders now: {' '.join(acting[:20])}{' ...' if len(acting) > 20 else ''}"
        close = did_you_mean(" ".join(words), texts)
        return close or "type `list` for the legal orders, `help` for help"


def summarize_orders(texts: list[str], unit_names: set[str]) -> list[str]:
    """One line per unit ("357: move 0101 0102 ...; exit north west; delay"), other orders counted by kind."""
    per_unit: dict[str, dict[str, list[str]]] = {}
    others: dict[str, list[str]] = {}
    for text in texts:
        words = text.split()
        if len(words) >= 2 and words[1] in unit_names:
            per_unit.setdefault(words[1], {}).setdefault(words[0], []).extend(words[2:])
        else:
            others.setdefault(words[0], []).append(text)
    lines = []
    for unit, kinds in per_unit.items():
        parts = [f"{kind} {' '.join(_runs(args))}".rstrip() for kind, args in kinds.items()]
        lines.append(f"  {unit}: {'; '.join(parts)}")
    for kind, orders in others.items():
        if len(orders) <= 3:
            lines.extend(f"  {order}" for order in orders)
        else:
            lines.append(f"  {kind}: {len(orders)} orders (`list {kind}` numbers them)")
    return lines


def _runs(words: list[str]) -> list[str]:
    """Consecutive numbers of one width shortened to a run: 0101 0102 0103 0105 -> 0101-0103 0105."""
    out: list[str] = []
    start = previous = None
    for word in [*words, None]:
        if (word is not None and previous is not None and word.isdigit() and previous.isdigit()
                and len(word) == len(previous) and int(word) == int(previous) + 1):
            previous = word
            continue
        if start is not None:
            out.append(start if start == previous else f"{start}-{previous}")
        start = previous = word
    return out