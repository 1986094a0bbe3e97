"""Build the combat sections: result codes, combat results tables (columns, rows) and the combat rules.

A mixin of rulec.check.build.Builder, like build_map.
"""

from __future__ import annotations

from typing import Any

from rulec.check.fields import counted, tuples_of
from rulec.check.schema import show
from rulec.compile import kinds
from rulec.compile.expressions import ExpressionError
from rulec.compile.functions import IN_BATTLE, IN_HEX
from rulec.diagnostics import did_you_mean
from rulec.language.limits import MAX_RETREAT_HEXES
from rulec.language.parse import unparse
from rulec.language.document import Path
from rulec.runtime import model as m


class CombatSections:
    """Result codes, tables and the combat block."""

    def results(self) -> dict[str, m.ResultCode]:
        results = {}
        for rid, body in self.get(("result",), {}).items():
            path = ("result", rid)
            effects = tuple(e for i, item in enumerate(body.get("effects", ()) if isinstance(body, dict) else ())
                            if (e := self.effect(item, path + ("effects", i))) is not None)
            results[rid] = self.record(m.ResultCode, path, id=rid, effects=effects)
        return results

    def effect(self, item: Any, path: Path) -> m.Effect | None:
        """One effect of a result: `exchange`, `eliminate(defender)`, `retreat(attacker, 1)`, `advance(1)`."""
        if isinstance(item, str):
            name, args = item, []
        elif isinstance(item, dict) and isinstance(item.get("tree"), list) and item["tree"][0] == "call":
            _, name, args, keywords = item["tree"]
            if keywords:
                self.error("unknown-argument", f"'{name}' takes no keyword argument ('{next(iter(keywords))}')", path)
                return None
        else:
            self.error("unknown-effect", f"{show(item)} is not an effect", path,
                       hint=f"effects are {', '.join(EFFECT_FORMS.values())}")
            return None
        form = EFFECT_FORMS.get(name)
        if form is None:
            self.error("unknown-effect", f"unknown effect '{name}'", path,
                       did_you_mean(name, list(EFFECT_FORMS)) or f"effects are {', '.join(EFFECT_FORMS.values())}")
            return None
        params = EFFECT_PARAMETERS[name]
        if name == "advance" and len(args) == 2:  # advance(defender, 3): the defender's units may advance
            params = ("who",) + params
        if len(args) != len(params):
            self.error("argument-count", f"'{name}' takes {len(params)} argument(s), not {len(args)}", path,
                       hint=f"write {form}")
            return None
        values: dict[str, Any] = {}
        for param, arg in zip(params, args):
            if param == "who":
                who = arg[1] if arg[0] in ("name", "const") else None
                if who not in WHO:
                    self.error("effect-argument", f"'{name}' applies to attacker or defender, not {unparse(arg)}",
                               path, did_you_mean(str(who), list(WHO)) if isinstance(who, str) else None)
                    return None
                values["who"] = who
            elif param == "marker":
                marker = self.marker_reference(arg[1] if arg[0] == "name" else str(arg[1]), path)
                if marker is None:
                    return None
                values["marker"] = marker
            elif name in ("lose", "lose_steps") and arg[0] == "call" and arg[1] in LOST_AMOUNTS:
                lost_by = self.lost_amount(arg, name, path)  # what the other side lost in this result
                if lost_by is None:
                    return None
                values["lost_by"], values["lost_in"] = lost_by, LOST_AMOUNTS[arg[1]]
            else:
                amount = arg[1] if arg[0] == "const" else None
                if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
                    computed = " or lost(attacker|defender), steps_lost(attacker|defender)" if name in ("lose", "lose_steps") else ""
                    self.error("effect-argument", f"the {param} of '{name}' must be a whole number, 1 or more{computed}, "
                               f"not {unparse(arg)}", path,
                               did_you_mean(arg[1], list(LOST_AMOUNTS)) if arg[0] == "call" and computed else None)
                    return None
                if name == "retreat" and amount > MAX_RETREAT_HEXES:
                    self.error("limit-retreat", f"a retreat of {amount} hexes: at most {MAX_RETREAT_HEXES}, for every "
                               "path of a retreat is an order to choose from, and they multiply with each hex", path,
                               hint="a retreat of a few hexes is what board games have (one to four, six at most)")
                    return None
                values["amount"] = amount
        return m.Effect(name, **values)

    def lost_amount(self, arg: list, effect: str, path: Path) -> str | None:
        """`lost(defender)` or `steps_lost(attacker)` as the amount of lose or lose_steps: the side it reads."""
        _, function, inner, keywords = arg
        who = inner[0][1] if len(inner) == 1 and inner[0][0] in ("name", "const") else None
        if keywords or who not in WHO:
            self.error("effect-argument", f"'{function}' in '{effect}' reads what attacker or defender lost, "
                       f"not {unparse(arg)}", path, f"write {effect}(attacker, {function}(defender))")
            return None
        return who

    def tables(self, results: dict) -> dict[str, m.CombatTable]:
        tables = {}
        for tid, body in self.get(("crt",), {}).items():
            path = ("crt", tid)
            kind = body.get("kind", "differential")
            raw_columns = body.get("columns", [])
            labels = body.get("labels", [])
            columns = []
            well_formed = True  # gaps and overlaps are only worth reporting between well-formed columns
            for i, column in enumerate(raw_columns):
                ends = self.crt_column(column, path + ("columns", i), kind)
                well_formed = well_formed and ends is not None
                low, high = ends if ends is not None else (None, None)
                label = labels[i] if i < len(labels) else (_column_label(low, high, kind) if ends else show(column))
                columns.append(m.CrtColumn(label=label, low=low, high=high))
            if well_formed:
                self.check_columns(columns, kind, path + ("columns",))
            if len(labels) not in (0, len(raw_columns)):
                self.error("crt-labels", f"{counted(len(labels), 'label')} for {counted(len(raw_columns), 'column')}", path + ("labels",))
            rows = {}
            for roll, codes in body.get("rows", {}).items():
                rpath = path + ("rows", roll)
                if len(codes) != len(columns):
                    short = len(codes) < len(columns)
                    hint = (f"add {counted(len(columns) - len(codes), 'result')}" if short
                            else f"remove {counted(len(codes) - len(columns), 'result')}")
                    self.error("crt-row-length", f"die roll {roll} has {counted(len(codes), 'result')} for {counted(len(columns), 'column')}",
                               rpath, hint=f"{hint}: one per column, in the order of 'columns'")
                for j, code in enumerate(codes):
                    self.reference(code, results, "result code", rpath + (j,))
                rows[int(roll)] = tuple(codes)
            tables[tid] = m.CombatTable(id=tid, kind=kind, columns=tuple(columns), rows=rows, beyond=body.get("beyond", "clamp"),
                                        drm=body.get("drm", "attacker"))
        return tables

    def crt_column(self, value: Any, path: Path, kind: str) -> tuple[Any, Any] | None:
        """(low, high) of one column (an end is a whole number or a ratio, None when open); None if malformed."""
        def one(end):
            if end is None:
                return None
            if isinstance(end, dict) and "$ratio" in end:
                return tuple(end["$ratio"]) if kind == "odds" else _BAD
            if isinstance(end, int) and not isinstance(end, bool):
                return end if kind == "differential" else _BAD
            return _BAD
        if isinstance(value, dict) and "$range" in value:
            low, high = (one(end) for end in value["$range"])
        else:
            low = high = one(value)
            if low is None:
                low = high = _BAD
        if low is _BAD or high is _BAD:
            expected = "a ratio such as 3:1 or a range of ratios such as 1:2..2:1" if kind == "odds" else "a whole number or a range such as 2..3"
            self.error("crt-column-kind", f"a column of a{'n' if kind == 'odds' else ''} {kind} table is {expected}, found {show(value)}", path)
            return None
        if low is not None and high is not None and _bound(low) > _bound(high):
            self.error("crt-column-order", f"column {show(value)} runs backwards", path, hint="write the lower end first")
            return None
        return low, high

    def check_columns(self, columns: list[m.CrtColumn], kind: str, path: Path) -> None:
        """Columns must follow each other with no gap and no overlap; only the ends may be open."""
        for i, (a, b) in enumerate(zip(columns, columns[1:])):
            if a.high is None or b.low is None:
                self.error("crt-column-open", "only the first column may be open below and only the last open above", path + (i + 1,))
                continue
            if kind == "differential":
                if b.low > a.high + 1:
                    self.error("crt-column-gap", f"columns '{a.label}' and '{b.label}' leave a gap: no column for "
                               f"{_difference_words(a.high + 1, b.low - 1)}", path + (i + 1,))
                elif b.low <= a.high:
                    self.error("crt-column-overlap", f"columns '{a.label}' and '{b.label}' overlap", path + (i + 1,))
            elif _bound(b.low) <= _bound(a.high):
                self.error("crt-column-overlap", f"columns '{a.label}' and '{b.label}' overlap", path + (i + 1,))

    def combat(self, tables: dict, compiler: Any = None) -> m.CombatRules:
        body = self.data["combat"]
        policies = self.combat_duties(body, compiler)  # may_attack, must_attack, must_be_attacked (build_units.py)
        if isinstance(body.get("retreat"), dict):
            policies["retreat"] = self.retreat_policy(body["retreat"], compiler)
        for name in ("share_fate", "spared"):  # conditions about a unit and the battle
            if name in body and compiler is not None:
                policies[name] = self.expression(body[name], ("combat", name), compiler.inside(IN_BATTLE, about_unit=True),
                                                 kinds.BOOL)
        if isinstance(body.get("advance"), dict):
            policies["advance"] = self.record(m.AdvancePolicy, ("combat", "advance"), **tuples_of(body["advance"], "into"))
        rules = self.record(m.CombatRules, ("combat",), **policies)
        if rules:
            self.reference(rules.table, tables, "combat table", ("combat", "table"))
        return rules

    def retreat_policy(self, body: dict, compiler: Any = None) -> m.RetreatPolicy:
        path = ("combat", "retreat")
        edges = body.get("edges", {})
        sides = list(self.get(("side",), {}))
        map_edges = list(self.get(("map", "edges"), {}))
        for side, edge in edges.items():
            self.reference(side, sides, "side", path + ("edges", side), key=True)
            self.reference(edge, map_edges, "edge", path + ("edges", side))
        unit_types = list(self.get(("unit_type",), {}))
        for i, kind in enumerate(body.get("exempt", ()) if isinstance(body.get("exempt"), list) else ()):
            self.reference(kind, unit_types, "unit type", path + ("exempt", i))
        if body.get("direction") in ("toward_edge", "toward_edge_rows"):
            for side in sides:
                if side not in edges:
                    self.error("missing-field", f"retreats go toward a map edge, but side '{side}' has none",
                               path + ("direction",), hint=f"add edges {{ {side} = EDGE }} to the retreat block")
        conditions = self.retreat_conditions(body, path, compiler)
        return self.record(m.RetreatPolicy, path, **tuples_of(body, "may_not_enter", "may_not_end", "exempt"), **conditions)

    def retreat_conditions(self, body: dict, path: Path, compiler: Any) -> dict[str, Any]:
        """`prefer`, `may_enter` and `may_end`, compiled about `hex` and `unit` (the names outside_enemy_zoc and
        unoccupied written as the conditions they stand for). A `may_enter` without `may_not_enter`
        replaces the default kinds of hex a retreat may not enter."""
        conditions: dict[str, Any] = {}
        if compiler is None:
            return conditions
        about = compiler.inside(IN_HEX, about_unit=True)
        if "may_enter" in body:
            conditions["may_enter"] = self.expression(body["may_enter"], path + ("may_enter",), about, kinds.BOOL)
            if "may_not_enter" not in body:
                conditions["may_not_enter"] = ()
        if "may_end" in body:
            conditions["may_end"] = self.expression(body["may_end"], path + ("may_end",), about, kinds.BOOL)
        if "displace" in body:
            conditions["displace"] = self.expression(body["displace"], path + ("displace",), about, kinds.BOOL)
            if "occupied" not in body.get("may_not_enter", () if "may_enter" in body else ("occupied",)):
                self.error("field-alone", "the retreat gives 'displace' but may enter occupied hexes anyway, so nobody "
                           "would be pushed aside", path + ("displace",), key=True,
                           hint="list occupied in may_not_enter, or leave displace out")
        prefer = []
        for i, item in enumerate(body.get("prefer", ()) if isinstance(body.get("prefer"), list) else ()):
            found = self.preference(item, path + ("prefer", i), about)
            if found is not None:
                prefer.append(found)
        conditions["prefer"] = tuple(prefer)
        return conditions

    def preference(self, item: Any, path: Path, about: Any) -> m.Expr | None:
        """One retreat preference: a condition or a number about the path's last hex."""
        if isinstance(item, str) and item in PREFERENCE_NAMES:
            item = {"tree": PREFERENCE_NAMES[item]}
        elif isinstance(item, str) and not about.candidates(["name", item], {}):
            self.error("unknown-name", f"unknown retreat preference '{item}'", path,
                       did_you_mean(item, list(PREFERENCE_NAMES)) or
                       "write a condition about hex and unit, a number (the lowest is kept), outside_enemy_zoc or unoccupied")
            return None
        if isinstance(item, dict) and "tree" in item:
            tree = item["tree"]
        else:
            tree = ["name", item] if isinstance(item, str) else ["const", item]
        try:
            kind = about.typed(tree).kind
        except ExpressionError:
            kind = None  # self.expression reports it where it is
        if kind not in (None, kinds.BOOL, kinds.NUMBER):
            self.error("wrong-kind", f"a retreat preference is a condition or a number, not {kinds.article(kind)} "
                       f"({unparse(tree)})", path, "write a condition such as not occupied(hex), or a number such as "
                       "count(units_at(hex)) (the lowest is kept)")
            return None
        return self.expression(item, path, about, kind)


_BAD = object()  # a column end of the wrong kind (already reported)

# The retreat preferences written as names, and the conditions they stand for.
PREFERENCE_NAMES = {
    "outside_enemy_zoc": ["not", ["call", "enemy_zoc", [["attr", ["name", "unit"], "side"], ["name", "hex"]], {}]],
    "unoccupied": ["not", ["call", "occupied", [["name", "hex"]], {}]],
}

# The effects a result may list (model.Effect), how each is written, and its parameters.
EFFECT_FORMS = {"eliminate": "eliminate(attacker|defender)", "retreat": "retreat(attacker|defender, hexes)",
                "exchange": "exchange", "lose": "lose(attacker|defender, strength or lost(...) or steps_lost(...))",
                "lose_steps": "lose_steps(attacker|defender, steps or lost(...) or steps_lost(...))", "advance": "advance([attacker|defender,] count)",
                "mark": "mark(attacker|defender, marker)", "unmark": "unmark(attacker|defender, marker)"}
EFFECT_PARAMETERS = {"eliminate": ("who",), "retreat": ("who", "hexes"), "exchange": (), "lose": ("who", "strength"),
                     "lose_steps": ("who", "steps"), "advance": ("count",), "mark": ("who", "marker"),
                     "unmark": ("who", "marker")}
WHO = ("attacker", "defender")
# What a side of the battle has lost so far in the result, as the amount of lose or lose_steps: in strength, in steps.
LOST_AMOUNTS = {"lost": "strength", "steps_lost": "steps"}


def _bound(end: int | tuple[int, int]) -> float:
    """A column end as a number: a differential, or an odds ratio as a fraction."""
    return end[0] / end[1] if isinstance(end, tuple) else end


def _difference_words(low: int, high: int) -> str:
    return f"{low:+d}" if low == high else f"{low:+d} to {high:+d}"


def _column_label(low, high, kind: str) -> str:
    """'+2, +3', '-1 or less', '6:1 or more': how a column heads the printed table."""
    def end(v):
        return ":".join(map(str, v)) if isinstance(v, tuple) else (f"{v:+d}" if kind == "differential" else str(v))
    if low == high:
        return end(low)
    if low is None:
        return f"{end(high)} or less"
    if high is None:
        return f"{end(low)} or more"
    return f"{end(low)}, {end(high)}"
