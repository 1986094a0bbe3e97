"""What the learning-framework adapters (rulec.openspiel, rulec.pettingzoo) share.

    catalogue.py    every action of a compiled map game as an integer, and back
    observation.py  a position as fixed-size tensors and as text, from one player's view
    games.py        the map games in games/ (and any game file) by name, for the adapters

Neither imports a framework, so both adapters (and their tests) build on them alone.
"""
