"""The searches' inner loops in C (search_core.pyx, Cython), where the compiled engine runs; None in pure Python.

Built by `make fast` with the compiled engine, and loaded only with it (rulec.fast_path names the module NATIVE and
keeps it from loading in pure Python): movement.search and trace_sets.new_layers then run their loops there, and their
own otherwise. The long tier compares the games both play (tests/test_engine_compiled.py).
"""

from __future__ import annotations

from typing import Any

core: Any
try:
    from rulec.engine import search_core as core
except ImportError:  # pure Python
    core = None
