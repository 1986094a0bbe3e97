"""Reading the aids' HTML tables back (stdlib html.parser), for the tests that compare them with the model.

`read_tables(html)` -> {table id: [row, ...]}, each row a list of Cell (the
cell's text with whitespace collapsed, its tag and attributes). The tests at
the bottom pin the reader itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Cell:
    tag: str
    attrs: dict[str, str]
    parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return re.sub(r"\s+", " ", " ".join(self.parts)).strip()

    @property
    def first(self) -> str:
        """The text before any <small> note (kept apart as its own part)."""
        return re.sub(r"\s+", " ", self.parts[0]).strip() if self.parts else ""


@dataclass
class Row:
    attrs: dict[str, str]
    cells: list[Cell]

    @property
    def texts(self) -> list[str]:
        return [c.text for c in self.cells]


class _TableReader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: dict[str, list[Row]] = {}
        self._stack: list[str] = []  # ids of open tables
        self._row: Row | None = None
        self._cell: Cell | None = None
        self._in_svg = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "svg":
            self._in_svg += 1
        if tag == "table":
            table_id = values.get("id", f"table-{len(self.tables)}")
            self.tables[table_id] = []
            self._stack.append(table_id)
        elif tag == "tr" and self._stack:
            self._row = Row(values, [])
            self.tables[self._stack[-1]].append(self._row)
        elif tag in ("td", "th") and self._row is not None:
            self._cell = Cell(tag, values)
            self._row.cells.append(self._cell)
        elif tag in ("small", "li", "div", "br") and self._cell is not None:
            self._cell.parts.append("")  # a new part: notes and list items stay apart from the first text

    def handle_endtag(self, tag: str) -> None:
        if tag == "svg":
            self._in_svg -= 1
        if tag == "table" and self._stack:
            self._stack.pop()
        elif tag in ("td", "th"):
            self._cell = None
        elif tag == "tr":
            self._row = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None and not self._in_svg:
            if not self._cell.parts:
                self._cell.parts.append("")
            self._cell.parts[-1] += data


def read_tables(html: str) -> dict[str, list[Row]]:
    reader = _TableReader()
    reader.feed(html)
    reader.close()
    return reader.tables


def body_rows(rows: list[Row]) -> list[Row]:
    """The rows with at least one <td> (skipping header rows)."""
    return [r for r in rows if any(c.tag == "td" for c in r.cells)]


def test_reader_keeps_cells_rows_and_notes_apart():
    html = ("<table id='t'><thead><tr><th>A</th><th>B</th></tr></thead>"
            "<tbody><tr data-x='1'><th>one</th><td>2 in 6<small>33%</small></td></tr></tbody></table>")
    tables = read_tables(html)
    assert list(tables) == ["t"]
    header, row = tables["t"]
    assert header.texts == ["A", "B"]
    assert row.attrs == {"data-x": "1"}
    assert row.cells[1].first == "2 in 6" and row.cells[1].text == "2 in 6 33%"
    assert body_rows(tables["t"]) == [row]


def test_reader_ignores_svg_text_inside_cells():
    tables = read_tables("<table id='t'><tr><th><svg><text>CITY</text></svg>City</th><td>x</td></tr></table>")
    assert tables["t"][0].texts == ["City", "x"]
