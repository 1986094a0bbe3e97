from rulec.pipeline import load_game


def test_drive_on_metz_loads():
    game = load_game("drive_on_metz")
    assert len(game.map.hexes) == 99
    assert game.map.neighbours["0807"] == {"n": "0806", "ne": "0907", "se": "0908", "s": "0808", "sw": "0708", "nw": "0707"}
    roads = [k for k, v in game.map.hexside_features.items() if "road" in v]
    rivers = [k for k, v in game.map.hexside_features.items() if "river" in v]
    assert (len(roads), len(rivers)) == (79, 37)
