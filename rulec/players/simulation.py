"""Many AI-against-AI games and their summary (what `rulec simulate` prints).

Game i is played with seed `seed + i` whatever the number of worker processes,
so a summary depends only on the game, options, players, seed and count.

`play_in_processes` plays them in worker processes it starts and stops itself. The workers are
started fresh (the "spawn" method), never forked: a fork copies the parent's threads' locks but
not the threads (Ray's or gRPC's, say, left by an earlier run in the same process), and a worker
could wait on such a lock for ever. Workers ignore Ctrl-C (they inherit it ignored, so not even
a Ctrl-C while they start prints a traceback): the main process stops them with SIGTERM, and
SIGKILL if one has not stopped a few seconds later.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import queue
import signal
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterator

from rulec.players.base import Thinking
from rulec.players.match import MOST_TURNS_WITHOUT_A_LAST_TURN, play_match
from rulec.players.setup import build_players


@dataclass(frozen=True)
class GameRecord:
    """What one simulated game ended with."""

    seed: int
    winner: str | None
    level: str
    vp: dict[str, int]
    margin: float
    actions: int
    turns: int = 0  # the last game turn played
    vp_by_source: dict[str, int] = field(default_factory=dict)  # the VP each award, option or counter source gave
    # False: a game with no last turn stopped after match.MOST_TURNS_WITHOUT_A_LAST_TURN turns (its winner and VP
    # as they stood then)
    finished: bool = True


def play_one(game: Any, options: tuple[str, ...], kinds: dict[str, str], seed: int, scenario: str | None = None) -> GameRecord:
    """One whole AI game with `seed` for the set-up, the dice and the players (from `scenario`'s start, if given)."""
    from rulec.engine import new_game

    state = new_game(game, options=options, seed=seed, scenario=scenario)
    players = build_players(kinds, list(state.players), seed, default="random")
    with Thinking():  # every move of the game is a machine's: the collector at the thinking pace for the whole game
        result = play_match(state, players, seed=seed)
    outcome = state.outcome()
    by_source: Counter[str] = Counter()
    for entry in state.vp_log:
        by_source[entry.source] += entry.amount
    return GameRecord(seed, outcome.winner, outcome.level, dict(outcome.vp), outcome.margin, result.actions, state.turn,
                      dict(by_source), result.finished)


STOP_SECONDS = 5.0  # a worker sent SIGTERM that has not stopped by then is killed


def play_in_processes(game_name: str, options: tuple[str, ...], kinds: dict[str, str], seeds: range, jobs: int,
                      scenario: str | None = None, chunk: int = 1) -> Iterator[GameRecord]:
    """Every seed's record, in seed order, played by `jobs` worker processes owned by this call.
    An exception in a worker is raised here; leaving the loop early (Ctrl-C, an error) stops the workers."""
    context = multiprocessing.get_context("spawn")
    tasks, results = context.Queue(), context.Queue()
    batches = [seeds[i:i + chunk] for i in range(0, len(seeds), chunk)]
    workers: list = []
    try:
        with _ctrl_c_held_back():  # the workers start with Ctrl-C blocked (inherited), then ignore it (_worker)
            for _ in range(jobs):
                worker = context.Process(target=_worker, args=(game_name, options, kinds, scenario, tasks, results),
                                         daemon=True)
                worker.start()
                workers.append(worker)
        sent, done = 0, {}
        for index in range(len(batches)):
            while sent < len(batches) and sent < index + 2 * jobs:  # a few batches ahead of the slowest
                tasks.put((sent, list(batches[sent])))
                sent += 1
            while index not in done:
                done.update([_next_result(results, workers)])
            for record in done.pop(index):
                yield record
    finally:
        _stop(workers, tasks, results)


@contextlib.contextmanager
def _ctrl_c_held_back() -> Iterator[None]:
    """Ctrl-C (SIGINT) blocked, not ignored, while the block runs: one pressed meanwhile is not lost but arrives as
    the block ends (a KeyboardInterrupt there). Ignoring it instead, as the workers started, lost a Ctrl-C pressed at
    that moment, and the simulation played on. Where signals cannot be blocked, it is ignored meanwhile."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _next_result(results: Any, workers: list) -> tuple[int, list[GameRecord]]:
    while True:
        try:
            index, outcome = results.get(timeout=0.5)
        except queue.Empty:
            dead = [w for w in workers if w.exitcode not in (None, 0)]
            if dead:
                raise RuntimeError(f"a simulation worker stopped (exit status {dead[0].exitcode})") from None
            continue
        if isinstance(outcome, BaseException):
            raise outcome
        return index, outcome


def _stop(workers: list, tasks: Any, results: Any) -> None:
    for worker in workers:
        if worker.is_alive():
            worker.terminate()  # SIGTERM
    for worker in workers:
        worker.join(STOP_SECONDS)
        if worker.is_alive():
            worker.kill()
            worker.join(STOP_SECONDS)
    for channel in (tasks, results):
        channel.cancel_join_thread()  # what is still queued is not wanted: never wait to flush it
        channel.close()


def _worker(game_name: str, options: tuple[str, ...], kinds: dict[str, str], scenario: str | None,
            tasks: Any, results: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):  # the default (end at once), whatever the parent process had
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    try:
        from rulec.pipeline import load_game

        game = load_game(game_name)
    except Exception as error:  # noqa: BLE001 - sent to the main process, which raises it
        results.put((-1, _sendable(error)))
        return
    while True:
        task = tasks.get()
        if task is None:
            return
        index, batch = task
        try:
            results.put((index, [play_one(game, options, kinds, seed, scenario=scenario) for seed in batch]))
        except Exception as error:  # noqa: BLE001
            results.put((index, _sendable(error)))
            return


def _sendable(error: Exception) -> Exception:
    """The error itself if it can be sent to the main process, else a RuntimeError saying what it was."""
    import pickle

    try:
        pickle.loads(pickle.dumps(error))
        return error
    except Exception:  # noqa: BLE001
        return RuntimeError(f"{type(error).__name__}: {error}")


@dataclass
class Summary:
    games: int = 0
    wins: dict[str, Counter] = field(default_factory=dict)  # side -> victory level -> count
    draws: int = 0
    vp: dict[str, dict[str, float]] = field(default_factory=dict)  # side -> min/mean/max
    margin_histogram: dict[str, int] = field(default_factory=dict)  # "first side's VP minus the second's" buckets
    mean_actions: float = 0.0
    mean_turns: float = 0.0  # game turns played: a game that ends early by sudden death is shorter
    unfinished: int = 0  # games with no last turn stopped after match.MOST_TURNS_WITHOUT_A_LAST_TURN turns

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "wins": {s: dict(c) for s, c in self.wins.items()},
                "wins_total": {s: sum(c.values()) for s, c in self.wins.items()}, "draws": self.draws,
                "vp": self.vp, "margin_histogram": self.margin_histogram, "mean_actions": self.mean_actions,
                "mean_turns": self.mean_turns, "unfinished": self.unfinished}


def summarise(records: list[GameRecord], sides: list[str], bucket: int = 5) -> Summary:
    """Wins by side and level, draws, VP statistics, a histogram of the first side's margin."""
    summary = Summary(games=len(records), wins={s: Counter() for s in sides})
    for record in records:
        if record.winner is None:
            summary.draws += 1
        else:
            summary.wins[record.winner][record.level] += 1
    for side in sides:
        values = [r.vp.get(side, 0) for r in records] or [0]
        summary.vp[side] = {"min": min(values), "mean": round(statistics.fmean(values), 2), "max": max(values)}
    if len(sides) >= 2:
        margins = Counter((r.vp.get(sides[0], 0) - r.vp.get(sides[1], 0)) // bucket * bucket for r in records)
        summary.margin_histogram = {f"{low:+d}..{low + bucket - 1:+d}": margins[low] for low in sorted(margins)}
    summary.mean_actions = round(statistics.fmean([r.actions for r in records]), 1) if records else 0.0
    summary.mean_turns = round(statistics.fmean([r.turns for r in records]), 1) if records else 0.0
    summary.unfinished = sum(not r.finished for r in records)
    return summary


def format_summary(summary: Summary, game: Any, kinds: dict[str, str]) -> str:
    sides = list(summary.wins)
    names = {s: game.sides[s].name for s in sides}
    lines = [f"{summary.games} games of {game.info.title}: " + ", ".join(f"{names[s]} {kinds.get(s, 'random')}" for s in sides)]
    for side in sides:
        total = sum(summary.wins[side].values())
        levels = ", ".join(f"{level} {count}" for level, count in sorted(summary.wins[side].items(), key=lambda i: -i[1]))
        share = f"{100 * total / summary.games:.0f}%" if summary.games else "-"
        lines.append(f"  {names[side]} wins {total} ({share})" + (f": {levels}" if levels else ""))
    lines.append(f"  draws {summary.draws}")
    for side in sides:
        v = summary.vp[side]
        lines.append(f"  VP {names[side]}: min {v['min']}, mean {v['mean']}, max {v['max']}")
    if summary.margin_histogram:
        lines.append(f"  margin ({names[sides[0]]} minus {names[sides[1]]}):")
        peak = max(summary.margin_histogram.values()) or 1
        for label, count in summary.margin_histogram.items():
            lines.append(f"    {label:>9} {'#' * max(1, round(30 * count / peak)) if count else '':<30} {count}")
    lines.append(f"  mean game length: {summary.mean_turns} turns ({summary.mean_actions} actions)")
    if summary.unfinished:
        lines.append(f"  unfinished {summary.unfinished}: stopped after {MOST_TURNS_WITHOUT_A_LAST_TURN:,} turns, "
                     "for the game has no last turn and no sudden death came true (counted above as they stood)")
    return "\n".join(lines)
