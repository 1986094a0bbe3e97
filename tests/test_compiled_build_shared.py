"""The long tier's workers share one build of the compiled engine (tests/compiled_engine.py, shared_build): the first
to ask builds, the others read what it found, a tree, why there is none, or the build's failure, without building
again. The build itself is faked here (a real one takes a minute: the long tier does it)."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import compiled_engine
import pytest
from compiled_engine import CompiledTree, shared_build


def _fake_build(built: list):
    def build(scratch: Path, pure_asked: bool) -> CompiledTree:
        built.append(scratch)
        if pure_asked:
            return CompiledTree(None, "RULEC_PURE=1 asks for pure Python")
        scratch.mkdir()
        return CompiledTree(scratch)
    return build


def test_the_first_worker_builds_and_the_others_share_its_tree(tmp_path, monkeypatch):
    built: list = []
    monkeypatch.setattr(compiled_engine, "build", _fake_build(built))
    first = shared_build(tmp_path, False)
    again = shared_build(tmp_path, False)
    assert built == [tmp_path / "compiled"]
    assert first == again == CompiledTree(tmp_path / "compiled")


def test_a_machine_that_cannot_build_says_why_to_every_worker(tmp_path, monkeypatch):
    built: list = []
    monkeypatch.setattr(compiled_engine, "build", _fake_build(built))
    assert shared_build(tmp_path, True) == shared_build(tmp_path, True) == CompiledTree(None, "RULEC_PURE=1 asks for "
                                                                                               "pure Python")
    assert len(built) == 1


def test_a_failed_build_is_not_tried_again_by_each_worker(tmp_path, monkeypatch):
    tries: list = []

    def failing(scratch: Path, pure_asked: bool) -> CompiledTree:
        tries.append(scratch)
        raise RuntimeError("building the compiled engine failed:\nerror: no space left")

    monkeypatch.setattr(compiled_engine, "build", failing)
    for _ in range(2):
        with pytest.raises(RuntimeError, match="no space left"):
            shared_build(tmp_path, False)
    assert len(tries) == 1


def _build_in_a_process(root: str, log: str) -> str:
    def slow(scratch: Path, pure_asked: bool) -> CompiledTree:
        with open(log, "a") as f:
            f.write("built\n")
        import time
        time.sleep(0.5)  # long enough that the other process asks while this one builds
        scratch.mkdir()
        return CompiledTree(scratch)

    compiled_engine.build = slow
    return str(shared_build(Path(root), False).path)


def test_workers_asking_at_once_wait_for_one_build(tmp_path):
    log = tmp_path / "log"
    with multiprocessing.get_context("fork").Pool(2) as pool:
        paths = pool.starmap(_build_in_a_process, [(str(tmp_path), str(log))] * 2)
    assert paths == [str(tmp_path / "compiled")] * 2
    assert log.read_text() == "built\n"
