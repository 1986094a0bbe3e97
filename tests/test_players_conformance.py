"""The engine's promises hold in games the AI players play (not only in uniformly random ones),
and a saved game of theirs restores to exactly the same position."""

from __future__ import annotations

from rulec.cli.play_command import start_state
from rulec.engine import new_game
from rulec.engine.conformance import check_game, check_state, snapshot
from rulec.players import GreedyPlayer, RandomPlayer
from rulec.players.match import play_match
from rulec.players.saves import SavedGame, game_hash, history_strings, read_save, restore, write_save

CONFORMANCE_GAMES = 50  # greedy games on top of the thousand random ones in test_engine_conformance.py


def test_random_games_keep_the_engine_promises(metz):
    assert check_game(metz, n_games=CONFORMANCE_GAMES, seed=7) == []


def test_greedy_games_keep_the_invariants_and_save_and_restore_exactly(metz, tmp_path):
    for seed in (0, 1):
        state = new_game(metz, seed=seed)
        problems = []
        play_match(state, [GreedyPlayer(seed), RandomPlayer(seed + 1)][::1 if seed == 0 else -1], seed=seed,
                   on_action=lambda s, a, seat: problems.extend(check_state(s)))
        problems += check_state(state)
        assert problems == [] and state.is_terminal()
        path = tmp_path / f"game{seed}.json"
        write_save(path, SavedGame("drive_on_metz", [], seed, {"us": "greedy", "germany": "random"},
                                   history_strings(state), game_hash(metz)))
        saved, text = read_save(path)
        restored = restore(saved, path, text, start=start_state, game=metz, sides=list(metz.sides),
                           player_kinds=("greedy", "random"))
        assert snapshot(restored) == snapshot(state)
