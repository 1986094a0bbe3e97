"""Write the generated parts of games/the_marne.rulec from the map and order-of-battle builders.

The game file holds regions between `# >>> generated: NAME` and `# <<< generated: NAME` lines;
this script rewrites them (and nothing else):

- map, units: from build_map.py and build_units.py;
- town awards: the VP of towns and cities held at the end (10.2), from the map's towns;
- placement: the set-up phases of the scenarios (Pursuit's Paris garrison, the free set-up
  by army boundaries, the optional units of the order-of-battle options);
- options: the order-of-battle options and the scenarios.

`python scripts/the_marne/assemble.py` rewrites the file; `--check` exits 1 if it differs
(tests/test_marne_generated.py runs that).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import areas  # noqa: E402
import build_map  # noqa: E402
import build_units  # noqa: E402

GAME = HERE.parents[1] / "games" / "the_marne.rulec"

CITY_VP = {"paris": 25, "reims": 10, "troyes": 5}  # RECONSTRUCTED values: build_map's zone comments

GERMAN_ARMIES = ["de_1", "de_2", "de_3", "de_4", "de_5"]
ALLIED_ARMIES = ["fr_6", "bef", "fr_5", "fr_9", "fr_4", "fr_3"]


def town_values() -> list[int]:
    return sorted({vp for _, vp in areas.towns().values()})


def town_awards() -> str:
    values = town_values()

    def towns(side: str) -> str:
        held = f"controls({side}, h) and traced_hex(supply, {side}, h)"
        return "\n           + ".join(f"{vp} * count(h in towns_vp_{vp} where {held})" for vp in values)

    lines = ["# 10.2B: a town scores for the side that was last to pass a unit through it (or holds it) and",
             "# traces supply to it at the end. 10.2C: Germany scores a city with a supplied unit in any of",
             "# its hexes; the Allies score it otherwise if they hold one of its hexes in supply (docs/rulings.md).",
             "# RECONSTRUCTED: the towns' values (the map's towns_vp_N zones) and the cities' (Paris 25 from",
             "# 10.2's example, Reims 10, Troyes 5)."]
    for side, other in (("germany", "allies"), ("allies", "germany")):
        german = side == "germany"
        cities = []
        for city, vp in CITY_VP.items():
            taken = f"any(u in units(side = germany, zone = {city}) where supplied(u))"
            if german:
                cities.append(f"if({taken}, {vp}, 0)")
            else:
                cities.append(f"if(not {taken} and any(h in {city} where controls(allies, h) and traced_hex(supply, allies, h)), {vp}, 0)")
        amount = towns(side) + "\n           + " + "\n           + ".join(cities)
        lines.append(f"award {side}_towns {{\n  side = {side}  when = game_end\n  amount = {amount}\n"
                     f"  text = \"The VP of the towns and cities the {'Germans' if german else 'Allies'} hold in supply at the end (10.2)\"\n}}")
    return "\n".join(lines) + "\n"


def placement() -> str:
    """Set-up phases, never reached in the turn sequence (`when = false`): scenarios play them first.
    Each army places its units waiting for a placement phase (`awaiting_placement(u)`) inside its boundary."""
    def phase(army: str, side: str, title: str) -> str:
        flag = army if army == "paris_garrison" else f"army_{army}"
        pool = f"select(u in units(side = {side}, status = pending, flag = {flag}) where awaiting_placement(u))"
        return (f"  phase {army}_setup {{\n    side = {side}  kind = placement  when = false  name = \"{title}\"\n"
                f"    placement {{ pool = {pool}  hexes = zone_{army}  all = true }}\n  }}\n")
    text = ["  # Set-up phases, played by the scenarios before their first turn (11.1A, 11.3, 11.4.2); never in the\n  # turn sequence (when = false), so a finished game stands in its last Allied phase.\n"]
    for army in GERMAN_ARMIES:
        text.append(phase(army, "germany", f"German {army[3:]} Army set-up"))
    titles = {"bef": "BEF", "paris_garrison": "Paris Garrison"}
    for army in ALLIED_ARMIES + ["paris_garrison"]:
        text.append(phase(army, "allies", f"{titles.get(army, 'French ' + army[3:] + ' Army')} set-up"))
    return "".join(text)


def options_and_scenarios(units: dict[str, str]) -> str:
    german_setup = [f"{a}_setup" for a in GERMAN_ARMIES]
    allied_setup = [f"{a}_setup" for a in ALLIED_ARMIES + ["paris_garrison"]]
    options = "oob_a, oob_b, oob_c, oob_d"
    german_towns = sorted(h for zone in GERMAN_ARMIES for h in areas.army_zones()[f"zone_{zone}"]
                          if h in {where for where, _ in areas.towns().values()} | set(areas.cities()["Reims"]))
    holders = ", ".join(german_towns)
    body = lambda key: "\n".join("  " + line if line.strip() else line for line in units[key].rstrip("\n").splitlines())
    return (units["options"] +
            "\n# 11.2: the historical set-up printed on the map (the units' own set-up), from 6 Sep.\n"
            "scenario counterattack {\n"
            "  name = \"Allied Counterattack (11.2)\"\n"
            "  text = \"The historical positions of 6 Sep; ten turns, the German player-turn first.\"\n"
            "  start = { turn = 8  phase = de_move_1 }\n  turns = 17\n"
            f"  deployment = [{', '.join(german_setup)}]   # the options' added units, in their army boundaries (11.1A)\n"
            f"  options = [{options}]\n"
            "  # RECONSTRUCTED: who holds the towns as the Counterattack begins (the rulebook prints no list):\n"
            "  # Germany the town and Reims hexes inside the German army zones, behind its 5 Sep front; the\n"
            "  # Allies every other (movement { first_holder }; docs/the-marne.md, docs/rulings.md).\n"
            f"  holders = {{ germany = [{holders}] }}\n"
            "}\n\n"
            "# 11.3: the same forces placed freely within their army boundaries, Germany first.\n"
            "scenario counterattack_free {\n"
            "  name = \"Allied Counterattack, free set-up (11.3)\"\n"
            "  text = \"Each army's units anywhere inside its boundary; Germany places first.\"\n"
            "  start = { turn = 8  phase = de_move_1 }\n  turns = 17\n"
            f"  deployment = [{', '.join(german_setup + allied_setup)}]\n"
            f"  options = [{options}]\n"
            f"  holders = {{ germany = [{holders}] }}   # RECONSTRUCTED: as in the Counterattack\n"
            f"{body('counterattack_free')}\n"
            "}\n\n"
            "# 11.4: the German pursuit from 30 Aug: the Allies march on from the north edge, then the Germans.\n"
            "scenario pursuit {\n"
            "  name = \"German Pursuit (11.4)\"\n"
            "  text = \"From 30 Aug, seventeen turns; a few French units in Paris, everybody else marches on.\"\n"
            "  start = { turn = 1  phase = de_move_1 }\n  turns = 17\n"
            "  deployment = [paris_garrison_setup]\n"
            f"  options = [{options}]\n"
            f"{body('pursuit')}\n"
            "}\n")


def regions() -> dict[str, str]:
    units = build_units.regions()
    return {
        "map": build_map.regions()["map"],
        "units": units["units"],
        "town awards": town_awards(),
        "placement": placement(),
        "options": options_and_scenarios(units),
    }


def assemble(text: str) -> str:
    for name, body in regions().items():
        pattern = re.compile(rf"(^[ \t]*# >>> generated: {re.escape(name)}\n).*?(^[ \t]*# <<< generated: {re.escape(name)}\n)",
                             re.M | re.S)
        if not pattern.search(text):
            raise SystemExit(f"{GAME}: no region '{name}'")
        body = body if body.endswith("\n") else body + "\n"
        text = pattern.sub(lambda m: m.group(1) + body + m.group(2), text, count=1)
    return text


def main(argv: list[str]) -> int:
    old = GAME.read_text(encoding="utf-8")
    new = assemble(old)
    if "--check" in argv:
        if new != old:
            print(f"{GAME} differs from what scripts/the_marne/assemble.py writes: run it", file=sys.stderr)
            return 1
        return 0
    GAME.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
