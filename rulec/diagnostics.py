"""Diagnostics: every problem a designer or player is ever shown.

One type (`Diagnostic`), one renderer (`render`), stable codes. Any other
exception escaping to the user is a bug in rulec.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Iterable, Sequence


@dataclass(frozen=True, slots=True)
class Span:
    """A region of a source file; lines and columns count from 1."""

    file: str
    line: int
    column: int
    end_line: int | None = None
    end_column: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem: a stable code, a message in designer words, where, and a hint."""

    code: str
    message: str
    span: Span | None = None
    severity: str = "error"  # "error" | "warning" | "note"
    hint: str | None = None

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


class DiagnosticError(Exception):
    """Raised by a pipeline stage that cannot go on; carries every diagnostic found."""

    def __init__(self, diagnostics: Sequence[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(d.message for d in self.diagnostics))

    def __reduce__(self):  # survive pickling across worker processes
        return (DiagnosticError, (self.diagnostics,))


@dataclass
class SourceFile:
    """The text of a file, kept to show the offending line under a diagnostic."""

    name: str
    text: str
    lines: list[str] = field(init=False)

    def __post_init__(self) -> None:
        # Only '\n' ends a line, as for the parser (str.splitlines also splits at form feeds and U+2028).
        self.lines = [line.removesuffix("\r") for line in self.text.split("\n")]

    def line(self, number: int) -> str | None:
        if 1 <= number <= len(self.lines):
            return self.lines[number - 1]
        return None


def did_you_mean(name: str, known: Iterable[str]) -> str | None:
    """A hint naming the closest known name, or None when nothing is close."""
    matches = difflib.get_close_matches(str(name), [str(k) for k in known], n=1, cutoff=0.6)
    return f"did you mean '{matches[0]}'?" if matches else None


def render(diagnostic: Diagnostic, sources: dict[str, SourceFile] | None = None) -> str:
    """`file:line:col: error: message [code]`, the source line, a caret, the hint.

    Every text is made printable (a game file or a save cannot send escape sequences to the
    terminal), and a long source line is cut to a window around the caret, so that many
    diagnostics on one long line print in time linear in their number.
    """
    where = f"{printable(str(diagnostic.span))}: " if diagnostic.span else ""
    out = [f"{where}{diagnostic.severity}: {printable(diagnostic.message)} [{diagnostic.code}]"]
    span = diagnostic.span
    source = (sources or {}).get(span.file) if span else None
    if span and source:
        text = source.line(span.line)
        if text is not None:
            width = 1
            if span.end_line == span.line and span.end_column and span.end_column > span.column:
                width = span.end_column - span.column
            start = max(0, min(span.column - 1 - SOURCE_WINDOW // 2, len(text) - SOURCE_WINDOW))
            before, shown = text[start:span.column - 1], text[start:start + SOURCE_WINDOW]
            width = max(1, min(width, len(shown) - len(before)))
            cut_left, cut_right = ("..." if start > 0 else ""), ("..." if start + SOURCE_WINDOW < len(text) else "")
            out.append(f"    {cut_left}{printable(shown)}{cut_right}")
            # Keep the line's tabs under the caret, so it lines up however wide the terminal shows a tab.
            indent = "".join(c if c == "\t" else " " for c in cut_left + printable(before))
            out.append("    " + indent + "^" + "~" * (len(printable(text[span.column - 1:span.column - 1 + width])) - 1))
    if diagnostic.hint:
        out.append(f"    hint: {printable(diagnostic.hint)}")
    return "\n".join(out)


# Characters of a source line shown under a diagnostic (a window around the caret on longer lines).
SOURCE_WINDOW = 160

# Control characters (but tab and newline), and the bidirectional overrides that reorder what a terminal shows.
_UNPRINTABLE = {code: f"\\x{code:02x}" for code in [*range(0, 9), *range(11, 32), *range(127, 160)]}
_UNPRINTABLE.update({code: f"\\u{code:04x}" for code in [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F,
                                                          0x2028, 0x2029]})


def printable(text: str) -> str:
    """`text` safe to print to a terminal: escape sequences and other control characters are shown as \\xNN."""
    return text.translate(_UNPRINTABLE)
