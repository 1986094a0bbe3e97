"""The aids printed to PDF by WeasyPrint, which may read files from the aids folder and nothing else.

A game file's texts reach the HTML (escaped, but a printed page can still name
images and style sheets); WeasyPrint would fetch whatever a page names, from
the network or anywhere on the disk. The fetcher here refuses every URL but a
file inside the aids folder, and keeps the list of what it refused.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

from rulec.diagnostics import Diagnostic, DiagnosticError


class RefusedURL(ValueError):
    """A page of the aids named something outside the aids folder."""


def _weasyprint():
    try:
        import weasyprint
    except ImportError:  # also raised when Pango's libraries are missing
        raise DiagnosticError([Diagnostic(
            "pdf-unavailable", "PDF output needs WeasyPrint and the Pango libraries",
            hint="pip install 'rulec[pdf]' and run scripts/install-system-deps.sh, or use --format html,svg")]) from None
    except OSError as error:
        raise DiagnosticError([Diagnostic("pdf-unavailable", f"WeasyPrint cannot load its libraries: {error}",
                                          hint="run scripts/install-system-deps.sh")]) from None
    return weasyprint


def inside(url: str, folder: Path) -> Path | None:
    """The local file a file: URL names if it lies inside `folder`, else None."""
    parts = urlsplit(url)
    if parts.scheme.lower() != "file" or parts.netloc not in ("", "localhost"):
        return None
    path = Path(unquote(parts.path)).resolve()
    root = folder.resolve()
    return path if path == root or root in path.parents else None


def folder_fetcher(folder: Path):
    """A WeasyPrint URL fetcher that serves files inside `folder` and refuses everything else.

    `fetcher.refused` lists the URLs it refused (for tests and for the curious)."""
    from weasyprint.urls import URLFetcher

    class FolderFetcher(URLFetcher):
        def __init__(self) -> None:
            super().__init__(allowed_protocols={"file"}, allow_redirects=False)
            self.refused: list[str] = []

        def fetch(self, url, headers=None):
            if inside(url, folder) is None:
                self.refused.append(url)
                raise RefusedURL(f"the aids may only use files inside {folder}: refused {url[:200]}")
            return super().fetch(url, headers)

    return FolderFetcher()


def render_pdf(html: str, folder: Path | None = None, fetcher=None) -> bytes:
    """The HTML printed to PDF; relative URLs resolve in `folder` (default: the current folder),
    and nothing outside it is read."""
    weasyprint = _weasyprint()
    folder = (folder or Path.cwd()).resolve()
    fetcher = fetcher or folder_fetcher(folder)
    return weasyprint.HTML(string=html, base_url=folder.as_uri() + "/", url_fetcher=fetcher).write_pdf()
