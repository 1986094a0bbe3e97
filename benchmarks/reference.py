"""Measuring another commit of rulec side by side with this tree.

A benchmark imports this module first: `tree_on_path()` puts the rulec to measure
first on the import path: this tree, or the one named by the RULEC_TREE
environment variable (a reference commit checked out by `checkout`). The
benchmark scripts themselves always come from this tree, so both commits run
the same measurement.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def tree_on_path() -> Path:
    """Put the rulec tree to measure first on sys.path (and the benchmarks folder next); return it."""
    tree = Path(os.environ.get("RULEC_TREE") or ROOT)
    for path in (str(HERE), str(tree)):
        if path in sys.path:
            sys.path.remove(path)
        sys.path.insert(0, path)
    return tree


def describe(rev: str) -> str:
    """The short commit id of `rev`, as a reference tree unpacks it (checkout: the commit alone)."""
    found = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", rev], capture_output=True, text=True)
    return found.stdout.strip() or rev


def describe_this() -> str:
    """This tree: its commit, and '+ uncommitted changes' when it has some (they are measured too)."""
    name = describe("HEAD")
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return name + " + uncommitted changes" if dirty else name


@contextmanager
def checkout(rev: str) -> Iterator[Path]:
    """Commit `rev` of this repository, unpacked into a temporary directory (git archive: no git state is touched)."""
    with tempfile.TemporaryDirectory(prefix="rulec-reference-") as folder:
        archive = Path(folder) / "reference.tar"
        subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", "-o", str(archive), rev], check=True)
        tree = Path(folder) / "tree"
        with tarfile.open(archive) as tar:
            tar.extractall(tree, filter="data")
        yield tree


class MeasurementFailed(RuntimeError):
    """A benchmark could not run against a tree (an older rulec without what it measures); `why` is the
    error's last line, for a benchmark to print instead of a traceback."""

    def __init__(self, message: str, why: str):
        super().__init__(message)
        self.why = why


def run_json(tree: Path, script: str, arguments: list[str], timeout: float | None = None) -> dict:
    """Run benchmarks/`script` of this tree against the rulec in `tree`, in a fresh process; its last line, as JSON."""
    env = dict(os.environ, RULEC_TREE=str(tree))
    done = subprocess.run([sys.executable, str(HERE / script), *arguments], cwd=tree, env=env,
                          capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        raise MeasurementFailed(f"{script} {' '.join(arguments)} failed in {tree}:\n{done.stderr}",
                                lines[-1] if lines else f"exit status {done.returncode}")
    return json.loads(done.stdout.strip().splitlines()[-1])
