"""The decision stack's frames are replaced through their `with_...` methods (frames.py): each gives what
dataclasses.replace gives with the fields it names, every other field copied, on every frame class. And the
engine's dataclasses made many times a game have a hand-written __init__ (native once compiled): each sets every
field from its argument, or to the field's default, as the decorator's own would."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import random

import pytest
from big_games import STEPS_OF_A_BIG_GAME

import rulec.engine
from rulec.engine import frames, new_game
from rulec.pipeline import load_game

FRAME_CLASSES = [cls for cls in vars(frames).values()
                 if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == frames.__name__]
METHODS = [(cls, name) for cls in FRAME_CLASSES for name, _ in inspect.getmembers(cls, inspect.isfunction)
           if name.startswith("with_")]


def test_the_frames_that_change_have_their_methods():
    named = {(cls.__name__, name) for cls, name in METHODS}
    for expected in [("Declare", "with_attackers"), ("Declare", "with_targets"), ("Declared", "with_battles"),
                     ("Effects", "with_effects"), ("Effects", "with_vacated"), ("Effects", "with_fates"),
                     ("Retreat", "with_paths"), ("Loss", "with_owed"), ("Advance", "with_hexes"),
                     ("Advance", "with_units")]:
        assert expected in named


@pytest.mark.parametrize("cls, name", METHODS, ids=[f"{cls.__name__}.{name}" for cls, name in METHODS])
def test_a_with_method_changes_the_fields_it_names_and_copies_the_others(cls, name):
    fields = [field.name for field in dataclasses.fields(cls)]
    # a value of its own in every field (none a default), and new ones for the fields the method names
    frame = cls(*[f"<{field}>" for field in fields])
    changed = [p for p in inspect.signature(getattr(cls, name)).parameters if p != "self"]
    assert changed and set(changed) <= set(fields)
    new_values = {field: f"<new {field}>" for field in changed}
    assert getattr(frame, name)(**new_values) == dataclasses.replace(frame, **new_values)


def _engine_dataclasses() -> list[type]:
    """Every dataclass defined in a module of rulec/engine."""
    found = []
    for info in pkgutil.iter_modules(rulec.engine.__path__):
        module = importlib.import_module(f"rulec.engine.{info.name}")
        found += [cls for cls in vars(module).values()
                  if isinstance(cls, type) and cls.__module__ == module.__name__ and dataclasses.is_dataclass(cls)]
    return found


OWN_INIT = [cls for cls in _engine_dataclasses() if not cls.__dataclass_params__.init]


def test_the_dataclasses_made_in_play_have_their_own_init():
    names = {cls.__name__ for cls in OWN_INIT}
    assert {"Battle", "Declare", "Effects", "Retreat", "Moving", "Odds", "BattleReport", "Leave",
            "EntryCost", "_Kept"} <= names
    assert all(cls.__name__ in names for cls in FRAME_CLASSES)


@pytest.mark.parametrize("cls", OWN_INIT, ids=[cls.__name__ for cls in OWN_INIT])
def test_an_own_init_sets_every_field_as_the_generated_one_would(cls):
    fields = dataclasses.fields(cls)
    given = [f"<{field.name}>" for field in fields]
    made = cls(*given)
    assert [getattr(made, field.name) for field in fields] == given
    assert cls(**{field.name: value for field, value in zip(fields, given)}) == made
    required = [field for field in fields if field.default is dataclasses.MISSING
                and field.default_factory is dataclasses.MISSING]
    bare = cls(*[f"<{field.name}>" for field in required])
    for field in fields[len(required):]:
        expected = field.default if field.default is not dataclasses.MISSING else field.default_factory()
        assert getattr(bare, field.name) == expected, field.name
    assert list(inspect.signature(cls.__init__).parameters)[1:] == [field.name for field in fields]


def test_no_dataclass_the_engine_makes_again_and_again_has_the_generated_init(monkeypatch):
    """Compiled, a dataclass's generated __init__ runs interpreted: a class the engine makes many times a game has its
    own. Counted over random games of both big and small games (a whole Drive on Metz, the first actions of The Marne
    with a battle or two): a dataclass of the engine with the generated __init__ is made a few times a game at most."""
    made: dict[str, int] = {}
    for cls in _engine_dataclasses():
        if cls.__dataclass_params__.init:

            def counting(self, *args, _init=cls.__init__, _name=cls.__qualname__, **kwargs):
                made[_name] = made.get(_name, 0) + 1
                _init(self, *args, **kwargs)

            monkeypatch.setattr(cls, "__init__", counting)
    for name, steps in (("drive_on_metz", 10_000), ("the_marne", STEPS_OF_A_BIG_GAME)):
        state = new_game(load_game(name), seed=3)
        rng = random.Random(3)
        for _ in range(steps):
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply_action(state.sample_legal_action(rng))
    often = {name: count for name, count in made.items() if count > 12}
    assert not often, f"made in play with the dataclass's generated __init__: {often}"
