"""Render every player aid of a game to HTML, SVG and PDF.

    files = write_aids(game, Path("generated/aids/NAME"), formats={"html", "svg", "pdf"}, paper="a4")

The HTML holds every aid (the SVG map and counter sheet embedded), with CSS
@page rules for the chosen paper; the map gets a page the size of the
original sheet. The same HTML is what WeasyPrint turns into the PDF.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rulec.aids import battle_sheets, sheets
from rulec.aids.counters_svg import render_counters_svg
from rulec.aids.environment import environment
from rulec.aids.map_svg import draw as draw_map, render_map_svg
from rulec.aids.pdf import render_pdf
from rulec.aids.tec import terrain_chart
from rulec.runtime.model import Game

FORMATS = ("html", "svg", "pdf")
MAP_GAME_AIDS = ("crt", "tec", "sequence", "turns", "victory", "oob", "options", "counters", "map")
BATTLE_AIDS = ("battle",)


@dataclass(frozen=True)
class Paper:
    name: str
    css: str  # the CSS @page size
    margin: str


PAPERS = {
    "a4": Paper("a4", "A4", "12mm"),
    "letter": Paper("letter", "letter", "0.5in"),
}


def aid_names(game: Game) -> tuple[str, ...]:
    """The aids a game has: a map game gets the charts, counters and map; a battle system its tables."""
    if game.map is None and game.battle is not None:
        return BATTLE_AIDS
    names = []
    for name in MAP_GAME_AIDS:
        if name == "crt" and not game.tables:
            continue
        if name == "tec" and not (game.terrain or game.hexside_types):
            continue
        if name == "sequence" and not game.sequence:
            continue
        if name == "options" and not game.options:
            continue
        if name in ("oob", "counters") and not game.units:
            continue
        if name == "map" and game.map is None:
            continue
        names.append(name)
    return tuple(names)


def _context(game: Game, paper: Paper, aids: tuple[str, ...]) -> dict:
    context: dict = {"game": game, "paper": paper, "aids": aids, "map_sheet": None}
    if "battle" in aids:
        context["battle"] = battle_sheets.battle_sheet(game)
    if "crt" in aids:
        context["crts"] = sheets.crt_sheets(game)
        context["attacker_codes"] = {c for c, r in game.results.items()
                                     if r.attacker_retreat or r.attacker_eliminated}
        context["defender_codes"] = {c for c, r in game.results.items()
                                     if r.defender_retreat or r.defender_eliminated}
    if "tec" in aids:
        context["tec"] = terrain_chart(game)
    if "sequence" in aids:
        context["sequence"] = sheets.sequence_rows(game)
    if "turns" in aids:
        context["turn_track"] = sheets.turn_track(game)
    if "victory" in aids:
        context["victory"] = sheets.victory_sheet(game)
    if "oob" in aids:
        context["oob"] = sheets.order_of_battle(game)
    if "options" in aids:
        context["options"] = sheets.option_rows(game)
    if "counters" in aids:
        context["counters_svg"] = render_counters_svg(game, standalone=False)
    if "map" in aids:
        context["map_sheet"] = draw_map(game)
        context["map_svg"] = render_map_svg(game, standalone=False, drawing=context["map_sheet"])
    return context


def render_html(game: Game, paper: str = "a4", aids: tuple[str, ...] | None = None) -> str:
    """Every aid of the game (or only `aids`) as one printable HTML page."""
    chosen = aid_names(game) if aids is None else aids
    return environment().get_template("aids.html.j2").render(**_context(game, PAPERS[paper], chosen))


def write_aids(game: Game, out_dir: Path, formats: set[str] | frozenset[str] = frozenset(FORMATS),
               paper: str = "a4") -> list[Path]:
    """Write the aids into out_dir; return the files written, in a stable order."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    html = render_html(game, paper)

    def write(name: str, content: str | bytes) -> None:
        path = out_dir / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        written.append(path)

    if "html" in formats:
        write("aids.html", html)
    if "svg" in formats and game.map is not None:
        write("map.svg", render_map_svg(game))
    if "svg" in formats and game.units:
        write("counters.svg", render_counters_svg(game))
    if "pdf" in formats:
        write("aids.pdf", render_pdf(html, out_dir))
    return written
