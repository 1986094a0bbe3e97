"""Games checked twice are kept as their generated modules (rulec/game_cache.py): loading one again imports it. The
kept game is the checked one (the same model, the same games played, the same module generated again), a changed
file or rulec is checked anew, and nothing wrong with the cache (a broken entry, an unwritable or shared directory,
keeping turned off) ever makes loading fail."""

from __future__ import annotations

import os
import random
import stat
from pathlib import Path

import pytest

from rulec import game_cache, pipeline
from rulec.battle.forces import parse_force
from rulec.battle.odds import exact_odds
from rulec.battle.resolve import BattleSetup
from rulec.diagnostics import DiagnosticError
from rulec.engine import new_game
from rulec.engine.conformance import check_game
from rulec.pipeline import GAMES_DIR, generate, load_game
from rulec.players.saves import game_hash

GAMES = sorted(p.stem for p in GAMES_DIR.glob("*.rulec"))
MADE_UP = Path(__file__).parent / "games"


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """An empty cache of this test's own; `pipeline.check` counted, to tell a checked load from a kept one."""
    directory = tmp_path / "cache"
    monkeypatch.setenv("RULEC_CACHE_DIR", str(directory))
    return directory


@pytest.fixture
def checks(monkeypatch) -> list:
    done: list = []
    real = pipeline.check

    def counted(document):
        done.append(document.file)
        return real(document)

    monkeypatch.setattr(pipeline, "check", counted)
    return done


def _entries(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.py"))


def _kept(name: str):
    """Load a game until it is kept (checked twice): the game as checked."""
    load_game(name)
    return load_game(name)


@pytest.mark.parametrize("name", GAMES)
def test_a_game_loaded_again_is_the_kept_module_and_the_same_game(name, cache, checks):
    checked = load_game(name)
    assert len(checks) == 1 and _entries(cache) == []  # once: not kept (what is loaded once would pay for nothing)
    assert load_game(name) == checked
    assert len(checks) == 2 and len(_entries(cache)) == 1  # twice: kept
    kept = load_game(name)
    assert len(checks) == 2  # not checked again
    assert kept == checked and kept is not checked
    assert generate(kept) == generate(checked)  # `rulec compile` of it, and a save's game hash, are the same
    assert game_hash(kept) == game_hash(checked)


MAP_GAMES = [name for name in GAMES if load_game(name).map is not None]


@pytest.mark.parametrize("name", MAP_GAMES)
def test_the_kept_game_plays_the_same_games(name, cache):
    checked = _kept(name)
    kept = load_game(name)
    for seed in range(2):  # at random over the legal actions, then over sampled ones (the random playouts' way)
        rng_one, rng_other = random.Random(seed), random.Random(seed)
        one, other = new_game(checked, seed=seed), new_game(kept, seed=seed)
        for _ in range(400):
            if one.is_terminal():
                break
            action = one.sample_legal_action(rng_one) if seed else rng_one.choice(one.legal_actions())
            assert action == (other.sample_legal_action(rng_other) if seed else rng_other.choice(other.legal_actions()))
            one.apply_action(action)
            other.apply_action(action)
        assert other.history() == one.history() and other.vp == one.vp


def test_a_kept_battle_game_fights_the_same_battles(cache):
    checked = _kept("engle_ww2_battle")
    kept = load_game("engle_ww2_battle")
    assert checked.map is None and kept.battle == checked.battle

    def odds(game):
        forces = (parse_force(game, "Germany: panther/good, infantry"), parse_force(game, "Soviet: infantry x2, at-gun"))
        return exact_odds(BattleSetup(game.battle, forces, game.info.die, False)).winner

    assert odds(kept) == odds(checked)


def test_a_kept_made_up_game_keeps_every_promise(cache):
    path = str(MADE_UP / "leapfrog.rulec")
    _kept(path)
    assert len(_entries(cache)) == 1
    assert check_game(load_game(path), n_games=5, seed=3) == []


def test_a_changed_file_is_checked_anew(cache, checks, tmp_path):
    path = tmp_path / "metz.rulec"
    text = (GAMES_DIR / "drive_on_metz.rulec").read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    first = _kept(str(path))
    path.write_text(text.replace('title = "', 'title = "The other ', 1), encoding="utf-8")
    second = load_game(str(path))
    assert len(checks) == 3 and len(_entries(cache)) == 1
    assert second.info.title == "The other " + first.info.title


def test_the_same_bytes_under_another_name_are_another_game(cache, checks, tmp_path):
    one, other = tmp_path / "one.rulec", tmp_path / "other.rulec"
    for path in (one, other):
        path.write_bytes((GAMES_DIR / "drive_on_metz.rulec").read_bytes())
    assert _kept(str(one)).source != load_game(str(other)).source  # (the model records the file it came from)
    assert len(checks) == 3


def test_another_rulec_checks_anew(cache, checks, monkeypatch):
    _kept("drive_on_metz")
    monkeypatch.setattr(game_cache, "_fingerprint", lambda: b"another rulec")
    load_game("drive_on_metz")
    assert len(checks) == 3


@pytest.mark.parametrize("damage", [
    lambda text: text[: len(text) // 2].encode(),  # cut short (written by another program, a disk full)
    lambda text: b"GAME = 3\n",  # not a game
    lambda text: b"raise SystemError('boom')\n",  # raises on import
    lambda text: text.replace("_PYTHON_SOURCES = {", "_PYTHON_SOURCES = {'no_such_function': 'x', ", 1).encode(),
    lambda text: b"\xff\xfe not UTF-8",
])
def test_a_broken_entry_is_checked_again_and_kept_anew(damage, cache, checks):
    checked = _kept("drive_on_metz")
    [entry] = _entries(cache)
    entry.write_bytes(damage(entry.read_text(encoding="utf-8")))
    again = load_game("drive_on_metz")
    assert again == checked and len(checks) == 3
    assert load_game("drive_on_metz") == checked and len(checks) == 3  # mended: kept again at once


def test_keeping_turned_off_writes_nothing(tmp_path, monkeypatch, checks):
    monkeypatch.setenv("RULEC_CACHE_DIR", "off")
    for _ in range(3):
        load_game("drive_on_metz")
    assert len(checks) == 3 and game_cache.directory_in_use() is None


def test_a_directory_that_cannot_be_made_keeps_nothing_and_loads_all_the_same(tmp_path, monkeypatch, checks):
    (tmp_path / "a file").write_text("", encoding="utf-8")
    monkeypatch.setenv("RULEC_CACHE_DIR", str(tmp_path / "a file" / "cache"))
    assert load_game("drive_on_metz") == load_game("drive_on_metz") == load_game("drive_on_metz")
    assert len(checks) == 3 and game_cache.directory_in_use() is None


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() == 0, reason="a directory its user may not write to is "
                    "needed (root may write anywhere)")
def test_a_directory_that_cannot_be_written_keeps_nothing_and_loads_all_the_same(cache, checks):
    cache.mkdir(mode=0o500)
    assert load_game("drive_on_metz") == load_game("drive_on_metz") == load_game("drive_on_metz")
    assert len(checks) == 3 and _entries(cache) == []


def test_a_directory_others_may_write_to_is_not_used(cache, checks):
    cache.mkdir()
    cache.chmod(0o777)  # another user could put code there that loading a game would run
    for _ in range(3):
        load_game("drive_on_metz")
    assert len(checks) == 3 and list(cache.iterdir()) == []
    assert stat.S_IMODE(cache.stat().st_mode) == 0o777  # (not changed behind the user's back)


def test_a_game_with_errors_is_not_kept(cache, tmp_path):
    path = tmp_path / "broken.rulec"
    path.write_text('game broken { title = "Broken" }\nside a { name = "A" }\nunit x { side = nobody }\n',
                    encoding="utf-8")
    for _ in range(3):
        with pytest.raises(DiagnosticError):
            load_game(str(path))
    assert not cache.exists() or list(cache.iterdir()) == []


def test_at_most_most_kept_modules_are_kept_the_least_recently_loaded_dropped(cache, checks, monkeypatch, tmp_path):
    monkeypatch.setattr(game_cache, "MOST_KEPT", 2)
    text = (MADE_UP / "leapfrog.rulec").read_text(encoding="utf-8")
    paths = []
    for i in range(3):
        paths.append(str(tmp_path / f"game{i}.rulec"))
        Path(paths[-1]).write_text(text, encoding="utf-8")
    _kept(paths[0])
    _kept(paths[1])
    past = os.stat(_entries(cache)[0]).st_mtime - 100
    for entry in _entries(cache):
        os.utime(entry, (past, past))
    load_game(paths[0])  # loaded again (kept): now the most recent
    _kept(paths[2])  # a third: game1's module goes
    assert len(_entries(cache)) == 2 and len(checks) == 6
    load_game(paths[0])
    load_game(paths[2])
    assert len(checks) == 6
    load_game(paths[1])
    assert len(checks) == 7


def test_notes_of_games_checked_once_are_bounded_too(cache, monkeypatch, tmp_path):
    monkeypatch.setattr(game_cache, "MOST_KEPT", 2)
    text = (MADE_UP / "leapfrog.rulec").read_text(encoding="utf-8")
    for i in range(4):
        path = tmp_path / f"game{i}.rulec"
        path.write_text(text, encoding="utf-8")
        load_game(str(path))
    assert len(list(cache.iterdir())) == 2 and _entries(cache) == []
