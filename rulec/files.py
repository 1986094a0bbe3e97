"""Writing a file so that a reader only ever sees the old file or the whole new one.

`write_atomically` writes a temporary file beside the target, flushes it to disk and renames it
over the target. The temporary file is named after the target and the writing process
(`.NAME.rulec-PID.tmp`): it is removed if writing fails or is interrupted, and one left behind by
a process that was killed outright (kill -9, a power cut) is swept away by the next write of the
same file, so temporary files never pile up.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

_TEMPORARY = re.compile(r"^\.(?P<name>.+)\.rulec-(?P<pid>\d+)\.tmp$")


def write_atomically(path: str | Path, text: str) -> None:
    """Replace `path` with `text` (UTF-8) in one step; OSError if it cannot be written."""
    path = Path(path)
    folder = path.parent
    sweep_temporary_files(path)
    temporary = folder / f".{path.name}.rulec-{os.getpid()}.tmp"
    temporary.unlink(missing_ok=True)  # one of ours, left by an earlier write of this process
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    handle = os.open(temporary, flags, 0o666)  # the umask applies, as for any file the user writes
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:  # an error, Ctrl-C or a stop signal: no temporary file stays behind
        temporary.unlink(missing_ok=True)
        raise


def sweep_temporary_files(path: Path) -> None:
    """Remove temporary files of `path` left by processes that no longer run."""
    try:
        entries = list(os.scandir(path.parent if str(path.parent) else "."))
    except OSError:
        return
    for entry in entries:
        match = _TEMPORARY.match(entry.name)
        if match is None or match["name"] != path.name or int(match["pid"]) == os.getpid():
            continue
        if not _running(int(match["pid"])):
            try:
                os.unlink(entry.path)
            except OSError:
                pass


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # another user's process, or a number no process can have: leave its file alone
    return True
