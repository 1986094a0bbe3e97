"""Where `rulec simulate` plays its games: this machine's processes (`local`) or Ray tasks (`ray`).

Both back ends play game i with seed `seed + i` through the same `play_one`, so they give the
same per-game records. Ray is an optional extra (`pip install -e '.[ray]'`): it is imported only
when the `ray` back end is chosen. A Ray task gets the game file's text, not a path or a Python
object, so that a worker on another machine of a cluster needs only rulec installed.
"""

from __future__ import annotations

import hashlib
import logging
import os
import socket
from typing import Any, Callable

from rulec.diagnostics import Diagnostic, DiagnosticError
from rulec.players.simulation import GameRecord, play_one

BACKENDS = ("local", "ray")


def record_to_json(record: GameRecord) -> dict[str, Any]:
    """One game of the JSON `games` list: the same keys and values whatever the back end."""
    return {"seed": record.seed, "winner": record.winner, "level": record.level, "vp": dict(record.vp),
            "turns": record.turns, "actions": record.actions, "finished": record.finished}


def simulate_on_ray(game_name: str, options: tuple[str, ...], kinds: dict[str, str], seeds: range,
                    address: str | None = None, cpus: int | None = None,
                    progress: Callable[[int], None] | None = None,
                    records: list[GameRecord] | None = None) -> list[GameRecord]:
    """Play every seed as Ray tasks; records in seed order, appended to `records` as they come in.

    Without `address` a local Ray instance is started (with `cpus` workers) and stopped afterwards;
    with one, the run joins that cluster (`auto`, or `ray://HOST:PORT`) and only disconnects.
    """
    ray = _import_ray()
    from rulec.pipeline import display_name, find_game

    path = find_game(game_name)
    text = path.read_text(encoding="utf-8").removeprefix("\ufeff")
    name = display_name(path)
    records = [] if records is None else records
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no usage report from a balance run
    settings: dict[str, Any] = dict(include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    try:
        if address:
            _check_reachable(address)  # Ray itself would retry an unreachable address for minutes
            ray.init(address=address, **settings)
        else:
            ray.init(num_cpus=max(1, cpus or os.cpu_count() or 1), **settings)
    except ConnectionError as error:
        ray.shutdown()  # whatever part of a connection was made
        raise DiagnosticError([Diagnostic("ray-unreachable", f"cannot join the Ray cluster at '{address}': {error}",
                                          hint="start one with `ray start --head`, or leave out --address")]) from None
    try:
        play = ray.remote(_play_seeds)
        workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        # A few games a task: loading the game costs far less than a game, but a task has overhead of its own.
        chunk = max(1, min(8, len(seeds) // (workers * 4)))
        batches = [seeds[i:i + chunk] for i in range(0, len(seeds), chunk)]
        futures = [play.remote(text, name, options, kinds, list(batch)) for batch in batches]
        for future in futures:  # in seed order, so an interrupted run keeps a prefix of the seeds
            try:
                records.extend(ray.get(future))
            except ray.exceptions.RayError as error:
                cause = getattr(error, "cause", None)
                if isinstance(cause, DiagnosticError):
                    raise cause from None
                message = str(error).strip().splitlines()[0] if str(error).strip() else ""
                raise DiagnosticError([Diagnostic("ray-task-failed", f"a Ray task failed ({type(error).__name__}): {message}")]) from None
            if progress:
                progress(len(records))
    finally:
        ray.shutdown()
    return records


CONNECT_SECONDS = 5.0


def _check_reachable(address: str) -> None:
    """Raise ConnectionError at once if HOST:PORT (or ray://HOST:PORT) takes no connection; 'auto' is Ray's to find."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if address == "auto" or not host or not port.isdigit():
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_SECONDS):
            pass
    except OSError as error:
        raise ConnectionError(error.strerror or str(error)) from None


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise DiagnosticError([Diagnostic("missing-extra", "the ray back end needs Ray, which is not installed",
                                          hint="pip install -e '.[ray]' (or use --backend local)")]) from None
    return ray


# A Ray worker process plays many tasks: it checks each game file once.
_GAMES: dict[str, Any] = {}


def _play_seeds(text: str, name: str, options: tuple[str, ...], kinds: dict[str, str], seeds: list[int]) -> list[GameRecord]:
    key = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if key not in _GAMES:
        _GAMES[key] = _check_text(text, name)
    return [play_one(_GAMES[key], options, kinds, seed) for seed in seeds]


def _check_text(text: str, name: str) -> Any:
    from rulec.language.parse import parse_text
    from rulec.pipeline import check

    game, diagnostics = check(parse_text(text, name))
    if game is None:
        raise DiagnosticError([d for d in diagnostics if d.is_error])
    return game
