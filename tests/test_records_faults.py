"""Save and history rules that no other test pinned, each found by planting a fault that the rest of the suite let
through: in rulec/players/saves.py (what a save holds, which files a save may replace, how a replay is checked and
what it reports) and in rulec/engine/history.py (the stamps kept of what units did and of the hexes entered, the
player-turns and turns the scopes of play read). The save tests write and read saves through rulec.players.saves
(a toy game of tests/fake_games.py, or a made-up game of tests/games/ started with new_game); the history tests play
tests/games/history.rulec, or a variant of it, and ask the expressions a game file would (tests/game_expressions.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fake_games import DiceRace, Nim
from game_expressions import evaluate
from game_variants import variant
from history_play import end_until, red_attacks_b1

from rulec.diagnostics import DiagnosticError
from rulec.engine import EngineContext, new_game
from rulec.pipeline import load_game
from rulec.players import PLAYER_KINDS
from rulec.players.match import ChanceDice
from rulec.players.saves import SavedGame, game_hash, read_save, restore, save_target_problem, write_save

GAMES = Path(__file__).parent / "games"


class _ToyModel:
    options: dict = {}


def _toy_save(path, history, start=None, **restore_args):
    """Write a save of a toy game (Nim unless `start` says otherwise) and restore it."""
    write_save(path, SavedGame("toy", [], 3, {"red": "human"}, history, game_hash(_ToyModel())))
    saved, text = read_save(path)
    return restore(saved, path, text, start=start or (lambda game, options=(), seed=0: Nim(stones=10, seed=seed)),
                   game=_ToyModel(), sides=["red", "blue"], player_kinds=PLAYER_KINDS, **restore_args)


# ------------------------------------------------------------ what a save holds, and which files it replaces
@pytest.fixture(scope="module")
def campaign():
    return load_game(str(GAMES / "campaign_scenarios.rulec"))


def _restore_game(path, game):
    saved, text = read_save(path)
    return restore(saved, path, text, start=new_game, game=game, sides=list(game.sides), player_kinds=PLAYER_KINDS)


def test_a_save_of_a_scenario_loads_back_in_that_scenario(tmp_path, campaign):
    """SavedGame.scenario is written to the file: a game of campaign_scenarios' `march` (red marching on from the
    west, from turn 2) is restored in `march`, not in the full game."""
    path = tmp_path / "march.json"
    write_save(path, SavedGame(str(GAMES / "campaign_scenarios.rulec"), [], 0, {}, [], game_hash(campaign),
                               scenario="march"))
    assert json.loads(path.read_text())["scenario"] == "march"
    state = _restore_game(path, campaign)
    assert state.scenario == "march"
    assert state.turn == new_game(campaign, scenario="march").turn != new_game(campaign).turn


def test_a_save_whose_start_fails_is_a_bad_save_setup_diagnostic(tmp_path, campaign):
    """A start that raises ValueError (here a scenario the game does not have) is reported as `bad-save-setup`,
    never a traceback."""
    path = tmp_path / "nowhere.json"
    write_save(path, SavedGame(str(GAMES / "campaign_scenarios.rulec"), [], 0, {}, [], game_hash(campaign),
                               scenario="nowhere"))
    with pytest.raises(DiagnosticError) as error:
        _restore_game(path, campaign)
    diagnostic = error.value.diagnostics[0]
    assert diagnostic.code == "bad-save-setup" and "cannot start the saved game" in diagnostic.message


def test_an_existing_empty_file_may_be_saved_over(tmp_path):
    """An empty file (a `touch`, a file an editor left empty) holds nothing to lose: a save may replace it."""
    path = tmp_path / "empty.json"
    path.write_bytes(b"")
    assert save_target_problem(path) is None
    write_save(path, SavedGame("toy", [], 1, {}, ["take 1"], game_hash(_ToyModel())))
    assert read_save(path)[0].history == ["take 1"]


@pytest.mark.parametrize("text", ['{"name": "settings", "format": "other"}', '{"players": {"red": "human"}}', "{}"])
def test_a_json_object_that_is_not_a_rulec_save_is_not_replaced(tmp_path, text):
    """Only JSON whose `format` is "rulec-save" is taken for a save: any other JSON object (a settings file...)
    is refused as a save's target, and kept, unless forced."""
    path = tmp_path / "other.json"
    path.write_text(text)
    assert "is not a rulec saved game" in save_target_problem(path)
    with pytest.raises(DiagnosticError) as error:
        write_save(path, SavedGame("toy", [], 1, {}, [], game_hash(_ToyModel())))
    assert error.value.diagnostics[0].code == "save-refused" and path.read_text() == text
    assert save_target_problem(path, force=True) is None


def test_a_save_rewritten_with_its_keys_in_another_order_is_still_a_save(tmp_path):
    """The rule's other half: JSON whose `format` is "rulec-save", though it does not start with it, may be replaced."""
    path = tmp_path / "save.json"
    path.write_text(json.dumps({"history": [], "format": "rulec-save"}))
    assert save_target_problem(path) is None


# ------------------------------------------------------------ how a replay is checked, and what it reports
def test_restore_refuses_dice_that_have_already_rolled(tmp_path):
    """The dice handed to restore must be fresh: dice that drew before would replay the history with other
    rolls (and leave the game rolling other dice after); restore refuses them outright."""
    def race(game, options=(), seed=0):
        return DiceRace(goal=40, seed=seed)

    with pytest.raises(ValueError, match="drawn nothing yet"):
        _toy_save(tmp_path / "race.json", ["walk"], start=race, dice=ChanceDice(3, drawn=2))
    state = _toy_save(tmp_path / "race2.json", ["walk"], start=race, dice=ChanceDice(3))
    assert state.history() == ["walk"]


def test_an_action_that_does_not_parse_is_reported_as_such_not_as_illegal(tmp_path):
    """A history line the game cannot read is `does not parse`; `illegal (RULE)` is kept for a legal-looking action
    the rules forbid (tests/test_saves.py pins that one)."""
    with pytest.raises(DiagnosticError) as error:
        _toy_save(tmp_path / "garbled.json", ["take 1", "frobnicate 12"])
    message = error.value.diagnostics[0].message
    assert message.startswith("history[1] 'frobnicate 12': does not parse") and "illegal" not in message


def test_a_real_games_unreadable_order_does_not_parse(tmp_path):
    """The same through a game file: an order naming a hex the map does not have."""
    game = load_game(str(GAMES / "history.rulec"))
    path = tmp_path / "history.json"
    write_save(path, SavedGame(str(GAMES / "history.rulec"), [], 0, {}, ["move r1 9999"], game_hash(game)))
    with pytest.raises(DiagnosticError) as error:
        _restore_game(path, game)
    assert "history[0] 'move r1 9999': does not parse" in error.value.diagnostics[0].message


# ------------------------------------------------------------ the history's stamps and scopes (history.py)
@pytest.fixture(scope="module")
def history_game():
    return load_game(str(GAMES / "history.rulec"))


def ask(game, state, source):
    return evaluate(game, EngineContext(state), source)


def move_somewhere(state, uid):
    state.apply_action(next(a for a in state.moves_of(uid) if a.kind == "move"))


def test_a_move_in_the_first_phase_of_last_turn_is_still_known(history_game):
    """r1 moves in red_move, the first phase of every turn, in turns 1, 2 and 3: in turn 3 its move of turn 2
    (stamped with the serial the previous turn began at) is still there for `previous_turn`, though its move of
    turn 1, older than any scope reaches, is dropped as the turn-3 move is stamped."""
    state = new_game(history_game)
    for turn in (1, 2, 3):
        end_until(state, "red_move", turn)
        move_somewhere(state, "r1")
    end_until(state, "red_fight", 3)
    assert ask(history_game, state, "moved(r1, previous_turn)") is True
    assert ask(history_game, state, "moved(r1, this_turn)") is True
    assert ask(history_game, state, "moved(r2, previous_turn)") is False


def test_a_retreat_makes_its_side_the_last_to_enter_the_hex(history_game):
    """A hex entered by a retreat (not a move) records the side of the unit that entered it: blue, for the hex
    b1 retreated into; the hex it left keeps no side (no unit ended a move there since the start)."""
    state = new_game(history_game)
    red_attacks_b1(state)
    retreated_to = state.pos["b1"]
    assert retreated_to != "0302"
    assert ask(history_game, state, f"last_to_enter({retreated_to})") == "blue"
    assert ask(history_game, state, f"entered({retreated_to}, this_phase)") is True


def test_a_phase_without_a_side_does_not_start_a_player_turn(tmp_path):
    """A sideless phase (a tally, kind = end_of_turn) between red_move and red's scoring: red's player-turn goes on
    through it, so red_score still sees r2's move of red_move in `this_player_turn` and scores it; and in blue's
    player-turn, `previous_player_turn` is red's whole run of phases, the tally with it."""
    game = variant(tmp_path, "history",
                   ("phase red_score  { side = red   kind = victory_points }",
                    "phase tally { kind = end_of_turn }\n  phase red_score  { side = red   kind = victory_points }"),
                   ("award routed ", "award moved_now { side = red  when = phase(red_score)\n"
                    "  amount = 100 * count(u in units(side = red) where moved(u, this_player_turn)) }\naward routed "))
    state = new_game(game)
    move_somewhere(state, "r2")
    end_until(state, "blue_move")
    assert {e.source: e.amount for e in state.vp_log if e.side == "red"} == {"moved_now": 100}
    assert ask(game, state, "moved(r2, previous_player_turn)") is True


# ------------------------------------------------------------ previous(PHASE) of a phase that is passed over
def test_previous_names_the_last_phase_of_its_id_even_when_it_was_passed_over(tmp_path):
    """red_fight comes up in turn 1 alone (`when = turn == 1`); a phase passed over still begins and ends
    (phases.py), so `previous(red_fight)` names the last red_fight that ended: turn 1's until turn 2's is passed
    over, then that one, in which nothing was done. So previous(K) never reaches back before the previous turn, and
    the stamps history.py drops (older than that) are never the ones it asks about: r1's attack of turn 1 is still
    stamped in turn 3, yet no scope there reaches it."""
    game = variant(tmp_path, "history", ("phase red_fight  { side = red   kind = combat }",
                                         "phase red_fight  { side = red   kind = combat  when = turn == 1 }"))
    state = new_game(game)
    red_attacks_b1(state)
    end_until(state, "blue_move", 1)
    assert ask(game, state, "attacked(r1, previous(red_fight))") is True
    end_until(state, "red_move", 2)
    assert ask(game, state, "attacked(r1, previous(red_fight))") is True  # turn 2's red_fight is still to come
    for turn in (2, 3):
        end_until(state, "blue_move", turn)
        assert ask(game, state, "attacked(r1, previous(red_fight))") is False
        assert ask(game, state, "attacked(r1, previous_turn)") is (turn == 2)


def test_an_order_read_but_refused_without_a_rule_is_reported_as_illegal(tmp_path):
    """An order the rules refuse without citing a case of the game (an attack in a movement phase) was read: it is
    illegal, not an order that "does not parse"."""
    game = load_game(str(GAMES / "history.rulec"))
    path = tmp_path / "history.json"
    write_save(path, SavedGame(str(GAMES / "history.rulec"), [], 0, {}, ["attack 0302 with r1"], game_hash(game)))
    with pytest.raises(DiagnosticError) as error:
        _restore_game(path, game)
    message = error.value.diagnostics[0].message
    assert "history[0] 'attack 0302 with r1': illegal: " in message and "combat phase" in message
    assert "does not parse" not in message
