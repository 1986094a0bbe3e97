"""Build the `battle { ... }` section of a game file into a BattleSystem.

A battle system (the battle rules of matrix games) has no map: a
type-versus-type matrix, unit kinds, qualities, side modifiers, an outcome
table by score ratio, an army-state table and skirmish rules. This module
checks each part and reports problems as diagnostics with stable codes:

    unknown-battle-category       a category the `categories` list lacks
    battle-matrix-row-missing     a category without a row in the matrix
    battle-matrix-column-missing  a matrix row without a column for some category
    unknown-battle-quality        a quality the `qualities` table lacks
    unknown-battle-modifier       `ambush`/`exhaustion` naming no modifier
    battle-name-clash             two unit kinds answering to the same name
    battle-outcome-even           not exactly one `even` outcome band
    battle-outcome-open           only the last band may lack `below`
    battle-outcome-order          bands out of order (ratios or casualty points)
    battle-outcome-ratio          `below` is not a ratio above 1:1
    battle-army-state-condition   a `when` the checker cannot evaluate
    battle-army-state-gap         counts for which no army-state row holds
    battle-army-state-overlap     counts for which two rows hold
    battle-bad-value              a value of the wrong kind or out of range
    unknown-field                 a key the battle section does not know
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulec.battle.army import ArmyCounts
from rulec.compile.expressions import to_function
from rulec.diagnostics import did_you_mean
from rulec.language.document import Path
from rulec.language.parse import unparse
from rulec.runtime import model as m

if TYPE_CHECKING:
    from rulec.check.build import Builder

ROOT: Path = ("battle",)
SECTION_KEYS = {
    "categories", "matrix", "kind", "qualities", "default_quality", "deployment", "match_first",
    "reserve_modifier", "modifier", "ambush", "exhaustion", "argument_values", "score_floor",
    "pair_matrix", "outcome", "drawn_battle", "army_state", "skirmish",
}
KIND_KEYS = {"name", "category", "distance_weapon", "quality", "aliases"}
MODIFIER_KEYS = {"name", "value", "sides", "reserves", "text"}
OUTCOME_KEYS = {"name", "even", "below", "casualty_points", "text"}
ARMY_STATE_KEYS = {"name", "when", "loser", "winner", "loser_exhausted", "winner_exhausted"}
DEPLOYMENT_KEYS = {"double_up", "smaller_side_reserve", "distance_reserve_first"}
SKIRMISH_KEYS = {"line", "reserves", "escalate"}
CHOICES = {  # each setting's allowed values, its default first
    "smaller_side_reserve": ("distance_weapons", "any", "none"),
    "pair_matrix": ("least_favourable", "most_favourable"),
    "drawn_battle": ("both_as_winner", "both_as_loser"),
}

# Army sizes over which the army-state rows are proved to be exhaustive and exclusive.
LARGEST_ARMY_CHECKED = 12


def build_battle(builder: Builder) -> m.BattleSystem | None:
    """The battle system of the file, or None when the section has errors."""
    return _BattleBuilder(builder).build()


def normalise_name(name: str) -> str:
    """How unit kind names and aliases are compared: case, hyphens and spaces do not matter."""
    return name.strip().lower().replace("-", "_").replace(" ", "_")


class _BattleBuilder:
    def __init__(self, builder: Builder):
        self.b = builder
        self.body: dict[str, Any] = builder.get(ROOT, {})
        self.errors_before = self._error_count()

    def _error_count(self) -> int:
        return sum(1 for d in self.b.diagnostics if d.is_error)

    # --------------------------------------------------------------- helpers
    def known_keys(self, body: Any, allowed: set[str], path: Path, what: str) -> dict[str, Any]:
        if not isinstance(body, dict):
            self.b.error("battle-bad-value", f"{what} should be a block {{ ... }}", path)
            return {}
        for key in body:
            if key not in allowed:
                self.b.error("unknown-field", f"'{key}' is not a field of {what}", path + (key,),
                             did_you_mean(key, sorted(allowed)), key=True)
        return body

    def integer(self, body: dict, key: str, path: Path, default: int, minimum: int | None = None) -> int:
        value = body.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or (minimum is not None and value < minimum):
            floor = f" of at least {minimum}" if minimum is not None else ""
            self.b.error("battle-bad-value", f"'{key}' should be a whole number{floor}, found {value!r}", path + (key,))
            return default
        return value

    def flag(self, body: dict, key: str, path: Path, default: bool) -> bool:
        value = body.get(key, default)
        if not isinstance(value, bool):
            self.b.error("battle-bad-value", f"'{key}' should be true or false, found {value!r}", path + (key,))
            return default
        return value

    def text(self, body: dict, key: str, path: Path, default: str = "") -> str:
        value = body.get(key, default)
        if not isinstance(value, str):
            self.b.error("battle-bad-value", f"'{key}' should be text, found {value!r}", path + (key,))
            return default
        return value

    def choice(self, body: dict, key: str, path: Path) -> str:
        options = CHOICES[key]
        value = body.get(key, options[0])
        if value not in options:
            self.b.error("battle-bad-value", f"'{key}' should be one of {', '.join(options)}; found {value!r}",
                         path + (key,), did_you_mean(str(value), options))
            return options[0]
        return value

    def name_list(self, body: dict, key: str, path: Path) -> list[str]:
        value = body.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.b.error("battle-bad-value", f"'{key}' should be a list of names", path + (key,))
            return []
        return value

    # ----------------------------------------------------------------- build
    def build(self) -> m.BattleSystem | None:
        body = self.known_keys(self.body, SECTION_KEYS, ROOT, "battle")
        categories = self.categories()
        matrix = self.matrix(categories)
        qualities, default_quality = self.qualities()
        kinds = self.kinds(categories, qualities)
        modifiers = self.modifiers()
        outcomes = self.outcomes()
        army_states = self.army_states(outcomes)
        deployment = self.known_keys(body.get("deployment", {}), DEPLOYMENT_KEYS, ROOT + ("deployment",), "deployment")
        skirmish = self.skirmish()
        special = {key: self.modifier_ref(key, modifiers) for key in ("ambush", "exhaustion")}
        system = m.BattleSystem(
            categories=tuple(categories),
            matrix=matrix,
            kinds=kinds,
            qualities=qualities,
            default_quality=default_quality,
            outcomes=outcomes,
            army_states=army_states,
            modifiers=modifiers,
            match_first=self.match_first(categories),
            double_up=self.integer(deployment, "double_up", ROOT + ("deployment",), 2, minimum=1),
            distance_reserve_first=self.flag(deployment, "distance_reserve_first", ROOT + ("deployment",), True),
            smaller_side_reserve=self.choice(deployment, "smaller_side_reserve", ROOT + ("deployment",)),
            reserve_modifier=self.integer(body, "reserve_modifier", ROOT, -1),
            argument_values=self.argument_values(),
            ambush=special["ambush"],
            exhaustion=special["exhaustion"],
            score_floor=self.integer(body, "score_floor", ROOT, 1, minimum=1),
            pair_matrix=self.choice(body, "pair_matrix", ROOT),
            drawn_battle=self.choice(body, "drawn_battle", ROOT),
            skirmish=skirmish,
        )
        return None if self._error_count() > self.errors_before else system

    # ---------------------------------------------------------- the matrix
    def categories(self) -> list[str]:
        categories = self.name_list(self.body, "categories", ROOT)
        if not categories:
            self.b.error("battle-bad-value", "the battle section needs 'categories = [...]', the matrix's rows and columns", ROOT)
        seen: set[str] = set()
        for i, category in enumerate(categories):
            if category in seen:
                self.b.error("battle-bad-value", f"category '{category}' is listed twice", ROOT + ("categories", i))
            seen.add(category)
        return categories

    def matrix(self, categories: list[str]) -> dict[str, dict[str, int]]:
        path = ROOT + ("matrix",)
        rows = self.body.get("matrix", {})
        if not isinstance(rows, dict):
            self.b.error("battle-bad-value", "'matrix' should be a block of rows", path)
            return {}
        matrix: dict[str, dict[str, int]] = {}
        for row, columns in rows.items():
            row_path = path + (row,)
            known_row = self.b.reference(row, categories, "battle category", row_path) if categories else None
            if not isinstance(columns, dict):
                self.b.error("battle-bad-value", f"matrix row '{row}' should be {{ category = modifier ... }}", row_path)
                continue
            values = {}
            for column, value in columns.items():
                if not self.b.reference(column, categories, "battle category", row_path + (column,)):
                    continue
                if isinstance(value, bool) or not isinstance(value, int):
                    self.b.error("battle-bad-value", f"matrix entry {row} versus {column} should be a whole number", row_path + (column,))
                    continue
                values[column] = value
            for column in categories:
                if column not in columns:
                    self.b.error("battle-matrix-column-missing", f"matrix row '{row}' has no modifier against '{column}'",
                                 row_path, f"add '{column} = 0' to the row")
            if known_row:
                matrix[row] = values
        for category in categories:
            if category not in rows:
                self.b.error("battle-matrix-row-missing", f"the matrix has no row for category '{category}'", path,
                             f"add a row '{category} = {{ ... }}'", key=True)
        return matrix

    # ------------------------------------------------------ kinds, qualities
    def qualities(self) -> tuple[dict[str, int], str]:
        path = ROOT + ("qualities",)
        raw = self.body.get("qualities", {"normal": 0})
        qualities = {}
        if not isinstance(raw, dict):
            self.b.error("battle-bad-value", "'qualities' should be { name = modifier ... }", path)
            raw = {}
        for name, value in raw.items():
            if isinstance(value, bool) or not isinstance(value, int):
                self.b.error("battle-bad-value", f"quality '{name}' should have a whole-number modifier", path + (name,))
                continue
            qualities[name] = value
        default = self.body.get("default_quality", next(iter(qualities), "normal"))
        if qualities and not self.b.reference(default, qualities, "battle quality", ROOT + ("default_quality",)):
            default = next(iter(qualities))
        return qualities, default

    def kinds(self, categories: list[str], qualities: dict[str, int]) -> dict[str, m.BattleUnitKind]:
        kinds: dict[str, m.BattleUnitKind] = {}
        names: dict[str, str] = {}  # every normalised name or alias -> the kind it means
        blocks = self.body.get("kind", {})
        if not blocks:
            self.b.error("battle-bad-value", "the battle section needs at least one 'kind NAME { ... }'", ROOT)
        for kid, raw in blocks.items():
            path = ROOT + ("kind", kid)
            body = self.known_keys(raw, KIND_KEYS, path, f"kind '{kid}'")
            category = self.b.reference(body.get("category"), categories, "battle category", path + ("category",))
            quality = body.get("quality", "")
            if quality:
                self.b.reference(quality, qualities, "battle quality", path + ("quality",))
            aliases = self.name_list(body, "aliases", path)
            for i, name in enumerate([kid, *aliases]):
                key = normalise_name(name)
                where = path if i == 0 else path + ("aliases", i - 1)
                if key in names and names[key] != kid:
                    self.b.error("battle-name-clash", f"'{name}' names both kind '{names[key]}' and kind '{kid}'", where, key=i == 0)
                names.setdefault(key, kid)
            kinds[kid] = m.BattleUnitKind(
                id=kid, name=self.text(body, "name", path, kid.replace("_", " ")), category=category or "",
                distance_weapon=self.flag(body, "distance_weapon", path, False), quality=quality if isinstance(quality, str) else "",
                aliases=tuple(aliases))
        return kinds

    def match_first(self, categories: list[str]) -> dict[str, tuple[str, ...]]:
        path = ROOT + ("match_first",)
        raw = self.body.get("match_first", {})
        result = {}
        for category, targets in raw.items():
            self.b.reference(category, categories, "battle category", path + (category,))
            if not isinstance(targets, list):
                self.b.error("battle-bad-value", f"match_first for '{category}' should be a list of categories", path + (category,))
                continue
            for i, target in enumerate(targets):
                self.b.reference(target, categories, "battle category", path + (category, i))
            result[category] = tuple(targets)
        return result

    # -------------------------------------------------------------- modifiers
    def modifiers(self) -> dict[str, m.BattleModifier]:
        result = {}
        for mid, raw in self.body.get("modifier", {}).items():
            path = ROOT + ("modifier", mid)
            body = self.known_keys(raw, MODIFIER_KEYS, path, f"modifier '{mid}'")
            sides = self.name_list(body, "sides", path)
            for i, side in enumerate(sides):
                self.b.reference(side, self.b.get(("side",), {}), "side", path + ("sides", i))
            result[mid] = m.BattleModifier(
                id=mid, name=self.text(body, "name", path, mid.replace("_", " ")), value=self.integer(body, "value", path, 0),
                sides=tuple(sides), reserves=self.flag(body, "reserves", path, True), text=self.text(body, "text", path))
        return result

    def modifier_ref(self, key: str, modifiers: dict[str, m.BattleModifier]) -> str | None:
        if key not in self.body:
            return None
        return self.b.reference(self.body[key], modifiers, "battle modifier", ROOT + (key,))

    def argument_values(self) -> tuple[int, ...]:
        value = self.body.get("argument_values", [-1, 1])
        if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            self.b.error("battle-bad-value", "'argument_values' should be a list of whole numbers such as [-1, 1]", ROOT + ("argument_values",))
            return (-1, 1)
        return tuple(value)

    # --------------------------------------------------------------- outcomes
    def outcomes(self) -> tuple[m.OutcomeBand, ...]:
        path = ROOT + ("outcome",)
        bands = []
        for oid, raw in self.body.get("outcome", {}).items():
            here = path + (oid,)
            body = self.known_keys(raw, OUTCOME_KEYS, here, f"outcome '{oid}'")
            below = self.ratio(body["below"], here + ("below",)) if "below" in body else None
            bands.append(m.OutcomeBand(
                id=oid, name=self.text(body, "name", here, oid), casualty_points=self.integer(body, "casualty_points", here, 0, minimum=0),
                below=below, even=self.flag(body, "even", here, False), text=self.text(body, "text", here)))
        self.check_outcome_order(bands, path)
        return tuple(bands)

    def ratio(self, value: Any, path: Path) -> tuple[int, int] | None:
        if isinstance(value, dict) and "$ratio" in value:
            high, low = value["$ratio"]
        elif isinstance(value, int) and not isinstance(value, bool):
            high, low = value, 1
        else:
            self.b.error("battle-outcome-ratio", f"'below' should be a ratio such as 2:1, found {value!r}", path)
            return None
        if low <= 0 or high <= low:
            self.b.error("battle-outcome-ratio", f"'below' should be a ratio above 1:1, found {high}:{low}", path)
            return None
        return high, low

    def check_outcome_order(self, bands: list[m.OutcomeBand], path: Path) -> None:
        evens = [band for band in bands if band.even]
        if len(evens) != 1:
            self.b.error("battle-outcome-even", f"the outcome table needs exactly one band with 'even = true', found {len(evens)}",
                         path, key=True)
        elif bands[0] is not evens[0]:
            self.b.error("battle-outcome-order", f"the even band '{evens[0].id}' should come first", path + (evens[0].id,), key=True)
        ratios = [band for band in bands if not band.even]
        if not ratios:
            self.b.error("battle-outcome-open", "the outcome table needs at least one band for a winner", path, key=True)
            return
        written = self.body.get("outcome", {})
        for band in ratios[:-1]:
            if band.below is None and "below" not in written.get(band.id, {}):  # a bad ratio is reported already
                self.b.error("battle-outcome-open", f"outcome '{band.id}' has no 'below': only the last band may be open",
                             path + (band.id,), "give it 'below = N:1'", key=True)
        if ratios[-1].below is not None:
            self.b.error("battle-outcome-open", f"the last outcome '{ratios[-1].id}' should have no 'below'; it takes every larger ratio",
                         path + (ratios[-1].id, "below"))
        for before, after in zip(ratios, ratios[1:]):
            if before.below and after.below and after.below[0] * before.below[1] <= before.below[0] * after.below[1]:
                self.b.error("battle-outcome-order",
                             f"outcome '{after.id}' (below {after.below[0]}:{after.below[1]}) should come before "
                             f"'{before.id}' (below {before.below[0]}:{before.below[1]}): bands go by rising ratio",
                             path + (after.id, "below"))
            if after.casualty_points < before.casualty_points:
                self.b.error("battle-outcome-order",
                             f"outcome '{after.id}' gives fewer casualty points ({after.casualty_points}) than the milder '{before.id}' ({before.casualty_points})",
                             path + (after.id, "casualty_points"))

    # ------------------------------------------------------------ army states
    def army_states(self, outcomes: tuple[m.OutcomeBand, ...]) -> tuple[m.ArmyState, ...]:
        path = ROOT + ("army_state",)
        names = army_count_names(outcomes)
        states = []
        for sid, raw in self.body.get("army_state", {}).items():
            here = path + (sid,)
            body = self.known_keys(raw, ARMY_STATE_KEYS, here, f"army_state '{sid}'")
            when = self.condition(body.get("when"), here + ("when",), names)
            if when is None:
                continue
            states.append(m.ArmyState(
                id=sid, name=self.text(body, "name", here, sid), when=when, if_loser=self.text(body, "loser", here),
                if_winner=self.text(body, "winner", here), loser_exhausted=self.flag(body, "loser_exhausted", here, False),
                winner_exhausted=self.flag(body, "winner_exhausted", here, False)))
        if not self.body.get("army_state"):
            self.b.error("battle-bad-value", "the battle section needs 'army_state NAME { ... }' rows", ROOT)
        elif len(states) == len(self.body["army_state"]):
            self.check_army_states(states, path, names)
        return tuple(states)

    def condition(self, value: Any, path: Path, names: tuple[str, ...]) -> m.Expr | None:
        if isinstance(value, bool):
            tree: list = ["const", value]
        elif isinstance(value, dict) and "tree" in value:
            tree = value["tree"]
        else:
            self.b.error("battle-army-state-condition", f"'when' should be a condition such as 'routed * 2 > units', found {value!r}",
                         path, f"it may use {', '.join(names)}")
            return None
        try:
            source = _condition_source(tree, names)
        except _ConditionError as error:
            self.b.error("battle-army-state-condition", error.message, path, error.hint)
            return None
        return m.Expr(source=unparse(tree), function=to_function(source))

    def check_army_states(self, states: list[m.ArmyState], path: Path, names: tuple[str, ...]) -> None:
        """Prove that exactly one row holds for every army of up to LARGEST_ARMY_CHECKED units."""
        for counts in ArmyCounts.every(LARGEST_ARMY_CHECKED, names[1:]):
            try:
                holding = [state for state in states if state.when(counts)]
            except Exception as error:  # a condition that fails to evaluate is the designer's to fix
                self.b.error("battle-army-state-condition", f"an army-state condition fails for {counts}: {error}", path, key=True)
                return
            if not holding:
                self.b.error("battle-army-state-gap", f"no army-state row holds for an army with {counts}", path, key=True)
                return
            if len(holding) > 1:
                names = " and ".join(f"'{s.id}'" for s in holding)
                self.b.error("battle-army-state-overlap", f"rows {names} both hold for an army with {counts}",
                             path + (holding[1].id, "when"), "exactly one row should hold")
                return

    # --------------------------------------------------------------- skirmish
    def skirmish(self) -> m.SkirmishRules:
        path = ROOT + ("skirmish",)
        body = self.known_keys(self.body.get("skirmish", {}), SKIRMISH_KEYS, path, "skirmish")
        return m.SkirmishRules(line=self.integer(body, "line", path, 1, minimum=1),
                               reserves=self.integer(body, "reserves", path, 2, minimum=0),
                               escalate=self.flag(body, "escalate", path, True))


class _ConditionError(Exception):
    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message, self.hint = message, hint


_CONDITION_OPERATORS = {"==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%"}


def army_count_names(outcomes: tuple[m.OutcomeBand, ...]) -> tuple[str, ...]:
    """What an army-state condition may read: `units`, then the count of units per losing outcome."""
    return ("units", *(band.id for band in outcomes if not band.even))


def _condition_source(tree: list, names: tuple[str, ...]) -> str:
    """Python source over `ctx` (an ArmyCounts) for an army-state condition."""
    kind = tree[0]
    if kind == "const":
        if isinstance(tree[1], (bool, int, float)):
            return repr(tree[1])
        raise _ConditionError(f"an army-state condition cannot use {tree[1]!r}")
    if kind == "name":
        if tree[1] in names:
            return f"ctx[{tree[1]!r}]"
        raise _ConditionError(f"unknown name '{tree[1]}' in an army-state condition",
                              did_you_mean(tree[1], names) or f"it may use {', '.join(names)}")
    if kind == "op" and tree[1] in _CONDITION_OPERATORS:
        return f"({_condition_source(tree[2], names)} {tree[1]} {_condition_source(tree[3], names)})"
    if kind == "neg":
        return f"(-{_condition_source(tree[1], names)})"
    if kind == "not":
        return f"(not {_condition_source(tree[1], names)})"
    if kind in ("and", "or"):
        return "(" + f" {kind} ".join(_condition_source(t, names) for t in tree[1]) + ")"
    raise _ConditionError("an army-state condition may use only counts, numbers, comparisons, arithmetic, and, or, not")
