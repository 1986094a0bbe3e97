"""Conditions and amounts of the game language in words, for printed aids (never code on a card).

    in_words("routed == 0 and beaten == 0", {"routed": "routed units", "beaten": "beaten units"})
    -> "no routed units and no beaten units"

The text is parsed with the game language's own parser (rulec.language) into its
expression tree (["op", ">", a, b], ["and", [...]], ["call", f, args, kw], ...);
each node kind is worded here. A node kind this module does not know yet (the
language grows) is worded from its parts, so a new kind degrades to plainer
words rather than failing the build.
"""

from __future__ import annotations

from typing import Callable, Mapping

from rulec.aids.environment import humanize

_COMPARE = {"==": "is", "!=": "is not", ">": "is more than", ">=": "is at least", "<": "is less than",
            "<=": "is at most"}
_ARITHMETIC = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "//": "divided by", "%": "modulo"}
_FRACTIONS = {2: "half", 3: "a third", 4: "a quarter"}
_FRACTION_COMPARE = {">": "more than", ">=": "at least", "<": "less than", "<=": "at most", "==": "exactly",
                     "!=": "not exactly"}
_FLIP = {">": "<", ">=": "<=", "<": ">", "<=": ">=", "==": "==", "!=": "!="}


def expression_tree(source: str) -> list | None:
    """The expression tree of `source`, parsed as the value of a game-file line; None if it does not parse."""
    from rulec.language.parse import parse_text  # the language front end, loaded only when words are needed
    from rulec.diagnostics import DiagnosticError

    try:
        value = parse_text(f"value = {source}\n", "<aid>").data.get("value")
    except (DiagnosticError, RecursionError):
        return None
    if isinstance(value, dict) and "tree" in value:
        return value["tree"]
    if isinstance(value, str):
        return ["name", value]
    return ["const", value]


class Wording:
    """Words for one expression tree; `names` words the designer's names (default: humanized, lower case)."""

    def __init__(self, names: Mapping[str, str] | Callable[[str], str] | None = None):
        if callable(names):
            self.name = names
        else:
            table = dict(names or {})
            self.name = lambda n: table.get(n, humanize(n).lower())

    def words(self, tree: object) -> str:
        if not isinstance(tree, list) or not tree:
            return self.constant(tree)
        kind = tree[0]
        method = getattr(self, f"node_{kind}", None)
        if method is not None:
            try:
                return method(*tree[1:])
            except (TypeError, ValueError, IndexError):
                pass  # a known kind with a new shape: fall through to the plain wording
        return self.parts(tree)

    # ---------------------------------------------------------------- leaves
    def constant(self, value: object) -> str:
        if isinstance(value, bool):
            return "always" if value else "never"
        if isinstance(value, dict):
            if "$ratio" in value:
                return ":".join(str(v) for v in value["$ratio"])
            if "$hexside" in value:
                return "hexside " + "/".join(str(v) for v in value["$hexside"])
            return " ".join(self.constant(v) for v in value.values())
        if isinstance(value, (list, tuple)):
            return ", ".join(self.constant(v) for v in value)
        return str(value)

    def node_const(self, value: object) -> str:
        return self.constant(value)

    def node_name(self, name: str) -> str:
        return self.name(str(name))

    def parts(self, tree: list) -> str:
        """An unknown node: the words of its parts, in order."""
        return " ".join(self.words(part) if isinstance(part, list) else humanize(str(part)).lower()
                        for part in tree[1:] if part not in (None, {}, []))

    # ------------------------------------------------------------- operators
    def node_op(self, op: str, left: list, right: list) -> str:
        if op in _COMPARE:
            return self.comparison(op, left, right)
        return f"{self.operand(left)} {_ARITHMETIC.get(op, op)} {self.operand(right)}"

    def operand(self, tree: list) -> str:
        text = self.words(tree)
        return f"({text})" if isinstance(tree, list) and tree[:1] == ["op"] and tree[1] in _ARITHMETIC else text

    def comparison(self, op: str, left: list, right: list) -> str:
        if _is_const(left) and not _is_const(right):  # 0 < x reads as x > 0
            op, left, right = _FLIP[op], right, left
        counted = left[2][0] if _is_count(left) else left  # "count(units(...)) == 0" reads "no units (...)"
        if _is_const(right) and right[1] == 0 and not isinstance(right[1], bool):
            if op == "==" or op == "<=":
                return f"no {self.words(counted)}"
            if op in (">", "!="):
                return f"some {self.words(counted)}"
        if _is_const(right) and right[1] == 1 and op == ">=":
            return f"some {self.words(counted)}"
        share = _share(left)
        if share is not None and op in _FRACTION_COMPARE:
            part, denominator = share
            return f"{self.words(part)} are {_FRACTION_COMPARE[op]} {_FRACTIONS[denominator]} of {self.words(right)}"
        subject = self.operand(left)
        verb = _COMPARE[op]
        if subject.endswith("units"):  # "routed units are at least 3", not "is"
            verb = "are" + verb[2:]
        return f"{subject} {verb} {self.operand(right)}"

    def node_neg(self, inner: list) -> str:
        return f"minus {self.operand(inner)}"

    def node_not(self, inner: list) -> str:
        return f"not ({self.words(inner)})" if _is_compound(inner) else f"not {self.words(inner)}"

    def node_and(self, operands: list) -> str:
        return " and ".join(f"({self.words(t)})" if t[:1] == ["or"] else self.words(t) for t in operands)

    def node_or(self, operands: list) -> str:
        texts = [self.words(t) for t in operands]
        if any(t[:1] == ["and"] for t in operands):
            return "either " + ", or ".join(texts)
        return " or ".join(texts)

    def node_call(self, function: str, positional: list, keywords: dict) -> str:
        if function == "count" and len(positional) == 1 and not keywords:
            return f"the number of {self.words(positional[0])}"
        if function == "if" and len(positional) == 3 and not keywords:
            condition, then, otherwise = (self.words(p) for p in positional)
            return f"{then} if {condition}, otherwise {otherwise}"
        arguments = [self.words(p) for p in positional]
        arguments += [f"{humanize(k).lower()} {self.words(v)}" for k, v in keywords.items()]
        head = humanize(function).lower()
        return f"{head} ({', '.join(arguments)})" if arguments else head


def _is_const(tree: object) -> bool:
    return isinstance(tree, list) and len(tree) == 2 and tree[0] == "const" and isinstance(tree[1], (int, float))


def _is_count(tree: object) -> bool:
    return (isinstance(tree, list) and len(tree) == 4 and tree[:2] == ["call", "count"] and len(tree[2]) == 1
            and not tree[3])


def _is_compound(tree: object) -> bool:
    return isinstance(tree, list) and tree[:1] in (["and"], ["or"], ["op"])


def _share(tree: object) -> tuple[list, int] | None:
    """`x * 2` (or `2 * x`) as (x, 2), for 'more than half of'."""
    if not (isinstance(tree, list) and tree[:2] == ["op", "*"]):
        return None
    left, right = tree[2], tree[3]
    for part, factor in ((left, right), (right, left)):
        if _is_const(factor) and factor[1] in _FRACTIONS:
            return part, factor[1]
    return None


def in_words(source: str, names: Mapping[str, str] | Callable[[str], str] | None = None) -> str:
    """An expression of the game language in words; its source text if it does not parse."""
    tree = expression_tree(source)
    if tree is None:
        return source
    text = Wording(names).words(tree)
    return text[:1].upper() + text[1:]
