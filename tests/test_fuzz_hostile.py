"""Fresh hostile inputs each run, each within a time and memory budget: diagnostics, never anything else.

Hypothesis draws the generator's random choices (tests/fuzz_inputs.py, shared with
benchmarks/fuzz.py), so every run tries new inputs and a failure shrinks to a small one.
What passes the checker is compiled, imported, played and rendered too.
"""

from __future__ import annotations

import time
import tracemalloc

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz_inputs import random_input, run_one

MEMORY_BUDGET = 300 * 2**20  # per input, as traced by tracemalloc
TIME_BUDGET = 20.0  # CPU seconds per input, tracing included (CPU time: a busy machine does not fail the test)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
          database=None)
@given(rng=st.randoms(use_true_random=False))
def test_any_input_ends_in_diagnostics_or_a_game_within_its_budget(rng):
    text = random_input(rng)
    started = time.process_time()
    tracemalloc.start()
    try:
        kind, diagnostics = run_one(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    spent = time.process_time() - started
    assert kind in ("rejected", "checked", "played", "game-error")
    assert kind != "rejected" or any(d.is_error for d in diagnostics)
    assert peak < MEMORY_BUDGET, f"{peak / 2**20:.0f} MB for {text[:80]!r}"
    assert spent < TIME_BUDGET, f"{spent:.1f}s of CPU for {text[:80]!r}"
