"""Pieces of the small games tests write out in full: the rules such a game needs but none of its tests is about."""

from pathlib import Path

from rulec.pipeline import load_game


def loaded(folder: Path, name: str, text: str):
    """The game `text` (a whole game file) written to `folder`/NAME.rulec and loaded, as a game file is."""
    path = folder / f"{name}.rulec"
    path.write_text(text, encoding="utf-8")
    return load_game(str(path))


# A combat table where nothing happens, and a turn of two movement phases, red's then blue's: the end of a game whose
# tests are about movement alone.
MOVEMENT_ONLY = """
crt main { kind = differential  columns = [..0, 1..]  rows { 1 = [NE, NE]  2 = [NE, NE]  3 = [NE, NE]  4 = [NE, NE]  5 = [NE, NE]  6 = [NE, NE] } }
result NE { name = "No Effect" }
combat { table = main }
sequence {
  phase red_move  { side = red   kind = movement }
  phase blue_move { side = blue  kind = movement }
}
"""


# r_mover's one way on is 0201 (0102 is marsh, too costly for its 1 MP); stacking 1 lets one unit stand there.
ONE_WAY_ON = """
game one_way_on { title = "One way on"  turns = 1 }
side red  { name = "Red" }
side blue { name = "Blue" }
map { columns = 1..4  rows = 1..4  default_terrain = clear  features { marsh = [0102, 0202] } }
terrain clear { move = 1 }
terrain marsh { move = 9 }
unit_type infantry { name = "Infantry" }
unit r_mover  { side = red   type = infantry  strength = 1  move = 1  setup = 0101 }
unit r_filler { side = red   type = infantry  strength = 1  move = 3  setup = 0303 }
unit r_other  { side = red   type = infantry  strength = 1  move = 3  setup = 0304 }
unit b_far    { side = blue  type = infantry  strength = 1  move = 1  setup = 0404 }
movement { zoc = none }
stacking { limit = 1 }
""" + MOVEMENT_ONLY
