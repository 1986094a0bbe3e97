"""The balance sheet: a few AI games, their win rates with intervals, and plots as byte-stable SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from rulec.aids.balance import BalanceGame, balance_svg, deciding_awards, play_games, summarise, wilson
from rulec.aids.render import Balance, render_html
from rulec.aids.sheets import victory_sheet
from rulec.cli.main import main
from rulec.pipeline import load_game

pytest.importorskip("matplotlib")
GAMES = 4  # small: the suite stays quick


@pytest.fixture(scope="module")
def game():
    return load_game("drive_on_metz")


@pytest.fixture(scope="module")
def games(game):
    return play_games(game, GAMES, seed=1)


def test_the_games_are_the_seeds_games(game, games):
    assert [g.seed for g in games] == list(range(1, GAMES + 1))
    again = play_games(game, 1, seed=2)[0]
    assert again == games[1]  # one seed, one game
    for played in games:
        # The VP log adds up to the final score, side by side.
        sides = {a.id: a.side for a in game.awards}
        by_side: dict[str, int] = {}
        for source, amount in played.by_award.items():
            side = sides.get(source)
            if side:
                by_side[side] = by_side.get(side, 0) + amount
        for side, total in by_side.items():
            assert total <= played.vp.get(side, 0)  # options and improved counters may add more
        assert 1 <= played.turns <= game.info.turns and played.actions > 0


def test_wilson_interval():
    share, low, high = wilson(0, 10)
    assert (share, low) == (0.0, 0.0) and high == pytest.approx(0.2775, abs=1e-3)
    share, low, high = wilson(5, 10)
    assert (low, high) == pytest.approx((0.2366, 0.7634), abs=1e-3)
    assert wilson(0, 0) == (0.0, 0.0, 1.0)


def test_summary_counts_every_game_once(game, games):
    summary = summarise(game, games)
    assert sum(count for count, *_ in summary.wins.values()) == GAMES
    assert set(summary.wins) == {*game.sides, "draw"}
    assert summary.most_vp == max(v for g in games for v in g.vp.values())


def test_an_award_decides_a_game_when_its_vp_change_the_result(game):
    level = game.victory.levels[-1]  # the lowest level: "Marginal Victory", a lead of 5
    close = BalanceGame(1, "germany", level.name, {"us": 10, "germany": 10 + int(level.at_least)}, 7, 50,
                        {"germany_exit_west": 10, "germany_no_us_east": 0, "us_metz": 5})
    decided = deciding_awards(game, [close])
    assert decided["germany_exit_west"] == 1  # without its 10 VP, Germany would not win
    assert "germany_no_us_east" not in decided  # it gave nothing
    assert decided["us_metz"] == 1  # without it, Germany's lead of 10 is a better level


def test_plots_are_svg_with_four_panels_and_byte_stable(game, games):
    svg = balance_svg(game, games)
    root = ET.fromstring(svg.encode())
    axes = [e for e in root.iter() if e.get("id", "").startswith("axes_")]
    assert len(axes) == 4
    assert balance_svg(game, games) == svg


def test_the_balance_sheet_page_and_a_vp_track_as_long_as_the_games(game, games):
    balance = Balance(summarise(game, games), balance_svg(game, games))
    html = render_html(game, aids=("vp_track",), balance=balance)
    assert 'data-aid="balance"' in html and html.count("<svg") == 1
    for side in game.sides.values():
        assert f"{side.name} wins" in html
    # The track reaches the most VP a side can score, or at least the most any game scored.
    sheet = victory_sheet(game, observed_vp=150)
    assert sheet.most >= 150 and len(sheet.track) == 100 and sheet.wraps


def test_the_vp_track_covers_the_awards_range(game):
    sheet = victory_sheet(game)
    # The Drive on Metz: 1 VP per American unit east of the Moselle each turn alone gives 70.
    assert sheet.most >= 70
    assert len(sheet.track) == 100 and sheet.wraps  # past 99, markers go round with their "+100" side
    assert "+100" in render_html(game, aids=("vp_track",))


def test_cli_writes_the_balance_sheet(tmp_path, capsys):
    assert main(["aids", "drive_on_metz", "--out", str(tmp_path), "--format", "html,svg", "--balance", "2"]) == 0
    written = capsys.readouterr().out.split()
    assert str(tmp_path / "balance.svg") in written
    assert (tmp_path / "balance.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")
    assert 'data-aid="balance"' in (tmp_path / "aids.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("count", ["0", "-3", "10001", "lots", "9" * 5000])
def test_a_bad_number_of_games_is_a_usage_error(count, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["aids", "drive_on_metz", "--balance", count])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert "rulec: error:" in error and "Traceback" not in error and len(error.splitlines()[-1]) < 300
