"""Whole-game checks on the built model: facts that only make sense together.

The builder (build.py) checks each name where it is written; this module
looks across sections once everything is built: every die roll has a CRT
row, every declared result code is used, set-up stacks respect the stacking
limit, options add optional units, arrivals fall within the game, and so on.
Each problem points at the place in the file the designer should change.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from rulec.check.completeness import check_completeness
from rulec.diagnostics import Diagnostic, did_you_mean
from rulec.language.document import Document, Path
from rulec.runtime.context import StandInContext
from rulec.runtime.errors import UNANSWERED_OUTSIDE_PLAY
from rulec.runtime.model import Game, Option, Unit


class _Reporter:
    def __init__(self, document: Document):
        self.document = document
        self.diagnostics: list[Diagnostic] = []

    def error(self, code: str, message: str, path: Path, hint: str | None = None, key: bool = False) -> None:
        span = self.document.key_span(path) if key else self.document.span(path)
        self.diagnostics.append(Diagnostic(code, message, span, "error", hint))

    def warning(self, code: str, message: str, path: Path, hint: str | None = None, key: bool = False) -> None:
        span = self.document.key_span(path) if key else self.document.span(path)
        self.diagnostics.append(Diagnostic(code, message, span, "warning", hint))


def check_references(game: Game, document: Document) -> list[Diagnostic]:
    """Every cross-section problem of a built game, in file order."""
    report = _Reporter(document)
    _die_rows(game, report)
    _unused_results(game, report)
    _setup_stacking(game, report)
    _setup_with_enemy(game, report)
    _options(game, report)
    _arrivals(game, report)
    _names(game, report)
    _sequence(game, report)
    report.diagnostics += check_completeness(game, document)  # playable, every row rolled, nothing declared unused
    return sorted(report.diagnostics, key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))


def _die_rows(game: Game, report: _Reporter) -> None:
    """Every roll of the game's die needs a row on every table."""
    die = game.info.die
    for table in game.tables.values():
        missing = [roll for roll in range(1, die + 1) if roll not in table.rows]
        if missing:
            report.error("crt-missing-row", f"table '{table.id}' has no row for die roll{'s' if len(missing) > 1 else ''} "
                         f"{_runs(missing)} (the die is 1..{die})", ("crt", table.id, "rows"))
        if table.rows:
            low, high = min(table.rows), max(table.rows)
            holes = [roll for roll in range(low, high + 1) if roll not in table.rows and not 1 <= roll <= die]
            if holes:
                report.error("crt-missing-row", f"table '{table.id}' skips modified roll{'s' if len(holes) > 1 else ''} "
                             f"{_runs(holes)} between {low} and {high}", ("crt", table.id, "rows"))


def _runs(numbers: list[int]) -> str:
    """'2, 4..9' for [2, 4, 5, 6, 7, 8, 9]: consecutive numbers as ranges (a d100 table can miss many)."""
    runs: list[list[int]] = []
    for number in sorted(numbers):
        if runs and number == runs[-1][1] + 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return ", ".join(str(a) if a == b else (f"{a}, {b}" if b == a + 1 else f"{a}..{b}") for a, b in runs)


def _unused_results(game: Game, report: _Reporter) -> None:
    used = {code for table in game.tables.values() for row in table.rows.values() for code in row}
    for result in game.results.values():
        if result.id not in used and game.tables:
            report.warning("unused-result-code", f"result '{result.id}' is not used on any table", ("result", result.id), key=True)


def _setup_stacking(game: Game, report: _Reporter) -> None:
    """More units set up in one hex than the stacking limit allows (a warning: some games allow it at set-up)."""
    by_hex: dict[str, list[str]] = defaultdict(list)
    for unit in game.units.values():
        if unit.setup is not None and not unit.optional and _counts_for_stacking(game, unit):
            by_hex[unit.setup].append(unit.id)
    limit = game.stacking.limit
    for hex_number, unit_ids in sorted(by_hex.items()):
        if len(unit_ids) > limit:
            report.warning("setup-overstacked", f"{len(unit_ids)} units set up in hex {hex_number} ({', '.join(unit_ids)}); "
                           f"the stacking limit is {limit}", ("unit", unit_ids[limit], "setup"))


def _setup_with_enemy(game: Game, report: _Reporter) -> None:
    """Units of two sides set up in one hex: a position no move can make (a move never ends in an enemy's hex),
    so no rule of the game says what it means. Checked for the units' own set-up (optional units count: their
    option puts them there) and again with each scenario's and option's `setup` put over it."""
    own = {uid: unit.setup for uid, unit in game.units.items()}
    regular = {uid for uid, unit in game.units.items() if not unit.optional}
    changes: list[tuple[Path, dict[str, str | None], set[str]]] = [((), {}, set(own))] + \
        [(("scenario", sid), sc.setup, (regular | set(sc.add)) - set(sc.remove)) for sid, sc in game.scenarios.items()] + \
        [(("option", oid), option.setup, regular | set(option.adds)) for oid, option in game.options.items()]
    told: set[tuple[str, frozenset[str]]] = set()
    for owner, setup, in_play in changes:
        by_hex: dict[str, list[str]] = defaultdict(list)
        for uid, hex_number in {**own, **setup}.items():
            if hex_number is not None and uid in in_play:
                by_hex[hex_number].append(uid)
        for hex_number, uids in sorted(by_hex.items()):
            sides = [game.units[uid].side for uid in uids]
            if len(set(sides)) == 1 or (hex_number, frozenset(uids)) in told:
                continue
            told.add((hex_number, frozenset(uids)))
            moved = next((uid for uid in uids if uid in setup), None)  # a scenario's or option's set-up put it there
            intruder = moved or next(uid for uid, side in zip(uids, sides) if side != sides[0])
            report.error("setup-with-enemy", f"units of two sides set up in hex {hex_number} "
                         f"({', '.join(f'{uid} of {side}' for uid, side in zip(uids, sides))}): enemies never share a hex",
                         owner + ("setup", moved) if moved else ("unit", intruder, "setup"), key=moved is not None,
                         hint="set one side's units up in another hex")


def _counts_for_stacking(game: Game, unit: Unit) -> bool:
    """Does `unit` count toward the stacking limit at set-up (stacking { counts }, with the unit set up alone)?"""
    counts = game.stacking.counts
    if counts is None:
        return True
    try:
        return bool(counts(StandInContext(game=game, unit=unit, placed=[(unit, unit.setup)] if unit.setup else [])))
    except UNANSWERED_OUTSIDE_PLAY:  # a condition that needs more of a game than the stand-in offers: count the unit
        return True


def _options(game: Game, report: _Reporter) -> None:
    added: set[str] = set()
    for option in game.options.values():
        for index, unit_id in enumerate(option.adds):
            added.add(unit_id)
            unit = game.units.get(unit_id)
            if unit is not None and not unit.optional:
                report.error("option-adds-regular-unit", f"option '{option.id}' adds unit '{unit_id}', which is in play anyway",
                             ("option", option.id, "adds", index), hint="mark the unit 'optional = true'")
        if option.choose_variant is not None:
            _check_variant_choice(game, option, report)
        _option_fields_alone(game, option, report)
    _rule_fields_alone(game, report)
    added.update(uid for scenario in game.scenarios.values() for uid in scenario.add)
    for unit in game.units.values():
        if unit.optional and unit.id not in added:
            report.warning("optional-unit-unused", f"optional unit '{unit.id}' is not added by any option or scenario",
                           ("unit", unit.id), key=True)


# Option fields that do nothing without another field of the same option, and what they need.
_NEEDS = (
)


def _option_fields_alone(game: Game, option, report: _Reporter) -> None:
    """A field that means nothing on its own would be ignored in play: the designer forgot its companion."""
    path = ("option", option.id)

    for field_name, companions, needed in _NEEDS:
        if _written(report, path + (field_name,)) and not any(_written(report, path + (c,)) for c in companions):
            _alone(report, f"option '{option.id}'", path, field_name, needed)


def _rule_fields_alone(game: Game, report: _Reporter) -> None:
    """Movement and hexside settings that only mean something beside another setting."""
    movement = game.movement
    if _written(report, ("movement", "zoc_extra_cost")) and movement.zoc == "none":
        _alone(report, "movement", ("movement",), "zoc_extra_cost", "'zoc = extra_cost' or 'zoc = stop_on_entry'")
    if _written(report, ("movement", "exit_cost")) and not movement.exit_map:
        _alone(report, "movement", ("movement",), "exit_cost", "'exit_map = true'")
    if _written(report, ("movement", "leave_zoc")) and movement.zoc_to_zoc and not movement.zoc_locks_start:
        _alone(report, "movement", ("movement",), "leave_zoc", "'zoc_locks_start = true' or 'zoc_to_zoc = false'")
    if _written(report, ("movement", "first_holder")) and not _written(report, ("movement", "control_of")):
        _alone(report, "movement", ("movement",), "first_holder", "'control_of = [...]' (the hexes it holds)")
    for hexside in game.hexside_types.values():
        path, where = ("hexside", hexside.id), f"hexside '{hexside.id}'"
        if _written(report, path + ("combat_when",)) and not (hexside.combat_shift or hexside.combat_drm):
            _alone(report, where, path, "combat_when", "a 'combat_shift' or a 'combat_drm'")
        if _written(report, path + ("road_negates_crossing",)) and hexside.crossing == "normal":
            _alone(report, where, path, "road_negates_crossing", "a 'crossing' other than normal")
        if _written(report, path + ("move",)) and hexside.kind != "road":  # only a road sets the cost of entering
            _alone(report, where, path, "move", "'kind = road'")


def _written(report: _Reporter, path: Path) -> bool:
    return path in report.document.key_spans


def _alone(report: _Reporter, where: str, path: Path, field_name: str, needed: str) -> None:
    report.error("field-alone", f"{where} gives '{field_name}' without {needed}, so it would do nothing",
                 path + (field_name,), key=True)


def _every_arrival(game: Game):
    """(unit, arrival, its path, the last turn) of every arrival written: the units' own, then the options' and
    the scenarios' (rulec/check/build_scenarios.py; an arrival written as a turn alone is the unit's own)."""
    for unit in game.units.values():
        if unit.arrives is not None:
            yield unit, unit.arrives, ("unit", unit.id, "arrives"), game.info.turns
    for section, blocks in (("option", game.options), ("scenario", game.scenarios)):
        for bid, block in blocks.items():
            last = getattr(block, "turns", None) or game.info.turns
            for uid, arrival in block.arrivals.items():
                yield game.units[uid], arrival, (section, bid, "arrivals", uid), last


def _arrivals(game: Game, report: _Reporter) -> None:
    phases = {phase.id: phase for phase in game.sequence}
    for unit, arrival, path, last in _every_arrival(game):
        whole = _written(report, path + ("turn",))  # not a turn alone (`red_1 = 9`): the unit's own arrival, checked there
        if arrival.turn is not None and last and arrival.turn > last:
            report.error("arrival-after-game", f"unit '{unit.id}' arrives on turn {arrival.turn}, after the last turn ({last})",
                         path + ("turn",) if whole else path)
        if not whole:
            continue
        if arrival.phase is not None:
            if arrival.phase not in phases:
                report.error("unknown-phase", f"unknown phase '{arrival.phase}'", path + ("phase",), did_you_mean(arrival.phase, phases))
            elif phases[arrival.phase].side not in (None, unit.side):
                report.error("arrival-phase-side", f"unit '{unit.id}' of side '{unit.side}' arrives in phase '{arrival.phase}' "
                             f"of side '{phases[arrival.phase].side}'", path + ("phase",))
            elif phases[arrival.phase].kind != "movement":  # units enter the map by moving: it would never arrive
                report.error("arrival-phase-kind", f"unit '{unit.id}' arrives in phase '{arrival.phase}', a "
                             f"{phases[arrival.phase].kind.replace('_', ' ')} phase, where no unit moves", path + ("phase",),
                             hint="units enter the map in a movement phase of their side")
        if arrival.placement == "edge" and arrival.area is None and not arrival.hexes:
            report.error("arrival-nowhere", f"unit '{unit.id}' arrives at the map edge but names no area or hexes", path,
                         hint="add 'area = ZONE_OR_EDGE' or 'hexes = [...]'")
        if game.map is not None:
            for terrain in arrival.terrain:
                if terrain not in game.terrain:
                    report.error("unknown-terrain", f"unknown terrain '{terrain}'", path + ("terrain",), did_you_mean(terrain, game.terrain))
        _arrival_fields_used(unit.id, arrival, report, path)


def _arrival_fields_used(uid: str, arrival, report: _Reporter, path: Path) -> None:
    """Each arrival field works with one placement; one its placement does not use would be ignored in play."""
    def written(name: str) -> bool:
        return path + (name,) in report.document.key_spans

    def unused(name: str, message: str, hint: str) -> None:
        report.error("arrival-unused-field", message, path + (name,), hint=hint, key=True)

    if arrival.placement == "anywhere":
        for name in ("area", "hexes"):
            if written(name):
                unused(name, f"unit '{uid}' is placed anywhere, so its arrival '{name}' would be ignored",
                       "a unit placed anywhere may land on any hex its 'terrain' allows; leave out 'area' and 'hexes'")
        return
    if written("terrain"):
        unused("terrain", f"unit '{uid}' enters at the map edge, so its arrival 'terrain' would be ignored",
               "'terrain' limits only units with 'placement = anywhere'")
    if written("area") and written("hexes"):
        unused("hexes", f"unit '{uid}' arrives with both 'area' and 'hexes'; only one of them can be its entry",
               "give the zone or edge it enters by, or the hexes, not both")


def _names(game: Game, report: _Reporter) -> None:
    """A name that means two things (a zone and an edge, a side and a unit) makes areas and expressions ambiguous."""
    if game.map is not None:
        for name in sorted(set(game.map.zones) & set(game.map.edges)):
            report.error("duplicate-name", f"'{name}' is both a zone and a map edge", ("map", "zones", name), key=True,
                         hint="arrival areas and expressions could not tell them apart")
    owners: dict[str, list[tuple[str, Path]]] = defaultdict(list)
    for side in game.sides:
        owners[side].append(("side", ("side", side)))
    for unit in game.units:
        owners[unit].append(("unit", ("unit", unit)))
    for terrain in game.terrain:
        owners[terrain].append(("terrain", ("terrain", terrain)))
    if game.map is not None:
        for zone in game.map.zones:
            owners[zone].append(("zone", ("map", "zones", zone)))
    for variable in game.variables:  # its bare name is its value: a game id of the same name would be read as it
        owners[variable].append(("variable", ("variable", variable)))
    for name, uses in sorted(owners.items()):
        kinds = Counter(kind for kind, _ in uses)
        if len(kinds) > 1:
            (first, _), (second, path) = uses[0], uses[1]
            report.warning("ambiguous-name", f"'{name}' names both a {first} and a {second}", path, key=True,
                           hint="expressions treat bare names as game ids; give each thing its own name")
        # A name of the expression language given to a game id is an error of its own: rulec.check.names.


def _sequence(game: Game, report: _Reporter) -> None:
    if not game.sequence:
        return
    kinds = {phase.kind for phase in game.sequence}
    if "combat" in kinds and game.combat is None:
        first = next(p for p in game.sequence if p.kind == "combat")
        report.error("no-combat-rules", "the sequence has a combat phase but the game has no 'combat { table = ... }' block",
                     ("sequence", "phase", first.id), key=True)
    for phase in game.sequence:
        if phase.kind in ("movement", "combat") and phase.side is None:
            report.error("phase-without-side", f"{phase.kind} phase '{phase.id}' names no side, so no unit would "
                         f"{'move' if phase.kind == 'movement' else 'attack'} in it", ("sequence", "phase", phase.id), key=True,
                         hint="give it 'side = SIDE'")
    sides_with_phases = {phase.side for phase in game.sequence}
    for side in game.sides:
        if side not in sides_with_phases and game.map is not None:
            report.warning("side-without-phase", f"side '{side}' has no phase in the sequence of play", ("side", side), key=True)


def _check_variant_choice(game: Game, option: Option, report: _Reporter) -> None:
    """An option's `choose_variant`: a variant some units have, a count they can fill, a known side."""
    choice, path = option.choose_variant, ("option", option.id, "choose_variant")
    if choice.vp_to is not None and choice.vp_to not in game.sides:
        report.error("unknown-side", f"unknown side '{choice.vp_to}'", path + ("vp_to",), did_you_mean(choice.vp_to, game.sides))
    names = sorted({v.name for u in game.units.values() for v in u.variants})
    if choice.variant not in names:
        report.error("unknown-variant", f"no unit has a variant '{choice.variant}'", path + ("variant",),
                     did_you_mean(choice.variant, names) or "give units a 'variant NAME { strength = ... }' block")
        return
    low, high = choice.count
    having = sum(1 for u in game.units.values() if u.variant(choice.variant) is not None)
    if low > high:
        report.error("option-improve-range", f"option '{option.id}' chooses {low}..{high} units, a range that runs "
                     "backwards", path + ("count",), hint=f"write {high}..{low}")
    elif high > having:
        report.error("option-improve-range", f"option '{option.id}' chooses {low}..{high} units, but "
                     f"{having} unit{'s have' if having != 1 else ' has'} the variant '{choice.variant}'", path + ("count",))
