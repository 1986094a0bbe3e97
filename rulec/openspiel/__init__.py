"""Every compiled map game as an OpenSpiel game (extra `openspiel`).

    import pyspiel, rulec.openspiel          # registers rulec_<name> for each map game in games/
    game = pyspiel.load_game("rulec_drive_on_metz(seed=3,command_control=True)")
    rulec.openspiel.register("tests/games/two_fights.rulec")   # any other game file

Parameters: `seed` (the engine's set-up randomness), one boolean per option of the
game, and `max_length` (see game.py). Actions are numbered by rulec.adapters.catalogue;
observations are rulec.adapters.observation's tensors and text.
"""

from rulec.openspiel.game import RulecGame, RulecState, register, register_all, short_name

__all__ = ["RulecGame", "RulecState", "register", "register_all", "short_name"]

register_all()
