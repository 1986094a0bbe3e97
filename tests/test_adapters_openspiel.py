"""rulec.openspiel: every map game passes OpenSpiel's own random simulation test, and its MCTS bot plays Metz."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from big_games import STEPS_OF_A_BIG_GAME, is_big

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install -e '.[openspiel]')")
import rulec.openspiel  # noqa: E402  (registers the games in games/)
from rulec.adapters.games import load, map_game_names  # noqa: E402

TEST_GAMES = sorted(str(p) for p in Path("tests/games").glob("*.rulec"))


@pytest.mark.parametrize("name", map_game_names())
def test_openspiels_random_simulation_test_passes_on_every_map_game(name):
    if is_big(load(name)):  # the first actions of a game, then truncated (a draw): a whole game costs a minute here
        game = pyspiel.load_game(f"{rulec.openspiel.short_name(name)}(max_length={STEPS_OF_A_BIG_GAME})")
        pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
        return
    game = pyspiel.load_game(rulec.openspiel.short_name(name))
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_openspiels_random_simulation_test_passes_with_options_chosen_and_another_seed():
    options = ",".join(f"{o}=True" for o in ("command_control", "screaming_eagles", "tactical_withdrawal"))
    game = pyspiel.load_game(f"rulec_drive_on_metz({options},seed=7)")
    assert game.new_initial_state().engine.options == ("command_control", "tactical_withdrawal", "screaming_eagles")
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("path", TEST_GAMES)
def test_openspiels_random_simulation_test_passes_on_the_made_up_test_games(path):
    game = pyspiel.load_game(rulec.openspiel.register(path))
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_the_game_type_and_info_describe_a_two_player_game_with_dice():
    game = pyspiel.load_game("rulec_drive_on_metz")
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert set(kind.parameter_specification) >= {"seed", "max_length", "command_control"}
    assert game.num_players() == 2 and game.max_chance_outcomes() == 6
    assert game.num_distinct_actions() == game.catalogue.size


def test_a_battle_is_a_chance_node_with_one_outcome_per_die_face():
    game = pyspiel.load_game(rulec.openspiel.register("tests/games/two_fights.rulec"))
    rng = np.random.RandomState(1)
    state = game.new_initial_state()
    while not state.is_chance_node():  # random play until a battle is resolved
        if state.is_terminal():
            state = game.new_initial_state()
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.chance_outcomes() == [(n, 1 / 6) for n in range(6)]
    assert [state.action_to_string(pyspiel.PlayerId.CHANCE, n) for n in range(6)] == [f"roll {n}" for n in range(1, 7)]


def test_observations_show_where_the_units_stand_and_strings_tell_the_position_and_history():
    game = pyspiel.load_game("rulec_drive_on_metz")
    state = game.new_initial_state()
    layout = game.layout
    chosen = next(a for a in state.legal_actions() if state.action_to_string(a).startswith("move "))  # the unit, then its hex
    chose = state.action_to_string(chosen)
    state.apply_action(chosen)
    first = state.legal_actions()[0]
    text = state.action_to_string(first)
    state.apply_action(first)
    unit, hex_ = text.split()[1], text.split()[2]  # "move UNIT HEX"
    assert chose == f"move {unit}"
    uid = next(u for u in layout.units if state.engine.unit_name(u) == unit)
    tensor = np.array(state.observation_tensor(0)).reshape(-1)
    views = layout.views(tensor)
    assert views["unit_hex"][layout.unit_index[uid], layout.hex_index[hex_]] == 1
    assert views["unit_flags"][layout.unit_index[uid], 0] == 1  # moved
    assert views["player"].tolist() == [1, 0] and views["to_move"][0] == 1
    assert f"{unit}: {hex_}" in state.observation_string(1)
    assert state.information_state_string(0).splitlines() == ["player us", chose, text]
    assert len(state.information_state_tensor(1)) == layout.size


def test_a_state_serialised_mid_game_reads_back_the_same():
    game = pyspiel.load_game("rulec_drive_on_metz(seed=3)")
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    for _ in range(60):
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[rng.randint(6)][0])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    again_game, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(again_game) == str(game)
    assert str(again) == str(state) and again.history() == state.history()
    assert again.legal_actions() == state.legal_actions()


def test_a_game_that_reaches_max_length_ends_as_a_draw():
    game = pyspiel.load_game("rulec_drive_on_metz(max_length=5)")
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert len(state.history()) == 5 and state.returns() == [0.0, 0.0]
    assert not state.engine.is_terminal()


def test_openspiels_mcts_bot_plays_a_whole_game_of_drive_on_metz():
    from open_spiel.python.algorithms import mcts

    from rulec.openspiel.evaluator import HeuristicEvaluator

    game = pyspiel.load_game("rulec_drive_on_metz")
    rng = np.random.RandomState(0)
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=10, evaluator=HeuristicEvaluator(), random_state=rng,
                         solve=False) for _ in range(2)]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=chances)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert state.engine.is_terminal()  # the game's own end, not max_length
    outcome = state.engine.outcome()
    assert state.returns() == ([0.0, 0.0] if outcome.winner is None else
                               [1.0 if side == outcome.winner else -1.0 for side in ("us", "germany")])


def test_only_map_games_are_registered_and_a_missing_file_is_a_diagnostic():
    from rulec.diagnostics import DiagnosticError

    with pytest.raises(ValueError, match="has no map"):
        rulec.openspiel.register("engle_ww2_battle")
    with pytest.raises(DiagnosticError, match="no game file"):
        rulec.openspiel.register("tests/games/no_such_game.rulec")
    assert "rulec_engle_ww2_battle" not in pyspiel.registered_names()


def test_without_openspiel_installed_the_import_says_how_to_install_it(monkeypatch):
    import importlib
    import sys

    monkeypatch.setitem(sys.modules, "pyspiel", None)  # `import pyspiel` now raises ImportError
    monkeypatch.delitem(sys.modules, "rulec.openspiel")
    with pytest.raises(ImportError, match=r"pip install -e '\.\[openspiel\]'"):
        importlib.import_module("rulec.openspiel")


def test_two_game_files_of_the_same_name_are_not_confused(tmp_path):
    other = tmp_path / "two_fights.rulec"
    other.write_text(Path("tests/games/big_battle.rulec").read_text(encoding="utf-8"), encoding="utf-8")
    rulec.openspiel.register("tests/games/two_fights.rulec")
    with pytest.raises(ValueError, match="already the OpenSpiel name of"):
        rulec.openspiel.register(str(other))


def _a_game_with_a_scenario() -> tuple[str, str]:
    from rulec.adapters.games import load, scenarios_of

    for name in sorted(map_game_names() + TEST_GAMES, key=lambda n: is_big(load(n))):  # whole games: a small game first
        if scenarios_of(load(name)):
            return name, scenarios_of(load(name))[0]
    pytest.skip("no map game declares a scenario (the engine has none yet)")


def test_a_scenario_is_a_parameter_and_the_game_starts_at_its_start():
    name, scenario = _a_game_with_a_scenario()
    game = pyspiel.load_game(f"{rulec.openspiel.register(name)}(scenario={scenario})")
    assert game.new_initial_state().engine.scenario == scenario
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
