"""Syntax errors in designer words.

Lark reports what went wrong as a parser state and a terminal name
("Unexpected token Token('RBRACE', '}'), expected EQUAL, LBRACE"). A designer
needs "a block 'unit x' needs '{' after its name". This module turns one into
the other in three ways, most specific first:

1. A table of example mistakes (`EXAMPLES`) -> messages, in the manner of
   Lark's `UnexpectedInput.match_examples`: each snippet is parsed once, and
   the parser state plus the offending token it fails on become the key. A real
   error in the same state (with the same kind of token) gets that message.
   Lark's own `match_examples` also compares the depth of the parser stack, so
   an example written at the top level would never match the same mistake
   inside a block; keying on the state alone makes one example cover every
   depth.
2. The end of the file inside a block names the block and where it began,
   and the indentation says where its '}' was left out (`block_left_open`).
3. Otherwise: "expected <what the parser accepts, in designer words>, found
   <the token>".

Before the table, a few mistakes whose parser state is misleading are
recognised from the words around the error: a value or operator left out at
the end of a line (the parser trips on the next line), `turns 4` with its '='
left out (read as a block header missing '{'), and a `{ }` or `[ ]` value
left open before the next statement (`value_left_open`; rulec.language.parse
closes it there so that the rest of the file is checked as usual).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from rulec.diagnostics import Diagnostic, Span

# How each terminal of grammar.lark is written in a message.
TERMINAL_WORDS: dict[str, str] = {
    "NAME": "a name",
    "INT": "a whole number",
    "DECIMAL": "a number",
    "STRING": "a text in quotes",
    "RATIO": "a ratio such as 3:1",
    "HEXSIDE": "a hexside such as 0701/0801",
    "HEREDOC": "a picture between << and >>",
    "EQUAL": "'='",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LSQB": "'['",
    "RSQB": "']'",
    "LPAR": "'('",
    "RPAR": "')'",
    "COMMA": "','",
    "DOTS": "'..'",
    "COMPARE": "a comparison (== != < <= > >=)",
    "IN": "'in'",
    "DOT": "'.'",
    "WHERE": "'where'",
    "FOR": "'for'",
    "ADD": "'+' or '-'",
    "PLUS": "'+'",
    "MINUS": "'-'",
    "MUL": "'*', '/' or '%'",
    "AND": "'and'",
    "OR": "'or'",
    "NOT": "'not'",
    "$END": "the end of the file",
}

# Terminals left out of "expected ..." lists because they only continue an
# expression; naming them would drown the useful choices.
_OPERATORS = {"COMPARE", "IN", "ADD", "PLUS", "MINUS", "MUL", "AND", "OR", "DOTS", "DOT"}


@dataclass(frozen=True)
class Example:
    """Mistakes a designer makes, all answered by one message."""

    code: str
    message: str
    snippets: tuple[str, ...]
    hint: str | None = None


# The table of example mistakes. Each snippet must fail to parse; a test walks
# the table (tests/test_language_syntax.py) and checks every snippet yields its
# own message. "{found}" is replaced by the offending token.
EXAMPLES: tuple[Example, ...] = (
    Example("syntax-missing-value", "expected a value after '=', found {found}",
            ("x = }", "x = ]", "x = )", "x = ,", "x = {a = }", "x = [1, }"),
            hint="a value is a number, a name, a text in quotes, a list [...], a range 1..9 or an expression"),
    Example("syntax-missing-brace", "expected '{' to open the block, found {found}",
            ("unit x = 1", "unit x y }", "unit x ]", "a b c , d", 'a "b" = 3', "a 1 = 3", "a b 1 = 3"),
            hint="an attribute is 'name = value' (one name); a block is 'keyword label { ... }'"),
    Example("syntax-missing-equals", "expected '=' between the name and its value, found {found}",
            ("{ x 5 }", "x = { y 5 }", "x = { y }", "a { b 1..2 }", "b 1..2", "b 1, 2", "b 1 ]"),
            hint="write 'name = value'"),
    Example("syntax-missing-comma", "expected ',' or ']' after a list item, found {found}",
            ("x = [1 2]", "x = [a b]", "x = [1, 2 y = 3", "x = [1 }"),
            hint="separate list items with ',' and close the list with ']'"),
    Example("syntax-unclosed-parenthesis", "expected ')' to close '(', found {found}",
            ("x = (1 + 2 }", "x = count(a b)", "x = f(a, b }", "x = (1 + 2 ]"),
            hint="every '(' needs its ')'"),
    Example("syntax-unmatched-brace", "'}' without a matching '{'",
            ("}", "x = 1 }", "a { } }"),
            hint="remove it, or open a block before it"),
    Example("syntax-unmatched-bracket", "{found} without a matching opening bracket",
            ("]", ")", "x = 1 ]", "x = 1 )", "a { ] }"),
            hint="remove it"),
    Example("syntax-double-equals", "'=' appears twice",
            ("x = = 1", "x = { a = = 1 }"),
            hint="write 'name = value'"),
    Example("syntax-missing-operand", "expected a value after the operator, found {found}",
            ("x = 1 + ]", "x = 1 + }", "x = 2 * ]", "x = a and }", "x = not }", "x = 1 == }"),
            hint="an operator needs a value on each side"),
)


@lru_cache(maxsize=1)
def _example_table(parse: Callable[[str], Any]) -> dict[tuple[int, str | None], Example]:
    """(parser state, token type) -> example, from parsing every snippet once.

    The first example registering a state also owns the state for any token
    type (key (state, None)), so an unforeseen token in a known state still
    gets a message close to the mark.
    """
    table: dict[tuple[int, str | None], Example] = {}
    for example in EXAMPLES:
        for snippet in example.snippets:
            try:
                parse(snippet)
            except UnexpectedToken as error:
                table.setdefault((error.state.position, error.token.type), example)
                table.setdefault((error.state.position, None), example)
            except UnexpectedInput:
                pass
    return table


def example_for(error: UnexpectedToken, parse: Callable[[str], Any]) -> Example | None:
    """The example mistake made in the same parser state, if any."""
    table = _example_table(parse)
    position = error.state.position
    return table.get((position, error.token.type)) or table.get((position, None))


def syntax_diagnostic(error: UnexpectedInput, text: str, file: str, parse: Callable[[str], Any]) -> Diagnostic:
    """One designer-worded diagnostic for a Lark error."""
    line = error.line if isinstance(error.line, int) and error.line > 0 else 1
    column = error.column if isinstance(error.column, int) and error.column > 0 else 1
    span = Span(file, line, column)
    if isinstance(error, UnexpectedCharacters):
        return _character_diagnostic(error, text, span)
    assert isinstance(error, UnexpectedToken)
    token = error.token
    if token.type == "$END":
        return _end_of_file_diagnostic(error, text, file)
    span = Span(file, line, column, token.end_line, token.end_column)
    if isinstance(token.start_pos, int) and text.startswith("<<", token.start_pos):
        return Diagnostic("syntax-unclosed-picture", "this picture '<<' is never closed", span, hint="end it with '>>'")
    missing = _value_missing_at_line_end(error, file)
    if missing is not None:
        return missing
    left_open = value_left_open(error, text)
    if left_open is not None:
        what, opening = left_open
        closing = "}" if opening.type == "LBRACE" else "]"
        word = first_word_of_statement(error) or token
        where = Span(file, word.line, word.column, word.end_line, word.end_column)
        # `{ a = 1  b = 2` may take the next line's `c = 3` as one of its own; the layout says it ends sooner.
        lines = text.split("\n")
        indent = _indent(lines[opening.line - 1])
        for number in range(opening.line + 1, word.line):
            line = lines[number - 1]
            if _without_texts_and_comment(line).strip() and _indent(line) <= indent:
                first = line.split()[0]
                column = len(line) - len(line.lstrip()) + 1
                where = Span(file, number, column, number, column + len(first))
                break
        return Diagnostic("syntax-unclosed", f"{what} opened at line {opening.line} is not closed before line {where.line}",
                          where, hint=f"add '{closing}' where {what} ends")
    example = example_for(error, parse)
    if example is None or example.code == "syntax-missing-brace":
        missing = _equals_left_out(error, file) or _brace_left_out_at_line_end(error, file)
        if missing is not None:
            return missing
    stack = error.state.value_stack if error.state else []
    if (example is not None and example.code == "syntax-missing-equals" and stack and isinstance(stack[-1], Token)
            and stack[-1].type in ("NAME", "INT", "STRING") and token.type not in ("RBRACE", "RSQB", "DOTS")):
        name = stack[-1]  # `{ anti_tank_gun 0 }`: name the name and its value
        return Diagnostic(example.code, f"expected '=' between '{name}' and its value, found {describe_token(token)}", span,
                          hint=f"write '{name} = {token}'")
    if example is not None:
        return Diagnostic(example.code, example.message.replace("{found}", describe_token(token)), span, hint=example.hint)
    return Diagnostic("syntax", f"expected {expected_words(error.expected)}, found {describe_token(token)}", span)


_OPERATOR_TOKENS = _OPERATORS | {"NOT"}


def _operator_ending_a_line(error: UnexpectedToken) -> tuple[Token | None, int]:  # (operator, next line)
    """An operator at the top of the parser stack whose operand would come from a later line.

    Either the next line's first token cannot be a value, or it can (`text` of
    `text = "..."`) and the parser trips on the '=' after it.
    """
    stack = error.state.value_stack if error.state else []
    candidates = []
    if stack:
        candidates.append((stack[-1], error.token))
    if error.token.type == "EQUAL" and len(stack) >= 2:
        candidates.append((stack[-2], _first_token(stack[-1])))
    for operator, following in candidates:
        if (isinstance(operator, Token) and operator.type in _OPERATOR_TOKENS and isinstance(following, Token)
                and isinstance(operator.line, int) and isinstance(following.line, int) and following.line > operator.line):
            return operator, following.line
    return None, 0


def _first_token(item: Any) -> Token | None:
    while isinstance(item, Tree):
        if not item.children:
            return None
        item = item.children[0]
    return item if isinstance(item, Token) else None


def _value_missing_at_line_end(error: UnexpectedToken, file: str) -> Diagnostic | None:
    """A line ending in '=' or an operator (a value left out): point at it, not at the next line.

    Either the next line's first token cannot be a value (`}`), or it can (`y`
    of `y = 3`) and the parser trips on the '=' after it.
    """
    operator, _ = _operator_ending_a_line(error)
    if operator is not None:  # `amount = 8 -` and the next line: the operand was left out
        return Diagnostic("syntax-missing-operand", f"expected a value after '{operator}' at the end of the line",
                          Span(file, operator.line, operator.column, operator.end_line, operator.end_column),
                          hint="an operator needs a value on each side")
    stack = error.state.value_stack if error.state else []
    equal = None
    if stack and isinstance(stack[-1], Token) and stack[-1].type == "EQUAL":
        equal, next_line = stack[-1], error.token.line
    elif error.token.type == "EQUAL" and len(stack) >= 2:
        value = stack[-1]
        if isinstance(value, Tree) and value.children and isinstance(value.children[0], Token):
            value = value.children[0]
        if isinstance(stack[-2], Token) and stack[-2].type == "EQUAL" and isinstance(value, Token):
            equal, next_line = stack[-2], value.line
    if equal is None or not (isinstance(equal.line, int) and isinstance(next_line, int) and next_line > equal.line):
        return None
    return Diagnostic("syntax-missing-value", "expected a value after '=' at the end of the line",
                      Span(file, equal.line, equal.column, equal.end_line, equal.end_column),
                      hint="a value is a number, a name, a text in quotes, a list [...], a range 1..9 or an expression")


def _equals_left_out(error: UnexpectedToken, file: str) -> Diagnostic | None:
    """`turns 4` or `strength 3  move = 3`: a name and a value with the '=' left out.

    The parser reads them as the keyword and label of a block and trips where
    the '{' should be. It is an attribute when the words end their line
    (`turns 4` then `}` or a new line), or when the second word is a number or
    a text and the next attribute follows (`strength 3  move = 3`); `unit r1`
    and then `side = red` is a block missing its '{' (a label is a name).
    """
    words = _pending_block_words(error.state.value_stack if error.state else [])
    found = error.token
    if len(words) == 1 and (found.type == "RBRACE" or (isinstance(found.line, int) and found.line > words[0].line)):
        # `turns = 3 4`: a word left alone at the end of its line; the parser only notices on the next line.
        word = words[0]
        return Diagnostic("syntax-missing-equals", f"'{word}' is followed by neither '=' nor '{{'",
                          Span(file, word.line, word.column, word.end_line, word.end_column),
                          hint="an attribute is 'name = value' with one value (write several as a list [a, b]); "
                               "a block is 'keyword label { ... }'")
    if len(words) < 2 or words[0].line != words[1].line:
        return None
    name, value = words[0], words[1]
    ends_line = len(words) == 2 and (found.type == "RBRACE" or (isinstance(found.line, int) and found.line > value.line))
    value_first = len(words) >= 3 and value.type in ("INT", "STRING") and found.type == "EQUAL"
    if not (ends_line or value_first):
        return None
    shown = str(value) if value.type == "STRING" else f"'{value}'"
    return Diagnostic("syntax-missing-equals", f"expected '=' between '{name}' and its value {shown}",
                      Span(file, value.line, value.column, value.end_line, value.end_column),
                      hint=f"write '{name} = {value}'")


def _brace_left_out_at_line_end(error: UnexpectedToken, file: str) -> Diagnostic | None:
    """`unit r1` and then `side = red` on the next line: the '{' belongs at the end of the first line."""
    words = _pending_block_words(error.state.value_stack if error.state else [])
    if error.token.type != "EQUAL" or len(words) < 3 or not words[-1].line > words[-2].line:
        return None
    header, last = words[:-1], words[-2]
    column = (last.end_column or last.column + len(str(last)))
    return Diagnostic("syntax-missing-brace", f"expected '{{' after '{' '.join(map(str, header))}' to open the block",
                      Span(file, last.line, column), hint=f"write '{' '.join(map(str, header))} {{' and close the block with '}}'")


def _pending_block_words(value_stack: list) -> list[Token]:
    """The keyword and labels of the block header being read at the top of the parser stack."""
    words: list[Token] = []
    for item in reversed(value_stack):
        if isinstance(item, Tree) and str(item.data).startswith("__block"):
            words[:0] = [t for t in item.children if isinstance(t, Token)]
        elif isinstance(item, Token) and item.type in ("NAME", "INT", "STRING"):
            words.insert(0, item)
        else:
            break
    return words


# Characters designers bring from other languages, and what to write instead.
_CHARACTER_HINTS = {
    ":": "give a value with '=' (name = value); ':' only appears inside ratios such as 3:1",
    ";": "statements need no ';': end a line, or just leave a space",
    "'": "texts go between double quotes: \"like this\"",
}


def _character_diagnostic(error: UnexpectedCharacters, text: str, span: Span) -> Diagnostic:
    char = error.char
    rest = text[error.pos_in_stream:]
    if char == '"':
        return Diagnostic("syntax-unclosed-text", "this text in quotes is not closed on the same line", span,
                          hint="end it with '\"'; a text may not span lines (use << >> for a picture)")
    if rest.startswith("<<"):
        return Diagnostic("syntax-unclosed-picture", "this picture '<<' is never closed", span,
                          hint="end it with '>>'")
    if char == ".":
        return Diagnostic("syntax-character", "unexpected '.'", span, hint="a range is written with two dots: 1..9")
    if char in "\u201c\u201d\u2018\u2019":
        return Diagnostic("syntax-character", f"unexpected character {char!r}", span,
                          hint="texts go between straight double quotes: \"like this\" (a word processor may have curled them)")
    if char in _CHARACTER_HINTS:
        return Diagnostic("syntax-character", f"unexpected character {char!r}", span, hint=_CHARACTER_HINTS[char])
    shown = repr(char) if char.isprintable() else f"U+{ord(char):04X}"
    return Diagnostic("syntax-character", f"unexpected character {shown}", span,
                      hint="names are letters, digits and '_'; texts go between double quotes")


def _end_of_file_diagnostic(error: UnexpectedToken, text: str, file: str) -> Diagnostic:
    """The file ended too early: say which block (or bracket) is still open, and where it began."""
    lines = text.splitlines() or [""]
    end = Span(file, len(lines), len(lines[-1]) + 1)
    opened = open_construct(error.state.value_stack if error.state else [])
    if opened is None:
        return Diagnostic("syntax-end-of-file", f"the file ends too early: expected {expected_words(error.expected)}", end)
    what, token = opened
    closing = {"LBRACE": "}", "LSQB": "]", "LPAR": ")"}[token.type]
    if token.type == "LBRACE" and isinstance(token.line, int):
        guess = block_left_open(text, token.line)
        if guess is not None:
            opened_at, ends_before = guess
            if opened_at != token.line:  # an inner block took the '}' that closed the reported one
                what = _named_by_its_line(lines[opened_at - 1])
            following = lines[ends_before - 1]
            indent = len(following) - len(following.lstrip())
            first_word = following.split()[0]
            return Diagnostic("syntax-unclosed", f"{what} opened at line {opened_at} is not closed before line {ends_before}",
                              Span(file, ends_before, indent + 1, ends_before, indent + 1 + len(first_word)),
                              hint=f"add '}}' before line {ends_before}: it is indented like line {opened_at}, "
                                   f"so it looks outside {what}")
    return Diagnostic("syntax-unclosed", f"{what} opened at line {token.line} is not closed: expected '{closing}' before the end of the file",
                      end, hint=f"add '{closing}' where {what} should end")


_STATEMENT_START = re.compile(r"\s*(=|\{|[A-Za-z0-9_]+\s*\{)")


def value_left_open(error: UnexpectedToken, text: str) -> tuple[str, Token] | None:
    """A `{ }` or `[ ]` value left open on an earlier line, and the next statement already begun.

    `legend = { C = clear, F = forest` and then `terrain = <<`: the parser
    trips on `terrain`, the first word of its line, which is followed by '='
    or '{' as a statement is. Returns how to name the value and its opening
    bracket; error recovery closes it there (rulec.language.parse).
    """
    token = first_word_of_statement(error)
    if token is None or not isinstance(token.start_pos, int) or not isinstance(token.line, int):
        return None
    line_start = text.rfind("\n", 0, token.start_pos) + 1
    if text[line_start:token.start_pos].strip() or not _STATEMENT_START.match(text, token.end_pos or token.start_pos):
        return None
    stack = error.state.value_stack if error.state else []
    opened = open_construct(stack[:-1] if token is not error.token else stack)
    if opened is None:
        return None
    what, opening = opened
    if opening.type not in ("LBRACE", "LSQB") or not isinstance(opening.line, int) or opening.line >= token.line:
        return None
    if opening.type == "LBRACE" and not what.startswith("the value of"):
        return None  # a block: its statements may well go on over many lines
    return what, opening


def first_word_of_statement(error: UnexpectedToken) -> Token | None:
    """The word the parser tripped on, or the word it just took as a list item (`exits` of `exits {`)."""
    if error.token.type in ("NAME", "INT", "STRING"):
        return error.token
    stack = error.state.value_stack if error.state else []
    if error.token.type in ("LBRACE", "EQUAL") and stack and isinstance(stack[-1], Token) and stack[-1].type == "NAME":
        return stack[-1]
    return None


def block_left_open(text: str, from_line: int) -> tuple[int, int] | None:
    """Guess, from the indentation, which block lacks its '}' (at or after `from_line`).

    The parser only learns at the end of the file that a '}' is missing. The
    layout usually tells where: the first line opening a block whose next line
    indented no deeper than it does not start with '}'. Returns that line and
    the line before which the '}' belongs, or None if the layout says nothing.
    """
    lines = text.split("\n")
    code = [_without_texts_and_comment(line) for line in lines]
    for index in range(from_line - 1, len(lines)):
        depth = code[index].count("{") - code[index].count("}")
        if depth <= 0:
            continue
        indent = _indent(lines[index])
        body = [later for later in range(index + 1, len(lines)) if code[later].strip()]
        if code[index].rstrip().endswith("{") and (not body or _indent(lines[body[0]]) <= indent):
            continue  # `x {` with a body not indented: the layout tells nothing here
        one_line = not code[index].rstrip().endswith("{")
        for later in body:
            if _indent(lines[later]) <= indent:
                if not (_indent(lines[later]) == indent and code[later].lstrip().startswith("}")):
                    return index + 1, later + 1
                break
            if one_line:  # `x { a = 1` may go on over deeper lines and close there
                depth += code[later].count("{") - code[later].count("}")
                if depth <= 0:
                    break
    return None


def _indent(line: str) -> int:
    return len(line.expandtabs(8)) - len(line.expandtabs(8).lstrip())


def _without_texts_and_comment(line: str) -> str:
    """The line with texts in quotes emptied and any comment cut off (so their braces do not count)."""
    out, quoted, escaped = [], False, False
    for char in line:
        if quoted:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                quoted = False
                out.append(char)
            continue
        if char == "#":
            break
        if char == '"':
            quoted = True
        out.append(char)
    return "".join(out)


def _named_by_its_line(line: str) -> str:
    """'the block 'hexsides roads'' from the line that opens it."""
    head = _without_texts_and_comment(line).rsplit("{", 1)[0].strip()
    if head.endswith("="):
        return f"the value of '{head[:-1].split()[-1]}'" if head[:-1].split() else "the block '{'"
    return f"the block '{head.split('}')[-1].strip()}'" if head else "the block '{'"


def open_construct(value_stack: list) -> tuple[str, Token] | None:
    """The innermost bracket still open on the parser stack, and how to name it."""
    for index in range(len(value_stack) - 1, -1, -1):
        item = value_stack[index]
        if not isinstance(item, Token) or item.type not in ("LBRACE", "LSQB", "LPAR"):
            continue
        if item.type == "LSQB":
            if index >= 2 and isinstance(value_stack[index - 1], Token) and value_stack[index - 1].type == "EQUAL":
                return f"the list of '{value_stack[index - 2]}'", item
            return "the list '['", item
        if item.type == "LPAR":
            return "the parenthesis '('", item
        if index >= 2 and isinstance(value_stack[index - 1], Token) and value_stack[index - 1].type == "EQUAL":
            return f"the value of '{value_stack[index - 2]}'", item
        # Walk back over the block's labels (reduced into one tree, or not yet) to its keyword.
        words: list[str] = []
        back = index - 1
        while back >= 0:
            item = value_stack[back]
            if isinstance(item, Tree) and str(item.data).startswith("__block"):
                words[:0] = [str(t) for t in item.children if isinstance(t, Token)]
            elif isinstance(item, Token) and item.type in ("NAME", "INT", "STRING"):
                words.insert(0, str(item))
            else:
                break
            back -= 1
        return (f"the block '{' '.join(words)}'" if words else "the block '{'"), value_stack[index]
    return None


def describe_token(token: Token) -> str:
    """How a token is shown to a designer."""
    if token.type == "$END":
        return "the end of the file"
    text = str(token)
    if token.type == "STRING":
        return f"the text {text}"
    if token.type == "HEREDOC":
        return "a picture << >>"
    if len(text) > 20:
        text = text[:17] + "..."
    return f"'{text}'"


def expected_words(expected: set[str] | frozenset[str]) -> str:
    """'a name, '}' or the end of the file' from a set of terminal names."""
    words = sorted({TERMINAL_WORDS.get(t, t) for t in expected if t not in _OPERATORS and not t.startswith("__")})
    if not words:
        words = sorted({TERMINAL_WORDS.get(t, t) for t in expected})
    if len(words) > 4:  # the start of any value
        if {"NAME", "INT", "STRING"} <= set(expected) and "EQUAL" not in expected:
            return "a value"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def parser_states_accepting_statements(lark: Lark) -> frozenset[int]:
    """Parser states where a new statement (or the end of its block) may begin.

    Error recovery unwinds the parser stack to the nearest such state and then
    resumes at the next line.
    """
    table = lark.parser.parser.parser.parse_table
    shift_name = {state for state, actions in table.states.items()
                  if "NAME" in actions and actions["NAME"][0].name == "Shift" and ("RBRACE" in actions or "$END" in actions)
                  and "EQUAL" not in actions}
    return frozenset(shift_name)
