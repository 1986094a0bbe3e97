"""The one Jinja environment every aid is rendered with.

StrictUndefined: a value the template asks for and the model lacks fails the
build instead of printing blank. Autoescape is on for HTML and SVG alike.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup


def number(value: float, places: int = 2) -> str:
    """A coordinate or measure with a fixed number of decimals and no trailing zeros (byte-stable)."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def signed(value: int | float) -> str:
    """+2, 0, −1 (a true minus sign reads better in print)."""
    if value > 0:
        return f"+{number(value)}"
    if value < 0:
        return f"\u2212{number(-value)}"
    return "0"


def humanize(identifier: str) -> str:
    """A designer's id as words: 'entry_area' -> 'Entry Area'."""
    return identifier.replace("_", " ").title()


def fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value.numerator)


def percent(value: Fraction | float) -> str:
    return f"{float(value) * 100:.0f}%"


def css_string(text: str) -> Markup:
    """A designer's text inside a CSS string ("..."): every character that could end the string, the
    declaration or the <style> element (quotes, backslash, newline, <, >, &, braces, ;) becomes a CSS escape."""
    safe = "".join(c if c.isalnum() or c in " .,:-_'!?()" else f"\\{ord(c):x} " for c in str(text))
    return Markup('"' + safe + '"')


def inline_svg(document: str) -> str:
    """The <svg> element of an SVG document (without its XML declaration and doctype), to embed in HTML."""
    start = document.find("<svg")
    return document[start:] if start >= 0 else ""


@functools.cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("rulec.aids", "templates"),
        undefined=StrictUndefined,
        autoescape=True,  # every template here is HTML or SVG
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(num=number, signed=signed, fraction=fraction, percent=percent, humanize=humanize,
                       css_string=css_string, inline_svg=inline_svg)
    env.globals.update(cos=math.cos, sin=math.sin)
    return env
