"""A game's expressions in words for its aids: the game's own names for sides, zones, hexes and units.

    say(game, level.when)  ->  "Red's VP are at least twice Blue's VP"
    controls(red, 0807) reads "Red controls 0807 (Town)" with the map's place names.
"""

from __future__ import annotations

import re

from rulec.aids.environment import humanize
from rulec.aids.function_words import NAME_WORDS
from rulec.aids.words import Wording, expression_tree
from rulec.runtime.model import Expr, Game


def game_wording(game: Game) -> tuple:
    """(names, adjective): how the game's ids read, for rulec.aids.words."""
    table: dict[str, str] = {}
    # Lowest priority first: a later family wins a shared id, as the compiler reads the game's own ids first.
    table.update({t.id: t.name.lower() for t in game.terrain.values()})
    table.update({t.id: t.name.lower() for t in game.unit_types.values()})
    table.update({m.id: m.name.lower() for m in game.markers.values()})
    table.update({t: humanize(t).lower() for t in game.traces})
    table.update({v.id: v.name.lower() if v.name != v.id else humanize(v.id).lower() for v in game.variables.values()})
    table.update({o.id: o.name if o.name != o.id else humanize(o.id).lower() for o in game.options.values()})
    table.update({p.id: humanize(p.name) if p.name == p.id else p.name for p in game.sequence})
    if game.map is not None:
        table.update({zone: humanize(zone) for zone in game.map.zones})
        table.update({str(h): f"{h} ({place})" for h, place in game.map.places.items()})
    table.update({u.id: u.label for u in game.units.values()})
    table.update({s.id: s.name for s in game.sides.values()})
    adjectives = {s.id: s.adjective or s.name for s in game.sides.values()}

    def name(identifier: str) -> str:
        return table.get(identifier) or NAME_WORDS.get(identifier) or humanize(identifier).lower()

    def adjective(identifier: str) -> str:
        return adjectives.get(identifier) or name(identifier)

    return name, adjective


def say(game: Game, expression: Expr) -> str:
    """An expression of the game in words, to stand inside a sentence ("Red wins if <say>")."""
    name, adjective = game_wording(game)
    tree = expression_tree(expression.source)
    return expression.source if tree is None else _possessives(Wording(name, adjective).words(tree))


def _possessives(text: str) -> str:
    """"Rebels's VP" reads "Rebels' VP": a name ending in s takes the apostrophe alone."""
    return re.sub(r"\b([A-Z]\w*s)'s\b", r"\1'", text)
