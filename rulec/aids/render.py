"""Render every player aid of a game to HTML, SVG and PDF.

    files = write_aids(game, Path("generated/aids/NAME"), formats={"html", "svg", "pdf"}, paper="a4")

The HTML holds every aid (the SVG map and counter sheet embedded), with CSS
@page rules for the chosen paper, every page the map's included; the aids are
grouped on the sheets a publisher prints (SHEETS): the two sides of the player
aid card, the turn record and VP track, the order of battle with the counter
key, the counter sheet front and back, the map. The same HTML is what
WeasyPrint turns into the PDF.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rulec.aids import battle_sheets, counters_svg, crt_odds, map_svg, sheets
from rulec.aids.balance import BalanceSummary
from rulec.aids.environment import environment
from rulec.aids.pdf import render_pdf
from rulec.aids.tec import terrain_chart
from rulec.runtime.model import Game

FORMATS = ("html", "svg", "pdf")
BATTLE_AIDS = ("battle",)
# The printed sheets of a map game, in order, and the aids on each. A sheet starts a new page;
# the two sides of the player aid card are one page each (a test holds them to it).
SHEETS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("card-front", ("crt", "modifiers")),
    ("card-back", ("sequence", "tec", "victory")),
    ("track", ("turns", "vp_track")),
    ("oob", ("oob", "counter_key", "options")),
    ("counters", ("counters",)),
    ("map", ("map",)),
)
MAP_GAME_AIDS = tuple(aid for _, aids in SHEETS for aid in aids)
COUNTER_HEADING = 40.0  # points above a counter grid for its heading and note


@dataclass(frozen=True)
class Balance:
    """The balance sheet: what N AI games showed, and its plots as an SVG document."""

    summary: BalanceSummary
    svg: str


@dataclass(frozen=True)
class Paper:
    name: str
    css: str  # the CSS @page size
    margin: str
    width: float  # points
    height: float
    margin_points: float

    @property
    def content(self) -> tuple[float, float]:
        """The printable box inside the margins, in points."""
        return self.width - 2 * self.margin_points, self.height - 2 * self.margin_points


PAPERS = {
    "a4": Paper("a4", "A4", "12mm", 595.28, 841.89, 12 * 72 / 25.4),
    "letter": Paper("letter", "letter", "0.5in", 612.0, 792.0, 36.0),
}


def aid_names(game: Game) -> tuple[str, ...]:
    """The aids a game has: a map game gets the charts, counters and map; a battle system its tables."""
    if game.map is None and game.battle is not None:
        return BATTLE_AIDS
    present = {
        "crt": bool(game.tables), "modifiers": bool(game.tables), "tec": bool(game.terrain or game.hexside_types),
        "sequence": bool(game.sequence), "turns": game.info.turns > 0, "victory": bool(game.awards or game.victory), "vp_track": game.victory is not None,
        "oob": bool(game.units), "counter_key": bool(game.units), "options": bool(game.options),
        "counters": bool(game.units), "map": game.map is not None,
    }
    return tuple(name for name in MAP_GAME_AIDS if present[name])


def sheets_of(aids: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The sheets that hold `aids`, each with the chosen aids on it (a battle system: one sheet)."""
    if aids == BATTLE_AIDS:
        return (("battle", BATTLE_AIDS),)
    found = tuple((name, tuple(a for a in members if a in aids)) for name, members in SHEETS)
    return tuple((name, members) for name, members in found if members)


def _context(game: Game, paper: Paper, aids: tuple[str, ...], observed_vp: int | None = None,
             counters: str = "5/8", balance: Balance | None = None) -> dict:
    if balance is not None:
        aids = aids + ("balance",)
        observed_vp = max(observed_vp or 0, balance.summary.most_vp)
    chosen_sheets = sheets_of(aids) + ((("balance", ("balance",)),) if balance is not None else ())
    context: dict = {"game": game, "paper": paper, "aids": aids, "sheets": chosen_sheets,
                     "balance": balance}
    if "battle" in aids:
        context["battle"] = battle_sheets.battle_sheet(game)
    if "crt" in aids:
        context["crts"] = sheets.crt_sheets(game)
        context["attacker_codes"], context["defender_codes"] = crt_odds.codes_by_side(game.results)
    if "modifiers" in aids:
        context["modifiers"] = sheets.key_modifiers(game)
    if "tec" in aids:
        context["tec"] = terrain_chart(game)
    if "sequence" in aids:
        context["sequence"] = sheets.sequence_rows(game)
        context["setup_phases"] = sheets.setup_phases(game)
    if "turns" in aids:
        context["turn_track"] = sheets.turn_track(game)
    if "victory" in aids or "vp_track" in aids:
        context["victory"] = sheets.victory_sheet(game, observed_vp)
    if "oob" in aids:
        context["oob"] = sheets.order_of_battle(game)
    if "options" in aids:
        context["options"] = sheets.option_rows(game)
    if "counters" in aids or "counter_key" in aids:
        width, height = paper.content
        pages = counters_svg.pages(game, width, height - COUNTER_HEADING, counters_svg.PITCHES[counters])
        context["counter_pages"] = tuple((counters_svg.render_grid(front), counters_svg.render_grid(back))
                                         for front, back in pages)
        context["counter_key"] = counters_svg.render_key(game, pages[0][0])
        context["counter_size"] = counters
    if "map" in aids:
        printed = map_svg.for_paper(game, (paper.width, paper.height))
        context["map_tiles"] = tuple(map_svg.render_map_svg(game, standalone=False, drawing=printed.drawing, tile=tile)
                                     for tile in printed.tiles)
    return context


def render_html(game: Game, paper: str | Paper = "a4", aids: tuple[str, ...] | None = None,
                observed_vp: int | None = None, counters: str = "5/8", balance: Balance | None = None) -> str:
    """Every aid of the game (or only `aids`) as one printable HTML page; `observed_vp`, the most VP a side
    scored in simulated games, lengthens the VP track if the awards alone do not; `counters` is their size
    across, "5/8" or "1/2" (inches); `balance` adds the balance sheet (rulec.aids.balance)."""
    chosen = aid_names(game) if aids is None else tuple(a for a in aid_names(game) if a in aids)
    chosen_paper = PAPERS[paper] if isinstance(paper, str) else paper
    return environment().get_template("aids.html.j2").render(**_context(game, chosen_paper, chosen, observed_vp, counters,
                                                                              balance))


def write_aids(game: Game, out_dir: Path, formats: set[str] | frozenset[str] = frozenset(FORMATS),
               paper: str = "a4", observed_vp: int | None = None, counters: str = "5/8",
               balance: Balance | None = None) -> list[Path]:
    """Write the aids into out_dir; return the files written, in a stable order."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    html = render_html(game, paper, observed_vp=observed_vp, counters=counters, balance=balance)

    def write(name: str, content: str | bytes) -> None:
        """Write through a temporary file and an atomic replace: an interrupted run leaves no half file."""
        path = out_dir / name
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        handle, temporary = tempfile.mkstemp(prefix=f".{name}.", dir=out_dir)
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
            os.chmod(temporary, 0o644)  # mkstemp makes it private; the aids are for reading
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        written.append(path)

    if "html" in formats:
        write("aids.html", html)
    if "svg" in formats and game.map is not None:
        chosen = PAPERS[paper]
        write("map.svg", map_svg.render_map_svg(game, drawing=map_svg.for_paper(game, (chosen.width, chosen.height)).drawing))
    if "svg" in formats and game.units:
        write("counters.svg", counters_svg.render_counters_svg(game, width=PAPERS[paper].content[0],
                                                                   pitch=counters_svg.PITCHES[counters]))
    if "svg" in formats and balance is not None:
        write("balance.svg", balance.svg)
    if "pdf" in formats:
        write("aids.pdf", render_pdf(html, out_dir))
    return written
