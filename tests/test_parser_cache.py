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


def test_a_rebuilt_parser_classifies_mistakes_by_its_own_states():
    """The example mistakes are matched by parser state number, which another build of the grammar may
    number otherwise: after the parser is rebuilt, the table is rebuilt for it (this was a flaky
    'syntax-missing-operand' for 'turns 5' whenever a test had rebuilt the parser first)."""
    from rulec.diagnostics import DiagnosticError
    from rulec.language import syntax_errors

    def codes():
        try:
            parse.parse_text('game g {\n  title = "G"\n  turns 5\n}\n')
        except DiagnosticError as error:
            return [d.code for d in error.diagnostics]
        return []

    assert codes() == ["syntax-missing-equals"]
    builds = syntax_errors._example_table.cache_info().misses
    parse.parser.cache_clear()
    assert codes() == ["syntax-missing-equals"]
    assert syntax_errors._example_table.cache_info().misses == builds + 1  # a table of the new parser's own
