"""Argument types shared by the sub-commands: numbers within bounds, told in one line.

argparse turns the ValueError of `int("9" * 5000)` into a message quoting the whole
argument; these types quote at most its start, and refuse values outside what the
command can use (a negative count, a seed beyond any use) before anything runs.
"""

from __future__ import annotations

import argparse
from typing import Callable

from rulec.diagnostics import printable

LARGEST = 10**9  # counts, seeds and turns: a larger number is a typo


def shown(text: str, width: int = 24) -> str:
    """An argument as quoted in an error: printable, and cut when long."""
    text = printable(text)
    return text if len(text) <= width else text[:width] + f"... ({len(text)} characters)"


def bounded_int(name: str, low: int, high: int = LARGEST) -> Callable[[str], int]:
    """An argparse `type` for whole numbers from `low` to `high`."""

    def parse(text: str) -> int:
        stripped = text.strip()
        digits = stripped.lstrip("+-")
        if not digits.isascii() or not digits.isdigit() or len(digits) > len(str(high)) + 1:
            if digits.isascii() and digits.isdigit():
                raise argparse.ArgumentTypeError(f"{shown(text)} is too large (at most {high:,})")
            raise argparse.ArgumentTypeError(f"expected a whole number, found '{shown(text)}'")
        value = int(stripped)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, found {shown(text)}")
        if value > high:
            raise argparse.ArgumentTypeError(f"{shown(text)} is too large (at most {high:,})")
        return value

    parse.__name__ = name  # argparse names the type in its messages
    return parse
