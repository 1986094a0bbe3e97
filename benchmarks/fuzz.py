"""Fuzz the front end (and what it lets through) with fresh hostile inputs, each within a time and memory budget.

    .venv/bin/python benchmarks/fuzz.py [-n 100000] [--seed S] [--seconds 10] [--memory-mb 2048]

Inputs come from tests/fuzz_inputs.py (the suite's fuzz test draws from the same generator):
files built from the language's shapes with the real games' words, real games damaged, and
hostile sizes (deep nesting, long lines, huge numbers). Each is parsed and checked; what passes
is compiled, imported, played for a few random actions and its diagnostics rendered. Anything
but diagnostics (or a game error at an expression's line) is a failure: a traceback, an input
over its CPU-time budget, or a MemoryError under the process's address-space limit. The seed
defaults to the clock, so each run tries inputs no run tried before; it is printed to replay one.
Prints the inputs tried, how they ended, CPU time per input (mean and slowest), peak memory
(max RSS) and the failures; exits 1 if there was any. The nightly-size run is -n 100000.
"""

from __future__ import annotations

import argparse
import resource
import signal
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import random  # noqa: E402

from fuzz_inputs import random_input, run_one  # noqa: E402


class OverBudget(Exception):
    pass


def _over_budget(signum, frame):
    raise OverBudget


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=1000, help="inputs to try (default 1000; nightly 100000)")
    parser.add_argument("--seed", type=int, default=None, help="the generator's seed (default: from the clock)")
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU-time budget per input (default 10)")
    parser.add_argument("--memory-mb", type=int, default=2048, help="address-space limit of the process (default 2048)")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else time.time_ns() % 2**32
    limit = args.memory_mb * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGVTALRM, _over_budget)
    rng = random.Random(seed)
    outcomes: Counter = Counter()
    failures: list[str] = []
    slowest = (0.0, "")
    started = time.process_time()
    for index in range(args.n):
        text = random_input(rng)
        before = time.process_time()
        signal.setitimer(signal.ITIMER_VIRTUAL, args.seconds)
        try:
            kind, _ = run_one(text)
            outcomes[kind] += 1
        except OverBudget:
            outcomes["over budget"] += 1
            failures.append(f"input {index}: over {args.seconds}s of CPU: {text[:100]!r}")
        except BaseException as error:  # noqa: BLE001 - any escape is what we look for
            if isinstance(error, KeyboardInterrupt):
                raise
            outcomes["failure"] += 1
            failures.append(f"input {index}: {type(error).__name__}: {str(error)[:200]}\n  input: {text[:200]!r}\n"
                            + "".join(traceback.format_exception(error)[-3:]))
        finally:
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        spent = time.process_time() - before
        if spent > slowest[0]:
            slowest = (spent, text[:60])
        if (index + 1) % 10_000 == 0:  # a long run shows it is alive, and what it has found so far
            print(f"  {index + 1} inputs, {time.process_time() - started:.0f}s CPU, {len(failures)} failure(s)",
                  file=sys.stderr, flush=True)
    elapsed = time.process_time() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"seed {seed}: {args.n} inputs in {elapsed:.1f}s CPU, {1000 * elapsed / max(1, args.n):.2f} ms per input "
          f"(slowest {slowest[0]:.2f}s: {slowest[1]!r}), peak memory {peak_mb:.0f} MB")
    print("  " + ", ".join(f"{kind} {count}" for kind, count in outcomes.most_common()))
    print(f"  failures (tracebacks, over budget, out of memory): {len(failures)}")
    for failure in failures[:20]:
        print("  " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
