"""The decision stack's frames are replaced through their `with_...` methods (frames.py): each gives what
dataclasses.replace gives with the fields it names, every other field copied, on every frame class."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from rulec.engine import frames

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
