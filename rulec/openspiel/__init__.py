"""Every compiled map game as an OpenSpiel game (extra `openspiel`).

    import pyspiel, rulec.openspiel          # registers rulec_NAME for each map game NAME in games/
    game = pyspiel.load_game("rulec_NAME(seed=3,OPTION=True)")
    rulec.openspiel.register("tests/games/two_fights.rulec")   # any other game file

Parameters: `seed` (the engine's set-up randomness), one boolean per option of the
game, `max_length` (see game.py), and `scenario` in a game that declares scenarios. Actions are numbered by rulec.adapters.catalogue;
observations are rulec.adapters.observation's tensors and text. A serialised state is
read back in a process that has registered the same game (import this module; `register`
a game file from elsewhere).
"""

try:
    import pyspiel  # noqa: F401
except ImportError as error:  # the extra is not installed: say how to install it
    raise ImportError("rulec.openspiel needs OpenSpiel: pip install -e '.[openspiel]'") from error

from rulec.openspiel.game import RulecGame, RulecState, register, register_all, short_name  # noqa: E402

__all__ = ["RulecGame", "RulecState", "register", "register_all", "short_name"]

register_all()
