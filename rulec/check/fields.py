"""Small helpers the section builders share: reading list fields, and wording values and counts in messages."""

from __future__ import annotations

from typing import Any

from rulec.check.schema import show


def tuples_of(body: dict, *names: str) -> dict[str, tuple]:
    """The listed fields of `body` that are present, as tuples (model collections are tuples)."""
    return {name: tuple(body[name]) for name in names if isinstance(body.get(name), list)}


def counted(number: int, word: str, plural: str | None = None) -> str:
    """'1 column', '3 columns'."""
    return f"{number} {word if number == 1 else (plural or word + 's')}"


def plain(value: Any) -> str:
    """A value as the designer wrote it, without quotes (for messages that quote it themselves)."""
    if isinstance(value, str):
        return value
    return show(value)
