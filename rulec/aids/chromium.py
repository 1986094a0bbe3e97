"""Headless Chromium, for looking at the aids the way a player's browser shows and prints them.

Used by the browser tests and for review screenshots: each call starts a fresh
Chromium with a throw-away profile and no network chatter, and waits for it.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars")
TIMEOUT = 90  # seconds; a cold start on a slow CI machine takes a few


class ChromiumError(RuntimeError):
    pass


def find_chromium() -> str | None:
    """The path of a Chromium-like browser, or None."""
    for name in NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


def _run(page: Path, *arguments: str) -> str:
    browser = find_chromium()
    if browser is None:
        raise ChromiumError("no Chromium found (install Debian's 'chromium' package)")
    with tempfile.TemporaryDirectory(prefix="rulec-chromium-") as profile:
        command = [browser, *FLAGS, f"--user-data-dir={profile}", *arguments, page.resolve().as_uri()]
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    if done.returncode != 0:
        raise ChromiumError(f"chromium exited with {done.returncode}: {done.stderr.strip()[-500:]}")
    return done.stdout


def dump_dom(page: Path, width: int = 1000, height: int = 1400) -> str:
    """The page's DOM after its scripts ran."""
    return _run(page, f"--window-size={width},{height}", "--dump-dom")


def screenshot(page: Path, png: Path, width: int = 900, height: int = 1270, scale: float = 1.0) -> Path:
    png.parent.mkdir(parents=True, exist_ok=True)
    _run(page, f"--window-size={width},{height}", f"--force-device-scale-factor={scale}", f"--screenshot={png.resolve()}")
    if not png.is_file():
        raise ChromiumError(f"chromium wrote no screenshot for {page}")
    return png


def print_to_pdf(page: Path, pdf: Path) -> Path:
    pdf.parent.mkdir(parents=True, exist_ok=True)
    _run(page, "--no-pdf-header-footer", f"--print-to-pdf={pdf.resolve()}")
    if not pdf.is_file():
        raise ChromiumError(f"chromium wrote no PDF for {page}")
    return pdf
