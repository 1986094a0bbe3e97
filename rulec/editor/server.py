"""The language server (`rulec lsp`): rulec/editor/analysis.py spoken over the Language Server Protocol.

Diagnostics are published on open and on every change, from the same checker as `rulec check`
(same codes, same ranges). Completion, hover and go-to-definition use the names of the last
version of each file that parsed, so they keep working while a line is half typed.
"""

from __future__ import annotations

import logging
import sys
from typing import Any, BinaryIO
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from rulec import __version__
from rulec.diagnostics import Diagnostic, Span
from rulec.editor.analysis import Symbols, complete, definition, diagnose, hover
from rulec.language.limits import MAX_FILE_CHARACTERS

# One message holds at most a whole game file (4 bytes a character in UTF-8, escaped in JSON) and its wrapping.
MAX_MESSAGE_BYTES = 8 * MAX_FILE_CHARACTERS + 64 * 1024
MAX_HEADER_LINE = 8 * 1024
logger = logging.getLogger(__name__)

SEVERITIES = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
              "note": types.DiagnosticSeverity.Information}
COMPLETION_KINDS = {"section": types.CompletionItemKind.Module, "field": types.CompletionItemKind.Field,
                    "value": types.CompletionItemKind.EnumMember, "unit": types.CompletionItemKind.Class,
                    "zone": types.CompletionItemKind.Reference, "hex": types.CompletionItemKind.Constant,
                    "terrain": types.CompletionItemKind.Enum, "side": types.CompletionItemKind.Struct}
SYMBOL_KINDS = {"unit": types.SymbolKind.Class, "unit type": types.SymbolKind.Interface, "side": types.SymbolKind.Struct,
                "terrain": types.SymbolKind.Enum, "zone": types.SymbolKind.Namespace, "hex": types.SymbolKind.Constant,
                "option": types.SymbolKind.Boolean}


class BoundedInput:
    """The client's byte stream as pygls reads it (readline, read), never more than a message's worth at once.

    A message that says it is longer than MAX_MESSAGE_BYTES is not read (it would exhaust the memory):
    pygls is handed a body that is not JSON, which it reports, and the next header is looked for in
    what follows, so the server goes on with the client's next message."""

    def __init__(self, stream: BinaryIO):
        self.stream = stream
        self._resync = False

    def readline(self) -> bytes:
        line = self.stream.readline(MAX_HEADER_LINE)
        while self._resync and line:
            start = line.find(b"Content-Length:")
            if start >= 0:
                self._resync = False
                return line[start:]
            line = self.stream.readline(MAX_HEADER_LINE)
        return line

    def read(self, size: int) -> bytes:
        if size > MAX_MESSAGE_BYTES:
            logger.error("a message of %d bytes is refused (at most %d): skipped", size, MAX_MESSAGE_BYTES)
            self._resync = True
            return b"\0"
        return self.stream.read(size)


_ANSWERED = object()  # a request refused while being read: its error is already sent


class RulecProtocol(LanguageServerProtocol):
    """pygls's protocol, but a request whose parameters are not what its method takes is answered
    with an InvalidParams error (pygls only shows a message, and the client waits for ever)."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if "method" in data and isinstance(data.get("id"), (int, str)) and not isinstance(data.get("id"), bool):
                self._send_response(data["id"], error=error.to_response_error())
            return _ANSWERED

    def handle_message(self, message: Any) -> None:
        if message is not _ANSWERED:
            super().handle_message(message)


class RulecLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("rulec", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         protocol_cls=RulecProtocol)
        self.symbols: dict[str, Symbols] = {}  # uri -> names of the last version that parsed


def file_name(uri: str) -> str:
    """The name diagnostics carry for a document: its path for a file: URI."""
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else uri


def to_range(server: LanguageServer, lines: list[str], span: Span | None) -> types.Range:
    """A span (lines and columns from 1, in characters) as an LSP range in the client's units."""
    if span is None:
        return types.Range(types.Position(0, 0), types.Position(0, 0))
    line, column = span.line - 1, span.column - 1
    end_line = (span.end_line or span.line) - 1
    end_column = (span.end_column - 1) if span.end_column and span.end_line else column + 1
    server_range = types.Range(types.Position(line, column), types.Position(end_line, end_column))
    return server.workspace.position_codec.range_to_client_units(lines, server_range)


def to_lsp_diagnostic(server: LanguageServer, lines: list[str], diagnostic: Diagnostic) -> types.Diagnostic:
    message = diagnostic.message + (f"\nhint: {diagnostic.hint}" if diagnostic.hint else "")
    return types.Diagnostic(range=to_range(server, lines, diagnostic.span), message=message,
                            severity=SEVERITIES.get(diagnostic.severity, types.DiagnosticSeverity.Error),
                            code=diagnostic.code, source="rulec")


def publish(server: RulecLanguageServer, uri: str) -> None:
    document = server.workspace.get_text_document(uri)
    file = file_name(uri)
    parsed, diagnostics = diagnose(document.source, file)
    if parsed is not None:
        server.symbols[uri] = Symbols.of(parsed)
    lines = list(document.lines)
    # Spans in another file (none today) would be misplaced here: only this file's are shown.
    shown = [to_lsp_diagnostic(server, lines, d) for d in diagnostics if d.span is None or d.span.file == file]
    server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=shown,
                                                                            version=document.version))


def build_server() -> RulecLanguageServer:
    server = RulecLanguageServer()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RulecLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        publish(ls, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RulecLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        publish(ls, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: RulecLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        publish(ls, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulecLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.symbols.pop(params.text_document.uri, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=["=", " ", "[", ","]))
    def completion(ls: RulecLanguageServer, params: types.CompletionParams) -> types.CompletionList:
        document = ls.workspace.get_text_document(params.text_document.uri)
        offset = document.offset_at_position(params.position)
        found = complete(document.source, offset, ls.symbols.get(params.text_document.uri, Symbols()))
        # Keep the analysis's order (likely names first) whatever the client sorts by.
        items = [types.CompletionItem(label=c.label, detail=f"{c.kind}" + (f": {c.detail}" if c.detail else ""),
                                      kind=COMPLETION_KINDS.get(c.kind, types.CompletionItemKind.Value),
                                      sort_text=f"{0 if c.likely else 1}{index:05d}")
                 for index, c in enumerate(found)]
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def on_hover(ls: RulecLanguageServer, params: types.HoverParams) -> types.Hover | None:
        document = ls.workspace.get_text_document(params.text_document.uri)
        offset = document.offset_at_position(params.position)
        text = hover(document.source, offset, ls.symbols.get(params.text_document.uri, Symbols()))
        if text is None:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def on_definition(ls: RulecLanguageServer, params: types.DefinitionParams) -> list[types.Location]:
        uri = params.text_document.uri
        document = ls.workspace.get_text_document(uri)
        offset = document.offset_at_position(params.position)
        lines = list(document.lines)
        return [types.Location(uri=uri, range=to_range(ls, lines, span))
                for span in definition(document.source, offset, ls.symbols.get(uri, Symbols()))]

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbols(ls: RulecLanguageServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
        """The names the file defines, in file order: the editor's outline of a game."""
        uri = params.text_document.uri
        lines = list(ls.workspace.get_text_document(uri).lines)
        found = [s for s in ls.symbols.get(uri, Symbols()).all() if s.span is not None]
        found.sort(key=lambda s: (s.span.line, s.span.column) if s.span else (0, 0))
        out = []
        for symbol in found:
            where = to_range(ls, lines, symbol.span)
            out.append(types.DocumentSymbol(name=symbol.name, kind=SYMBOL_KINDS.get(symbol.kind, types.SymbolKind.Variable),
                                            range=where, selection_range=where,
                                            detail=symbol.kind + (f": {symbol.detail}" if symbol.detail else "")))
        return out

    return server


def serve() -> None:
    """Speak LSP on standard input and output until the client says exit."""
    build_server().start_io(stdin=BoundedInput(sys.stdin.buffer))
