"""Parse: game text -> Document.

The grammar (grammar.lark) is generic; this module turns its tree into plain
data, records the source span of every value, and reports duplicate keys.
Syntax errors become diagnostics, never exceptions from Lark.
"""

from __future__ import annotations

import ast as python_ast
from functools import lru_cache
from importlib import resources
from typing import Any, Callable, Iterator

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from rulec.diagnostics import Diagnostic, DiagnosticError, Span, printable
from rulec.language.document import Document, Path
from rulec.language.limits import document_limits, text_limits, tree_limits
from rulec.language.syntax_errors import (first_word_of_statement, open_construct, parser_states_accepting_statements,
                                          syntax_diagnostic, value_left_open)

TRUE_FALSE = {"true": True, "false": False}


# Stop after this many syntax errors: past it, the rest is usually noise (or not a game file at all).
MAX_SYNTAX_ERRORS = 20


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The LALR parser for the game language, built from the grammar once per process.

    Never from Lark's on-disk cache: that is a pickle at a predictable name in the shared temporary
    folder, which another local user could plant to run code. Building costs about 30 ms of CPU
    at start-up (3 ms from the cache), a price worth paying for loading no pickle at all.
    """
    grammar = resources.files("rulec.language").joinpath("grammar.lark").read_text()
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=True, cache=False)


def _strict_parse() -> Callable[[str], Tree]:
    """The current parser's parse without recovery, to classify example mistakes. The bound method, not a
    function: the table of example mistakes is kept per parser (syntax_errors._example_table), because its
    keys are the parser's state numbers, which another build of the same grammar may number otherwise."""
    return parser().parse


def parse_text(text: str, file: str = "<game>") -> Document:
    """Parse a game file's text; raise DiagnosticError listing every syntax error (and every limit crossed)."""
    too_big = text_limits(text, file)
    if too_big:
        raise DiagnosticError(too_big)
    tree, syntax = parse_tree(text, file)
    if syntax:
        raise DiagnosticError(syntax)
    builder = _DocumentBuilder(file)
    try:
        problems = tree_limits(tree, file) or _bad_texts(tree, file)
        if problems:
            raise DiagnosticError(problems)
        data = builder.statements(tree.children, ())
    except RecursionError:
        raise DiagnosticError([Diagnostic("syntax-too-deep", "values or expressions are nested too deeply", Span(file, 1, 1))]) from None
    if builder.diagnostics:
        raise DiagnosticError(builder.diagnostics)
    too_big = document_limits(data, builder.spans, file)
    if too_big:
        raise DiagnosticError(too_big)
    return Document(file=file, text=text, data=data, spans=builder.spans, key_spans=builder.key_spans)


def parse_tree(text: str, file: str = "<game>") -> tuple[Tree | None, list[Diagnostic]]:
    """The parse tree and the syntax errors, at most one per line.

    After an error the parser unwinds to the statement it was in and resumes
    at the next line (the way Lark's own grammar loader finds several errors,
    lark/load_grammar.py:find_grammar_errors), so one run reports the mistakes
    of the whole file.
    """
    diagnostics: dict[int, Diagnostic] = {}
    if "\x00" in text:
        return None, [Diagnostic("not-a-game-file", "this is not a game file: it holds binary data", Span(file, 1, 1))]
    boundaries = parser_states_accepting_statements(parser())
    line_starts = _line_starts(text)

    def on_error(error: UnexpectedInput) -> bool:
        diagnostic = syntax_diagnostic(error, text, file, _strict_parse())
        line = diagnostic.span.line if diagnostic.span else 0
        diagnostics.setdefault(line, diagnostic)
        if len(diagnostics) >= MAX_SYNTAX_ERRORS:
            diagnostics[len(text) + 1] = Diagnostic("syntax-too-many", f"stopped after {MAX_SYNTAX_ERRORS} syntax errors",
                                                    diagnostic.span, severity="note")
            return False
        if isinstance(error, UnexpectedToken):
            if error.token.type == "$END":
                return False
            if diagnostic.code == "syntax-missing-brace" and _open_block_left_without_brace(error):
                return True
            if not _close_value_left_open(error, text):
                _recover(error, text, line_starts, boundaries)
        elif isinstance(error, UnexpectedCharacters) and error.char in TEXT_QUOTES:
            _read_text_left_open(error, text)
        return True

    try:
        tree = parser().parse(text, on_error=on_error)
    except UnexpectedInput as error:  # recovery gave up: the errors so far are the report
        if not diagnostics:
            diagnostics[0] = syntax_diagnostic(error, text, file, _strict_parse())
        tree = None
    except RecursionError:
        diagnostics[0] = Diagnostic("syntax-too-deep", "values or expressions are nested too deeply", Span(file, 1, 1))
        tree = None
    ordered = [diagnostics[line] for line in sorted(diagnostics)]
    return (tree if not ordered else None), ordered


def _bad_texts(tree: Tree, file: str) -> list[Diagnostic]:
    """Texts in quotes whose escapes Python cannot read (\\N{...} with an unknown name, a lone \\x),
    and texts holding control characters (an escape sequence would reach the terminal and the aids)."""
    problems = []
    for token in tree.scan_values(lambda v: isinstance(v, Token) and v.type in ("STRING", "HEREDOC")):
        try:
            value = _string(token) if token.type == "STRING" else str(token).replace("\r\n", "\n")
        except (SyntaxError, ValueError):
            problems.append(Diagnostic("syntax-bad-text", "this text in quotes has a backslash escape that cannot be read",
                                       _span(file, token), hint="write a backslash itself as \\\\"))
            continue
        if any("\ud800" <= c <= "\udfff" for c in value):  # half a UTF-16 pair: no file, page or terminal can hold it
            problems.append(Diagnostic("syntax-bad-text", "this text holds a lone surrogate (a \\u escape between "
                                       "\\ud800 and \\udfff), which is not a character", _span(file, token),
                                       hint="write the character itself, or its \\U escape (\\U0001F600)"))
            continue
        if value != printable(value):  # it would reach terminals and aids: an escape sequence could rewrite the screen
            bad = next(c for c in value if printable(c) != c)
            problems.append(Diagnostic("syntax-bad-text", f"this text holds the control character {printable(bad)}",
                                       _span(file, token), hint="a text holds printable characters, tabs and (in << >>) line breaks"))
    return problems


def _recover(error: UnexpectedToken, text: str, line_starts: list[int], boundaries: frozenset[int]) -> None:
    """Unwind to the enclosing statement list and skip to the next line.

    If the offending token is the first on its line, the mistake is most likely
    on the line before (a value left out): keep the token, it probably starts
    the next statement.
    """
    interactive = error.interactive_parser
    state = interactive.parser_state
    token = error.token
    if _stay_in_list(interactive, token):
        counter = interactive.lexer_thread.state.line_ctr
        counter.feed(text[counter.char_pos:_resume_point(text, counter.char_pos, closing="]")])
        return
    while len(state.state_stack) > 1 and state.state_stack[-1] not in boundaries:
        state.state_stack.pop()
        state.value_stack.pop()
    start = token.start_pos if isinstance(token.start_pos, int) else 0
    line_start = line_starts[token.line - 1] if isinstance(token.line, int) and 0 < token.line <= len(line_starts) else 0
    first_on_line = text[line_start:start].strip() == ""
    end = token.end_pos if isinstance(token.end_pos, int) else start
    last_brace = token.type == "RBRACE" and _resume_point(text, end) == _end_of_line(text, end)
    if (first_on_line or last_brace) and token.type in interactive.accepts():
        interactive.feed_token(token)  # the last '}' of a line closes its block even after a mistake before it
        return
    counter = interactive.lexer_thread.state.line_ctr
    counter.feed(text[counter.char_pos:_resume_point(text, counter.char_pos)])


def _open_block_left_without_brace(error: UnexpectedToken) -> bool:
    """`unit r1` and then `side = red` on the next line: open the block before `side`, so its body reads as usual.

    The parser took `side` for one more label; it belongs to the block's first statement.
    """
    interactive = error.interactive_parser
    state = interactive.parser_state
    word = state.value_stack[-1] if state.value_stack else None
    if not (error.token.type == "EQUAL" and isinstance(word, Token) and word.type == "NAME" and len(state.value_stack) >= 2):
        return False
    before = state.value_stack[-2]
    before_line = before.line if isinstance(before, Token) else getattr(getattr(before, "meta", None), "line", None)
    children = getattr(before, "children", None)
    if isinstance(before, Tree) and children and isinstance(children[-1], Token):
        before_line = children[-1].line
    if not (isinstance(word.line, int) and isinstance(before_line, int) and word.line > before_line):
        return False
    states, values = list(state.state_stack), list(state.value_stack)
    state.state_stack.pop()
    state.value_stack.pop()
    for token in (Token("LBRACE", "{"), word, error.token):
        if token.type not in interactive.accepts():
            state.state_stack[:], state.value_stack[:] = states, values
            return False
        interactive.feed_token(token)
    return True


def _stay_in_list(interactive: Any, token: Token) -> bool:
    """After a mistake in a list that began on an earlier line, unwind only to its last item.

    The lines after it are more items (a long list of hexsides): read as
    statements they would each be one more error.
    """
    state = interactive.parser_state
    opened = open_construct(state.value_stack)
    if opened is None or opened[1].type != "LSQB" or not isinstance(token.line, int) or not opened[1].line < token.line:
        return False
    states, values = list(state.state_stack), list(state.value_stack)
    while len(state.state_stack) > 1:
        accepted = interactive.accepts()
        if "RSQB" in accepted and "COMMA" not in accepted and "EQUAL" not in accepted:  # where an item or ']' may come
            return True
        if state.value_stack and state.value_stack[-1] is opened[1]:
            break
        state.state_stack.pop()
        state.value_stack.pop()
    state.state_stack[:], state.value_stack[:] = states, values
    return False


def _close_value_left_open(error: UnexpectedToken, text: str) -> bool:
    """Close a `{ }` or `[ ]` value left open before the next statement, so that statement reads as usual."""
    left_open = value_left_open(error, text)
    if left_open is None:
        return False
    interactive = error.interactive_parser
    state = interactive.parser_state
    word = first_word_of_statement(error)
    replay = [error.token]
    if word is not None and word is not error.token:  # taken as a list item: give it back
        state.state_stack.pop()
        state.value_stack.pop()
        replay.insert(0, word)
    closing = "RBRACE" if left_open[1].type == "LBRACE" else "RSQB"
    for token in [Token(closing, "}" if closing == "RBRACE" else "]"), *replay]:
        if token.type not in interactive.accepts():
            return False
        interactive.feed_token(token)
    return True


# Quotes that may open a text: the right one, and those of other languages and word processors.
# Each maps to the characters that may close it.
TEXT_QUOTES = {'"': '"', "'": "'", "\u201c": "\u201d\u201c\"", "\u201d": "\u201d\u201c\"", "\u2018": "\u2019\u2018'", "\u2019": "\u2019\u2018'"}


def _read_text_left_open(error: UnexpectedCharacters, text: str) -> None:
    """Read a text the lexer could not (left open, or in the wrong quotes) as one text, and go on after it.

    Without this its words would be read as names and trip the parser on the
    next line too. A '"' left open ends at the end of its line; closing
    brackets at the very end of the line are kept out of the text: in
    `side b { name = "Blue }` they most likely close the block. A text in
    other quotes ('Blue', “Blue”) ends at its closing quote.
    """
    interactive = error.interactive_parser
    if interactive is None:
        return
    accepted = interactive.accepts()
    if "STRING" not in accepted or "EQUAL" in accepted:  # only where a value is expected
        return
    start = error.pos_in_stream
    end_of_line = _end_of_line(text, start)
    closing = TEXT_QUOTES[text[start]]
    close = next((i for i in range(start + 1, end_of_line) if text[i] in closing), None) if text[start] != '"' else None
    if close is not None:
        end, body = close + 1, text[start + 1:close]
    else:
        end = start + len(text[start:end_of_line].rstrip().rstrip("}]) \t\r"))
        body = text[start + 1:end]
    body = body.replace("\\", "\\\\").replace('"', '\\"')
    interactive.feed_token(Token("STRING", f'"{body}"', start_pos=start, line=error.line, column=error.column,
                                 end_line=error.line, end_column=error.column + end - start))
    counter = interactive.lexer_thread.state.line_ctr
    counter.feed(text[counter.char_pos:end])


def _resume_point(text: str, position: int, closing: str = "}") -> int:
    """Where to resume after a bad token: the end of its line, or a '}' (or `closing`) on it that closes what encloses it."""
    end_of_line = _end_of_line(text, position)
    opening = {"}": "{", "]": "["}[closing]
    depth, quoted = 0, False
    for index in range(position, end_of_line):
        char = text[index]
        if char == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif char == "#":
            break
        elif char == opening:
            depth += 1
        elif char == closing:
            if depth == 0:
                return index
            depth -= 1
    return end_of_line


def _end_of_line(text: str, position: int) -> int:
    end = text.find("\n", position)
    return len(text) if end < 0 else end


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for index, char in enumerate(text):
        if char == "\n":
            starts.append(index + 1)
    return starts


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
        name = " ".join(str(p) for p in path)
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
        recorded: list[tuple[list, Span]] = []  # kept alive so that no two nodes share an id while converting
        tree = expression_tree(node, lambda made, lark: recorded.append((made, _span(self.file, lark))))
        if tree[0] == "const":
            return tree[1]
        if tree[0] == "name":
            return TRUE_FALSE.get(tree[1], tree[1])
        where = {id(made): span for made, span in recorded}
        for at, sub in tree_nodes(tree):  # each sub-expression's span, at the value's path + ("tree", index, ...)
            if id(sub) in where:
                self.spans[path + ("tree", *at)] = where[id(sub)]
        return {"$expr": _source_text(node), "tree": tree}


def tree_nodes(value: Any, at: Path = ()) -> Iterator[tuple[Path, list]]:
    """Every list inside an expression tree (its nodes, and lists of arguments) with its index path."""
    if isinstance(value, list):
        yield at, value
        for index, item in enumerate(value):
            yield from tree_nodes(item, at + (index,))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from tree_nodes(item, at + (key,))


def expression_tree(node: Tree | Token, record: Callable[[list, Tree | Token], None] | None = None) -> list:
    """`node` as an expression tree (see _expression_tree); `record(tree, node)` is told where each tree node came from."""
    tree = _expression_tree(node, record)
    if record is not None:
        record(tree, node)
    return tree


def _expression_tree(node: Tree | Token, record: Callable[[list, Tree | Token], None] | None) -> list:
    """The expression as nested lists, with constants folded where trivially known.

    Forms: ["const", v], ["name", n], ["call", f, [args], {kw: arg}],
    ["op", op, a, b], ["neg", a], ["not", a], ["and", [a, ...]], ["or", [a, ...]],
    ["attr", a, name] (`u.strength`), and inside a call's arguments
    ["where", binding, condition] (`u in S where C`) and
    ["for", value, binding, condition or None] (`V for u in S where C`).
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
        inner = expression_tree(children[0], record)
        if inner[0] == "const" and isinstance(inner[1], (int, float)) and not isinstance(inner[1], bool):
            return ["const", -inner[1] if kind == "neg" else inner[1]]
        if inner[0] == "const" and isinstance(inner[1], str) and inner[1].isdigit():
            return ["const", -int(inner[1]) if kind == "neg" else int(inner[1])]
        return ["neg", inner] if kind == "neg" else inner
    if kind == "not_":
        return ["not", expression_tree(children[0], record)]
    if kind in ("and_", "or_"):
        operands = []
        for child in children:  # flatten a or b or c into one list
            tree = expression_tree(child, record)
            operands.extend(tree[1] if tree[0] == kind[:-1] else [tree])
        return [kind[:-1], operands]
    if kind in ("comparison", "sum", "product"):
        result = expression_tree(children[0], record)
        for op, operand in zip(children[1::2], children[2::2]):
            result = ["op", str(op), result, expression_tree(operand, record)]
        return result
    if kind == "member":
        return ["attr", expression_tree(children[0], record), str(children[1])]
    if kind == "where_argument":
        return ["where", expression_tree(children[0], record), expression_tree(children[1], record)]
    if kind == "for_argument":
        value, binding, *condition = node.children
        return ["for", expression_tree(value, record), expression_tree(binding, record),
                expression_tree(condition[0], record) if condition and condition[0] is not None else None]
    if kind == "call":
        name, *args = children
        positional, keywords = [], {}
        for arg in args:
            if isinstance(arg, Tree) and arg.data == "keyword_argument":
                keywords[str(arg.children[0])] = expression_tree(arg.children[1], record)
            else:
                positional.append(expression_tree(arg, record))
        return ["call", str(name), positional, keywords]
    raise AssertionError(f"unhandled expression node {kind}")


def _source_text(node: Tree | Token) -> str:
    """Canonical text of an expression (used in messages and generated code comments)."""
    return unparse(expression_tree(node))


def unparse(tree: list) -> str:
    """The canonical text of an expression tree, with parentheses only where the grammar needs them."""
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
    here = _precedence(tree)
    if kind == "op":  # left-associative: an operand of the same precedence on the right keeps its parentheses
        return f"{_wrap(tree[2], here)} {tree[1]} {_wrap(tree[3], here + 1)}"
    if kind == "neg":
        return f"-{_wrap(tree[1], here)}"
    if kind == "not":
        return f"not {_wrap(tree[1], here)}"
    if kind in ("and", "or"):
        return f" {kind} ".join(_wrap(t, here + 1) for t in tree[1])
    if kind == "attr":
        return f"{_wrap(tree[1], here)}.{tree[2]}"
    if kind == "where":
        return f"{unparse(tree[1])} where {unparse(tree[2])}"
    if kind == "for":
        condition = f" where {unparse(tree[3])}" if tree[3] is not None else ""
        return f"{unparse(tree[1])} for {unparse(tree[2])}{condition}"
    raise AssertionError(kind)


# How tightly each form binds (grammar.lark, loosest first); names, literals and calls bind tightest.
_BINDING = {"or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "in": 4,
            "+": 5, "-": 5, "*": 6, "/": 6, "%": 6, "neg": 7, "attr": 8}


def _precedence(tree: list) -> int:
    return _BINDING.get(tree[1] if tree[0] == "op" else tree[0], 9)


def _wrap(tree: list, needed: int) -> str:
    """`tree` as an operand that must bind at least as tightly as `needed`."""
    text = unparse(tree)
    return f"({text})" if _precedence(tree) < needed else text


def _string(token: Token) -> str:
    return python_ast.literal_eval(str(token))
