"""The parser is built from the grammar: no pickle is read from (or written to) the shared temporary folder.

Lark's `cache=True` keeps a pickle at a predictable name in the temporary folder; one planted
there by another local user would run as code on the next rulec command.
"""

from __future__ import annotations

import tempfile

from rulec.language import parse


def test_building_the_parser_touches_no_file_in_the_temporary_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    parse.parser.cache_clear()
    try:
        parse.parser().parse('game g { title = "G" }')
    finally:
        parse.parser.cache_clear()
    assert list(tmp_path.iterdir()) == []
