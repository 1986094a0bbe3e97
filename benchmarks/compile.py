"""How fast is the front end? Per game: parse, schema check, build, generate, and `rulec check` as a process.

    .venv/bin/python benchmarks/compile.py [--repeat N]

Each stage is timed on its own (best of N, in milliseconds) and the games are
printed side by side, with source lines per second for the whole in-process
pipeline. The last row runs `python -m rulec check GAME` as a subprocess, so
it includes Python start-up and imports: the time a designer waits.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulec.check.build import Builder  # noqa: E402
from rulec.check.references import check_references  # noqa: E402
from rulec.check.schema import check_schema  # noqa: E402
from rulec.compile.codegen import generate_module  # noqa: E402
from rulec.compile.json_export import generate_json  # noqa: E402
from rulec.language.parse import parse_text, parser  # noqa: E402
from rulec.pipeline import GAMES_DIR, display_name  # noqa: E402


def best(repeat: int, function: Callable[[], object]) -> float:
    """The fastest of `repeat` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def measure(path: Path, repeat: int) -> dict[str, float]:
    text = path.read_text(encoding="utf-8")
    name = display_name(path)
    document = parse_text(text, name)

    def build():
        builder = Builder(document)
        game = builder.build()
        check_references(game, document)
        return game

    game = build()
    row = {
        "lines": float(len(text.splitlines())),
        "parse": best(repeat, lambda: parse_text(text, name)),
        "schema": best(repeat, lambda: check_schema(document)),
        "build": best(repeat, build),
        "generate": best(repeat, lambda: (generate_module(game), generate_json(game))),
    }
    row["total"] = row["parse"] + row["schema"] + row["build"] + row["generate"]
    row["lines/s"] = row["lines"] / row["total"]
    command = [sys.executable, "-m", "rulec", "check", str(path)]
    runs = []
    for _ in range(max(1, min(repeat, 5))):
        start = time.perf_counter()
        finished = subprocess.run(command, cwd=ROOT, capture_output=True)
        runs.append(time.perf_counter() - start)
    row["rulec check"] = min(runs) if finished.returncode in (0, 1) else float("nan")
    return row


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--repeat", type=int, default=20, help="runs per measurement; the best counts (default 20)")
    args = options.parse_args()
    parser()  # build (or load from Lark's cache) the parser once, outside the timings
    games = sorted(GAMES_DIR.glob("*.rulec"))
    rows = {path.stem: measure(path, args.repeat) for path in games}
    names = list(rows)
    width = max(14, *(len(n) for n in names))
    print(f"{'best of ' + str(args.repeat):<22}" + "".join(f"{n:>{width + 2}}" for n in names))
    for stage, unit in (("lines", ""), ("parse", "ms"), ("schema", "ms"), ("build", "ms"), ("generate", "ms"),
                        ("total", "ms"), ("lines/s", ""), ("rulec check", "ms")):
        cells = []
        for name in names:
            value = rows[name][stage]
            cells.append(f"{value * 1000:>{width}.1f}ms" if unit == "ms" else f"{value:>{width + 2},.0f}")
        label = stage + (" (process)" if stage == "rulec check" else "")
        print(f"{label:<22}" + "".join(cells))


if __name__ == "__main__":
    main()
