"""`game { reconstructed  reconstruction_note }`: a game rebuilt without the published charts says so
wherever a player sees it: the aids (HTML and so PDF, map and counter SVG), `rulec info`, the
`rulec play` banner and the board's data. The Marne says it; Drive on Metz, printed from its own
charts, says nothing."""

from __future__ import annotations

import io
from markupsafe import escape

import pytest

from rulec.aids.counters_svg import render_counters_svg
from rulec.aids.map_svg import render_map_svg
from rulec.aids.render import render_html
from rulec.cli.board_view import GameScreen
from rulec.cli.info_command import info_lines
from rulec.engine import new_game
from rulec.pipeline import check_file, load_game
from rulec.web.view import position_view


@pytest.fixture(scope="module")
def marne():
    return load_game("the_marne")


@pytest.fixture(scope="module")
def metz():
    return load_game("drive_on_metz")


def test_the_notice_names_every_part_and_the_note(marne):
    notice = marne.info.reconstruction_notice
    assert notice.startswith("RECONSTRUCTED: the map, the combat results table, the terrain effects chart, the counters")
    assert "are reconstructions, not the published game's." in notice
    assert notice.endswith(marne.info.reconstruction_note) and "docs/the-marne.md" in notice


def test_a_game_printed_from_its_own_charts_has_none(metz):
    assert metz.info.reconstructed == () and metz.info.reconstruction_notice == ""
    assert not any("RECONSTRUCTED" in line for line in info_lines(metz, "drive_on_metz"))
    html = render_html(metz, aids=("crt",))
    assert '<p class="reconstruction">' not in html and '"reconstructed' not in html


def test_info_and_the_play_banner_say_it(marne):
    assert info_lines(marne, "the_marne")[1] == marne.info.reconstruction_notice
    banner = GameScreen(marne, out=io.StringIO()).title({"germany": "human", "allies": "random"}, (), 1)
    assert banner.splitlines()[1] == marne.info.reconstruction_notice


def test_the_board_data_carries_it(marne):
    view = position_view(new_game(marne), {"germany": "human", "allies": "human"})
    assert view["reconstruction"] == marne.info.reconstruction_notice


def test_the_aids_say_it(marne):
    html = render_html(marne, aids=("crt",))
    assert f'<p class="reconstruction">{escape(marne.info.reconstruction_notice)}</p>' in html
    assert '"reconstructed \\2014  "' in html  # every printed page's footer
    assert 'class="reconstruction"' in render_map_svg(marne) and "RECONSTRUCTED: the map" in render_map_svg(marne)
    assert f"<desc>{escape(marne.info.reconstruction_notice)}</desc>" in render_counters_svg(marne)


def test_any_game_may_say_it_and_a_wrong_part_is_an_error(tmp_path):
    text = 'game tiny {\n  title = "Tiny"\n  reconstructed = [%s]\n  reconstruction_note = "Made up."\n}\nside a { name = "A" }\n'
    good = tmp_path / "tiny.rulec"
    good.write_text(text % "combat_table", encoding="utf-8")
    game = load_game(str(good))
    assert game.info.reconstruction_notice == ("RECONSTRUCTED: the combat results table is a reconstruction, "
                                               "not the published game's. Made up.")
    bad = tmp_path / "bad.rulec"
    bad.write_text(text % "crt", encoding="utf-8")
    diagnostics = check_file(str(bad)).diagnostics
    assert any(d.severity == "error" and "reconstructed" in str(d) for d in diagnostics)
