"""VASSAL modules of map games (`rulec vassal GAME --out FILE.vmod`), built with pywargame.

    images.py  the map and the counters as PNGs, from the player aids' SVG
    grid.py    VASSAL's hex grid and numbering that match the game's hex ids
    module.py  the module: map board, pieces, set-up, reinforcements, turn track, charts
"""
