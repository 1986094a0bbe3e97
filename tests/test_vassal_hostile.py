"""`rulec vassal` on a game whose names are hostile to a zip file and to VASSAL's trait encoding:
a quoted unit id with '../' and '/', a side adjective and name with '/', ';' and '\\'."""

from __future__ import annotations

import zipfile

import pytest

pytest.importorskip("cairosvg", reason="rulec vassal needs cairosvg (pip install -e '.[vassal]')")
pytest.importorskip("PIL", reason="the module's pictures need Pillow")

from rulec.cli.main import main  # noqa: E402
from rulec.vassal.library import pywargame_vassal  # noqa: E402
from rulec.vassal.images import file_name  # noqa: E402

HOSTILE = r"""
game tiny { title = "Tiny" turns = 2 }
side blue { name = "Blue" adjective = "Blue/Green;x\\y" color = "#3355aa" }
side red { name = "Red/Rot;1" color = "#aa3333" }
map { orientation = flat_top  offset = odd_columns_down  numbering = CCRR  columns = 1..4  rows = 1..3
      default_terrain = clear }
terrain clear { move = 1 }
sequence { phase blue_move { side = blue  kind = movement }  phase red_move { side = red  kind = movement } }
unit_type infantry { name = "Infantry"  symbol = infantry }
unit "../../evil" { side = blue  type = infantry  strength = 2  move = 3  setup = 0101 }
unit "/etc/x" { side = red  type = infantry  strength = 2  move = 3  setup = 0202 }
unit "../../evil2" { side = red  type = infantry  strength = 2  move = 3  setup = 0203 }
"""


def test_hostile_ids_and_side_names_make_a_module_with_plain_entries_and_whole_pieces(tmp_path, capsys):
    game_file = tmp_path / "hostile.rulec"
    game_file.write_text(HOSTILE, encoding="utf-8")
    assert main(["check", str(game_file)]) == 0
    out = tmp_path / "hostile.vmod"
    assert main(["vassal", str(game_file), "--out", str(out)]) == 0, capsys.readouterr().err
    names = zipfile.ZipFile(out).namelist()
    assert all(".." not in name and not name.startswith("/") and name.count("/") <= 1 for name in names), names
    assert len([n for n in names if n.startswith("images/") and n != "images/map.png"]) == 3  # none overwrites another
    vassal = pywargame_vassal()
    with vassal.VMod(str(out), "r") as vmod:
        game = vassal.BuildFile(vmod.getBuildFile()).getGame()
    (window,) = game.getPieceWindows(asdict=False)
    slots = window.getAllElements(vassal.PieceSlot, single=False)
    pieces = sorted(str(slot["entryName"]) for slot in slots)
    assert len(pieces) == 3 and all(len(slot.getTraits()) == 3 for slot in slots)  # side, unit, the piece itself


def test_file_names_are_plain_and_kept_apart():
    assert file_name("us_357", ".png") == "us_357.png"
    assert file_name("a/b", ".png") != file_name("a_b", ".png")
    assert "/" not in file_name("../../x", ".png") and ".." not in file_name("../../x", ".png")
