"""Parse: game text -> Document.

The grammar (grammar.lark) is generic; this module turns its tree into plain
data, records the source span of every value, and reports duplicate keys.
Syntax errors become diagnostics, never exceptions from Lark.
"""

from __future__ import annotations

import ast as python_ast
from functools import lru_cache
from importlib import resources
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rulec.diagnostics import Diagnostic, DiagnosticError, Span
from rulec.language.document import Document, Path

TRUE_FALSE = {"true": True, "false": False}


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The LALR parser for the game language, built once per process."""
    grammar = resources.files("rulec.language").joinpath("grammar.lark").read_text()
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=True)


def parse_text(text: str, file: str = "<game>") -> Document:
    """Parse a game file's text; raise DiagnosticError listing every syntax error."""
    try:
        tree = parser().parse(text)
    except UnexpectedInput as error:
        raise DiagnosticError([_syntax_diagnostic(error, file)]) from None
    builder = _DocumentBuilder(file)
    data = builder.statements(tree.children, ())
    if builder.diagnostics:
        raise DiagnosticError(builder.diagnostics)
    return Document(file=file, text=text, data=data, spans=builder.spans, key_spans=builder.key_spans)


def _syntax_diagnostic(error: UnexpectedInput, file: str) -> Diagnostic:
    span = Span(file, error.line if error.line > 0 else 1, error.column if error.column > 0 else 1)
    if isinstance(error, UnexpectedCharacters):
        return Diagnostic("syntax", f"unexpected character {error.char!r}", span)
    if isinstance(error, UnexpectedEOF):
        return Diagnostic("syntax", "unexpected end of file", span, hint="a block may be missing its '}'")
    assert isinstance(error, UnexpectedToken)
    return Diagnostic("syntax", f"unexpected {error.token!r}", span)


def _span(file: str, item: Tree | Token) -> Span:
    if isinstance(item, Token):
        return Span(file, item.line, item.column, item.end_line, item.end_column)
    meta = item.meta
    return Span(file, meta.line, meta.column, meta.end_line, meta.end_column)


class _DocumentBuilder:
    """Walks the parse tree top-down, so every value knows its path."""

    def __init__(self, file: str):
        self.file = file
        self.spans: dict[Path, Span] = {}
        self.key_spans: dict[Path, Span] = {}
        self.diagnostics: list[Diagnostic] = []

    # ---------------------------------------------------------------- blocks
    def statements(self, items: list[Tree], path: Path) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for item in items:
            if item.data == "attribute":
                key_token, value = item.children
                self._put(result, path, [key_token], value)
            else:  # block
                keyword, *rest = item.children
                labels = [c for c in rest if isinstance(c, Token)]
                body = [c for c in rest if isinstance(c, Tree)]
                self._put(result, path, [keyword, *labels], body, block=item)
        return result

    def _put(self, target: dict, path: Path, keys: list[Token], value: Any, block: Tree | None = None) -> None:
        """Store `value` under the chain of keys (a keyword and its labels)."""
        for depth, token in enumerate(keys):
            key = self.key(token)
            here = path + (key,)
            last = depth == len(keys) - 1
            if not last:
                existing = target.get(key)
                if existing is None:
                    target[key] = existing = {}
                    self.key_spans[here] = _span(self.file, token)
                    self.spans[here] = _span(self.file, token)
                elif not isinstance(existing, dict):
                    self._duplicate(token, here)
                    return
                target, path = existing, here
                continue
            if key in target:
                self._duplicate(token, here)
                return
            self.key_spans[here] = _span(self.file, token)
            if block is not None:
                self.spans[here] = _span(self.file, block)
                target[key] = self.statements(value, here)
            else:
                target[key] = self.value(value, here)

    def _duplicate(self, token: Token, path: Path) -> None:
        first = self.key_spans.get(path)
        where = f" (first defined at line {first.line})" if first else ""
        name = ".".join(str(p) for p in path)
        self.diagnostics.append(
            Diagnostic("duplicate-key", f"'{name}' is defined twice{where}", _span(self.file, token))
        )

    def key(self, token: Token) -> str:
        if token.type == "STRING":
            return _string(token)
        return str(token)

    # ---------------------------------------------------------------- values
    def value(self, node: Tree | Token, path: Path) -> Any:
        self.spans[path] = _span(self.file, node)
        if isinstance(node, Token):
            return self.token(node)
        kind = node.data
        if kind == "list":
            items = [c for c in node.children if c is not None]
            return [self.value(child, path + (i,)) for i, child in enumerate(items)]
        if kind == "object":
            result: dict[str, Any] = {}
            for entry in node.children:
                if entry is None:
                    continue
                key_token, value = entry.children
                self._put(result, path, [key_token], value)
            return result
        if kind in ("closed_range", "from_range", "to_range"):
            ends = [self.literal_or_expr(c, path) for c in node.children]
            low, high = {"closed_range": ends, "from_range": ends + [None], "to_range": [None] + ends}[kind]
            return {"$range": [low, high]}
        return self.literal_or_expr(node, path)

    def token(self, token: Token) -> Any:
        kind = token.type
        if kind == "INT":
            text = str(token)
            return text if len(text) > 1 and text.startswith("0") else int(text)
        if kind == "DECIMAL":
            return float(token)
        if kind == "STRING":
            return _string(token)
        if kind == "RATIO":
            high, low = str(token).split(":")
            return {"$ratio": [int(high), int(low)]}
        if kind == "HEXSIDE":
            return {"$hexside": str(token).split("/")}
        if kind == "HEREDOC":
            return str(token)[2:-2]
        if kind == "NAME":
            return TRUE_FALSE.get(str(token), str(token))
        raise AssertionError(f"unhandled token {kind}")

    def literal_or_expr(self, node: Tree | Token, path: Path) -> Any:
        """A literal stays plain data; anything computed becomes {"$expr": ...}."""
        tree = expression_tree(node)
        if tree[0] == "const":
            return tree[1]
        if tree[0] == "name":
            return TRUE_FALSE.get(tree[1], tree[1])
        return {"$expr": _source_text(node), "tree": tree}


def expression_tree(node: Tree | Token) -> list:
    """The expression as nested lists, with constants folded where trivially known.

    Forms: ["const", v], ["name", n], ["call", f, [args], {kw: arg}],
    ["op", op, a, b], ["neg", a], ["not", a], ["and", [a, ...]], ["or", [a, ...]].
    """
    if isinstance(node, Token):
        if node.type == "NAME":
            return ["name", str(node)]
        return ["const", _DocumentBuilder("").token(node)]
    kind = node.data
    children = [c for c in node.children if c is not None]
    if kind == "name":
        return ["name", str(children[0])]
    if kind in ("neg", "pos"):
        inner = expression_tree(children[0])
        if inner[0] == "const" and isinstance(inner[1], (int, float)) and not isinstance(inner[1], bool):
            return ["const", -inner[1] if kind == "neg" else inner[1]]
        if inner[0] == "const" and isinstance(inner[1], str) and inner[1].isdigit():
            return ["const", -int(inner[1]) if kind == "neg" else int(inner[1])]
        return ["neg", inner] if kind == "neg" else inner
    if kind == "not_":
        return ["not", expression_tree(children[0])]
    if kind in ("and_", "or_"):
        operands = []
        for child in children:  # flatten a or b or c into one list
            tree = expression_tree(child)
            operands.extend(tree[1] if tree[0] == kind[:-1] else [tree])
        return [kind[:-1], operands]
    if kind in ("comparison", "sum", "product"):
        result = expression_tree(children[0])
        for op, operand in zip(children[1::2], children[2::2]):
            result = ["op", str(op), result, expression_tree(operand)]
        return result
    if kind == "call":
        name, *args = children
        positional, keywords = [], {}
        for arg in args:
            if isinstance(arg, Tree) and arg.data == "keyword_argument":
                keywords[str(arg.children[0])] = expression_tree(arg.children[1])
            else:
                positional.append(expression_tree(arg))
        return ["call", str(name), positional, keywords]
    raise AssertionError(f"unhandled expression node {kind}")


def _source_text(node: Tree | Token) -> str:
    """Canonical text of an expression (used in messages and generated code comments)."""
    return unparse(expression_tree(node))


def unparse(tree: list) -> str:
    kind = tree[0]
    if kind == "const":
        value = tree[1]
        if isinstance(value, dict) and "$hexside" in value:
            return "/".join(value["$hexside"])
        if isinstance(value, dict) and "$ratio" in value:
            return ":".join(map(str, value["$ratio"]))
        if isinstance(value, str) and not value.isdigit():
            return '"' + value.replace('"', '\\"') + '"'
        return str(value)
    if kind == "name":
        return tree[1]
    if kind == "call":
        args = [unparse(a) for a in tree[2]] + [f"{k} = {unparse(v)}" for k, v in tree[3].items()]
        return f"{tree[1]}({', '.join(args)})"
    if kind == "op":
        return f"{_wrap(tree[2])} {tree[1]} {_wrap(tree[3])}"
    if kind == "neg":
        return f"-{_wrap(tree[1])}"
    if kind == "not":
        return f"not {_wrap(tree[1])}"
    if kind in ("and", "or"):
        return f" {kind} ".join(_wrap(t) for t in tree[1])
    raise AssertionError(kind)


def _wrap(tree: list) -> str:
    text = unparse(tree)
    return f"({text})" if tree[0] in ("op", "and", "or", "not") else text


def _string(token: Token) -> str:
    return python_ast.literal_eval(str(token))
