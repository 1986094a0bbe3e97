"""Build: a schema-valid document -> the game model, checking cross-references.

Each section of the game file has one method: the map's in build_map.py,
the combat tables' in build_combat.py, the battle system's in
build_battle.py, the rest here. Every problem becomes a diagnostic pointing
at the file; the builder goes on after a problem so that one run reports as
many as it can. Checks across sections of the finished model are in
references.py.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Iterable

from rulec.check.build_combat import CombatSections
from rulec.check.build_map import MapSections
from rulec.check.build_modifiers import TraceAndModifierSections
from rulec.check.build_markers import MarkerSections
from rulec.check.build_movement import MovementSections
from rulec.check.build_scenarios import ScenarioSections
from rulec.check.build_sequence import SequenceSections
from rulec.check.build_units import UnitSections
from rulec.check.fields import plain
from rulec.check.movement_bounds import bound_allowances
from rulec.compile import kinds
from rulec.compile.expressions import ExpressionCompiler, ExpressionError, to_function
from rulec.compile.functions import MARKERS, POSITION, POSITIONAL
from rulec.diagnostics import Diagnostic, did_you_mean
from rulec.language.document import Document, Path
from rulec.language.parse import tree_nodes, unparse
from rulec.runtime import model as m


# Award triggers that are about one unit (the one entering, exiting or eliminated): its expressions may read it.
UNIT_TRIGGERS = frozenset({"holds", "exits", "eliminated"})


class Builder(MapSections, CombatSections, SequenceSections, MovementSections, UnitSections,
              TraceAndModifierSections, MarkerSections, ScenarioSections):
    """Builds one document into a Game, collecting diagnostics in `self.diagnostics`."""

    def __init__(self, document: Document):
        self.doc = document
        self.data = document.data
        self.diagnostics: list[Diagnostic] = []
        self.grid: m.HexGrid | None = None
        self.game: m.Game | None = None
        self.hexes: set[str] = set()
        # (section, block, field) -> a cost expression as written: compiled once every name is known
        # (movement_expressions); the terrain or hexside type holds its field's default meanwhile
        self.raw_costs: dict[tuple[str, str, str], Any] = {}

    # ------------------------------------------------------------- reporting
    def error(self, code: str, message: str, path: Path, hint: str | None = None, key: bool = False) -> None:
        span = self.doc.key_span(path) if key else self.doc.span(path)
        self.diagnostics.append(Diagnostic(code, message, span, "error", hint))

    def warning(self, code: str, message: str, path: Path, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, self.doc.span(path), "warning", hint))

    # Codes "wrong-type" below guard shapes the schema already rules out: the builder must never crash, even
    # on a document that skipped the schema.

    def reference(self, value: Any, known: Iterable[str], what: str, path: Path, key: bool = False) -> str | None:
        """Check that `value` names one of `known`; report 'unknown <what>' otherwise."""
        known = list(known)
        if isinstance(value, str) and value in known:
            return value
        if value is None:  # a required field left out: the schema reports it
            return None
        self.error(f"unknown-{what.replace(' ', '-')}", f"unknown {what} '{plain(value)}'", path, did_you_mean(str(value), known), key=key)
        return None

    # ----------------------------------------------------------------- game
    def build(self) -> m.Game | None:
        info = self.game_info()
        sides = self.sides()
        game_map = self.map() if "map" in self.data else None
        terrain = self.terrain_types()
        hexside_types = self.hexside_types()
        if game_map:
            self.check_map_references(game_map, terrain, hexside_types)
        unit_types = self.zoc_across(self.unit_types(), hexside_types)
        units = self.units(sides, unit_types, game_map)
        results = self.results()
        tables = self.tables(results)
        sequence = self.sequence(sides)
        constants = self.constants(sides, game_map, terrain, units)
        triggers = self.triggers(sides, game_map, sequence)
        control_of = self.control_hexes(game_map)
        objectives = frozenset(h for trigger in triggers.values() if trigger and trigger.kind == "holds" for h in trigger.hexes)
        objectives |= frozenset(control_of)
        compiler = ExpressionCompiler(frozenset(constants), self.names_by_kind(sides, game_map, unit_types, units, terrain, sequence),
                                      objectives=objectives)
        awards = self.awards(sides, triggers, compiler)
        sequence = self.procedures(sequence, compiler)
        hooks = self.game_hooks(compiler)
        options = self.options(sides, units, game_map)
        markers = self.markers(compiler)
        variables = {vid: m.Variable(id=vid, name=str(body.get("name", vid)), initial=body.get("initial", 0))
                     for vid, body in self.get(("variable",), {}).items() if isinstance(body, dict)}
        scenarios = self.scenarios(sides, units, sequence, options, info.turns if info else 0, game_map, objectives)
        if info.scenario is not None and self.reference(info.scenario, scenarios, "scenario", ("game", info.id, "scenario")) is None:
            info = dataclasses.replace(info, scenario=None)
        terrain = self.movement_expressions(terrain, "terrain", unit_types, compiler)
        hexside_types = self.movement_expressions(hexside_types, "hexside", unit_types, compiler)
        game = m.Game(
            info=info,
            sides=sides,
            map=game_map,
            terrain=terrain,
            hexside_types=hexside_types,
            unit_types=unit_types,
            units=units,
            movement=self.movement(hexside_types, options, compiler, control_of, self.first_holder(sides)),
            modes=self.modes(hexside_types, options, compiler),
            stacking=self.stacking(compiler),
            tables=tables,
            results=results,
            combat=self.combat(tables, compiler.for_unit(True)) if "combat" in self.data else None,
            sequence=sequence,
            hooks=hooks,
            awards=awards,
            victory=self.victory(sides, compiler) if "victory" in self.data else None,
            options=options,
            scenarios=scenarios,
            battle=self.battle() if "battle" in self.data else None,
            traces=self.traces(sides, game_map, compiler),
            modifiers=self.modifiers(options, compiler),
            markers=markers,
            variables=variables,
            source=self.doc.file,
            rule_refs={key: str(ref) for key, ref in self.get(("rule_refs",), {}).items()},
            rule_texts={case: str(text) for case, text in self.get(("rule_texts",), {}).items()},
        )
        game = bound_allowances(game, self.warning)
        self.game = game  # kept even when there are errors, so later checks can still look at what was built
        return None if any(d.is_error for d in self.diagnostics) else game

    def record(self, cls: type, path: Path, built: tuple[str, ...] = (), **extra: Any) -> Any:
        """Build a simple dataclass whose fields are written directly in the file (but the keys in `built`,
        which the caller builds into `extra` under another name)."""
        body = self.get(path, {})
        fields = cls.__dataclass_fields__
        values = {}
        for key, value in body.items():
            if key in built:
                continue
            if key not in fields:
                self.error("unknown-field", f"'{key}' is not a field of {path[-1]}", path + (key,), did_you_mean(key, fields), key=True)
                continue
            values[key] = tuple(value) if isinstance(value, list) else value  # (the model's sequences are tuples)
        values.update(extra)
        try:
            return cls(**values)
        except TypeError as error:
            self.error("missing-field", f"{path[-1]}: {error}", path)
            return None

    def get(self, path: Path, default: Any = None) -> Any:
        value: Any = self.data
        for part in path:
            if isinstance(value, dict) and part in value:
                value = value[part]
            elif isinstance(value, list) and isinstance(part, int) and part < len(value):
                value = value[part]
            else:
                return default
        return value

    def game_info(self) -> m.GameInfo:
        games = self.get(("game",), {})
        if len(games) != 1:
            self.error("game-block", "a game file needs exactly one 'game NAME { ... }' block", ("game",))
            return m.GameInfo(id="game", title="")
        (game_id, body), = games.items()
        labels = tuple(body.get("turn_labels", ()))
        turns = body.get("turns", 0)
        if labels and turns and len(labels) != turns:
            self.error("turn-labels", f"{len(labels)} turn labels for {turns} turns", ("game", game_id, "turn_labels"))
        return m.GameInfo(
            id=game_id,
            title=body.get("title", game_id),
            edition=body.get("edition", ""),
            scale=body.get("scale", ""),
            die=body.get("die", 6),
            turns=turns,
            turn_labels=labels,
            scenario=body.get("scenario"),
            reconstructed=tuple(body.get("reconstructed", ())),
            reconstruction_note=body.get("reconstruction_note", ""),
            flag_names=self.flag_names(body.get("flag_names", {}), ("game", game_id, "flag_names")),
        )

    def flag_names(self, names: Any, path: Path) -> dict[str, str]:
        """game { flag_names }: each key a flag some unit carries (a did-you-mean otherwise)."""
        if not isinstance(names, dict):
            return {}
        flags = sorted({f for body in self.get(("unit",), {}).values() if isinstance(body, dict)
                        for f in (body.get("flags") or ()) if isinstance(f, str)})
        return {flag: text for flag, text in names.items()
                if self.reference(flag, flags, "flag", path + (flag,), key=True) and isinstance(text, str)}

    def sides(self) -> dict[str, m.Side]:
        return {sid: m.Side(id=sid, name=b.get("name", sid), adjective=b.get("adjective", ""), color=b.get("color", ""))
                for sid, b in self.get(("side",), {}).items()}

    # ------------------------------------------------------------------ map
    # ---------------------------------------------------------------- units
    def unit_types(self) -> dict[str, m.UnitType]:
        return {tid: self.record(m.UnitType, ("unit_type", tid), id=tid)
                for tid, body in self.get(("unit_type",), {}).items()}

    def units(self, sides: dict, unit_types: dict, game_map: m.MapDef | None) -> dict[str, m.Unit]:
        result = {}
        for uid, body in self.get(("unit",), {}).items():
            path = ("unit", uid)
            self.reference(body.get("side"), sides, "side", path + ("side",))
            self.reference(body.get("type"), unit_types, "unit type", path + ("type",))
            placed = body.get("setup") == "free"  # set up by a placement phase (build_sequence.py)
            setup = self.hex_ref(body["setup"], path + ("setup",)) if "setup" in body and not placed else None
            arrives = self.arrival(body["arrives"], path + ("arrives",), game_map) if "arrives" in body else None
            if "setup" not in body and "arrives" not in body:
                self.error("no-setup", f"unit '{uid}' has neither a set-up hex nor an arrival", path, key=True,
                           hint="give it 'setup = HEX' or 'arrives = { turn = N, area = ZONE }'")
            elif "setup" in body and "arrives" in body:
                self.error("setup-and-arrival", f"unit '{uid}' has both a set-up hex and an arrival", path + ("arrives",), key=True)
            lost = body.get("steps_lost", 0)
            reduced = self.reduced_sides(path, unit_types)
            if isinstance(lost, int) and lost > len(reduced):
                self.error("out-of-range", f"unit '{uid}' has {len(reduced)} reduced side(s), so it cannot start with "
                           f"{lost} step(s) lost", path + ("steps_lost",),
                           hint=f"steps_lost is at most {len(reduced)}: a unit with no step left is eliminated")
            result[uid] = self.record(m.Unit, path, built=("variant",), id=uid, setup=setup, arrives=arrives, placed=placed,
                                      variants=self.variants(path), reduced=reduced,
                                      flags=tuple(body.get("flags", ())), division=str(body.get("division", "")),
                                      designation=str(body.get("designation", uid)),
                                      **({"size": str(body["size"])} if "size" in body else {}))
        return result

    def arrival(self, body: dict, path: Path, game_map: m.MapDef | None) -> m.Arrival:
        turn = body.get("turn")
        turn = None if turn == "any" else turn
        area = body.get("area")
        hexes: tuple[str, ...] = ()
        if area is not None and game_map is not None:
            known = {**game_map.zones, **game_map.edges}
            if self.reference(area, known, "zone", path + ("area",)):
                hexes = known[area]
        if "hexes" in body:
            hexes = tuple(self.hex_list(body["hexes"], path + ("hexes",)))
        terrain = body.get("terrain", [])
        return m.Arrival(turn=turn, area=area, hexes=hexes, placement=body.get("placement", "edge"),
                         terrain=tuple(terrain if isinstance(terrain, list) else [terrain]),
                         phase=body.get("phase"), marks=self.arrival_marks(body, path))

    # ---------------------------------------------------------------- combat
    # ------------------------------------------------------- sequence, victory
    def sequence(self, sides: dict) -> tuple[m.Phase, ...]:
        phases = []
        for pid, body in self.get(("sequence", "phase"), {}).items():
            path = ("sequence", "phase", pid)
            if "side" in body:
                self.reference(body["side"], sides, "side", path + ("side",))
            phases.append(self.phase_outline(pid, body, path))
        return tuple(phases)

    def constants(self, sides, game_map, terrain, units) -> set[str]:
        return set(sides) | set(terrain) | set(units) | self.area_names(game_map) | self.flags()

    def flags(self) -> set[str]:
        """The unit flags written in the file (also those of a unit with an error elsewhere)."""
        return {flag for body in self.get(("unit",), {}).values() if isinstance(body, dict)
                for flag in body.get("flags", ()) if isinstance(flag, str)}

    def area_names(self, game_map: m.MapDef | None) -> set[str]:
        """The zones and edges of the map; named by the map section even when its grid has an error
        (so a wrong map size is one error, not one more per zone an award counts in)."""
        if game_map:
            return set(game_map.zones) | set(game_map.edges)
        return set(self.get(("map", "zones"), {})) | set(self.get(("map", "edges"), {}))

    def names_by_kind(self, sides, game_map, unit_types, units, terrain, sequence) -> dict[str, frozenset[str]]:
        """The game's ids an expression may name, by kind (see rulec.compile.kinds)."""
        flags = self.flags()  # also those of a unit with an error elsewhere
        edges = set(game_map.edges) if game_map else set(self.get(("map", "edges"), {}))
        zones = self.area_names(game_map) - edges
        result = {kinds.SIDE: frozenset(sides), kinds.ZONE: frozenset(zones), kinds.EDGE: frozenset(edges),
                  kinds.UNIT_TYPE: frozenset(unit_types), kinds.FLAG: frozenset(flags), kinds.UNIT: frozenset(units),
                  kinds.TERRAIN: frozenset(terrain), kinds.PHASE: frozenset(p.id for p in sequence if p is not None),
                  kinds.TRACE: frozenset(self.get(("trace",), {})),
                  kinds.MARKER: frozenset(self.marker_ids()),
                  kinds.HEXSIDE_TYPE: frozenset(self.get(("hexside",), {})),
                  kinds.OPTION: frozenset(self.get(("option",), {})),
                  kinds.VARIABLE: frozenset(self.get(("variable",), {})),
                  kinds.FLAG_VARIABLES: frozenset(v for v, body in self.get(("variable",), {}).items()
                                                  if isinstance(body, dict) and isinstance(body.get("initial"), bool))}
        if game_map:
            result[kinds.HEX] = frozenset(game_map.hexes)
        return result

    def triggers(self, sides, game_map, sequence) -> dict[str, m.Trigger | None]:
        """Each award's trigger, read before any expression: the hexes of 'holds' triggers are what `controls` may ask about."""
        phase_ids = [p.id for p in sequence if p is not None]  # None: a phase with an error
        return {aid: self.trigger(body.get("when"), ("award", aid, "when"), sides, game_map, phase_ids)
                for aid, body in self.get(("award",), {}).items()}

    def awards(self, sides, triggers: dict[str, m.Trigger | None], compiler: ExpressionCompiler) -> tuple[m.Award, ...]:
        awards = []
        for aid, body in self.get(("award",), {}).items():
            path = ("award", aid)
            side = self.reference(body.get("side"), sides, "side", path + ("side",))
            trigger = triggers[aid]
            about = compiler.for_unit(trigger is not None and trigger.kind in UNIT_TRIGGERS)
            amount = self.expression(body.get("amount", 0), path + ("amount",), about, kinds.NUMBER)
            only = self.expression(body["only"], path + ("only",), about, kinds.BOOL) if "only" in body else None
            if side and trigger and amount:
                awards.append(m.Award(id=aid, side=side, trigger=trigger, amount=amount, only=only, text=body.get("text", "")))
        return tuple(awards)

    def trigger(self, value: Any, path: Path, sides, game_map, phase_ids) -> m.Trigger | None:
        tree = value.get("tree") if isinstance(value, dict) else None
        if value in ("selected", "game_end"):
            return m.Trigger(kind=value)
        if not tree or tree[0] != "call" or tree[1] not in ("phase", "holds", "exits", "eliminated"):
            self.error("bad-trigger", "'when' must be phase(P), holds(HEX...), exits(EDGE...), eliminated(SIDE), selected "
                       f"or game_end; found {plain(value)}", path)
            return None
        kind = tree[1]
        if tree[3] or any(a[0] not in ("name", "const") for a in tree[2]):
            self.error("bad-trigger", f"the arguments of {kind}() are names or hex numbers, found {plain(value)}", path)
            return None
        args = [a[1] for a in tree[2]]
        wanted = {"phase": "one phase", "eliminated": "one side", "holds": "at least one hex", "exits": "at least one map edge"}[kind]
        if (kind in ("phase", "eliminated") and len(args) != 1) or not args:
            self.error("bad-trigger", f"{kind}() takes {wanted}, found {plain(value)}", path)
            return None
        if kind == "phase":
            phase = self.reference(args[0] if args else None, phase_ids, "phase", path)
            return m.Trigger(kind="phase", phase=phase)
        if kind == "holds":
            return m.Trigger(kind="holds", hexes=tuple(h for h in (self.hex_ref(a, path) for a in args) if h))
        if kind == "exits":
            edges = game_map.edges if game_map else self.get(("map", "edges"), {})
            return m.Trigger(kind="exits", edges=tuple(e for e in (self.reference(a, edges, "edge", path) for a in args) if e))
        side = self.reference(args[0] if args else None, sides, "side", path)
        return m.Trigger(kind="eliminated", side=side)

    def _written_in_quotes(self, path: Path) -> bool:
        """Whether the value at `path` was written as a text in quotes (the document keeps both as a str)."""
        span = self.doc.span(path)
        lines = self.doc.text.split("\n")
        if span is None or not 1 <= span.line <= len(lines):
            return False
        return lines[span.line - 1][span.column - 1:span.column] == '"'

    def expression(self, value: Any, path: Path, compiler: ExpressionCompiler, want: str | None = None) -> m.Expr | None:
        if isinstance(value, dict) and "tree" in value:
            tree = value["tree"]
        elif isinstance(value, bool) or isinstance(value, (int, float)):
            tree = ["const", value]
        elif isinstance(value, str) and self._written_in_quotes(path):  # `amount = "eight"`: a text is no name
            self.error("wrong-type", f"expected a number or an expression, found the text \"{value}\"", path,
                       "write a number or an expression without quotes, such as 8 - turn")
            return None
        elif isinstance(value, str):
            tree = ["name", value]
        else:
            self.error("wrong-type", f"expected an expression, found {plain(value)}", path)
            return None
        try:
            typed = compiler.typed(tree, want)
            function = to_function(typed.python)
        except ExpressionError as error:
            self.error(error.code, error.message, _node_path(path, tree, error.node), error.hint)
            return None
        except (RecursionError, SyntaxError, MemoryError):  # Python reads at most about 200 nested parentheses
            self.error("syntax-too-deep", "this expression is nested too deeply", path, "split it, or write it with fewer parentheses")
            return None
        return m.Expr(source=unparse(tree), function=function, reads_position=bool(POSITIONAL & typed.depends),
                      reads_only_markers=MARKERS in typed.depends and POSITION not in typed.depends,
                      zones=zones_named(tree))

    def victory(self, sides: dict, compiler: ExpressionCompiler) -> m.VictoryRules:
        """Sudden deaths, then the levels tried in file order, then what happens when none holds.

        A level is written either as a lead the leader needs (`at_least`, measured by
        `measure`), which this builder turns into its condition, or as a condition and
        a winner (`when`, `winner`).
        """
        body = self.data["victory"]
        measure = body.get("measure", "difference")
        about_no_unit = compiler.for_unit(False)
        levels = []
        for lid, b in body.get("level", {}).items():
            path = ("victory", "level", lid)
            if self._level_form(lid, b, path, measure):
                levels.append(self._level(lid, b, path, measure, sides, about_no_unit))
        shorthand = [(lid, b) for lid, b in body.get("level", {}).items() if "at_least" in b and "when" not in b]
        if not any(d.code == "victory-level-kind" for d in self.diagnostics):  # thresholds of mixed kinds do not compare
            for (first, a), (second, b) in zip(shorthand, shorthand[1:]):
                if _level_threshold(b["at_least"]) >= _level_threshold(a["at_least"]):
                    self.error("victory-level-order", f"victory level '{second}' must need less than '{first}' (levels are listed best first)",
                               ("victory", "level", second, "at_least"))
        deaths = []
        for sid, b in body.get("sudden_death", {}).items():
            path = ("victory", "sudden_death", sid)
            when = self.expression(b.get("when"), path + ("when",), about_no_unit, kinds.BOOL)
            winner = b.get("winner", "draw")
            if winner != "draw":
                winner = self.reference(winner, [*sides, "draw"], "side", path + ("winner",))
            if when is not None:
                deaths.append(m.SuddenDeath(id=sid, name=b.get("name", sid), when=when, winner=None if winner == "draw" else winner,
                                            check=b.get("check", "end_of_phase")))
        otherwise = body.get("otherwise", "draw")
        if otherwise != "draw":
            otherwise = self.reference(otherwise, [*sides, "draw"], "side", ("victory", "otherwise"))
        return m.VictoryRules(measure=measure, levels=tuple(levels), draw=body.get("draw", "Draw"), sudden_death=tuple(deaths),
                              otherwise=None if otherwise in ("draw", None) else otherwise)

    def _level_form(self, lid: str, body: dict, path: Path, measure: str) -> bool:
        """A level is a lead (`at_least`) or a condition with a winner (`when`, `winner`), not both."""
        if "at_least" in body and ("when" in body or "winner" in body):
            self.error("victory-level-form", f"victory level '{lid}' gives both a lead ('at_least') and a condition", path, key=True,
                       hint="'at_least = N' is won by the side that leads; for another winner write 'when = ...  winner = SIDE'")
            return False
        if "at_least" not in body and ("when" not in body or "winner" not in body):
            missing = "a winner ('winner = SIDE' or 'winner = leader')" if "when" in body else "a condition ('when = ...') and a winner"
            self.error("victory-level-form", f"victory level '{lid}' needs {missing}", path, key=True,
                       hint="or give the lead the leader needs: 'at_least = N'")
            return False
        threshold = body.get("at_least")
        if measure == "difference" and isinstance(threshold, dict) and "$ratio" in threshold:
            high, low = threshold["$ratio"]
            self.error("victory-level-kind", f"victory level '{lid}' needs a lead of {high}:{low}, a ratio, "
                       "but victory is measured by the difference of the scores", path + ("at_least",),
                       "give the lead in VP (at_least = 10), or write 'measure = ratio' in the victory block")
            return False
        return True

    def _level(self, lid: str, body: dict, path: Path, measure: str, sides: dict, compiler: ExpressionCompiler) -> m.VictoryLevel:
        name = body.get("name", lid)
        if "at_least" in body:
            threshold = _level_threshold(body["at_least"])
            measured = ["name", "lead_ratio" if measure == "ratio" else "lead"]
            tree = ["and", [["op", ">", ["name", "lead"], ["const", 0]], ["op", ">=", measured, ["const", threshold]]]]
            when = m.Expr(source=unparse(tree), function=to_function(compiler.source(tree, kinds.BOOL)))
            return m.VictoryLevel(id=lid, name=name, at_least=threshold, when=when)
        winner = body["winner"]
        if winner != "leader":
            winner = self.reference(winner, [*sides, "leader"], "side", path + ("winner",))
        condition = self.expression(body["when"], path + ("when",), compiler, kinds.BOOL)
        return m.VictoryLevel(id=lid, name=name, when=condition, winner=None if winner == "leader" else winner)

    def battle(self) -> m.BattleSystem | None:
        # Battle systems (no map) are built by their own module.
        from rulec.check.build_battle import build_battle

        return build_battle(self)

    # -------------------------------------------------------------- options
    def options(self, sides, units, game_map: m.MapDef | None = None) -> dict[str, m.Option]:
        result = {}
        for oid, body in self.get(("option",), {}).items():
            path = ("option", oid)
            for i, uid in enumerate(body.get("adds", [])):
                self.reference(uid, units, "unit", path + ("adds", i))
            for side in body.get("vp", {}):
                self.reference(side, sides, "side", path + ("vp", side))
            choice = self.variant_choice(path) if isinstance(body.get("choose_variant"), dict) else None
            setup, arrivals = self.unit_overrides(body, path, units, game_map)
            result[oid] = m.Option(id=oid, name=body.get("name", oid), text=body.get("text", ""), adds=tuple(body.get("adds", ())),
                                   vp=dict(body.get("vp", {})),
                                   choose_variant=choice,
                                   excludes=self.exclusions(body, path), setup=setup, arrivals=arrivals)
        return result


def _node_path(path: Path, tree: list, node: list | None) -> Path:
    """The document path of a sub-expression of the expression at `path` (where parse recorded its span)."""
    if node is None or not isinstance(tree, list):
        return path
    return next((path + ("tree", *at) for at, sub in tree_nodes(tree) if sub is node), path)


def _level_threshold(value: Any) -> float:
    """A victory level threshold: a number, or a ratio such as 3:1 as a float."""
    if isinstance(value, dict) and "$ratio" in value:
        high, low = value["$ratio"]
        return high / low if low else float("inf")
    return value


def zones_named(tree: list) -> tuple[str, ...]:
    """The zones named by the `zone = NAME` arguments of the calls anywhere in an expression tree, each once, in the
    order written (model.Expr.zones)."""
    zones: list[str] = []
    for _, node in tree_nodes(tree):
        if node and node[0] == "call" and len(node) > 3 and isinstance(node[3], dict):
            zone = node[3].get("zone")
            if isinstance(zone, list) and len(zone) == 2 and zone[0] in ("name", "const") \
                    and isinstance(zone[1], str) and zone[1] not in zones:
                zones.append(zone[1])
    return tuple(zones)
