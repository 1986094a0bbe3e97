"""`rulec simulate`'s worker processes: started fresh (never forked from a process whose threads may hold
locks), ignoring Ctrl-C, and stopped by signal with the run, whichever way it ends."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from terminal import ctrl_c_answered

from rulec.players.simulation import play_in_processes

ROOT = Path(__file__).resolve().parent.parent


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found += [int(child) for child in (task / "children").read_text().split()]
    return found


def _command_line(pid: int) -> str:
    with contextlib.suppress(OSError):
        return (Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")).decode()
    return ""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_workers_are_spawned_not_forked_and_play_while_a_thread_holds_a_lock():
    """A thread of this process holds a lock the whole time (as Ray's or gRPC's threads may): forked
    workers would copy it held; spawned ones never see it, and play every game."""
    held, release = threading.Lock(), threading.Event()

    def hold() -> None:
        with held:
            release.wait(120)

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    try:
        played = play_in_processes("drive_on_metz", (), {"us": "random", "germany": "random"}, range(4), jobs=2)
        first = next(played)
        children = _children(os.getpid())
        workers = [pid for pid in children if "multiprocessing.spawn" in _command_line(pid)]
        assert len(workers) == 2, [_command_line(pid) for pid in children]
        seeds = [first.seed, *(record.seed for record in played)]
    finally:
        release.set()
    assert seeds == [0, 1, 2, 3]
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in workers)  # stopped with the run


def test_ctrl_c_to_the_whole_terminal_group_stops_rulec_and_its_workers_without_a_traceback(tmp_path):
    """A terminal's Ctrl-C reaches every process of the group at once, the workers included."""
    process = subprocess.Popen([sys.executable, "-m", "rulec", "simulate", "drive_on_metz", "-n", "100000", "--jobs", "2"],
                               cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, start_new_session=True,
                               preexec_fn=ctrl_c_answered)
    try:
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while len(workers) < 2 and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.1)
            workers = [pid for pid in _children(process.pid) if "multiprocessing.spawn" in _command_line(pid)]
        time.sleep(0.5)  # the workers are still importing rulec: a Ctrl-C now must not print their tracebacks
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=60)
        left = time.monotonic() + 10  # rulec has waited for them: they are gone, or going
        while any(_alive(pid) for pid in workers) and time.monotonic() < left:
            time.sleep(0.1)
        still_running = [pid for pid in workers if _alive(pid)]
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
    assert process.returncode == 130 and "Traceback" not in err + out, err
    assert len(workers) == 2 and not still_running


_CTRL_C_AS_A_WORKER_STARTS = """
import multiprocessing.context, os, signal, sys
from rulec.players.simulation import play_in_processes

start = multiprocessing.context.SpawnProcess.start
def pressed_meanwhile(process):
    os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C while the workers are being started
    start(process)
multiprocessing.context.SpawnProcess.start = pressed_meanwhile
try:
    played = list(play_in_processes("drive_on_metz", (), {"us": "random", "germany": "random"}, range(3), 2))
except KeyboardInterrupt:
    print("interrupted")
else:
    print(f"played {len(played)} games")
"""


def test_ctrl_c_pressed_while_the_workers_start_stops_the_run_rather_than_being_lost():
    run = subprocess.run([sys.executable, "-c", _CTRL_C_AS_A_WORKER_STARTS], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, preexec_fn=ctrl_c_answered)
    assert run.stdout.strip() == "interrupted", run.stdout + run.stderr
