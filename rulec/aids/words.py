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

import re
from typing import Callable, Mapping

from rulec.aids.environment import humanize
from rulec.aids.function_words import (AGGREGATE_WORDS, ATTRIBUTE_WORDS, FILTER_WORDS, FUNCTION_WORDS, NAME_WORDS,
                                       SPECIAL_WORDS)

_COMPARE = {"in": "is in", "==": "is", "!=": "is not", ">": "is more than", ">=": "is at least", "<": "is less than",
            "<=": "is at most"}
_ARITHMETIC = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "//": "divided by", "%": "modulo"}
_FRACTIONS = {2: "half", 3: "a third", 4: "a quarter"}
_FRACTION_COMPARE = {">": "more than", ">=": "at least", "<": "less than", "<=": "at most", "==": "exactly",
                     "!=": "not exactly"}
_FLIP = {"in": "in", ">": "<", ">=": "<=", "<": ">", "<=": ">=", "==": "==", "!=": "!="}


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
    """Words for one expression tree; `names` words the designer's names (default: the built-in name's
    words, else humanized, lower case); `adjective` words a side as an adjective ("Red units")."""

    def __init__(self, names: Mapping[str, str] | Callable[[str], str] | None = None,
                 adjective: Callable[[str], str] | None = None):
        if callable(names):
            self.name = names
        else:
            table = dict(names or {})
            self.name = lambda n: table.get(n, NAME_WORDS.get(n, humanize(n).lower()))
        self.adjective = adjective or self.name
        self.bound: dict[str, str] = {}  # bound variables of the quantifiers being worded: u -> "the unit"

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
        if value == "":
            return "none"
        if isinstance(value, str):
            return self.name(value)  # a hex "0807" reads with its place name
        return str(value)

    def node_const(self, value: object) -> str:
        return self.constant(value)

    def node_name(self, name: str) -> str:
        return self.bound.get(str(name)) or self.name(str(name))

    def node_attr(self, owner: list, attribute: str) -> str:
        return ATTRIBUTE_WORDS.get(attribute, "{0}'s " + humanize(attribute).lower()).format(self.words(owner))

    def parts(self, tree: list) -> str:
        """An unknown node: the words of its parts, in order."""
        return " ".join(self.words(part) if isinstance(part, list) else humanize(str(part)).lower()
                        for part in tree[1:] if part not in (None, {}, []))

    # ------------------------------------------------------------- operators
    def node_op(self, op: str, left: list, right: list) -> str:
        if op in _COMPARE:
            return self.comparison(op, left, right)
        if op == "*" and _multiple(["op", op, left, right]) is not None:
            return self.operand(["op", op, left, right])
        return f"{self.operand(left)} {_ARITHMETIC.get(op, op)} {self.operand(right)}"

    def operand(self, tree: list) -> str:
        multiple = _multiple(tree)
        if multiple is not None:  # "2 * vp(blue)" reads "twice Blue's VP"
            factor, part = multiple
            return f"{_TIMES.get(factor, f'{factor} times')} {self.operand(part)}"
        text = self.words(tree)
        return f"({text})" if isinstance(tree, list) and tree[:1] == ["op"] and tree[1] in _ARITHMETIC else text

    def comparison(self, op: str, left: list, right: list) -> str:
        if _is_const(left) and not _is_const(right):  # 0 < x reads as x > 0
            op, left, right = _FLIP[op], right, left
        if _is_count(left):  # "count(units(side = us)) == 0" reads "no us units"
            counted = left[2][0]
            what = (self.quantifier("select", counted) if counted[:1] in (["where"], ["op"]) else None) \
                or self.words(counted)
        else:
            what = self.words(left)
        countable = _is_count(left) or what.endswith(("units", "hexes"))  # "some VP" would not read: only a set
        if countable and _is_const(right) and right[1] == 0 and not isinstance(right[1], bool):
            if op == "==" or op == "<=":
                return f"no {what}"
            if op in (">", "!="):
                return f"some {what}"
        if countable and _is_const(right) and right[1] == 1 and op == ">=":
            return f"some {what}"
        share = _share(left)
        if share is not None and op in _FRACTION_COMPARE:
            part, denominator = share
            return f"{self.words(part)} are {_FRACTION_COMPARE[op]} {_FRACTIONS[denominator]} of {self.words(right)}"
        if op in ("==", "!=") and right == ["const", ""] and isinstance(left, list) and left[:1] == ["attr"]:
            # `u.division != ""`: "the unit has a division"
            return f"{self.words(left[1])} has {'no' if op == '==' else 'a'} {humanize(left[2]).lower()}"
        if op == "in" and isinstance(left, list) and left[:1] == ["attr"] and left[2] == "hex":
            return f"{self.words(left[1])} is in {self.words(right)}"
        subject = self.operand(left)
        verb = _COMPARE[op]
        if subject.endswith(("units", "VP", "hexes")):  # "routed units are at least 3", not "is"
            verb = "are" + verb[2:]
        if op in (">=", "<=") and isinstance(right, list) and right[:2] == ["op", "+"] and _is_const(right[3]):
            # "vp(a) >= vp(b) + 12": "A's VP are at least 12 more than B's VP"
            return f"{subject} {verb} {self.words(right[3])} more than {self.operand(right[2])}"
        return f"{subject} {verb} {self.operand(right)}"

    def node_neg(self, inner: list) -> str:
        return f"minus {self.operand(inner)}"

    def node_not(self, inner: list) -> str:
        if isinstance(inner, list) and inner[:1] in (["call"], ["name"]):
            text = self.words(inner)
            for plain, negated in _NEGATIONS:
                if plain in f" {text} ":
                    return f" {text} ".replace(plain, negated, 1).strip()
        return f"not ({self.words(inner)})" if _is_compound(inner) else f"not {self.words(inner)}"

    def node_and(self, operands: list) -> str:
        return " and ".join(f"({self.words(t)})" if t[:1] == ["or"] else self.words(t) for t in operands)

    def node_or(self, operands: list) -> str:
        texts = [self.words(t) for t in operands]
        if any(t[:1] == ["and"] for t in operands):
            return "either " + ", or ".join(texts)
        return " or ".join(texts)

    def node_call(self, function: str, positional: list, keywords: dict) -> str:
        if len(positional) == 1 and not keywords and positional[0][:1] in (["where"], ["for"], ["op"]):
            quantified = self.quantifier(function, positional[0])
            if quantified is not None:
                return quantified
        if function == "units":
            return self.units_phrase(keywords)
        if function == "hexes":
            return self.hexes_phrase(keywords)
        forms = FUNCTION_WORDS.get(function, {})
        template = forms.get(len(positional), forms.get(-1)) or SPECIAL_WORDS.get(function)
        if template is not None and not keywords:
            arguments = [self.words(p) for p in positional]
            adjectives = [self.adjective(p[1]) if p[:1] == ["name"] and p[1] not in self.bound else a
                          for p, a in zip(positional, arguments)]
            return _ARTICLE.sub(r"an \1", template.format(*arguments, a=adjectives, args=_listed(arguments)))
        arguments = [self.words(p) for p in positional]
        arguments += [f"{humanize(k).lower()} {self.words(v)}" for k, v in keywords.items()]
        head = humanize(function).lower()
        return f"{head} ({', '.join(arguments)})" if arguments else head

    def quantifier(self, function: str, body: list) -> str | None:
        """`count(u in S where C)`, `any(u in S)`, `sum(V for u in S where C)`; None for another shape."""
        value, membership, condition = None, body, None
        if body[0] == "where":
            membership, condition = body[1], body[2]
        elif body[0] == "for":
            value, membership, condition = body[1], body[2], body[3] if len(body) > 3 else None
        if not (membership[:2] == ["op", "in"] and membership[2][:1] == ["name"]):
            return None
        variable, members_tree = membership[2][1], membership[3]
        members = self.words(members_tree)
        thing = "unit" if _is_unit_set(members_tree) else "hex"
        if thing == "hex" and not members.endswith("hexes") and not members.startswith("the hexes "):
            members = f"the hexes of {members}"  # a zone: "the hexes of Ring"
        self.bound[variable] = f"the other {thing}" if f"the {thing}" in self.bound.values() else f"the {thing}"
        try:
            kept = members
            if condition is not None:
                if condition[:2] == ["op", "in"] and condition[2] == ["attr", ["name", variable], "hex"]:
                    kept = f"{members} in {self.words(condition[3])}"
                else:
                    kept = f"{members} for which {self.words(condition)}"
            if value is not None and function in AGGREGATE_WORDS:
                if function == "sum" and value[:1] == ["attr"] and value[1] == ["name", variable]:
                    return f"the total {humanize(value[2]).lower()} of {kept}"
                return AGGREGATE_WORDS[function].format(value=self.words(value), set=kept)
            if function == "all" and value is None:
                return FILTER_WORDS["all"].format(members=members, condition=self.words(condition)) \
                    if condition is not None else f"every one of {members}"
            if function in FILTER_WORDS and value is None:
                return FILTER_WORDS[function].format(set=kept)
            return None
        finally:
            self.bound.pop(variable, None)

    def units_phrase(self, keywords: dict) -> str:
        """`units(side = us, zone = west)` -> "Red units in West"."""
        before, after = [], []
        status = keywords.get("status")
        if status is not None and status[1:] in (["eliminated"], ["exited"]):  # "eliminated Red units"
            before.append(self.words(status))
        elif status is not None:  # "Red units not yet arrived"
            after.append(self.words(status))
        for key, value in keywords.items():
            if key == "status":
                continue
            if key == "side":
                before.append(self.adjective(value[1]) if value[:1] == ["name"] else self.words(value))
            elif key == "type":
                before.append(self.words(value))
            elif key in ("zone", "hex"):
                after.append(f"in {self.words(value)}")
            elif key == "flag":
                after.append(f"carrying {self.words(value)}")
            else:
                after.append(f"with {humanize(key).lower()} {self.words(value)}")
        return " ".join(before + ["units"] + after)

    def hexes_phrase(self, keywords: dict) -> str:
        """`hexes(terrain = city, zone = west)` -> "city hexes in West"."""
        terrain = [self.words(v) for k, v in keywords.items() if k == "terrain"]
        where = [f"in {self.words(v)}" for k, v in keywords.items() if k != "terrain"]
        return " ".join(terrain + ["hexes"] + where)


_ARTICLE = re.compile(r"\ba ([AEIOUaeiou])")  # "a Ally unit" -> "an Ally unit"
_TIMES = {2: "twice", 3: "three times", 4: "four times"}
# A predicate in words turned into its negation: the first of these found is replaced.
_NEGATIONS = (
    (" there is at least one of ", " there is none of "), (" a unit stands ", " no unit stands "),
    (" an enemy unit stands ", " no enemy unit stands "), (" a friendly unit stands ", " no friendly unit stands "),
    (" an enemy of ", " no enemy of "), (" can ", " cannot "), (" carries ", " does not carry "),
    (" controls ", " does not control "), (" has moved ", " has not moved "), (" has attacked ", " has not attacked "),
    (" moved ", " did not move "), (" attacked ", " did not attack "), (" retreated ", " did not retreat "),
    (" was ", " was not "), (" is ", " is not "), (" has ", " does not have "),
)


def _multiple(tree: object) -> tuple[int, list] | None:
    """`2 * x` (or `x * 2`) as (2, x), for 'twice x'."""
    if not (isinstance(tree, list) and tree[:2] == ["op", "*"]):
        return None
    for factor, part in ((tree[2], tree[3]), (tree[3], tree[2])):
        if _is_const(factor) and factor[1] in _TIMES:
            return factor[1], part
    return None


def _is_unit_set(tree: list) -> bool:
    """Whether a set a quantifier runs over holds units (else hexes): units(), units_at(), attackers..."""
    if tree[:1] == ["call"]:
        if tree[1] == "select" and tree[2] and tree[2][0][:1] == ["where"]:
            return _is_unit_set(tree[2][0][1][3])
        return tree[1] in ("units", "units_at")
    return tree[:1] == ["name"] and tree[1] in ("attackers", "defenders")


def _listed(texts: list[str]) -> str:
    return " and ".join(texts) if len(texts) < 3 else ", ".join(texts[:-1]) + " and " + texts[-1]


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


def in_words(source: str, names: Mapping[str, str] | Callable[[str], str] | None = None,
             adjective: Callable[[str], str] | None = None) -> str:
    """An expression of the game language in words; its source text if it does not parse."""
    tree = expression_tree(source)
    if tree is None:
        return source
    text = Wording(names, adjective).words(tree)
    return text[:1].upper() + text[1:]
