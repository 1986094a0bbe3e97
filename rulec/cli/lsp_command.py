"""`rulec lsp`: the language server for game files, on standard input and output (needs the `lsp` extra)."""

from __future__ import annotations

import argparse
from typing import Any

from rulec.diagnostics import Diagnostic, DiagnosticError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("lsp", help="the language server for editors (LSP on stdin/stdout)",
                                   description=__doc__)
    # Editors' LSP clients (VS Code's among them) say how they talk: stdio is the only way here.
    parser.add_argument("--stdio", action="store_true", help="talk over standard input and output (the default)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        from rulec.editor.server import serve
    except ImportError as error:
        raise DiagnosticError([Diagnostic("missing-extra", f"the language server needs pygls ({error.name} is not installed)",
                                          hint="pip install -e '.[lsp]'")]) from None
    serve()
    return 0
