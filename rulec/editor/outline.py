"""Where the cursor is in a game file, even a half-typed one: which block, and key or value.

The editor needs this while the file does not parse, so it is a small forgiving scan of the
tokens (the shapes of rulec/language/grammar.lark), not the parser: a statement is either
`KEYWORD label* {` (a block) or `key = value`, and a value is a bracketed group, a here-document
or a run of terms joined by operators.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(r"""
    (?P<space>[ \t\r\n\f]+)
  | (?P<comment>\#[^\n]*)
  | (?P<heredoc><<(?:.|\n)*?(?:>>|\Z))
  | (?P<string>"(?:[^"\\\n]|\\.)*(?:"|$))
  | (?P<word>[0-9]{3,}/[0-9]{3,}|[0-9]+:[0-9]+|[0-9]+\.[0-9]+|[A-Za-z_][A-Za-z0-9_]*|[0-9]+)
  | (?P<op>==|!=|<=|>=|\.\.|[<>+\-*/%])
  | (?P<punct>[{}\[\]()=,])
  | (?P<other>.)
""", re.VERBOSE | re.MULTILINE)

_WORD_OPERATORS = {"and", "or", "in"}


@dataclass(frozen=True)
class Frame:
    """One enclosing `{`: a block (keyword and labels) or an object value (`key = {`)."""

    keyword: str
    labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class Token:
    """A word of the file and what it is there: a block keyword, a label, a key, or part of a value."""

    text: str
    start: int  # offsets into the text
    end: int
    role: str  # "keyword" | "label" | "key" | "value"
    frames: tuple[Frame, ...]  # the blocks around it, outermost first
    key: str | None = None  # for a value: the attribute it is the value of


def _lex(text: str) -> list[tuple[str, str, int, int]]:
    out = []
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup or "other"
        if kind in ("space", "comment"):
            continue
        value = match.group()
        if kind == "word" and value in _WORD_OPERATORS:
            kind = "op"
        out.append((kind, value, match.start(), match.end()))
    return out


def scan(text: str) -> list[Token]:
    """Every word of `text` with its role and enclosing blocks."""
    return _scan(text)[0]


def frames_at(text: str, offset: int) -> tuple[Frame, ...]:
    """The blocks that enclose `offset` (a statement starting there would be in them)."""
    return tuple(_scan(text[:offset])[1])


def _scan(text: str) -> tuple[list[Token], list[Frame]]:
    lexed = _lex(text)
    tokens: list[Token] = []
    frames: list[Frame] = []
    i = 0
    while i < len(lexed):
        kind, value, start, end = lexed[i]
        if value == "}":
            if frames:
                frames.pop()
            i += 1
            continue
        if kind not in ("word", "string"):
            i += 1  # stray punctuation: skip it and look for the next statement
            continue
        # A statement: words up to '=' (an attribute) or '{' (a block).
        j = i
        words = []
        while j < len(lexed) and lexed[j][0] in ("word", "string"):
            words.append(lexed[j])
            j += 1
        after = lexed[j][1] if j < len(lexed) else None
        if after == "=" and len(words) >= 1:
            # Words before the key are left-overs of a broken statement: keep them as values.
            for _, w, s, e in words[:-1]:
                tokens.append(Token(w, s, e, "value", tuple(frames)))
            _, key, s, e = words[-1]
            tokens.append(Token(key, s, e, "key", tuple(frames)))
            i = _value(lexed, j + 1, tokens, frames, key)
            continue
        if after == "{":
            (_, keyword, s, e), labels = words[0], words[1:]
            tokens.append(Token(keyword, s, e, "keyword", tuple(frames)))
            for _, w, ls, le in labels:
                tokens.append(Token(w, ls, le, "label", tuple(frames), key=keyword))
            frames.append(Frame(keyword, tuple(w.strip('"') for _, w, _, _ in labels)))
            i = j + 1
            continue
        # Unfinished: the first word is what is being typed at the start of a statement.
        _, keyword, s, e = words[0]
        tokens.append(Token(keyword, s, e, "keyword", tuple(frames)))
        for _, w, ls, le in words[1:]:
            tokens.append(Token(w, ls, le, "label", tuple(frames), key=keyword))
        i = j
    return tokens, frames


def _value(lexed, i: int, tokens: list[Token], frames: list[Frame], key: str) -> int:
    """Record the value starting at lexed[i] as tokens of `key`; return the index after it."""
    while i < len(lexed):
        i = _term(lexed, i, tokens, frames, key)
        if i < len(lexed) and lexed[i][0] == "op":
            i += 1
            continue
        return i
    return i


def _term(lexed, i: int, tokens: list[Token], frames: list[Frame], key: str) -> int:
    while i < len(lexed) and lexed[i][0] == "op":  # a leading sign, `not`, or an open range `..5`
        i += 1
    if i >= len(lexed):
        return i
    kind, value, start, end = lexed[i]
    if value == "{":
        # An object value: its entries are statements inside a frame named by the key.
        frames.append(Frame(key))
        return i + 1
    if value in "[(":
        depth, i = 1, i + 1
        closing = {"[": "]", "(": ")"}[value]
        while i < len(lexed) and depth:
            k, v, s, e = lexed[i]
            if v == value:
                depth += 1
            elif v == closing:
                depth -= 1
            elif v in ("{", "}"):
                return i  # a list left open at a block's edge: stop at the brace
            elif k == "word":
                tokens.append(Token(v, s, e, "value", tuple(frames), key=key))
            i += 1
        return i
    if kind in ("word", "string", "heredoc"):
        if kind == "word":
            tokens.append(Token(value, start, end, "value", tuple(frames), key=key))
        if kind == "word" and value == "not":
            return _term(lexed, i + 1, tokens, frames, key)
        if i + 1 < len(lexed) and lexed[i + 1][1] == "(":  # a call
            return _term(lexed, i + 1, tokens, frames, key)
        return i + 1
    return i


def word_at(text: str, offset: int) -> Token | None:
    """The word that `offset` is in or just after."""
    for token in scan(text):
        if token.start <= offset <= token.end:
            return token
        if token.start > offset:
            return None
    return None
