"""How long does loading a game take? Per game in games/: `load_game` checking the file (parse, schema, build:
every start before rulec/game_cache.py) against importing the module kept from an earlier load, side by side.

    .venv/bin/python benchmarks/loading.py [--repeat N]

CPU time of this process, best of N (default 5) for each, in milliseconds. The kept modules are written to a
directory of the benchmark's own (removed at the end), so the user's cache is neither used nor changed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulec import game_cache  # noqa: E402
from rulec.language.parse import parser  # noqa: E402
from rulec.pipeline import GAMES_DIR, load_game  # noqa: E402


def best(repeat: int, name: str) -> float:
    """The least CPU time of `repeat` loads of `name`, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        load_game(name)
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--repeat", type=int, default=5, help="loads per measurement; the best counts (default 5)")
    args = options.parse_args()
    parser()  # the grammar's parser is built once a process: outside the timings
    game_cache._fingerprint()  # (read once a process too)
    directory = tempfile.mkdtemp(prefix="rulec-loading-")
    try:
        print(f"{'game':<22} {'checked ms':>11} {'kept ms':>9} {'ratio':>7}")
        for path in sorted(GAMES_DIR.glob("*.rulec")):
            os.environ["RULEC_CACHE_DIR"] = "off"
            checked = best(args.repeat, path.stem)
            os.environ["RULEC_CACHE_DIR"] = directory
            load_game(path.stem)  # checked once more, and kept
            kept = best(args.repeat, path.stem)
            print(f"{path.stem:<22} {checked * 1000:>11.1f} {kept * 1000:>9.1f} {checked / kept:>6.1f}x")
    finally:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
