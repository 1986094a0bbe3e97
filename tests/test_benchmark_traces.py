"""The traces benchmark still runs (at tiny sizes) and prints a row per size. Not a timed test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_traces_benchmark_runs_quick():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "traces.py"), "--quick", "--actions", "20"],
                          capture_output=True, text=True, env=env, timeout=120, check=True)
    rows = done.stdout.strip().splitlines()
    assert rows[0].split()[:2] == ["hexes", "units"] and len(rows) == 3
