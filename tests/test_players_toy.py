"""The players on toy games (tests/fake_games.py) that implement the engine's state API."""

from __future__ import annotations

import gc
import io

import pytest

from fake_games import DiceRace, Nim
from rulec.players import GreedyPlayer, HumanPlayer, MCTSPlayer, QuitGame, RandomPlayer
from rulec.players.base import THINKING_COLLECTION_PACE, Thinking
from rulec.players.match import play_match


def _wins(make_state, first, second, games: int) -> list[int]:
    """Wins of seat 0 and seat 1 when `first` sits at 0 and `second` at 1."""
    wins = [0, 0]
    for seed in range(games):
        result = play_match(make_state(), [first(seed), second(seed + 1000)], seed=seed)
        assert result.finished
        returns = result.state.returns()
        if returns[0] > 0:
            wins[0] += 1
        elif returns[1] > 0:
            wins[1] += 1
    return wins


def test_random_player_is_seeded_and_plays_legal_actions():
    def game(seed):
        return play_match(DiceRace(), [RandomPlayer(seed), RandomPlayer(seed + 1)], seed=seed).state.history()

    assert game(5) == game(5)
    assert any(game(5) != game(s) for s in range(6, 10))


def test_greedy_beats_random_at_the_dice_race_from_both_seats():
    as_first = _wins(DiceRace, GreedyPlayer, RandomPlayer, 60)
    as_second = _wins(DiceRace, RandomPlayer, GreedyPlayer, 60)
    assert as_first[0] > as_first[1] and as_second[1] > as_second[0]


def test_mcts_finds_the_winning_nim_move():
    state = Nim(stones=7)  # leaving 4 wins: take 3
    assert MCTSPlayer(seed=1, max_simulations=400).choose(state) == "take 3"


def test_mcts_handles_chance_nodes_and_beats_random():
    wins = _wins(DiceRace, lambda s: MCTSPlayer(s, max_simulations=60), RandomPlayer, 20)
    assert wins[0] > wins[1]


def test_mcts_is_deterministic_for_a_seed():
    def game():
        return play_match(DiceRace(), [MCTSPlayer(3, max_simulations=30), RandomPlayer(4)], seed=2).state.history()

    assert game() == game()


class _WatchedNim(Nim):
    """Nim that notes the cycle collector's threshold whenever its actions are listed (while a player thinks), and
    may fail there."""

    seen: list = []
    fails = False

    def legal_actions(self):
        _WatchedNim.seen.append(gc.get_threshold())
        if _WatchedNim.fails:
            raise RuntimeError("a broken game")
        return super().legal_actions()


@pytest.fixture
def pythons_own_pace():
    """The cycle collector at Python's own pace for the test (a library the suite loaded may have slowed it), then as
    it was."""
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield gc.get_threshold()
    gc.set_threshold(*before)


@pytest.mark.parametrize("make", [lambda: GreedyPlayer(0), lambda: MCTSPlayer(1, max_simulations=20)],
                         ids=["greedy", "mcts"])
def test_an_ai_thinks_with_the_cycle_collector_at_its_thinking_pace_then_puts_it_back(make, pythons_own_pace):
    before = pythons_own_pace
    _WatchedNim.seen, _WatchedNim.fails = [], False
    make().choose(_WatchedNim(stones=7))
    assert _WatchedNim.seen and all(seen[0] == THINKING_COLLECTION_PACE for seen in _WatchedNim.seen)
    assert gc.get_threshold() == before
    _WatchedNim.fails = True
    with pytest.raises(RuntimeError):
        make().choose(_WatchedNim(stones=7))
    assert gc.get_threshold() == before  # put back however the decision ends


def test_a_collector_already_slower_is_left_alone(pythons_own_pace):
    gc.set_threshold(THINKING_COLLECTION_PACE * 10, 10, 10)
    _WatchedNim.seen, _WatchedNim.fails = [], False
    GreedyPlayer(0).choose(_WatchedNim(stones=7))
    assert {seen[0] for seen in _WatchedNim.seen} == {THINKING_COLLECTION_PACE * 10}
    assert gc.get_threshold() == (THINKING_COLLECTION_PACE * 10, 10, 10)


def test_ais_thinking_in_several_threads_put_the_collector_back_when_the_last_ends(pythons_own_pace):
    """The board runs each game's AI in a worker thread: the pace is the thinking one while any of them thinks,
    and Python's own once the last one has ended, whatever order they end in."""
    import threading

    before = pythons_own_pace
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen = {}

    def first():
        with Thinking():
            first_in.set()
            second_in.wait(5)
        first_out.set()

    def second():
        first_in.wait(5)
        with Thinking():
            second_in.set()
            first_out.wait(5)
            seen["after the first ended"] = gc.get_threshold()[0]

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert seen == {"after the first ended": THINKING_COLLECTION_PACE}
    assert gc.get_threshold() == before


def _human(lines: list[str], commands=None):
    feed = iter(lines)
    out = io.StringIO()

    def read_line(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return HumanPlayer(read_line, out, commands), out


def test_human_reprompts_after_bad_orders_and_names_the_rule():
    human, out = _human(["", "fly away", "take 9", "take 2"])
    assert human.choose(Nim(stones=5)) == "take 2"
    text = out.getvalue()
    assert "not an order: 'fly'" in text
    assert "illegal (toy:1): 'take 9' is not allowed now" in text


def test_human_lists_orders_and_picks_by_number():
    human, out = _human(["help", "list", "7", "2"])
    assert human.choose(Nim(stones=5)) == "take 2"
    assert "   1  take 1" in out.getvalue() and "no order numbered 7" in out.getvalue()


def test_human_commands_and_quit():
    seen = []
    human, _ = _human(["units", "save my.json", "quit"], {"units": lambda s, rest: seen.append(("units", rest)),
                                                          "save": lambda s, rest: seen.append(("save", rest))})
    with pytest.raises(QuitGame):
        human.choose(Nim())
    assert seen == [("units", ""), ("save", "my.json")]


def test_human_end_of_input_quits_instead_of_crashing():
    human, _ = _human([])
    with pytest.raises(QuitGame):
        human.choose(Nim())


def test_human_suggests_a_close_order():
    human, out = _human(["tak 2", "take 2"])
    human.choose(Nim(stones=5))
    assert "did you mean 'take 2'?" in out.getvalue()


def test_human_survives_an_engine_error_on_odd_input():
    class Fragile(Nim):
        def parse_action(self, text):
            if text == "take boom":
                raise KeyError(text)
            return super().parse_action(text)

    human, out = _human(["take boom", "take 1"])
    assert human.choose(Fragile(stones=5)) == "take 1"
    assert "could not read 'take boom' (KeyError)" in out.getvalue()


def test_a_simulated_game_is_played_at_the_thinking_pace_then_the_collector_is_put_back(metz, pythons_own_pace,
                                                                                         monkeypatch):
    """`rulec simulate` plays whole games of AIs (random play among them): the collector at the thinking pace for the
    whole game, not only while a greedy or MCTS player decides."""
    from rulec.players import simulation

    seen = []

    def watched(state, players, **options):
        seen.append(gc.get_threshold()[0])
        return play_match(state, players, **options)

    monkeypatch.setattr(simulation, "play_match", watched)
    record = simulation.play_one(metz, (), {"us": "random", "germany": "random"}, seed=3)
    assert seen == [THINKING_COLLECTION_PACE] and record.actions > 0
    assert gc.get_threshold() == pythons_own_pace
