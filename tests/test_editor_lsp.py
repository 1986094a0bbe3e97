"""`rulec lsp` driven by pygls's own language client over stdio: diagnostics as you type (the
checker's codes and ranges), completion, hover and go-to-definition on Drive on Metz."""

from __future__ import annotations

import asyncio
import os
import sys
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the language server needs pygls (pip install -e '.[lsp]')")
from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

from rulec.pipeline import check_file  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
METZ = ROOT / "games" / "drive_on_metz.rulec"
URI = METZ.as_uri()
TIMEOUT = 30


class Client(LanguageClient):
    def __init__(self) -> None:
        super().__init__("rulec-test", "1")
        self.diagnostics: dict[str, list[types.Diagnostic]] = {}
        self.published: asyncio.Queue = asyncio.Queue()

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(client: Client, params: types.PublishDiagnosticsParams) -> None:
            client.diagnostics[params.uri] = list(params.diagnostics)
            client.published.put_nowait(params)

    async def next_diagnostics(self) -> types.PublishDiagnosticsParams:
        return await asyncio.wait_for(self.published.get(), TIMEOUT)


@asynccontextmanager
async def session():
    client = Client()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    # As VS Code starts a server: with --stdio.
    await client.start_io(sys.executable, "-m", "rulec", "lsp", "--stdio", env=env, cwd=str(ROOT))
    try:
        await asyncio.wait_for(client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=ROOT.as_uri())), TIMEOUT)
        client.initialized(types.InitializedParams())
        yield client
        await asyncio.wait_for(client.shutdown_async(None), TIMEOUT)
        client.exit(None)
        await asyncio.wait_for(client.stop(), TIMEOUT)
    finally:
        if client._server is not None and client._server.returncode is None:
            client._server.kill()


def _open(client: Client, text: str, version: int = 1) -> None:
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=URI, language_id="rulec", version=version, text=text)))


def _change(client: Client, text: str, version: int) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


def _position(text: str, marker: str, into: int = 0, last: bool = False) -> types.Position:
    offset = (text.rindex(marker) if last else text.index(marker)) + into
    line = text.count("\n", 0, offset)
    return types.Position(line=line, character=offset - (text.rfind("\n", 0, offset) + 1))


def test_diagnostics_as_you_type_are_the_checkers_codes_and_ranges(tmp_path):
    text = METZ.read_text(encoding="utf-8")
    broken = text.replace("terrain clear  { move = 2 }", "terrain clear  { mvoe = 2 }", 1)
    # What `rulec check` says of the same text, for comparison.
    copy = tmp_path / "drive_on_metz.rulec"
    copy.write_text(broken, encoding="utf-8")
    expected = [(d.code, d.span.line - 1, d.span.column - 1) for d in check_file(str(copy)).diagnostics]
    assert ("unknown-field", 142, 17) in expected
    syntax_error = text.replace("  die = 6\n", "  die = = 6\n", 1)
    copy.write_text(syntax_error, encoding="utf-8")
    expected_syntax = [(d.code, d.span.line - 1, d.span.column - 1) for d in check_file(str(copy)).diagnostics]
    assert expected_syntax and expected_syntax[0][1] == 11  # the line of the doubled '='

    async def scenario():
        async with session() as client:
            _open(client, text)
            clean = await client.next_diagnostics()
            assert [d for d in clean.diagnostics if d.severity == types.DiagnosticSeverity.Error] == []
            _change(client, broken, 2)
            published = await client.next_diagnostics()
            got = [(d.code, d.range.start.line, d.range.start.character) for d in published.diagnostics]
            assert got == expected
            unknown = next(d for d in published.diagnostics if d.code == "unknown-field")
            assert unknown.range.end == types.Position(142, 21) and "did you mean 'move'?" in unknown.message
            assert unknown.source == "rulec" and unknown.severity == types.DiagnosticSeverity.Error
            _change(client, syntax_error, 3)
            syntax = await client.next_diagnostics()
            assert [(d.code, d.range.start.line, d.range.start.character) for d in syntax.diagnostics] == expected_syntax

    asyncio.run(scenario())


def test_completion_hover_and_definition():
    text = METZ.read_text(encoding="utf-8")

    async def scenario():
        async with session() as client:
            _open(client, text)
            await client.next_diagnostics()
            doc = types.TextDocumentIdentifier(uri=URI)

            # A field of a unit block, then the names a value can take.
            typing = text + "\nunit us_new { side = us  str"
            _change(client, typing, 2)
            await client.next_diagnostics()
            end = _position(typing, "str", 3, last=True)
            fields = await client.text_document_completion_async(types.CompletionParams(doc, end))
            assert [item.label for item in fields.items] == ["strength"]
            value = typing + "ength = 3  setup = "
            _change(client, value, 3)
            await client.next_diagnostics()
            names = await client.text_document_completion_async(types.CompletionParams(doc, _position(value, "setup = ", 8, last=True)))
            labels = {item.label: item.detail for item in names.items}
            assert labels["east_bank"] == "zone" and labels["infantry"].startswith("unit type")
            assert labels["clear"] == "terrain" and "us_357" in labels and labels["0807"] == "hex: Metz"
            _change(client, text, 4)
            await client.next_diagnostics()
            top = await client.text_document_completion_async(types.CompletionParams(doc, types.Position(text.count("\n"), 0)))
            assert {"map", "unit", "terrain", "victory", "sequence"} <= {item.label for item in top.items}
            assert "strength" not in {item.label for item in top.items}

            # Hover: a field's documentation from the schema; a name's kind and line.
            on_field = await client.text_document_hover_async(types.HoverParams(doc, _position(text, "orientation =", 2)))
            assert "flat_top or pointy_top" in on_field.contents.value
            on_zone = await client.text_document_hover_async(types.HoverParams(doc, _position(text, "area = northern_group", 9)))
            assert "zone **northern_group**" in on_zone.contents.value

            # The outline: every unit, zone, side... the file defines, in file order.
            outline = await client.text_document_document_symbol_async(types.DocumentSymbolParams(doc))
            names = [symbol.name for symbol in outline]
            assert {"us", "germany", "infantry", "east_bank", "us_357", "de_106"} <= set(names)
            assert [s.range.start.line for s in outline] == sorted(s.range.start.line for s in outline)
            unit = next(s for s in outline if s.name == "us_357")
            assert unit.kind == types.SymbolKind.Class and unit.range.start == _position(text, "us_357")

            # Go to definition: a unit type used by a unit, and a zone used by an arrival.
            where = await client.text_document_definition_async(types.DefinitionParams(doc, _position(text, "type = infantry", 8)))
            assert [(w.range.start.line, w.range.start.character) for w in where] == [
                (_position(text, "unit_type infantry").line, len("unit_type "))]
            zone = await client.text_document_definition_async(types.DefinitionParams(doc, _position(text, "area = central_group", 9)))
            assert zone[0].range.start == _position(text, "central_group = ")

    asyncio.run(scenario())


def test_rulec_lsp_without_pygls_says_how_to_install_it(capsys, monkeypatch):
    from rulec.cli.main import main

    monkeypatch.delitem(sys.modules, "rulec.editor.server", raising=False)
    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)  # `import` now raises ImportError
    assert main(["lsp"]) == 1
    err = capsys.readouterr().err
    assert "[missing-extra]" in err and ".[lsp]" in err


def _frame(message: dict) -> bytes:
    import json
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _raw_session(*frames: bytes) -> list[dict]:
    """The server's answers to raw bytes written to its standard input (the input then closed)."""
    import json
    import subprocess
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run([sys.executable, "-m", "rulec", "lsp"], input=b"".join(frames), capture_output=True,
                         timeout=TIMEOUT * 2, env=env, cwd=str(ROOT))
    answers, out = [], run.stdout
    while out:
        head, _, rest = out.partition(b"\r\n\r\n")
        length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
        answers.append(json.loads(rest[:length]))
        out = rest[length:]
    return answers


INITIALIZE = _frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
SHUTDOWN = _frame({"jsonrpc": "2.0", "id": 99, "method": "shutdown"})


def test_a_huge_content_length_is_skipped_and_the_server_answers_the_next_request():
    answers = _raw_session(b"Content-Length: 99999999999999\r\n\r\n{}", INITIALIZE, SHUTDOWN)
    by_id = {a.get("id"): a for a in answers}
    assert by_id[1]["result"]["serverInfo"]["name"] == "rulec" and 99 in by_id


def test_a_request_with_bad_parameters_is_answered_with_an_error():
    hover = _frame({"jsonrpc": "2.0", "id": 7, "method": "textDocument/hover",
                    "params": {"textDocument": {"uri": 5}, "position": "x"}})
    answers = _raw_session(INITIALIZE, hover, SHUTDOWN)
    by_id = {a.get("id"): a for a in answers}
    assert by_id[7]["error"]["code"] == -32602 and 99 in by_id  # InvalidParams, and the server goes on
