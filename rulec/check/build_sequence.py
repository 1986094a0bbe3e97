"""Build the sequence of play as procedures, and the scenarios and option exclusions.

A phase follows one of a closed set of procedures (movement, combat, placement,
automatic; rulec/engine/procedures.py plays them) with predicates (`when`, `movers`,
`attackers`), hooks (`on phase_start { effects = [...] }`) and, for placement, a
`placement { pool  hexes  points  cost }` block. The older kinds victory_points and
end_of_turn are rewritten here as automatic, so nothing after the checker knows them.
Mixed into the Builder (build.py) like MapSections and CombatSections.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rulec.check.fields import plain
from rulec.compile import kinds
from rulec.compile.expressions import ExpressionCompiler, ExpressionError
from rulec.compile.functions import IN_BATTLE
from rulec.diagnostics import did_you_mean
from rulec.language.parse import unparse
from rulec.language.document import Path
from rulec.runtime import model as m

# Kinds written before procedures existed, and the procedure each is.
KIND_ALIASES = {"victory_points": "automatic", "end_of_turn": "automatic"}
HOOK_EVENTS = ("phase_start", "phase_end")
GAME_EVENTS = ("unit_eliminated", "unit_exited", "battle_resolved", "game_end")
UNIT_EVENTS = frozenset({"unit_eliminated", "unit_exited"})  # their expressions are about the unit
# Hook effects and the kinds of their arguments.
HOOK_EFFECTS = {"score": (kinds.SIDE, kinds.NUMBER), "eliminate": (kinds.UNITS,), "mark": (kinds.UNITS, kinds.MARKER),
                "unmark": (kinds.UNITS, kinds.MARKER), "set": (kinds.VARIABLE, None), "add": (kinds.VARIABLE, kinds.NUMBER),
                "lose_step": (kinds.UNITS,), "restore_step": (kinds.UNITS,)}
HOOK_FORMS = {"score": "score(SIDE, AMOUNT)", "eliminate": "eliminate(UNITS)", "mark": "mark(UNITS, MARKER)",
              "unmark": "unmark(UNITS, MARKER)", "set": "set(VARIABLE, VALUE)", "add": "add(VARIABLE, AMOUNT)",
              "lose_step": "lose_step(UNITS)", "restore_step": "restore_step(UNITS)"}
PHASE_FIELDS = ["name", "side", "kind", "when", "movers", "modes", "attackers", "on", "placement"]
BATTLE_EVENTS = frozenset({"battle_resolved"})  # their expressions see the battle: attackers, defender_hexes...


class SequenceSections:
    """The sequence's procedures, scenarios and option exclusions (methods of the Builder)."""

    # ------------------------------------------------------------ phases
    def phase_outline(self, pid: str, body: dict, path: Path) -> m.Phase:
        """A phase without its expressions (phase names are needed before any expression is compiled)."""
        kind = KIND_ALIASES.get(body.get("kind"), body.get("kind"))
        plain_fields = {k: v for k, v in body.items() if k in ("name", "side")}
        for key in body:
            if key not in PHASE_FIELDS:
                self.error("unknown-field", f"'{key}' is not a field of phase", path + (key,), did_you_mean(key, PHASE_FIELDS),
                           key=True)
        return m.Phase(id=pid, name=plain_fields.get("name", pid), kind=kind, side=plain_fields.get("side"))

    def procedures(self, sequence: tuple[m.Phase, ...], compiler: ExpressionCompiler) -> tuple[m.Phase, ...]:
        """The phases with their predicates, hooks and placement compiled."""
        result = []
        bodies = self.get(("sequence", "phase"), {})
        for phase in sequence:
            body = bodies.get(phase.id, {})
            path = ("sequence", "phase", phase.id)
            fields: dict[str, Any] = {}
            if "when" in body:
                fields["when"] = self.expression(body["when"], path + ("when",), compiler, kinds.BOOL)
            for key, wanted in (("movers", "movement"), ("attackers", "combat")):
                if key in body:
                    if phase.kind != wanted:
                        self.error("phase-field-kind", f"'{key}' belongs to a {wanted} phase, not a {phase.kind} phase",
                                   path + (key,), key=True)
                    fields[key] = self.expression(body[key], path + (key,), compiler, kinds.UNITS)
            if "modes" in body:
                fields["modes"] = self.phase_modes(phase, body["modes"], path + ("modes",))
            hooks = []
            for event, hook in (body.get("on") or {}).items():
                if event not in HOOK_EVENTS or not isinstance(hook, dict):
                    continue  # the schema reports it
                built = self.hook(event, hook, path + ("on", event), compiler)
                if built is not None:
                    hooks.append(built)
            fields["hooks"] = tuple(hooks)
            if phase.kind == "placement":
                if "placement" not in body:
                    self.error("placement-incomplete", f"placement phase '{phase.id}' has no placement block", path, key=True,
                               hint="add placement { pool = units(side = S, status = pending)  hexes = hexes(zone = Z) }")
                else:
                    fields["placement"] = self.placement(body["placement"], path + ("placement",), compiler)
                if phase.side is None:
                    self.error("placement-incomplete", f"placement phase '{phase.id}' names no side to place units", path, key=True)
            elif "placement" in body:
                self.error("phase-field-kind", f"a placement block belongs to a placement phase, not a {phase.kind} phase",
                           path + ("placement",), key=True)
            result.append(replace(phase, **fields))
        return tuple(result)

    def phase_modes(self, phase: m.Phase, written: Any, path: Path) -> tuple[str, ...]:
        """A movement phase's `modes`: movement modes by id, and `ordinary` for an ordinary move."""
        if phase.kind != "movement":
            self.error("phase-field-kind", f"'modes' belongs to a movement phase, not a {phase.kind} phase", path, key=True)
        known = [*self.get(("mode",), {}), m.ORDINARY]
        found = tuple(mode for i, mode in enumerate(written if isinstance(written, list) else [])
                      if self.reference(mode, known, "mode", path + (i,)))
        return tuple(dict.fromkeys(found))

    def game_hooks(self, compiler: ExpressionCompiler) -> tuple[m.Hook, ...]:
        """The whole game's hooks: sequence { on unit_eliminated { effects = [...] } }."""
        hooks = []
        for event, body in (self.get(("sequence", "on")) or {}).items():
            if event in GAME_EVENTS and isinstance(body, dict):  # anything else: the schema reports it
                about = compiler.inside(IN_BATTLE) if event in BATTLE_EVENTS else compiler.for_unit(event in UNIT_EVENTS)
                hooks.append(self.hook(event, body, ("sequence", "on", event), about))
        return tuple(hooks)

    def hook(self, event: str, body: dict, path: Path, compiler: ExpressionCompiler) -> m.Hook:
        effects = []
        for i, item in enumerate(body.get("effects", ())):
            effect = self.hook_effect(item, path + ("effects", i), compiler)
            if effect is not None:
                effects.append(effect)
        when = self.expression(body["when"], path + ("when",), compiler, kinds.BOOL) if "when" in body else None
        return m.Hook(event=event, effects=tuple(effects), when=when)

    def hook_effect(self, item: Any, path: Path, compiler: ExpressionCompiler) -> m.HookEffect | None:
        tree = item.get("tree") if isinstance(item, dict) else None
        name = tree[1] if isinstance(tree, list) and tree[0] == "call" else None
        if name not in HOOK_EFFECTS:
            self.error("unknown-effect", f"{plain(item)} is not a hook effect", path,
                       did_you_mean(str(name), list(HOOK_EFFECTS)) if name else f"hook effects are {', '.join(HOOK_FORMS.values())}")
            return None
        args, wanted = tree[2], HOOK_EFFECTS[name]
        if len(args) != len(wanted) or tree[3]:
            self.error("argument-count", f"'{name}' takes {len(wanted)} argument(s)", path, f"write {HOOK_FORMS[name]}")
            return None
        if name == "score":
            side = args[0][1] if args[0][0] == "name" else None
            if self.reference(side, self.data.get("side", {}), "side", path) is None:
                return None
            amount = self.expression({"tree": args[1]}, path, compiler, kinds.NUMBER)
            return m.HookEffect("score", side=side, amount=amount) if amount else None
        if name in ("mark", "unmark"):
            return self.marking_effect(name, args, path, compiler)
        if name in ("set", "add"):
            return self.variable_effect(name, args, path, compiler)
        units = self.expression({"tree": args[0]}, path, compiler, kinds.UNITS)
        return m.HookEffect(name, units=units) if units else None

    def variable_effect(self, name: str, args: list, path: Path, compiler: ExpressionCompiler) -> m.HookEffect | None:
        """set(VARIABLE, VALUE): a value of the variable's kind (a number, or a condition for a flag);
        add(VARIABLE, AMOUNT): a number added to a number variable."""
        variables = self.get(("variable",), {})
        written = args[0][1] if args[0][0] == "name" else unparse(args[0])
        variable = self.reference(written, variables, "variable", path)
        if variable is None:
            return None
        is_flag = isinstance(variables[variable].get("initial") if isinstance(variables[variable], dict) else None, bool)
        if name == "add" and is_flag:
            self.error("wrong-kind", f"variable '{variable}' is a flag (true or false): add() takes a number variable",
                       path, f"write set({variable}, not {variable})")
            return None
        amount = self.expression({"tree": args[1]}, path, compiler, kinds.BOOL if is_flag else kinds.NUMBER)
        return m.HookEffect(name, variable=variable, amount=amount) if amount else None

    def marking_effect(self, name: str, args: list, path: Path, compiler: ExpressionCompiler) -> m.HookEffect | None:
        """mark(UNITS, MARKER) or unmark(UNITS, MARKER); HEXES instead of UNITS for a marker put on hexes."""
        marker_name = args[1][1] if args[1][0] in ("name", "const") else None
        marker = self.marker_reference(str(marker_name) if marker_name is not None else unparse(args[1]), path)
        if marker is None:
            return None
        on_hexes = self.get(("marker", marker, "on"), "unit") == "hex"
        wanted, other = (kinds.HEXES, kinds.UNITS) if on_hexes else (kinds.UNITS, kinds.HEXES)
        try:
            found = compiler.typed(args[0]).kind
        except ExpressionError:
            found = None  # reported just below, at its place
        if found == other:
            self.error("wrong-kind", f"marker '{marker}' is put on {'hexes' if on_hexes else 'units'}: {name} takes a set "
                       f"of {wanted} first, not {other} ({unparse(args[0])})", path,
                       f"write {name}(select(h in hexes() where ...), {marker})" if on_hexes
                       else f"write {name}(select(u in units() where ...), {marker})")
            return None
        targets = self.expression({"tree": args[0]}, path, compiler, wanted)
        return m.HookEffect(name, units=targets, marker=marker) if targets else None

    def placement(self, body: dict, path: Path, compiler: ExpressionCompiler) -> m.Placement | None:
        tiers: tuple[m.Expr, ...] = ()
        written = body.get("pool")
        if isinstance(written, list):  # sets in order: the pool is their union, placed earlier sets first
            built = [self.expression(item, path + ("pool", i), compiler, kinds.UNITS) for i, item in enumerate(written)]
            if None in built or not built:
                return None
            tiers = tuple(e for e in built if e is not None)
            union = written[0]["tree"] if isinstance(written[0], dict) else ["name", written[0]]
            for item in written[1:]:
                union = ["op", "+", union, item["tree"] if isinstance(item, dict) else ["name", item]]
            written = {"tree": union}
        pool = self.expression(written, path + ("pool",), compiler, kinds.UNITS)
        hexes_value = body.get("hexes")
        if isinstance(hexes_value, str):  # a zone's name: its hexes
            hexes_value = {"tree": ["call", "hexes", [], {"zone": ["name", hexes_value]}]}
        hexes = self.expression(hexes_value, path + ("hexes",), compiler, kinds.HEXES)
        points = self.expression(body["points"], path + ("points",), compiler, kinds.NUMBER) if "points" in body else None
        cost = None
        if "cost" in body:
            if points is None:
                self.error("field-alone", f"placement of phase '{path[2]}' gives 'cost' without 'points', so it would do nothing",
                           path + ("cost",), key=True, hint="add points = N (the points to spend this phase)")
            cost = self.expression(body["cost"], path + ("cost",), compiler.for_unit(True), kinds.NUMBER)
        if pool is None or hexes is None:
            return None
        steps_lost = (self.expression(body["steps_lost"], path + ("steps_lost",), compiler.for_unit(True), kinds.NUMBER)
                      if "steps_lost" in body else None)
        return m.Placement(pool=pool, hexes=hexes, points=points, cost=cost, all=bool(body.get("all", False)), tiers=tiers,
                           steps_lost=steps_lost, restore=bool(body.get("restore", False)))

    # ------------------------------------------------------------ options, scenarios
    def exclusions(self, body: dict, path: Path) -> tuple[str, ...]:
        """An option's `excludes`: other options, checked by name."""
        options = self.get(("option",), {})
        result = []
        for i, other in enumerate(body.get("excludes", ())):
            if self.reference(other, [o for o in options if o != path[-1]], "option", path + ("excludes", i)):
                result.append(other)
        return tuple(result)

    def scenarios(self, sides, units, sequence, options, game_turns: int, game_map: m.MapDef | None = None,
                  tracked: frozenset[str] = frozenset()) -> dict[str, m.Scenario]:
        """The scenario blocks; `game_turns` is the game's length (0: no fixed length); `tracked` the hexes whose
        holder the engine tracks."""
        result = {}
        phase_ids = [p.id for p in sequence]
        for sid, body in self.get(("scenario",), {}).items():
            path = ("scenario", sid)
            for key in ("add", "remove"):
                for i, uid in enumerate(body.get(key, ())):
                    self.reference(uid, units, "unit", path + (key, i))
            for i, uid in enumerate(body.get("add", ())):
                if uid in units and not units[uid].optional:
                    self.error("option-adds-regular-unit", f"scenario '{sid}' adds unit '{uid}', which is in play anyway",
                               path + ("add", i), hint="mark the unit 'optional = true'")
            for side in body.get("vp", {}):
                self.reference(side, sides, "side", path + ("vp", side), key=True)
            start = body.get("start", {})
            setup, arrivals = self.unit_overrides(body, path, units, game_map, start.get("turn", 1))
            holders = self.scenario_holders(body, path, sides, game_map, tracked)
            for i, oid in enumerate(body.get("options", ())):
                self.reference(oid, options, "option", path + ("options", i))
            start = body.get("start", {})
            start_phase = start.get("phase")
            if start_phase is not None:
                self.reference(start_phase, phase_ids, "phase", path + ("start", "phase"))
            for i, pid in enumerate(body.get("deployment", ())):
                if self.reference(pid, phase_ids, "phase", path + ("deployment", i)):
                    if sequence[phase_ids.index(pid)].kind != "placement":
                        self.error("deployment-not-placement", f"deployment phase '{pid}' is not a placement phase",
                                   path + ("deployment", i))
            turns = body.get("turns")
            last = turns if turns is not None else game_turns
            if isinstance(last, int) and last > 0 and start.get("turn", 1) > last:
                where = path + ("turns",) if turns is not None else path + ("start", "turn")
                self.error("scenario-length", f"scenario '{sid}' starts on turn {start.get('turn')} "
                           f"but ends on turn {last}" + ("" if turns is not None else ", the game's last"), where)
            listed = body.get("options")
            result[sid] = m.Scenario(
                id=sid, name=body.get("name", sid), text=body.get("text", ""), start_turn=start.get("turn", 1),
                start_phase=start_phase, turns=turns, add=tuple(body.get("add", ())), remove=tuple(body.get("remove", ())),
                vp=dict(body.get("vp", {})), deployment=tuple(body.get("deployment", ())),
                options=tuple(listed) if listed is not None else None, arrivals=arrivals, setup=setup, holders=holders)
        return result
