"""`rulec play`, `rulec replay` and `rulec simulate` on Drive on Metz, through the real CLI."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from rulec.cli.main import main
from rulec.players import saves
from rulec.players.saves import SavedGame, game_hash, write_save
from rulec.engine import new_game
from rulec.players.human import _runs

ANSI = re.compile(r"\x1b\[")


@pytest.fixture(autouse=True)
def _in_a_temporary_folder(tmp_path, monkeypatch):
    """A stopped game autosaves into the current folder: keep that out of the repository."""
    monkeypatch.chdir(tmp_path)


def _play(capsys, monkeypatch, argv: list[str], typed: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    status = main(["play", "drive_on_metz", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_an_ai_game_stopped_after_turns_prints_orders_map_and_result(capsys, monkeypatch):
    status, out, _ = _play(capsys, monkeypatch, ["--player", "us=greedy", "--player", "germany=greedy",
                                                 "--seed", "1", "--turns", "1"])
    assert status == 0
    assert "players: United States (greedy), Germany (greedy); seed 1" in out
    assert "== 7 Sep 1944 (turn 1 of 7) | American Movement Phase | VP: United States 0, Germany 0 ==" in out
    assert re.search(r"^  United States: \S+ enters the map at \d{4} \(\d+ of \d+ MP\)$", out, re.M)
    assert re.search(r"[#~=|/\\]  Gar  [#~=|/\\]", out) and re.search(r"[#~=|/\\]  G1-1 [#~=|/\\]", out)  # the Metz garrison drawn in its hex
    assert "stopped after 1 game turn(s)." in out and "result so far:" in out
    assert not ANSI.search(out)  # not a terminal: no colour


def test_unknown_sides_and_players_get_did_you_mean(capsys, monkeypatch):
    status, _, err = _play(capsys, monkeypatch, ["--player", "usa=greedy", "--player", "germany=gredy"])
    assert status == 2  # a usage error
    assert "the game has no side 'usa'" in err and "did you mean 'us'?" in err
    assert "'gredy' is not a kind of player" in err and "did you mean 'greedy'?" in err


def test_unknown_option_is_refused_with_a_hint(capsys, monkeypatch):
    status, _, err = _play(capsys, monkeypatch, ["--option", "no-such-option"])
    assert status == 2 and "no option or scenario 'no-such-option'" in err


def test_a_bad_order_is_refused_with_its_rule_and_the_game_goes_on(capsys, monkeypatch, metz, tmp_path):
    state = new_game(metz, seed=4)
    legal = state.action_to_string(state.legal_orders()[0])  # a move given at once, both its steps
    unit = legal.split()[1]
    expected = state.explain(f"move {unit} 0911")  # the engine's own reason, rule reference included
    assert expected and "(" in expected
    save = tmp_path / "hot.json"
    typed = f"fly to metz\nmove {unit} 0911\nlist {unit}\n{legal}\nsave {save}\nquit\n"
    status, out, _ = _play(capsys, monkeypatch, ["--seed", "4", "--player", "germany=random"], typed)
    assert status == 0
    assert "not an order: 'fly'" in out
    assert expected in out
    assert f"United States: {unit} enters the map at {legal.split()[-1]}" in out
    saved = json.loads(save.read_text())
    assert saved["history"] == [legal] and saved["players"] == {"us": "human", "germany": "random"}


def test_a_saved_game_loads_and_an_ai_finishes_it(capsys, monkeypatch, tmp_path):
    save = tmp_path / "g.json"
    _play(capsys, monkeypatch, ["--player", "us=random", "--player", "germany=random", "--seed", "2",
                                "--turns", "1", "--save", str(save)])
    first = json.loads(save.read_text())["history"]
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    status = main(["play", "--load", str(save), "--turns", "1", "--save", str(save)])
    out = capsys.readouterr().out
    assert status == 0 and "turn 2 of 7" in out
    second = json.loads(save.read_text())["history"]
    assert second[:len(first)] == first and len(second) > len(first)


def test_a_damaged_save_is_reported_not_lost(capsys, monkeypatch, tmp_path, metz):
    save = tmp_path / "bad.json"
    write_save(save, SavedGame("drive_on_metz", [], 0, {"us": "random"}, ["end", "fly away"], game_hash(metz)))
    text = save.read_text()
    status = main(["play", "--load", str(save)])
    err = capsys.readouterr().err
    assert status == 1 and "history[1] 'fly away': does not parse" in err
    assert save.read_text() == text


def test_human_end_of_input_stops_cleanly_and_autosaves(capsys, monkeypatch, tmp_path):
    status, out, _ = _play(capsys, monkeypatch, ["--player", "germany=random", "--seed", "3"], "list\nend\ny\n")  # y: leave the reinforcements off
    assert status == 0 and "game stopped." in out
    autosave = tmp_path / "rulec-autosave-drive_on_metz-1.json"
    assert "game saved to rulec-autosave-drive_on_metz-1.json; go on with: rulec play --load " in out
    saved = json.loads(autosave.read_text())
    assert saved["seed"] == 3 and saved["history"][0] == "end"
    status = main(["play", "--load", str(autosave), "--player", "germany=random"])  # resumes where it stopped
    assert status == 0 and "Germany: ends the American Movement Phase" not in capsys.readouterr().out


def test_quit_after_save_keeps_that_file_up_to_date(capsys, monkeypatch, tmp_path):
    _play(capsys, monkeypatch, ["--player", "germany=random"], "save mine.json\nend\ny\nquit\n")  # y: confirms the end
    assert json.loads((tmp_path / "mine.json").read_text())["history"] == ["end"]
    assert not list(tmp_path.glob("rulec-autosave-*"))


def test_a_mistyped_order_word_gets_did_you_mean(capsys, monkeypatch):
    _, out, _ = _play(capsys, monkeypatch, ["--player", "germany=random"], "mvoe 357 0101\nlsit\nfoo\nquit\n")
    assert "not an order: 'mvoe'; did you mean 'move 357 0101'?" in out
    assert "not an order: 'lsit'; did you mean 'list'?" in out
    assert "not an order: 'foo'" in out


def test_an_unknown_unit_is_answered_with_the_units_that_have_orders(capsys, monkeypatch):
    _, out, _ = _play(capsys, monkeypatch, ["--player", "germany=random"], "move 359 0101\nmove 999 0101\nquit\n")
    assert "did you mean '358'?" in out or "did you mean '357'?" in out
    assert "units with orders now: " in out


def test_a_bare_list_is_one_line_per_unit_and_list_unit_is_numbered(capsys, monkeypatch):
    _, out, _ = _play(capsys, monkeypatch, ["--player", "germany=random"], "list\nlist 357\n1\nquit\n")
    listing = out.split("us> list\n", 1)[1].split("us> ", 1)[0].splitlines()
    assert len(listing) < 15
    assert any(re.match(r"  357: move( \d{4}(-\d{4})?)+; exit .*; delay$", line) for line in listing)
    assert "   1  move 357 " in out
    assert re.search(r"United States: 357 enters the map at \d{4}", out)


def test_replay_prints_every_action_and_the_same_result(capsys, monkeypatch, tmp_path):
    save = tmp_path / "r.json"
    _, played, _ = _play(capsys, monkeypatch, ["--player", "us=greedy", "--player", "germany=random", "--seed", "5",
                                               "--turns", "1", "--save", str(save)])
    history = json.loads(save.read_text())["history"]
    assert main(["replay", str(save)]) == 0
    out = capsys.readouterr().out
    assert f"end of the saved game ({len(history)} actions)." in out
    assert played.strip().splitlines()[-1] == out.strip().splitlines()[-1]
    # A battle's steps (`attack HEX`, `with UNIT`) are told once, when it is resolved or called off.
    orders = [h for h in history if not h.startswith(("roll", "with ")) and not re.fullmatch(r"attack \d+", h)]
    narrated = re.findall(r"^  (?:United States|Germany): ", out, re.M)
    assert len(narrated) == len(orders)


def test_simulate_does_not_depend_on_the_number_of_jobs(capsys):
    assert main(["simulate", "drive_on_metz", "-n", "4", "--seed", "10", "--jobs", "1", "--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main(["simulate", "drive_on_metz", "-n", "4", "--seed", "10", "--jobs", "2", "--json"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert one == two
    assert one["played"] == 4 and sum(one["wins_total"].values()) + one["draws"] == 4
    assert [entry["seed"] for entry in one["games"]] == [10, 11, 12, 13]
    assert one["players"] == {"us": "greedy", "germany": "greedy"} and one["mean_actions"] > 0  # greedy by default


def test_simulate_prints_a_readable_summary(capsys):
    assert main(["simulate", "drive_on_metz", "-n", "2", "--jobs", "1", "--player", "us=greedy"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 games of The Drive on Metz: United States greedy, Germany greedy")
    assert re.search(r"mean game length: [\d.]+ turns \([\d.]+ actions\)", out) and "VP Germany: min" in out


def test_simulate_refuses_a_human(capsys):
    assert main(["simulate", "drive_on_metz", "-n", "1", "--player", "us=human"]) == 2
    assert "'human' is not a kind of player" in capsys.readouterr().err


def test_replay_step_draws_the_map_after_every_action(capsys, monkeypatch, tmp_path):
    save = tmp_path / "s.json"
    _play(capsys, monkeypatch, ["--player", "us=random", "--player", "germany=random", "--seed", "6",
                                "--turns", "1", "--save", str(save)])
    history = json.loads(save.read_text())["history"]
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["replay", str(save), "--step"]) == 0
    out = capsys.readouterr().out
    # the first hex of every map drawn, or the note that the map is as shown above (it is reprinted only when changed)
    maps = out.count("/0101 ") + out.count("(the map is as shown above")
    # A battle's declaration steps (`attack HEX`, `with UNIT`) are shown with its `resolve` or `cancel`.
    assert maps >= len([h for h in history if not h.startswith(("roll", "with ")) and not re.fullmatch(r"attack \d+", h)])


def test_runs_of_hex_numbers_are_shortened():
    assert _runs("0101 0102 0103 0104 0201 0203 0204 0205 0304".split()) == ["0101-0104", "0201", "0203-0205", "0304"]
    assert _runs(["north", "west"]) == ["north", "west"] and _runs([]) == []


def test_the_map_names_every_unit_under_it(capsys, monkeypatch):
    _, out, _ = _play(capsys, monkeypatch, ["--player", "us=greedy", "--player", "germany=greedy", "--turns", "1"])
    assert re.search(r"[#~=|/\\]  Gar  [#~=|/\\]", out)  # in its hex on the map
    assert re.search(r"^Germany \(G\): \d{4} ", out, re.M) and "0807 Gar (1-1)" in out
    assert re.search(r"^United States \(U\): \d{4} ", out, re.M)  # once the Americans have entered


def test_a_save_file_that_cannot_be_written_is_refused_before_the_game(capsys, monkeypatch, tmp_path):
    status, out, err = _play(capsys, monkeypatch, ["--player", "us=random", "--player", "germany=random",
                                                   "--save", str(tmp_path)])
    assert status == 2 and "it is a folder" in err and "==" not in out


def test_help_shows_the_order_forms_with_examples_legal_now(capsys, monkeypatch):
    _, out, _ = _play(capsys, monkeypatch, ["--player", "germany=random"], "help\nquit\n")
    help_text = out.split("us> help\n", 1)[1]
    assert re.search(r"^  move UNIT HEX +e\.g\. move \S+ \d{4}$", help_text, re.M)
    assert "  end (ends the phase)" in help_text and "attack HEX" not in help_text  # no battles in movement


def test_loading_says_that_the_saved_seed_is_kept(capsys, monkeypatch, tmp_path):
    _play(capsys, monkeypatch, ["--player", "germany=random", "--seed", "7"], "quit\n")
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--load", "rulec-autosave-drive_on_metz-1.json", "--seed", "9"]) == 0
    captured = capsys.readouterr()
    assert "keeps its own seed (7)" in captured.err and "seed 7" in captured.out


def test_a_number_before_any_numbered_list_is_explained(capsys, monkeypatch):
    _, out, _ = _play(capsys, monkeypatch, ["--player", "germany=random"], "3\nlist\n3\nquit\n")
    assert out.count("no numbered orders shown: type `list UNIT`") == 2  # a bare summary numbers nothing


def test_tab_completes_the_next_word_of_a_legal_order(metz):
    from rulec.cli.play_command import _OrderCompletion

    class Line:  # what readline would report for the text typed so far
        buffer = ""

        def get_line_buffer(self):
            return self.buffer

        def get_endidx(self):
            return len(self.buffer)

    completion = _OrderCompletion(["map", "units", "save"])
    completion.readline = line = Line()
    completion.state = new_game(metz, seed=0)

    def words(buffer: str) -> list[str]:
        line.buffer = buffer
        text = buffer.split(" ")[-1]
        found, index = [], 0
        while (word := completion.complete(text, index)) is not None:
            found.append(word)
            index += 1
        return found

    assert words("mo") == ["move "]
    assert words("ma") == ["map "]
    assert words("move CC") == ["CCA ", "CCB ", "CCR "]
    assert words("move CCA 051") == ["0510 ", "0511 "]
    completion.state.apply_action(completion.state.parse_action("move CCA 0510"))
    assert words("move CC") == ["CCB ", "CCR "]  # a unit that has moved is offered no more


@pytest.mark.parametrize("argv", [["play", "engle_ww2_battle"], ["simulate", "engle_ww2_battle", "-n", "1"]])
def test_a_game_without_a_map_is_refused_with_a_pointer_to_battle(capsys, monkeypatch, argv):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "has no map, so it cannot be played turn by turn" in err and "rulec battle engle_ww2_battle" in err


def test_when_the_current_folder_cannot_take_the_autosave_it_goes_to_the_temporary_folder(capsys, monkeypatch, tmp_path):
    elsewhere = tmp_path / "tmp"
    elsewhere.mkdir()
    monkeypatch.setattr("tempfile.gettempdir", lambda: str(elsewhere))
    real_write = saves.write_atomically

    def here_is_read_only(path, text):
        if Path(path).resolve().parent == tmp_path.resolve():
            raise PermissionError(13, "Permission denied")
        real_write(path, text)

    monkeypatch.setattr(saves, "write_atomically", here_is_read_only)
    # `y`: ending the first movement phase leaves due reinforcements off the map, which is confirmed
    _, out, _ = _play(capsys, monkeypatch, ["--player", "germany=random"], "end\ny\nquit\n")
    assert "cannot save the game to 'rulec-autosave-drive_on_metz-1.json'" in out
    assert f"game saved to {elsewhere / 'rulec-autosave-drive_on_metz-1.json'}" in out
    assert json.loads((elsewhere / "rulec-autosave-drive_on_metz-1.json").read_text())["history"] == ["end"]


def test_after_each_order_a_line_says_which_units_still_have_orders(capsys, monkeypatch):
    _, out, _ = _play(capsys, monkeypatch, ["--player", "germany=random"], "move CCA 0510\nquit\n")
    after = out.split("CCA enters the map at 0510 (9 of 10 MP)\n", 1)[1].splitlines()[0]
    assert after.startswith("  units with orders left: 357 358 ") and "CCA" not in after


def test_units_lists_every_unit_with_where_it_is_or_when_it_comes(capsys, monkeypatch):
    _, out, _ = _play(capsys, monkeypatch, ["--player", "germany=random"], "units\nquit\n")
    listing = out.split("us> units\n", 1)[1]
    assert re.search(r"^ +357 +\S+ +4-4  may enter this turn$", listing, re.M)
    assert re.search(r"^ +106 +\S+ +1-8  to arrive turn 2$", listing, re.M)
    assert re.search(r"^ +Gar +\S+ +1-1  0807$", listing, re.M)


def test_a_finished_game_saved_points_at_replay(capsys, monkeypatch, tmp_path):
    _, out, _ = _play(capsys, monkeypatch, ["--player", "us=greedy", "--player", "germany=random", "--seed", "1",
                                            "--save", "done.json"])
    assert "game saved to done.json; see it again with: rulec replay done.json" in out
    assert out.splitlines()[-1].startswith("game over: ")


def test_simulate_interrupted_summarises_the_games_played(capsys, monkeypatch):
    def progress_that_is_interrupted(total):
        def show(done):
            if done == 2:
                raise KeyboardInterrupt  # as Ctrl-C would, in the middle of the run
        return show

    monkeypatch.setattr("rulec.cli.simulate_command._progress_bar", progress_that_is_interrupted)
    assert main(["simulate", "drive_on_metz", "-n", "5", "--jobs", "1"]) == 130
    captured = capsys.readouterr()
    assert "interrupted after 2 of 5 games" in captured.err
    assert captured.out.startswith("2 games of The Drive on Metz")


def _typed(lines):
    queue = list(lines)

    def read_line(prompt):
        if not queue:
            raise EOFError
        return queue.pop(0)
    return read_line


def test_a_human_attacks_in_one_line_or_step_by_step(metz):
    from rulec.engine import Action
    from rulec.players.human import HumanPlayer

    out = io.StringIO()
    place = {"us_357": "0305", "us_358": "0406", "de_1010": "0405"}
    # One line, the attackers in any order and with commas: the steps it stands for, one per decision.
    state = new_game(metz).arrange(place, turn=2, phase="us_combat")
    human = HumanPlayer(read_line=_typed(["attack 0405 with 358, 357"]), out=out)
    steps = []
    while not state.is_chance_node():
        steps.append(human.choose(state))
        state.apply_action(steps[-1])
    assert steps == [Action.attack("0405"), Action.with_unit("us_357"), Action.with_unit("us_358"), Action.resolve()]
    # Step by step, with a refused order on the way (357 is not next to 0404).
    state = new_game(metz).arrange({**place, "de_1126": "0506"}, turn=2, phase="us_combat")
    human = HumanPlayer(read_line=_typed(["attack 0506", "with 357", "with 358", "resolve"]), out=out)
    for _ in range(3):
        state.apply_action(human.choose(state))
    assert "357 is not adjacent to 0506" in out.getvalue()
    assert state.is_chance_node() and state.battle.battle.attackers == ("us_358",)


def test_a_simulated_game_is_played_again_by_the_command_the_summary_gives(capsys, tmp_path):
    assert main(["simulate", "drive_on_metz", "-n", "2", "--seed", "3", "--jobs", "1", "--player", "us=random", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["mean_turns"] == sum(g["turns"] for g in report["games"]) / 2
    second = report["games"][1]
    argv = report["replay"].format(seed=second["seed"]).split()[1:]
    assert argv[:2] == ["play", "drive_on_metz"] and "--player" in argv and "us=random" in argv
    assert main([*argv, "--save", str(tmp_path / "again.json")]) == 0
    out = capsys.readouterr().out
    vp = second["vp"]
    assert f"(VP United States {vp['us']}, Germany {vp['germany']};" in out.splitlines()[-1]
    assert len(json.loads((tmp_path / "again.json").read_text())["history"]) > 0


def test_a_move_in_two_steps_lists_the_units_hexes_and_cancel_puts_it_back(capsys, monkeypatch, tmp_path):
    save = tmp_path / "two.json"
    typed = f"move 357\nlist\ncancel\nmove 357\nmove 357 0101\nsave {save}\nquit\n"
    status, out, _ = _play(capsys, monkeypatch, ["--seed", "1", "--player", "germany=random"], typed)
    assert status == 0
    assert "United States: 357 is chosen to move onto the map" in out
    assert "   1  move 357 0101" in out and "cancel" in out  # the second step: its hexes, edges and cancel
    assert "United States: 357 is put back: another unit may be chosen" in out
    assert "United States: 357 enters the map at 0101" in out
    assert json.loads(save.read_text())["history"] == ["move 357", "cancel", "move 357", "move 357 0101"]


def _without_a_last_turn(tmp_path: Path) -> Path:
    """A map game with no last turn whose one sudden death never comes true (no award gives Blue a VP): the checker
    cannot tell, and its games went on for ever."""
    text = (Path(__file__).parent / "bad_games" / "no-end.rulec").read_text(encoding="utf-8")
    path = tmp_path / "endless.rulec"
    path.write_text(text + "victory { sudden_death rich { when = vp(blue) > 5  winner = blue } }\n", encoding="utf-8")
    return path


def test_an_ai_game_with_no_last_turn_stops_after_a_thousand_turns_saved(capsys, monkeypatch, tmp_path):
    from rulec.players.match import MOST_TURNS_WITHOUT_A_LAST_TURN
    monkeypatch.chdir(tmp_path)
    path = _without_a_last_turn(tmp_path)
    assert main(["play", str(path), "--player", "blue=random", "--player", "red=random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert f"stopped after {MOST_TURNS_WITHOUT_A_LAST_TURN:,} game turns: the game has no last turn" in out
    assert "result so far: Draw" in out
    saved = json.loads((tmp_path / "rulec-autosave-endless-1.json").read_text(encoding="utf-8"))
    assert saved["game"] and len(saved["history"]) >= 2 * MOST_TURNS_WITHOUT_A_LAST_TURN  # (resumable, nothing lost)
    # --turns beyond the bound stops at the bound, and says so; within it, as asked
    more = MOST_TURNS_WITHOUT_A_LAST_TURN + 500
    assert main(["play", str(path), "--player", "blue=random", "--player", "red=random", "--turns", str(more)]) == 0
    assert f"stopped after {MOST_TURNS_WITHOUT_A_LAST_TURN:,} game turns: the game has no last turn" in capsys.readouterr().out
    assert main(["play", str(path), "--player", "blue=random", "--player", "red=random", "--turns", "3"]) == 0
    assert "stopped after 3 game turn(s)." in capsys.readouterr().out


def test_simulate_counts_the_games_with_no_last_turn_it_stopped(capsys, tmp_path):
    from rulec.players.match import MOST_TURNS_WITHOUT_A_LAST_TURN
    path = _without_a_last_turn(tmp_path)
    assert main(["simulate", str(path), "-n", "2", "--jobs", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["unfinished"] == 2 and [g["finished"] for g in report["games"]] == [False, False]
    assert all(g["turns"] == MOST_TURNS_WITHOUT_A_LAST_TURN + 1 for g in report["games"])  # (the turn it stopped at)
    assert main(["simulate", str(path), "-n", "1", "--jobs", "1"]) == 0
    assert f"unfinished 1: stopped after {MOST_TURNS_WITHOUT_A_LAST_TURN:,} turns" in capsys.readouterr().out
    assert main(["simulate", "drive_on_metz", "-n", "1", "--jobs", "1", "--json"]) == 0  # a game with a last turn
    report = json.loads(capsys.readouterr().out)
    assert report["unfinished"] == 0 and report["games"][0]["finished"] is True
