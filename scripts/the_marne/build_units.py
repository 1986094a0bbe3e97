"""The Marne's counters, set-ups and reinforcements, reconstructed: emits the game file's unit text.

SPI's counter sheet, the set-ups printed on the map and the Reinforcement Chart of The Marne (1972)
are not available (../shared/data/the-marne.md). This script rebuilds them from the rulebook
(../shared/rulebooks/the-marne.txt, 2.2, 8.9A, 9, 11) and the data file (§5 forts, §6 order of
battle with positions, §7 arrivals, §8 the moving front), on the fixed hex grid of grid.py.

`regions()` returns the texts the lead splices into games/the_marne.rulec:
  "units"                    every `unit` block (set-up = the Counterattack's 6 Sep positions, 11.2)
  "pursuit"                  body lines of `scenario pursuit { ... }` (11.4)
  "counterattack_free"       body line of the free set-up scenario (11.3)
  "options"                  the four German order-of-battle options (11.1)
An option's units are written for the Counterattack (`setup = free`, 11.1 A); their Pursuit schedule
(11.1 B) is in the Pursuit scenario, where a unit not in play ignores its entry. An option's own
`arrivals` change the schedule of a unit of the historical order of battle, in every scenario.
`python scripts/the_marne/build_units.py` prints them, each between marker comments.

Every value the rulebook does not give is reconstructed; the output says so in `# RECONSTRUCTED:`
comments citing the data file's section. docs/the-marne.md explains the choices.
"""

from __future__ import annotations

import math
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import grid  # noqa: E402  (the fixed grid, next to this file)

# ---------------------------------------------------------------------------------------------
# Counter values (RECONSTRUCTED, in the rulebook's style: 2.2.1, 4.3, 7.2, 8.9A, 10.1, 11.4.1.2A)
# ---------------------------------------------------------------------------------------------
DE_ACTIVE, DE_RESERVE, DE_CAV, DE_BRIGADE = (8, 3), (6, 3), (2, 4), (2, 3)
FR_ACTIVE, FR_ELITE, FR_RESERVE, FR_TERRITORIAL, FR_BRIGADE, FR_CAV = (7, 3), (8, 3), (5, 3), (4, 3), (2, 3), (2, 4)
FR_SCREEN = (1, 4)                       # the (1)-4 cavalry divisions of 8.9A: flag `screen`
GB_DIVISION, GB_BRIGADE, GB_CAV_DIV, GB_CAV_GROUP = (8, 3), (2, 3), (3, 4), (1, 4)   # 11.4.1.2A
OUTER_FORT, INTERMEDIATE_FORT, INNER_FORT = 4, 3, 2

# The Counterattack's first turn (11.2 B) and its last (10.0 C); turn N is day N of the game, 30 Aug = 1.
COUNTERATTACK_START, LAST_TURN = 8, 17


def turn_of(day: int, month: str = "Sep") -> int:
    """Turn of a date: 30 Aug is turn 1 (11.4 A), 6 Sep turn 8 (11.2 B), 15 Sep turn 17."""
    return day - 29 if month == "Aug" else day + 2


@dataclass
class Unit:
    id: str
    side: str
    designation: str
    division: str
    size: str
    type: str
    value: tuple[int, int]
    army: str
    at: tuple[float, float] | None = None       # 6 Sep position (lat, lon); None: arrives
    arrives: dict | None = None                 # Counterattack reinforcement: {turn, area | hexes}
    optional: bool = False
    free: bool = False                          # optional unit placed in its army's zone (11.1 A)
    screen: bool = False
    note: str = ""                              # the group's RECONSTRUCTED comment (first unit of a group)
    setup: str | None = None                    # the hex, filled in by place()
    flags: list[str] = field(default_factory=list)


def _units() -> list[Unit]:
    units: list[Unit] = []

    def group(note: str, side: str, army: str, rows: list[tuple], **common) -> None:
        for n, row in enumerate(rows):
            uid, designation, division, size, kind, value, where = row
            unit = Unit(uid, side, designation, division, size, kind, value, army, note=note if n == 0 else "", **common)
            if isinstance(where, dict):
                unit.arrives = where
            elif where == "free":
                unit.free = True
            else:
                unit.at = where
            units.append(unit)

    XX, X = "XX", "X"
    inf, cav = "infantry", "cavalry"

    # --- German 1st Army (§6.1) -----------------------------------------------------------
    group("RECONSTRUCTED: German 1st Army, positions evening 5 Sep = start of 6 Sep (§6.1); active 8-3, reserve 6-3, cavalry 2-4",
          "germany", "army_de_1", [
              ("de_7r", "7R", "IV Reserve Corps", XX, inf, DE_RESERVE, (49.01, 2.83)),
              ("de_22r", "22R", "IV Reserve Corps", XX, inf, DE_RESERVE, (48.99, 2.86)),
              ("de_cav4", "4", "HKK 2", XX, cav, DE_CAV, (49.12, 2.90)),
              ("de_3", "3", "II Corps", XX, inf, DE_ACTIVE, (48.81, 3.09)),
              ("de_4", "4", "II Corps", XX, inf, DE_ACTIVE, (48.82, 3.03)),
              ("de_7", "7", "IV Corps", XX, inf, DE_ACTIVE, (48.75, 3.21)),
              ("de_8", "8", "IV Corps", XX, inf, DE_ACTIVE, (48.73, 3.20)),
              ("de_5", "5", "III Corps", XX, inf, DE_ACTIVE, (48.71, 3.39)),
              ("de_6", "6", "III Corps", XX, inf, DE_ACTIVE, (48.70, 3.44)),
              ("de_17", "17", "IX Corps", XX, inf, DE_ACTIVE, (48.74, 3.52)),
              ("de_18", "18", "IX Corps", XX, inf, DE_ACTIVE, (48.73, 3.56)),
              ("de_cav2", "2", "HKK 2", XX, cav, DE_CAV, (48.78, 2.98)),
              ("de_cav9", "9", "HKK 2", XX, cav, DE_CAV, (48.72, 3.05)),
          ])
    group("RECONSTRUCTED: Brigade Lepel (number unknown), Brussels -> Verberie-Baron by 9 Sep (§6.1, §7): a 2-3 brigade entering the 1st Army's north edge",
          "germany", "army_de_1", [
              ("de_lepel", "Lepel", "1st Army", X, inf, DE_BRIGADE, {"turn": turn_of(9), "area": "entry_de_1"}),
          ])
    # --- German 2nd Army ------------------------------------------------------------------
    group("RECONSTRUCTED: German 2nd Army, evening 5 Sep (§6.1); the 14th Div less a brigade (Maubeuge) is a 6-3; Guard 8-3",
          "germany", "army_de_2", [
              ("de_13", "13", "VII Corps", XX, inf, DE_ACTIVE, (48.88, 3.56)),
              ("de_14", "14", "VII Corps", XX, inf, DE_RESERVE, (48.88, 3.62)),
              ("de_gdr2", "2 Gd R", "X Reserve Corps", XX, inf, DE_RESERVE, (48.94, 3.70)),
              ("de_19r", "19R", "X Reserve Corps", XX, inf, DE_RESERVE, (48.93, 3.72)),
              ("de_19", "19", "X Corps", XX, inf, DE_ACTIVE, (48.87, 3.80)),
              ("de_20", "20", "X Corps", XX, inf, DE_ACTIVE, (48.86, 3.84)),
              ("de_gd1", "1 Gd", "Guard Corps", XX, inf, DE_ACTIVE, (48.88, 3.98)),
              ("de_gd2", "2 Gd", "Guard Corps", XX, inf, DE_ACTIVE, (48.87, 3.95)),
              ("de_gdcav", "Gd", "HKK 1", XX, cav, DE_CAV, (48.75, 3.26)),
              ("de_cav5", "5", "HKK 1", XX, cav, DE_CAV, (48.70, 3.44)),
          ])
    group("RECONSTRUCTED: VII Reserve Corps, Maubeuge (fell 7 Sep) -> NW of Laon 12 Sep (§6.1, §7): enters the 2nd Army's north edge on 12 Sep",
          "germany", "army_de_2", [
              ("de_13r", "13R", "VII Reserve Corps", XX, inf, DE_RESERVE, {"turn": turn_of(12), "area": "entry_de_2"}),
              ("de_14r", "14R", "VII Reserve Corps", XX, inf, DE_RESERVE, {"turn": turn_of(12), "area": "entry_de_2"}),
          ])
    group("RECONSTRUCTED: XV Corps of the 7th Army, railed from Alsace to Laon into the 1st/2nd Army gap 11-14 Sep (§7, 13.0 G 'late arrival of units from the left wing'); flagged with the 2nd Army",
          "germany", "army_de_2", [
              ("de_30", "30", "XV Corps (7th Army)", XX, inf, DE_ACTIVE, {"turn": turn_of(14), "area": "entry_de_2"}),
              ("de_39", "39", "XV Corps (7th Army)", XX, inf, DE_ACTIVE, {"turn": turn_of(14), "area": "entry_de_2"}),
          ])
    # --- German 3rd Army ------------------------------------------------------------------
    group("RECONSTRUCTED: German 3rd Army (Saxon), rest day 5 Sep (§6.1); the 24th Reserve Div's head at Avancon",
          "germany", "army_de_3", [
              ("de_23", "23", "XII Corps", XX, inf, DE_ACTIVE, (49.07, 4.15)),
              ("de_32", "32", "XII Corps", XX, inf, DE_ACTIVE, (49.06, 4.20)),
              ("de_23r", "23R", "XII Reserve Corps", XX, inf, DE_RESERVE, (49.18, 4.07)),
              ("de_24r", "24R", "XII Reserve Corps", XX, inf, DE_RESERVE, (49.48, 4.25)),
              ("de_24", "24", "XIX Corps", XX, inf, DE_ACTIVE, (48.96, 4.38)),
              ("de_40", "40", "XIX Corps", XX, inf, DE_ACTIVE, (48.95, 4.36)),
          ])
    # --- German 4th Army ------------------------------------------------------------------
    group("RECONSTRUCTED: German 4th Army on Vitry-Revigny (§6.1); divisions of a corps share its sector, split a few km apart",
          "germany", "army_de_4", [
              ("de_15", "15", "VIII Corps", XX, inf, DE_ACTIVE, (48.76, 4.58)),
              ("de_16", "16", "VIII Corps", XX, inf, DE_ACTIVE, (48.72, 4.60)),
              ("de_15r", "15R", "VIII Reserve Corps", XX, inf, DE_RESERVE, (48.73, 4.70)),
              ("de_16r", "16R", "VIII Reserve Corps", XX, inf, DE_RESERVE, (48.72, 4.76)),
              ("de_21", "21", "XVIII Corps", XX, inf, DE_ACTIVE, (48.77, 4.85)),
              ("de_25", "25", "XVIII Corps", XX, inf, DE_ACTIVE, (48.78, 4.90)),
              ("de_21r", "21R", "XVIII Reserve Corps", XX, inf, DE_RESERVE, (48.82, 4.98)),
              ("de_25r", "25R", "XVIII Reserve Corps", XX, inf, DE_RESERVE, (48.84, 5.01)),
          ])
    # --- German 5th Army ------------------------------------------------------------------
    group("RECONSTRUCTED: German 5th Army, right part, evening 5 Sep (§6.1; XVI, VI R, V R and V Corps positions MEM~)",
          "germany", "army_de_5", [
              ("de_11", "11", "VI Corps", XX, inf, DE_ACTIVE, (48.98, 5.01)),
              ("de_12", "12", "VI Corps", XX, inf, DE_ACTIVE, (48.98, 5.05)),
              ("de_26", "26", "XIII Corps", XX, inf, DE_ACTIVE, (49.00, 5.08)),
              ("de_27", "27", "XIII Corps", XX, inf, DE_ACTIVE, (49.02, 5.10)),
              ("de_33", "33", "XVI Corps", XX, inf, DE_ACTIVE, (49.00, 5.18)),
              ("de_34", "34", "XVI Corps", XX, inf, DE_ACTIVE, (49.03, 5.20)),
              ("de_11r", "11R", "VI Reserve Corps", XX, inf, DE_RESERVE, (49.15, 5.20)),
              ("de_12r", "12R", "VI Reserve Corps", XX, inf, DE_RESERVE, (49.18, 5.24)),
              ("de_9r", "9R", "V Reserve Corps", XX, inf, DE_RESERVE, (49.22, 5.40)),
              ("de_10r", "10R", "V Reserve Corps", XX, inf, DE_RESERVE, (49.25, 5.36)),
              ("de_cav3", "3", "HKK 4", XX, cav, DE_CAV, (48.88, 4.86)),
              ("de_cav6", "6", "HKK 4", XX, cav, DE_CAV, (48.86, 4.81)),
          ])
    group("RECONSTRUCTED: V Corps east of the Meuse opposite Fort Troyon (§6.1, ~49.05 N 5.60 E) is off the map: it enters on the nearest east-edge hexes on 6 Sep",
          "germany", "army_de_5", [
              ("de_9", "9", "V Corps", XX, inf, DE_ACTIVE, (49.05, 5.60)),
              ("de_10", "10", "V Corps", XX, inf, DE_ACTIVE, (49.05, 5.60)),
          ])

    # --- Paris garrison (§6.2, §5; rule 11.4.2) -------------------------------------------
    group("RECONSTRUCTED: the Paris garrison is the five counters of rule 11.4.2 (a 6-3, a 5-3, two 4-3s, a 2-3): the 45th (Algerian) Div, "
          "the 92nd DIT (the one sourced territorial division, §6.2 [S23]), the 83rd and 89th DIT (MEM~) and the fusiliers marins; "
          "the 85th and 86th DIT and the two territorial brigades are the forts' garrisons (§5, §6.2)",
          "allies", "paris_garrison", [
              ("fr_45alg", "45 Alg", "Armee de Paris", XX, inf, (6, 3), (48.95, 2.70)),
              ("fr_92t", "92T", "Armee de Paris", XX, inf, (5, 3), (48.98, 2.55)),
              ("fr_83t", "83T", "Armee de Paris", XX, inf, FR_TERRITORIAL, (48.93, 2.45)),
              ("fr_89t", "89T", "Armee de Paris", XX, inf, FR_TERRITORIAL, (48.80, 2.45)),
              ("fr_mar", "Mar", "Armee de Paris", X, inf, FR_BRIGADE, (48.93, 2.36)),
          ])
    # --- French 6th Army ------------------------------------------------------------------
    group("RECONSTRUCTED: French 6th Army, evening 5 Sep (§6.2); active 7-3, reserve 5-3, the Moroccan Brigade 2-3, Prov(isional) cavalry 2-4",
          "allies", "army_fr_6", [
              ("fr_14", "14", "VII Corps", XX, inf, FR_ACTIVE, (49.08, 2.63)),
              ("fr_63r", "63R", "VII Corps", XX, inf, FR_RESERVE, (49.05, 2.68)),
              ("fr_55r", "55R", "5th Group of Reserve Divs", XX, inf, FR_RESERVE, (48.99, 2.78)),
              ("fr_56r", "56R", "5th Group of Reserve Divs", XX, inf, FR_RESERVE, (49.04, 2.80)),
              ("fr_morbde", "Mor", "5th Group of Reserve Divs", X, inf, FR_BRIGADE, (48.97, 2.82)),
              ("fr_prov", "Prov", "6th Army", XX, cav, FR_CAV, (49.05, 2.70)),
              ("fr_61r", "61R", "6th Group of Reserve Divs", XX, inf, FR_RESERVE, (48.98, 2.61)),
              ("fr_62r", "62R", "6th Group of Reserve Divs", XX, inf, FR_RESERVE, (49.08, 2.78)),
              ("fr_7", "7", "IV Corps", XX, inf, FR_ACTIVE, (48.885, 2.509)),
              ("fr_8", "8", "IV Corps", XX, inf, FR_ACTIVE, (48.897, 2.520)),
          ])
    group("RECONSTRUCTED: Sordet's 1st Cavalry Corps, worn out by the retreat, are the three (1)-4 cavalry divisions of 8.9A (never attack: flag screen); "
          "around Saint-Cyr on 5 Sep (§6.2), on the map's west edge",
          "allies", "army_fr_6", [
              ("fr_cav1", "1", "1st Cavalry Corps", XX, cav, FR_SCREEN, (48.81, 2.07)),
              ("fr_cav3", "3", "1st Cavalry Corps", XX, cav, FR_SCREEN, (48.81, 2.07)),
              ("fr_cav5", "5", "1st Cavalry Corps", XX, cav, FR_SCREEN, (48.81, 2.07)),
          ], screen=True)
    # --- BEF --------------------------------------------------------------------------------
    group("RECONSTRUCTED: the BEF of rule 11.4.1.2A: six 8-3s (1st-5th Divs and the 6th, which landed in mid-September: the rulebook's count stands), "
          "the 19th Bde 2-3, the Cavalry Div 3-4 and Gough's brigades 1-4; night 5 Sep line Rozay-Brie-Comte-Robert, corps slots MEM~ (§6.2)",
          "allies", "army_bef", [
              ("gb_1", "1", "I Corps", XX, inf, GB_DIVISION, (48.69, 2.90)),
              ("gb_2", "2", "I Corps", XX, inf, GB_DIVISION, (48.70, 2.85)),
              ("gb_3", "3", "II Corps", XX, inf, GB_DIVISION, (48.74, 2.78)),
              ("gb_5", "5", "II Corps", XX, inf, GB_DIVISION, (48.73, 2.72)),
              ("gb_4", "4", "III Corps", XX, inf, GB_DIVISION, (48.72, 2.64)),
              ("gb_6", "6", "III Corps", XX, inf, GB_DIVISION, (48.68, 2.66)),
              ("gb_19", "19", "III Corps", X, inf, GB_BRIGADE, (48.70, 2.62)),
              ("gb_cav", "Cav", "Allenby", XX, cav, GB_CAV_DIV, (48.64, 3.00)),
              ("gb_gough", "Gough", "3rd and 5th Cav Bdes", X, cav, GB_CAV_GROUP, (48.68, 2.98)),
          ])
    # --- French 5th Army ------------------------------------------------------------------
    group("RECONSTRUCTED: French 5th Army, evening 5 Sep, corps slots and divisions' places ~ (§6.2); the Algerian 37th and 38th Divs 7-3",
          "allies", "army_fr_5", [
              ("fr_35", "35", "XVIII Corps", XX, inf, FR_ACTIVE, (48.62, 3.33)),
              ("fr_36", "36", "XVIII Corps", XX, inf, FR_ACTIVE, (48.60, 3.38)),
              ("fr_38alg", "38 Alg", "XVIII Corps", XX, inf, FR_ACTIVE, (48.64, 3.38)),
              ("fr_5", "5", "III Corps", XX, inf, FR_ACTIVE, (48.63, 3.44)),
              ("fr_6", "6", "III Corps", XX, inf, FR_ACTIVE, (48.62, 3.49)),
              ("fr_37alg", "37 Alg", "III Corps", XX, inf, FR_ACTIVE, (48.65, 3.47)),
              ("fr_1", "1", "I Corps", XX, inf, FR_ACTIVE, (48.67, 3.60)),
              ("fr_2", "2", "I Corps", XX, inf, FR_ACTIVE, (48.66, 3.64)),
              ("fr_19", "19", "X Corps", XX, inf, FR_ACTIVE, (48.72, 3.68)),
              ("fr_20", "20", "X Corps", XX, inf, FR_ACTIVE, (48.71, 3.72)),
              ("fr_51r", "51R", "X Corps", XX, inf, FR_RESERVE, (48.69, 3.70)),
              ("fr_53r", "53R", "4th Group of Reserve Divs", XX, inf, FR_RESERVE, (48.58, 3.28)),
              ("fr_69r", "69R", "4th Group of Reserve Divs", XX, inf, FR_RESERVE, (48.57, 3.33)),
              ("fr_cav4", "4", "2nd Cavalry Corps", XX, cav, FR_CAV, (48.63, 3.26)),
              ("fr_cav8", "8", "2nd Cavalry Corps", XX, cav, FR_CAV, (48.62, 3.19)),
              ("fr_cav10", "10", "2nd Cavalry Corps", XX, cav, FR_CAV, (48.60, 3.24)),
          ])
    # --- French 9th Army ------------------------------------------------------------------
    group("RECONSTRUCTED: French 9th Army, 5-6 Sep (§6.2, positions ~); the 42nd and the Moroccan Div are elite 8-3s; IX Corps' other division (18th ~) detraining at Troyes",
          "allies", "army_fr_9", [
              ("fr_42", "42", "9th Army", XX, inf, FR_ELITE, (48.81, 3.72)),
              ("fr_mor", "Mor", "IX Corps", XX, inf, FR_ELITE, (48.80, 3.77)),
              ("fr_17", "17", "IX Corps", XX, inf, FR_ACTIVE, (48.79, 3.90)),
              ("fr_52r", "52R", "IX Corps", XX, inf, FR_RESERVE, (48.70, 3.96)),
              ("fr_18", "18", "IX Corps", XX, inf, FR_ACTIVE, (48.30, 4.08)),
              ("fr_21", "21", "XI Corps", XX, inf, FR_ACTIVE, (48.79, 4.08)),
              ("fr_22", "22", "XI Corps", XX, inf, FR_ACTIVE, (48.78, 4.12)),
              ("fr_60r", "60R", "XI Corps", XX, inf, FR_RESERVE, (48.73, 4.12)),
              ("fr_cav9", "9", "9th Army", XX, cav, FR_CAV, (48.70, 4.20)),
          ])
    # --- French 4th Army ------------------------------------------------------------------
    group("RECONSTRUCTED: French 4th Army, evening 5 Sep (§6.2); the Colonial divisions are elite 8-3s; XXI Corps railed to Joinville 5-7 Sep arrives there on 7 Sep (§7)",
          "allies", "army_fr_4", [
              ("fr_33", "33", "XVII Corps", XX, inf, FR_ACTIVE, (48.60, 4.30)),
              ("fr_34", "34", "XVII Corps", XX, inf, FR_ACTIVE, (48.61, 4.36)),
              ("fr_23", "23", "XII Corps", XX, inf, FR_ACTIVE, (48.62, 4.52)),
              ("fr_24", "24", "XII Corps", XX, inf, FR_ACTIVE, (48.61, 4.58)),
              ("fr_col2", "2 Col", "Colonial Corps", XX, inf, FR_ELITE, (48.71, 4.67)),
              ("fr_col3", "3 Col", "Colonial Corps", XX, inf, FR_ELITE, (48.72, 4.74)),
              ("fr_3", "3", "II Corps", XX, inf, FR_ACTIVE, (48.75, 4.87)),
              ("fr_4", "4", "II Corps", XX, inf, FR_ACTIVE, (48.77, 4.93)),
              ("fr_13", "13", "XXI Corps", XX, inf, FR_ACTIVE, {"turn": turn_of(7), "hexes": [grid.hex_of(48.44, 5.14)]}),
              ("fr_43", "43", "XXI Corps", XX, inf, FR_ACTIVE, {"turn": turn_of(7), "hexes": [grid.hex_of(48.44, 5.14)]}),
          ])
    # --- French 3rd Army ------------------------------------------------------------------
    group("RECONSTRUCTED: French 3rd Army, 6 Sep sectors ~ (§6.2); XV Corps arrives at Dammarie-sur-Saulx on 6 Sep (§7); the Verdun garrison is the 72nd Reserve Div (MEM~)",
          "allies", "army_fr_3", [
              ("fr_9", "9", "V Corps", XX, inf, FR_ACTIVE, (48.84, 5.04)),
              ("fr_10", "10", "V Corps", XX, inf, FR_ACTIVE, (48.87, 5.07)),
              ("fr_12", "12", "VI Corps", XX, inf, FR_ACTIVE, (48.97, 5.21)),
              ("fr_40", "40", "VI Corps", XX, inf, FR_ACTIVE, (49.00, 5.23)),
              ("fr_65r", "65R", "3rd Group of Reserve Divs", XX, inf, FR_RESERVE, (49.04, 5.21)),
              ("fr_67r", "67R", "3rd Group of Reserve Divs", XX, inf, FR_RESERVE, (49.06, 5.16)),
              ("fr_75r", "75R", "3rd Group of Reserve Divs", XX, inf, FR_RESERVE, (49.05, 5.27)),
              ("fr_72r", "72R", "Verdun garrison", XX, inf, FR_RESERVE, (49.15, 5.37)),
              ("fr_29", "29", "XV Corps", XX, inf, FR_ACTIVE, {"turn": turn_of(6), "hexes": [grid.hex_of(48.60, 5.22)]}),
              ("fr_30", "30", "XV Corps", XX, inf, FR_ACTIVE, {"turn": turn_of(6), "hexes": [grid.hex_of(48.60, 5.22)]}),
          ])
    group("RECONSTRUCTED: the 7th Cavalry Div watching the Meuse near Saint-Mihiel (§6.2, 48.90 N 5.55 E) is off the map: it enters the nearest east-edge hexes on 6 Sep",
          "allies", "army_fr_3", [
              ("fr_cav7", "7", "3rd Army", XX, cav, FR_CAV, (48.90, 5.55)),
          ])

    # --- German order-of-battle options (11.1; §6 'Detached from the German right wing') ----
    group("RECONSTRUCTED: option A (11.1.1): the Guard Reserve Corps and XI Corps with the 8th Cavalry Div, sent east from Namur on 26 Aug (§7; 13.0 D)",
          "germany", "army_de_2", [
              ("de_gd3", "3 Gd", "Guard Reserve Corps", XX, inf, DE_ACTIVE, "free"),
              ("de_gdr1", "1 Gd R", "Guard Reserve Corps", XX, inf, DE_RESERVE, "free"),
          ], optional=True)
    group("", "germany", "army_de_3", [
              ("de_22", "22", "XI Corps", XX, inf, DE_ACTIVE, "free"),
              ("de_38", "38", "XI Corps", XX, inf, DE_ACTIVE, "free"),
              ("de_cav8", "8", "XI Corps", XX, cav, DE_CAV, "free"),
          ], optional=True)
    group("RECONSTRUCTED: option C (11.1.3): III and IX Reserve Corps, held at Antwerp (§6, §7), with the 1st Army",
          "germany", "army_de_1", [
              ("de_5r", "5R", "III Reserve Corps", XX, inf, DE_RESERVE, "free"),
              ("de_6r", "6R", "III Reserve Corps", XX, inf, DE_RESERVE, "free"),
              ("de_17r", "17R", "IX Reserve Corps", XX, inf, DE_RESERVE, "free"),
              ("de_18r", "18R", "IX Reserve Corps", XX, inf, DE_RESERVE, "free"),
          ], optional=True)
    group("RECONSTRUCTED: option B (11.1.2): five undesignated S divisions, Schlieffen's 36 infantry divisions on the right against Moltke's 31 (13.0 D), "
          "three with the 1st Army and two with the 2nd",
          "germany", "army_de_1", [(f"de_s{n}", f"S{n}", "Schlieffen Plan", XX, inf, DE_RESERVE, "free") for n in (1, 2, 3)], optional=True)
    group("", "germany", "army_de_2", [(f"de_s{n}", f"S{n}", "Schlieffen Plan", XX, inf, DE_RESERVE, "free") for n in (4, 5)], optional=True)
    return units


# ---------------------------------------------------------------------------------------------
# Hexes: place each unit in its 6 Sep hex, within the stacking limit (5.0 A) and never with the enemy
# ---------------------------------------------------------------------------------------------
STACK = 3


def _column_row(label: str) -> tuple[int, int]:
    return int(label[:2]), int(label[2:])


def neighbours(label: str) -> list[str]:
    """The six hexes around a hex (flat-topped, even columns half a hex lower), those on the map."""
    column, row = _column_row(label)
    shifted = column % 2 == 0
    around = [(column, row - 1), (column, row + 1)]
    for side in (column - 1, column + 1):
        around += [(side, row), (side, row + 1)] if shifted else [(side, row - 1), (side, row)]
    return [grid.label(c, r) for c, r in around if grid.on_map(c, r)]


def distance_km(label: str, point: tuple[float, float]) -> float:
    x, y = grid.centre_km(*_column_row(label))
    px, py = grid.km_of(*point)
    return math.hypot(x - px, y - py)


def edge_hexes(point: tuple[float, float], count: int = 3, avoid: frozenset[str] = frozenset()) -> list[str]:
    """The map-edge hexes nearest a point off the map (leaving out `avoid`): where a unit standing there enters."""
    edge = [grid.label(c, r) for c in grid.COLUMNS for r in grid.ROWS
            if (c in (grid.COLUMNS.start, grid.COLUMNS.stop - 1) or r in (grid.ROWS.start, grid.ROWS.stop - 1))
            and grid.label(c, r) not in avoid]
    return sorted(sorted(edge, key=lambda h: (distance_km(h, point), h))[:count])


def on_map_hex(point: tuple[float, float]) -> str | None:
    """The hex of a position, or the edge hex when the position lies less than a hex beyond the edge."""
    hex_ = grid.hex_of(*point)
    if hex_ is None:
        nearest = grid.hex_of(*point, clamp=True)
        if distance_km(nearest, point) <= grid.HEX_KM:
            return nearest
    return hex_


def place(units: list[Unit], forts: list[str]) -> None:
    """Fill in `setup` (or an edge arrival for an off-map position), nudging to the nearest free hex.

    A fort counts as one of the three units a hex may hold, whatever the game's stacking rule says of forts."""
    held: dict[str, tuple[str, int]] = {hex_: ("allies", 1) for hex_ in forts}   # hex -> (side, units there)
    entering: dict[str, str] = {}                                                  # edge arrival hex -> side
    for unit in units:
        if unit.at is None:
            continue
        hex_ = on_map_hex(unit.at)
        if hex_ is None:                             # never where the other side enters or stands
            avoid = frozenset(h for h, side in entering.items() if side != unit.side) | frozenset(
                h for h, (side, _) in held.items() if side != unit.side)
            unit.arrives = {"turn": COUNTERATTACK_START, "hexes": edge_hexes(unit.at, avoid=avoid)}
            entering.update({h: unit.side for h in unit.arrives["hexes"]})
            unit.at = None
            continue
        seen, ring = {hex_}, [hex_]
        while True:
            free = [h for h in ring if held.get(h, (unit.side, 0))[0] == unit.side and held.get(h, (unit.side, 0))[1] < STACK]
            if free:
                hex_ = min(free, key=lambda h: (distance_km(h, unit.at), h))
                break
            ring = sorted({n for h in ring for n in neighbours(h)} - seen)
            seen |= set(ring)
        held[hex_] = (unit.side, held.get(hex_, (unit.side, 0))[1] + 1)
        unit.setup = hex_


# ---------------------------------------------------------------------------------------------
# Forts of the Paris entrenched camp (§5.1-5.2; rule 9.1: around Paris only)
# ---------------------------------------------------------------------------------------------
FORTS = [  # name, lat, lon, ring
    ("Cormeilles", 48.984, 2.196, "outer"), ("Montlignon", 49.005, 2.283, "outer"), ("Domont", 49.019, 2.322, "outer"),
    ("Montmorency", 49.000, 2.325, "outer"), ("Ecouen", 49.015, 2.379, "outer"), ("Stains", 48.963, 2.393, "outer"),
    ("Vaujours", 48.928, 2.597, "outer"), ("Chelles", 48.885, 2.595, "outer"), ("Villiers", 48.834, 2.554, "outer"),
    ("Champigny", 48.804, 2.534, "outer"), ("Sucy", 48.766, 2.537, "outer"), ("Villeneuve-Saint-Georges", 48.737, 2.465, "outer"),
    ("Palaiseau", 48.709, 2.238, "outer"), ("Villeras", 48.725, 2.180, "outer"), ("Haut-Buc", 48.771, 2.131, "outer"),
    ("Saint-Cyr", 48.797, 2.052, "outer"), ("Marly", 48.860, 2.080, "outer"),
    ("Chatillon", 48.800, 2.285, "intermediate"), ("Hautes-Bruyeres", 48.786, 2.348, "intermediate"),
    ("La Briche", 48.944, 2.345, "inner"), ("Double-Couronne du Nord", 48.937, 2.360, "inner"), ("Fort de l'Est", 48.930, 2.372, "inner"),
    ("Aubervilliers", 48.905, 2.400, "inner"), ("Romainville", 48.880, 2.418, "inner"), ("Noisy", 48.879, 2.446, "inner"),
    ("Rosny", 48.867, 2.470, "inner"), ("Nogent", 48.855, 2.478, "inner"), ("Vincennes", 48.843, 2.442, "inner"),
    ("Charenton", 48.809, 2.429, "inner"), ("Ivry", 48.800, 2.390, "inner"), ("Bicetre", 48.808, 2.357, "inner"),
    ("Montrouge", 48.808, 2.330, "inner"), ("Vanves", 48.815, 2.290, "inner"), ("Issy", 48.818, 2.265, "inner"),
    ("Mont-Valerien", 48.873, 2.213, "inner"),
]
RING_STRENGTH = {"outer": OUTER_FORT, "intermediate": INTERMEDIATE_FORT, "inner": INNER_FORT}
PARIS = (48.853, 2.349)


def _plain(name: str) -> str:
    return unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()


def _map_forts() -> dict[str, list[str]] | None:
    """The map builder's fort hexes (areas.forts(), next to this file), when it is there: the map's `forts`
    zone is then the one source of where forts stand, so each fort unit sits in a hex of that zone."""
    try:
        import areas  # noqa: PLC0415  (the map builder, written at the same time)
    except ImportError:
        return None
    forts = getattr(areas, "forts", None)
    return forts() if callable(forts) else None


def fort_hexes() -> dict[str, tuple[list[str], int]]:
    """Each fort hex on the map: the forts in it and the counter's strength (the strongest ring there).

    From the map builder's fort hexes when present (it keeps forts out of Paris's own hexes and
    spreads forts sharing a hex to free neighbours); otherwise each fort's own hex, by grid.hex_of."""
    ring_of = {_plain(name): RING_STRENGTH[ring] for name, _, _, ring in FORTS}
    from_map = _map_forts()
    if from_map is not None:
        hexes = {}
        for hex_, names in from_map.items():
            strengths = [strength for name in names for plain, strength in ring_of.items() if plain in _plain(name)]
            if not strengths:
                raise ValueError(f"fort hex {hex_}: no fort of §5 is named in {names}")
            hexes[hex_] = (names, max(strengths))
        return dict(sorted(hexes.items()))
    hexes: dict[str, tuple[list[str], int]] = {}
    for name, lat, lon, ring in FORTS:
        hex_ = grid.hex_of(lat, lon)
        if hex_ is None:
            continue                                 # Saint-Cyr lies west of the map's edge
        names, strength = hexes.get(hex_, ([], 0))
        hexes[hex_] = (names + [name], max(strength, RING_STRENGTH[ring]))
    return dict(sorted(hexes.items()))


def _forts() -> list[Unit]:
    forts = []
    for hex_, (names, strength) in fort_hexes().items():
        unit = Unit(f"fort_{hex_}", "allies", "/".join(names), "Camp retranche de Paris", "", "fort", (strength, 0), "fort")
        unit.setup = hex_
        unit.flags = ["fort"]
        forts.append(unit)
    return forts


def all_units() -> list[Unit]:
    units = _units()
    place(units, list(fort_hexes()))
    for unit in units:
        unit.flags = [unit.army] + (["screen"] if unit.screen else [])
    return units + _forts()


# ---------------------------------------------------------------------------------------------
# The Pursuit (11.4): who is placed, who arrives where and when
# ---------------------------------------------------------------------------------------------
def _town(lat: float, lon: float) -> list[str]:
    return [grid.hex_of(lat, lon)]


REIMS, EPERNAY, CHALONS, TROYES = _town(49.252, 4.040), _town(49.037, 3.931), _town(48.964, 4.379), _town(48.297, 4.078)
PONTOISE, LE_RAINCY, VERDUN = _town(49.051, 2.095), _town(48.897, 2.520), _town(49.145, 5.361)


def _east_edge_south_of_verdun() -> list[str]:
    _, row = _column_row(VERDUN[0])
    last = grid.COLUMNS.stop - 1
    return [grid.label(last, r) for r in range(row, min(row + 4, grid.ROWS.stop))]


EAST_SOUTH_OF_VERDUN = _east_edge_south_of_verdun()


# Each entry: (units, turn, where); where is an area name or a list of hexes.
PURSUIT_NOTES_AND_ARRIVALS: list[tuple[str, list[tuple[list[str], int, str | list[str]]]]] = [
    ("RECONSTRUCTED: the Allied armies enter the north edge by army on the Allied player-turn of 30 Aug (11.4 C, 11.4.1.2A-B); "
     "the 1st Cavalry Corps and the Moroccan Brigade with the 6th Army (§8.2 30 Aug)", [
        (["fr_14", "fr_63r", "fr_55r", "fr_56r", "fr_morbde", "fr_prov", "fr_cav1", "fr_cav3", "fr_cav5"], 1, "entry_fr_6"),
        (["gb_1", "gb_2", "gb_3", "gb_4", "gb_5", "gb_6", "gb_19", "gb_cav", "gb_gough"], 1, "entry_bef"),
        (["fr_35", "fr_36", "fr_38alg", "fr_5", "fr_6", "fr_37alg", "fr_1", "fr_2", "fr_19", "fr_20", "fr_51r",
          "fr_53r", "fr_69r", "fr_cav4", "fr_cav8", "fr_cav10"], 1, "entry_fr_5"),
        (["fr_33", "fr_34", "fr_23", "fr_24", "fr_col2", "fr_col3", "fr_3", "fr_4"], 1, "entry_fr_4"),
    ]),
    ("RECONSTRUCTED: the 3rd Army, falling back from the Meuse north of Verdun (§8.2 30 Aug), enters the east edge south of Verdun on 30 Aug; the Verdun garrison at Verdun", [
        (["fr_9", "fr_10", "fr_12", "fr_40", "fr_65r", "fr_67r", "fr_75r", "fr_cav7"], 1, EAST_SOUTH_OF_VERDUN),
        (["fr_72r"], 1, VERDUN),
    ]),
    ("RECONSTRUCTED: the 9th Army and other units arrive by rail at key towns (11.4.1.2.2 C; §7, §8.2): Foch's detachment at Reims, Epernay and Chalons "
     "31 Aug-1 Sep, the 61st/62nd Reserve Divs at Pontoise 31 Aug, IX Corps elements at Troyes 4 Sep, IV Corps at Le Raincy 4-5 Sep", [
        (["fr_17", "fr_mor"], turn_of(31, "Aug"), REIMS),
        (["fr_21", "fr_22", "fr_cav9"], turn_of(31, "Aug"), CHALONS),
        (["fr_42", "fr_52r"], turn_of(1), EPERNAY),
        (["fr_60r"], turn_of(1), CHALONS),
        (["fr_61r", "fr_62r"], turn_of(31, "Aug"), PONTOISE),
        (["fr_18"], turn_of(4), TROYES),
        (["fr_8"], turn_of(4), LE_RAINCY),
        (["fr_7"], turn_of(5), LE_RAINCY),
    ]),
    ("RECONSTRUCTED: the German armies enter the north edge by army from 31 Aug (11.4 D, 11.4.1.2.1 C), leading corps first, "
     "the rest a day later (§8.1); the 5th Army on the east edge (11.4.1.2.1 A)", [
        (["de_cav2", "de_cav9", "de_cav4", "de_17", "de_18", "de_5", "de_6", "de_7", "de_8"], 2, "entry_de_1"),
        (["de_3", "de_4", "de_7r", "de_22r"], 3, "entry_de_1"),
        (["de_gdcav", "de_cav5", "de_gd1", "de_gd2", "de_19", "de_20"], 2, "entry_de_2"),
        (["de_13", "de_14", "de_gdr2", "de_19r"], 3, "entry_de_2"),
        (["de_23", "de_32", "de_24", "de_40", "de_23r"], 2, "entry_de_3"),
        (["de_24r"], turn_of(5), "entry_de_3"),
        (["de_15", "de_16", "de_21", "de_25"], 2, "entry_de_4"),
        (["de_15r", "de_16r", "de_21r", "de_25r"], 3, "entry_de_4"),
        (["de_11", "de_12", "de_26", "de_27", "de_cav3", "de_cav6"], 2, "entry_de_east"),
        (["de_33", "de_34", "de_11r", "de_12r", "de_9r", "de_10r"], 3, "entry_de_east"),
        (["de_9", "de_10"], 4, "entry_de_east"),
    ]),
    ("RECONSTRUCTED: the option units (11.1 B: the Reinforcement Chart's codes A-D), a day or two behind their army's entry (§6, §7); "
     "an entry counts only when its option is chosen", [
        (["de_s1", "de_s2"], 2, "entry_de_1"),
        (["de_s3"], 3, "entry_de_1"),
        (["de_s4"], 2, "entry_de_2"),
        (["de_s5", "de_gd3", "de_gdr1"], 3, "entry_de_2"),
        (["de_22", "de_38", "de_cav8"], 3, "entry_de_3"),
        (["de_5r", "de_6r", "de_17r", "de_18r"], 4, "entry_de_1"),
    ]),
]

# Option C frees VII Reserve Corps from Maubeuge: it enters with the 2nd Army on 6 Sep (turn 8), in both scenarios.
OPTION_ARRIVALS: dict[str, tuple[int, str]] = {"de_13r": (turn_of(6), "entry_de_2"), "de_14r": (turn_of(6), "entry_de_2")}

OPTIONS = {
    "oob_a": ("German OB Option A: No East Front Reinforcements (11.1.1)",
              "The Guard Reserve Corps, XI Corps and the 8th Cavalry Division are not sent to East Prussia.",
              ["de_gd3", "de_gdr1", "de_22", "de_38", "de_cav8"], [], 7),
    "oob_b": ("German OB Option B: Schlieffen Plan (11.1.2)",
              "The right wing is kept strong: nothing is detached east or to the sieges, and five undesignated S divisions march with it.",
              ["de_gd3", "de_gdr1", "de_22", "de_38", "de_cav8", "de_5r", "de_6r", "de_17r", "de_18r",
               "de_s1", "de_s2", "de_s3", "de_s4", "de_s5"], ["de_13r", "de_14r"], 30),
    "oob_c": ("German OB Option C: No Siege of Belgian Fortifications (11.1.3)",
              "Landwehr alone screen the forts: III and IX Reserve Corps come from Antwerp and VII Reserve Corps from Maubeuge.",
              ["de_5r", "de_6r", "de_17r", "de_18r"], ["de_13r", "de_14r"], 13),
    "oob_d": ("German OB Option D: No Sieges and No East Front Reinforcements (11.1.4)",
              "Options A and C together: the German right wing is kept quite strong.",
              ["de_gd3", "de_gdr1", "de_22", "de_38", "de_cav8", "de_5r", "de_6r", "de_17r", "de_18r"], ["de_13r", "de_14r"], 20),
}


def pursuit_schedule() -> dict[str, str | tuple[int, str | list[str]]]:
    """Every unit of the Pursuit scenario's overrides: 'free' (the Paris garrison) or (turn, area or hexes)."""
    schedule: dict[str, str | tuple[int, str | list[str]]] = {
        u.id: "free" for u in all_units() if u.army == "paris_garrison"}
    for _, rows in PURSUIT_NOTES_AND_ARRIVALS:
        for ids, turn, where in rows:
            for uid in ids:
                if uid in schedule:
                    raise ValueError(f"{uid} is scheduled twice in the Pursuit")
                schedule[uid] = (turn, where)
    return schedule


# ---------------------------------------------------------------------------------------------
# Text
# ---------------------------------------------------------------------------------------------
def _arrival(turn: int, where: str | list[str]) -> str:
    if isinstance(where, str):
        return f"{{ turn = {turn}, area = {where} }}"
    return f"{{ turn = {turn}, hexes = [{', '.join(where)}] }}"


def unit_text(unit: Unit) -> str:
    strength, move = unit.value
    fields = [f"side = {unit.side}", f'designation = "{unit.designation}"', f'division = "{unit.division}"']
    if unit.size:
        fields.append(f"size = {unit.size}")
    fields += [f"type = {unit.type}", f"strength = {strength}", f"move = {move}", f"flags = [{', '.join(unit.flags)}]"]
    if unit.optional:
        fields.append("optional = true")
    if unit.setup:
        fields.append(f"setup = {unit.setup}")
    elif unit.free:
        fields.append("setup = free")
    else:
        fields.append(f"arrives = {_arrival(unit.arrives['turn'], unit.arrives.get('area') or unit.arrives['hexes'])}")
    return f"unit {unit.id} {{ {'  '.join(fields)} }}"


def units_text() -> str:
    lines = []
    first_fort = True
    for unit in all_units():
        if unit.note:
            lines += ["", f"# {unit.note}"]
        if unit.type == "fort" and first_fort:
            first_fort = False
            lines += ["", "# RECONSTRUCTED: one fort per fort hex of the Paris entrenched camp on the map (§5.1-5.2; rule 9.1: around Paris only); "
                      "printed strength 4 in the outer ring, 3 on the intermediate line, 2 in the inner ring (the strongest fort of a hex counts); "
                      "Saint-Cyr lies off the map"]
        lines.append(unit_text(unit))
    return "\n".join(lines).strip() + "\n"


def pursuit_text() -> str:
    schedule = pursuit_schedule()
    free = [uid for uid, entry in schedule.items() if entry == "free"]
    lines = ["# Rule 11.4.2: the Paris garrison's 6-3, 5-3, two 4-3s and 2-3 are placed in its boundary.",
             f"setup = {{ {', '.join(f'{uid} = free' for uid in free)} }}",
             "arrivals = {"]
    for note, rows in PURSUIT_NOTES_AND_ARRIVALS:
        lines.append(f"  # {note}")
        for ids, _, _ in rows:
            for uid in ids:
                turn, where = schedule[uid]
                lines.append(f"  {uid} = {_arrival(turn, where)}")
    lines.append("}")
    lines.append("# Every other unit keeps its own `arrives` (Lepel, VII Reserve Corps, the German XV Corps, the French XV and XXI Corps); "
                 "the forts are on the map in both scenarios.")
    lines.append("remove = []")
    return "\n".join(lines) + "\n"


def counterattack_free_text() -> str:
    placed = [u.id for u in all_units() if u.type != "fort" and (u.setup or u.free)]
    return f"setup = {{ {', '.join(f'{uid} = free' for uid in placed)} }}\n"


def options_text() -> str:
    blocks = []
    for name, (title, text, adds, rescheduled, vp) in OPTIONS.items():
        others = [o for o in OPTIONS if o != name]
        lines = [f"option {name} {{", f'  name = "{title}"', f'  text = "{text}"', f"  adds = [{', '.join(adds)}]",
                 f"  vp = {{ allies = {vp} }}", f"  excludes = [{', '.join(others)}]"]
        if rescheduled:
            arrivals = ", ".join(f"{uid} = {_arrival(*OPTION_ARRIVALS[uid])}" for uid in rescheduled)
            lines += ["  # RECONSTRUCTED: VII Reserve Corps, freed from the siege of Maubeuge, enters with the 2nd Army on 6 Sep"
                      " instead of 12 Sep (§6.1, §7), in both scenarios",
                      f"  arrivals = {{ {arrivals} }}"]
        blocks.append("\n".join(lines + ["}"]))
    return "\n\n".join(blocks) + "\n"


def regions() -> dict[str, str]:
    return {
        "units": units_text(),
        "pursuit": pursuit_text(),
        "counterattack_free": counterattack_free_text(),
        "options": options_text(),
    }


if __name__ == "__main__":
    for name, text in regions().items():
        print(f"# >>> generated: {name}\n{text}# <<< generated: {name}\n")
