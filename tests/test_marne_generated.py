"""The Marne's generated regions (map, counters, town awards, set-up phases, options and scenarios) are
exactly what scripts/the_marne/assemble.py writes from the builders: nobody edits them by hand, and a
builder's change reaches the game file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "the_marne" / "assemble.py"


def test_the_game_file_matches_its_builders():
    done = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def test_every_reconstructed_block_says_so():
    """Every generated region carries RECONSTRUCTED notes (docs/the-marne.md sums up their sources)."""
    text = (ROOT / "games" / "the_marne.rulec").read_text(encoding="utf-8")
    for region in ("map", "units"):
        start = text.index(f"# >>> generated: {region}")
        end = text.index(f"# <<< generated: {region}")
        assert "RECONSTRUCTED" in text[start:end], region
