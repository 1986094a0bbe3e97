"""The integer action catalogue: every legal action of random games numbers and reads back to itself."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from big_games import STEPS_OF_A_BIG_GAME, is_big

from rulec.adapters.catalogue import ARGUMENTS, CHANCE_KINDS, Catalogue, NotInCatalogue
from rulec.adapters.games import load, map_game_names
from rulec.engine import Action, new_game
from rulec.engine.actions import KINDS, RETREAT
from rulec.engine.scenarios import compatible_options

TEST_GAMES = sorted(str(p) for p in Path("tests/games").glob("*.rulec"))
MAP_GAMES = map_game_names() + TEST_GAMES


def test_every_kind_of_action_has_a_place_in_the_catalogue():
    # A kind added to the engine without a line in ARGUMENTS fails here, not in a learner's run.
    assert set(KINDS) <= set(ARGUMENTS) | set(CHANCE_KINDS)


@pytest.mark.parametrize("name", MAP_GAMES)
def test_every_legal_action_of_random_games_numbers_and_reads_back_to_itself(name):
    game = load(name)
    catalogue = Catalogue(game)
    options = list(game.options)
    seen_kinds = set()
    big = is_big(game)
    for seed in range(1 if big else 4):
        wanted = random.Random(seed).sample(options, len(options) // 2)  # options may exclude each other: a set played together
        state = new_game(game, options=compatible_options(game, wanted), seed=seed)
        rng = random.Random(seed)
        for _ in range(STEPS_OF_A_BIG_GAME if big else 1_000_000):
            if state.is_terminal():
                break
            legal = catalogue.legal(state)
            if state.is_chance_node():
                assert sorted(legal) == list(range(game.info.die))
                for number, action in legal.items():
                    assert catalogue.chance_action(number) == action
            else:
                actions = state.legal_actions()
                assert len(legal) == len(actions), "two legal actions share a number"
                for number, action in legal.items():
                    assert 0 <= number < catalogue.size
                    assert catalogue.decode(number, state) == action
                    seen_kinds.add(action.kind)
            state.apply_action(legal[rng.choice(list(legal))])
    assert seen_kinds  # some player decided something


class _Retreating:
    """A position whose legal actions are retreat paths (the catalogue reads only those)."""

    def __init__(self, paths):
        self.paths = paths

    def legal_actions(self):
        return [Action.retreat(p) for p in self.paths]

    def is_chance_node(self):
        return False


def test_retreat_paths_are_numbered_by_their_end_hex_when_it_tells_them_apart(metz):
    catalogue = Catalogue(metz)
    here = _Retreating([("0405", "0406"), ("0405", "0305")])
    numbers = [catalogue.encode(Action.retreat(p), here) for p in here.paths]
    base = catalogue.offsets[RETREAT]
    assert numbers == [base + catalogue.hexes.index("0406"), base + catalogue.hexes.index("0305")]
    assert [catalogue.decode(n, here).path for n in numbers] == here.paths


def test_retreat_paths_sharing_an_end_hex_are_numbered_by_their_place_among_the_legal_paths(metz):
    catalogue = Catalogue(metz)
    here = _Retreating([("0405", "0406"), ("0305", "0406")])
    numbers = [catalogue.encode(Action.retreat(p), here) for p in here.paths]
    base = catalogue.offsets[RETREAT] + len(catalogue.hexes)
    assert numbers == [base, base + 1]
    assert [catalogue.decode(n, here).path for n in numbers] == here.paths
    with pytest.raises(NotInCatalogue, match="no legal retreat path number 2"):
        catalogue.decode(base + 2, here)


def test_numbers_outside_the_catalogue_are_refused_clearly(metz):
    catalogue = Catalogue(metz)
    with pytest.raises(NotInCatalogue, match=r"0\.\.\d+"):
        catalogue.decode(catalogue.size)
    with pytest.raises(NotInCatalogue, match="is not a unit"):
        catalogue.encode(Action.move("no-such-unit", "0101"))
    with pytest.raises(NotInCatalogue, match="chance outcome"):
        catalogue.encode(Action.roll(3))
    with pytest.raises(NotInCatalogue, match="no map"):
        Catalogue(load("engle_ww2_battle"))


def test_a_new_kind_of_action_slots_in_with_one_line(metz, monkeypatch):
    # What another kind (`deploy UNIT HEX`, say) needs: its line in ARGUMENTS; the other kinds keep their numbers.
    before = Catalogue(metz)
    monkeypatch.setitem(ARGUMENTS, "deploy", ("unit", "hex"))
    after = Catalogue(metz)
    assert after.size == before.size + len(metz.units) * len(metz.map.hexes)
    assert all(after.offsets[k] == before.offsets[k] for k in before.kinds)
    place = Action("deploy", unit=next(iter(metz.units)), hex=metz.map.hexes[-1])
    assert after.decode(after.encode(place)) == place
    with pytest.raises(NotInCatalogue, match="add it to"):
        before.encode(Action("mark", unit=place.unit))


def test_a_placement_is_numbered_by_its_unit_then_by_its_hex_not_by_both():
    game = load("tests/games/free_setup.rulec")
    catalogue = Catalogue(game)
    assert catalogue.sizes["place"] == len(game.units) and catalogue.sizes["place_in"] == len(game.map.hexes)
    state = new_game(game)
    first = catalogue.encode(Action.place("r1"), state)
    assert catalogue.decode(first, state) == Action.place("r1")
    with pytest.raises(NotInCatalogue, match="'place UNIT' comes first"):
        catalogue.decode(catalogue.offsets["place_in"], state)
    state.apply_action(Action.place("r1"))
    second = catalogue.encode(Action.place("r1", "0203"), state)
    assert second == catalogue.offsets["place_in"] + catalogue.hexes.index("0203")
    assert catalogue.decode(second, state) == Action.place("r1", "0203")
