"""What the language server knows about one game file, without any protocol: plain offsets and spans.

    diagnose(text, file)              -> the checker's diagnostics, and the document when it parsed
    Symbols.of(document)              -> the names the file defines (sides, units, zones, terrain...)
    complete(text, offset, symbols)   -> completions at a cursor
    hover(text, offset, symbols)      -> Markdown for the word at a cursor
    definition(text, offset, symbols) -> where the word at a cursor is defined
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rulec.diagnostics import Diagnostic, DiagnosticError, Span
from rulec.editor.outline import frames_at, scan, word_at
from rulec.editor.schema_docs import enum_values, field_documentation, field_names, field_schema, takes_only_words
from rulec.language.document import Document
from rulec.language.parse import parse_text
from rulec.pipeline import check

# The document's labelled sections, and the kind of name each label defines.
LABELLED_SECTIONS = {"side": "side", "terrain": "terrain", "hexside": "hexside feature", "unit_type": "unit type",
                     "unit": "unit", "crt": "combat results table", "result": "combat result", "award": "award",
                     "option": "option", "marker": "marker"}
# Named hex groups of the map section.
MAP_GROUPS = {"zones": "zone", "edges": "map edge"}


def diagnose(text: str, file: str) -> tuple[Document | None, list[Diagnostic]]:
    """Every diagnostic `rulec check` gives for this text, and the document if the text parsed."""
    try:
        document = parse_text(text.removeprefix("\ufeff"), file)
    except DiagnosticError as error:
        return None, error.diagnostics
    except RecursionError:
        return None, [Diagnostic("syntax-too-deep", "values are nested too deeply", Span(file, 1, 1))]
    except Exception as error:  # a bug in rulec: shown in the editor as `rulec check` would show it
        return None, [Diagnostic("internal-error", f"rulec failed on this file ({type(error).__name__}: {error}); "
                                 "this is a bug in rulec", Span(file, 1, 1))]
    _, diagnostics = check(document)
    return document, diagnostics


@dataclass(frozen=True)
class Symbol:
    name: str
    kind: str  # "unit", "zone", ...: designer words
    span: Span | None
    detail: str = ""


@dataclass
class Symbols:
    """The names a game file defines, from the last version of it that parsed."""

    by_name: dict[str, list[Symbol]] = field(default_factory=dict)
    # key -> the kinds of names the file already writes as its value (`side` -> side): what to offer first.
    value_kinds: dict[str, Counter] = field(default_factory=dict)
    # block keyword -> the kinds of names its labels are, where a label names something defined elsewhere
    # (a block whose labels are units, say): what a new block of that keyword is offered.
    label_kinds: dict[str, Counter] = field(default_factory=dict)

    @classmethod
    def of(cls, document: Document | None) -> "Symbols":
        symbols = cls()
        if document is None:
            return symbols
        data = document.data
        for section, kind in LABELLED_SECTIONS.items():
            for name, body in (data.get(section) or {}).items():
                detail = body.get("name", "") if isinstance(body, dict) and isinstance(body.get("name"), str) else ""
                symbols.add(Symbol(str(name), kind, document.key_span((section, name)), detail))
        board = data.get("map") or {}
        if isinstance(board, dict):
            for group, kind in MAP_GROUPS.items():
                for name in (board.get(group) or {}):
                    symbols.add(Symbol(str(name), kind, document.key_span(("map", group, name))))
            for hex_id, place in (board.get("places") or {}).items():
                symbols.add(Symbol(str(hex_id), "hex", document.key_span(("map", "places", hex_id)), str(place)))
        symbols._count_value_kinds(data)
        for section, blocks in data.items():
            if section in LABELLED_SECTIONS or not isinstance(blocks, dict):
                continue
            for label in blocks:
                for symbol in symbols.by_name.get(str(label), []):
                    symbols.label_kinds.setdefault(section, Counter())[symbol.kind] += 1
        return symbols

    def _count_value_kinds(self, data: Any, key: str | None = None) -> None:
        if isinstance(data, dict):
            for name, value in data.items():
                self._count_value_kinds(value, str(name))
        elif isinstance(data, list):
            for value in data:
                self._count_value_kinds(value, key)
        elif isinstance(data, str) and key is not None:
            for symbol in self.by_name.get(data, []):
                self.value_kinds.setdefault(key, Counter())[symbol.kind] += 1

    def add(self, symbol: Symbol) -> None:
        self.by_name.setdefault(symbol.name, []).append(symbol)

    def all(self) -> list[Symbol]:
        return [s for group in self.by_name.values() for s in group]


@dataclass(frozen=True)
class Completion:
    label: str
    kind: str  # "section" | "field" | "value" | a symbol's kind
    detail: str = ""
    likely: bool = True  # False: a name of a kind this field has not been seen to take (listed after the others)


def complete(text: str, offset: int, symbols: Symbols) -> list[Completion]:
    """Section names at the top, a block's field names inside it, words and defined names after `=`."""
    line_start = text.rfind("\n", 0, offset) + 1
    before = text[line_start:offset]
    typed = before[len(before.rstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")):]
    head = text[:offset - len(typed)]
    frames = frames_at(text, offset - len(typed))
    stripped = head.rstrip(" \t")
    in_value = stripped.endswith(("=", "[", ",", "(", "+", "-")) and not stripped.endswith(("==", "!=", "<=", ">="))
    if not in_value and frames:
        # `key = partial` on the same line: still the value
        token = word_at(text, offset - len(typed) - 1) if head and not head[-1].isspace() else None
        in_value = token is not None and token.role == "value"
    items: list[Completion] = []
    if in_value:
        key = _key_before(head)
        schema = field_schema(frames, key) if key else None
        words = enum_values(schema)
        seen_kinds = symbols.value_kinds.get(key or "", Counter())
        # Words come first, unless the field also takes names and the file already gives it names of some
        # kind (`setup = 0807` in the file: hexes first, then `free`).
        words_first = not seen_kinds or takes_only_words(schema)
        if words_first:
            items += [Completion(word, "value", key or "") for word in words]
        if not (words and takes_only_words(schema)):  # a field with fixed words alone takes nothing else
            ranked = sorted(symbols.all(), key=lambda s: -seen_kinds[s.kind])
            items += [Completion(s.name, s.kind, s.detail, likely=not seen_kinds or s.kind in seen_kinds) for s in ranked]
        if not words_first:
            items += [Completion(word, "value", key or "", likely=False) for word in words]
    elif (keyword := _block_keyword_before(head)) is not None:
        # a keyword then a label: the names of the kind this keyword's labels are in the file.
        kinds = symbols.label_kinds.get(keyword, Counter())
        items += [Completion(s.name, s.kind, s.detail) for s in symbols.all() if s.kind in kinds]
    else:
        kind = "field" if frames else "section"
        where = " ".join(f.keyword for f in frames)
        items += [Completion(name, kind, where) for name in field_names(frames)]
    seen: set[str] = set()
    unique = []
    for item in items:
        if item.label.startswith(typed) and item.label not in seen:
            seen.add(item.label)
            unique.append(item)
    return unique


def _block_keyword_before(head: str) -> str | None:
    """The keyword of a block whose labels are being written at the end of `head` (`KEYWORD |`)."""
    if not head or not head[-1].isspace():
        return None
    tokens = scan(head)
    if not tokens or tokens[-1].role not in ("keyword", "label") or head[tokens[-1].end:].strip():
        return None
    last = tokens[-1]
    return last.text if last.role == "keyword" else last.key


def _key_before(head: str) -> str | None:
    """The key of the attribute whose value is being written at the end of `head`."""
    depth = 0
    for i in range(len(head) - 1, -1, -1):
        c = head[i]
        if c in ")]":
            depth += 1
        elif c in "([":
            depth = max(0, depth - 1)
        elif c in "{}" and depth == 0:
            return None
        elif c == "=" and depth == 0 and (i == 0 or head[i - 1] not in "=!<>") and head[i + 1:i + 2] != "=":
            words = head[:i].rstrip().split()
            return words[-1] if words else None
    return None


def hover(text: str, offset: int, symbols: Symbols) -> str | None:
    """A field's documentation on its key; on a defined name, what it is and where."""
    token = word_at(text, offset)
    if token is None:
        return None
    if token.role in ("key", "keyword"):
        documentation = field_documentation(token.frames, token.text)
        if documentation:
            return documentation
    found = symbols.by_name.get(token.text.strip('"'))
    if found:
        return "\n\n".join(f"{s.kind} **{s.name}**" + (f" — {s.detail}" if s.detail else "")
                           + (f" (line {s.span.line})" if s.span else "") for s in found)
    return None


def definition(text: str, offset: int, symbols: Symbols) -> list[Span]:
    """Where the name under the cursor is defined (several places for a name used by two kinds)."""
    token = word_at(text, offset)
    if token is None:
        return []
    return [s.span for s in symbols.by_name.get(token.text.strip('"'), []) if s.span is not None]
