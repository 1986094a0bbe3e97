"""The Engle WW2 battle rules (engle:* cases of cases.tsv), proved on the game file games/engle_ww2_battle.rulec."""

from __future__ import annotations

import functools

import pytest

from rulec.battle.army import ArmyCounts, army_state
from rulec.battle.decisions import DefaultDecider, ReserveOffer
from rulec.battle.deployment import DeploymentError, deploy
from rulec.battle.forces import Force, parse_force, side_modifier
from rulec.battle.resolve import BattleSetup, BattleState, fight_battle, judge
from rulec.battle.scoring import outcome_of, total, unit_modifiers
from rulec.pipeline import load_game


@functools.cache
def _engle():
    return load_game("engle_ww2_battle")


@pytest.fixture
def engle():
    return _engle()


class Dice:
    """Dice that give the faces listed, in order."""

    def __init__(self, *faces: int):
        self.faces = list(faces)

    def roll(self) -> int:
        return self.faces.pop(0)


class Never:
    """A decider that never commits a reserve."""

    def commit(self, offer, forces):
        return None


class Always:
    """A decider that commits every reserve unit it is offered, and records the offers."""

    def __init__(self):
        self.offers: list[ReserveOffer] = []

    def commit(self, offer, forces):
        self.offers.append(offer)
        return offer.options[0][0]


def forces(game, attacker: str, defender: str) -> tuple[Force, Force]:
    return parse_force(game, attacker), parse_force(game, defender)


def setup(game, attacker: str, defender: str, skirmish: bool = False) -> BattleSetup:
    return BattleSetup(game.battle, forces(game, attacker, defender), die=game.info.die, skirmish=skirmish)


def labels(force: Force, indices) -> list[str]:
    return [force.units[i].label for i in indices]


# ------------------------------------------------------------------ deployment
@pytest.mark.rule("engle:deployment")
def test_lines_face_each_other_and_the_larger_side_doubles_up(engle):
    a, b = forces(engle, "Britain: infantry x3", "Soviet: infantry x2")
    deployment = deploy(engle.battle, (a, b))
    assert deployment.larger == 0
    assert [len(c.units[0]) for c in deployment.combats] == [2, 1]  # two against one, then one against one
    assert all(len(c.units[1]) == 1 for c in deployment.combats)
    fought = sorted(i for c in deployment.combats for i in c.units[0])
    assert fought == [0, 1, 2] and sorted(i for c in deployment.combats for i in c.units[1]) == [0, 1]


@pytest.mark.rule("engle:deployment")
def test_the_larger_side_may_keep_any_reserve(engle):
    a, b = forces(engle, "Britain: infantry x3, tank/reserve", "Soviet: infantry x2")
    deployment = deploy(engle.battle, (a, b))
    assert labels(a, deployment.reserve[0]) == ["tank"]


@pytest.mark.rule("engle:deployment")
def test_the_smaller_sides_reserve_holds_distance_weapons_only(engle):
    a, b = forces(engle, "Britain: infantry x4", "Soviet: infantry x2, mortar/reserve")
    deployment = deploy(engle.battle, (a, b))
    assert labels(b, deployment.reserve[1]) == ["mortar"]
    a, b = forces(engle, "Britain: infantry x4", "Soviet: infantry x2, infantry/reserve")
    with pytest.raises(DeploymentError, match="only distance weapons in reserve"):
        deploy(engle.battle, (a, b))


@pytest.mark.rule("engle:deployment")
def test_the_smaller_side_may_not_put_two_against_one(engle):
    a, b = forces(engle, "Britain: infantry x2, tank/reserve, tank/reserve", "Soviet: infantry x3")
    with pytest.raises(DeploymentError, match="smaller side, would put two units against one"):
        deploy(engle.battle, (a, b))


@pytest.mark.rule("engle:deployment")
def test_no_more_than_two_against_one(engle):
    a, b = forces(engle, "Britain: infantry x5", "Soviet: infantry x2")
    deployment = deploy(engle.battle, (a, b))
    assert len(deployment.line[0]) == 4 and len(deployment.reserve[0]) == 1
    assert max(len(c.units[0]) for c in deployment.combats) == 2
    a, b = forces(engle, "Britain: infantry x5, tank/reserve", "Soviet: infantry x2")
    with pytest.raises(DeploymentError, match="at most 2 may oppose one enemy unit"):
        deploy(engle.battle, (a, b))


# -------------------------------------------------------------------- matching
@pytest.mark.rule("engle:matching")
def test_tanks_meet_tanks_first(engle):
    a, b = forces(engle, "Britain: infantry, tank", "Soviet: t34, infantry")
    deployment = deploy(engle.battle, (a, b))
    pairs = {(labels(a, c.units[0])[0], labels(b, c.units[1])[0]) for c in deployment.combats}
    assert pairs == {("tank", "t34"), ("infantry", "infantry")}


@pytest.mark.rule("engle:matching")
def test_then_anti_tank_guns_then_others(engle):
    a, b = forces(engle, "Britain: infantry, tank", "Soviet: infantry, at-gun")
    pairs = {(labels(a, c.units[0])[0], labels(b, c.units[1])[0]) for c in deploy(engle.battle, (a, b)).combats}
    assert pairs == {("tank", "anti_tank_gun"), ("infantry", "infantry")}
    # A surplus tank joins the enemy tank before any other enemy unit.
    a, b = forces(engle, "Britain: infantry, tank, tank", "Soviet: infantry, t34")
    deployment = deploy(engle.battle, (a, b))
    against_t34 = next(c for c in deployment.combats if labels(b, c.units[1]) == ["t34"])
    assert labels(a, against_t34.units[0]) == ["tank", "tank"]


@pytest.mark.rule("engle:matching")
def test_distance_weapons_fill_a_reserve_first(engle):
    a, b = forces(engle, "Britain: infantry, mortar, infantry, artillery", "Soviet: infantry x2")
    deployment = deploy(engle.battle, (a, b))
    assert labels(a, deployment.reserve[0]) == ["mortar", "artillery"]
    a, b = forces(engle, "Britain: infantry x2, infantry/reserve, mortar", "Soviet: infantry x2")
    with pytest.raises(DeploymentError, match="before its distance weapons"):
        deploy(engle.battle, (a, b))


# ------------------------------------------------------------------------ dice
@pytest.mark.rule("engle:dice")
def test_one_die_per_unit_and_two_against_one_add(engle):
    battle = setup(engle, "Britain: infantry x2", "Soviet: infantry")
    result = fight_battle(battle, Dice(2, 3, 4), Never())
    (combat,) = result.combats
    assert len(combat.rolls) == 3
    assert combat.scores == (2 + 3, 4)


@pytest.mark.rule("engle:dice")
def test_the_attacker_orders_the_combats(engle):
    battle = setup(engle, "Britain: infantry, tank", "Soviet: tank, infantry")
    order = [labels(battle.forces[0], c.combat.units[0]) for c in fight_battle(battle, Dice(*[3] * 4), Never()).combats]
    assert order == [["infantry"], ["tank"]]  # the attacker's line as written
    swapped = setup(engle, "Soviet: tank, infantry", "Britain: infantry, tank")
    order = [labels(swapped.forces[0], c.combat.units[0]) for c in fight_battle(swapped, Dice(*[3] * 4), Never()).combats]
    assert order == [["tank"], ["infantry"]]


# ------------------------------------------------------------------ modifiers
@pytest.mark.rule("engle:type-modifiers")
def test_type_versus_type_matrix(engle):
    system = engle.battle
    kinds = {"tank": "tank", "anti_tank_gun": "at-gun", "other": "infantry"}
    expected = {("tank", "other"): 2, ("anti_tank_gun", "tank"): 2}
    side = parse_force(engle, "Britain: " + ", ".join(kinds.values()))
    by_category = {u.category: u for u in side.units}
    for mine in kinds:
        for theirs in kinds:
            (type_modifier, *_) = unit_modifiers(system, side, by_category[mine], [by_category[theirs]])
            assert type_modifier.value == expected.get((mine, theirs), 0), (mine, theirs)


@pytest.mark.rule("engle:modifiers")
def test_rulebook_example_panther_against_infantry(engle):
    germany, soviet = forces(engle, "Germany: panther/good", "Soviet: infantry")
    panther, infantry = germany.units[0], soviet.units[0]
    assert total(unit_modifiers(engle.battle, germany, panther, [infantry])) == 4  # tank v other +2, German +1, good +1
    assert total(unit_modifiers(engle.battle, soviet, infantry, [panther])) == 0


@pytest.mark.rule("engle:modifiers")
def test_rulebook_example_panzergrenadiers_against_a_mortar(engle):
    germany, soviet = forces(engle, "Germany: panzergrenadier/good", "Soviet: mortar")
    grenadiers, mortar = germany.units[0], soviet.units[0]
    assert total(unit_modifiers(engle.battle, germany, grenadiers, [mortar])) == 2  # other v other 0, German +1, good +1
    assert total(unit_modifiers(engle.battle, soviet, mortar, [grenadiers])) == 0


@pytest.mark.rule("engle:modifiers")
def test_quality_arguments_and_exhaustion(engle):
    side = parse_force(engle, "Britain: infantry/good, infantry, infantry/poor, t70")
    enemy = parse_force(engle, "Soviet: infantry").units
    assert [total(unit_modifiers(engle.battle, side, u, enemy)) for u in side.units] == [1, 0, -1, 2 - 1]  # a T-70 is poor
    argued = side.with_modifier(side_modifier(engle, side, "+1")).with_modifier(side_modifier(engle, side, "exhaustion"))
    assert [total(unit_modifiers(engle.battle, argued, u, enemy)) for u in argued.units] == [1, 0, -1, 1]
    assert side_modifier(engle, side, "-1").value == -1
    with pytest.raises(ValueError, match="not \\+2"):
        side_modifier(engle, side, "+2")


# ------------------------------------------------------------------- reserves
@pytest.mark.rule("engle:reserves")
def test_a_reserve_unit_rolls_at_minus_one_and_adds_to_the_score(engle):
    battle = setup(engle, "Britain: infantry x2, mortar", "Soviet: infantry x2")
    # Combat 1: 2 against 5, the mortar joins with a 4 (-1): 2 + 3 = 5, even. Combat 2: 6 against 1.
    result = fight_battle(battle, Dice(2, 5, 4, 6, 1), DefaultDecider())
    first, second = result.combats
    reserve_roll = first.rolls[-1]
    assert reserve_roll.from_reserve and reserve_roll.die == 4 and reserve_roll.score == 3
    assert first.scores == (5, 5) and first.loser is None
    assert second.committed == ((), ())


@pytest.mark.rule("engle:reserves")
def test_no_reserve_after_a_result_is_accepted(engle):
    battle = setup(engle, "Britain: infantry x2, mortar, artillery", "Soviet: infantry x2")
    decider = Always()
    result = fight_battle(battle, Dice(*[3] * 8), decider)
    combats_offered = [offer.combat for offer in decider.offers]
    assert combats_offered == sorted(combats_offered)  # never back to an earlier combat
    assert result.combats[0].committed[0] == (2, 3)  # both reserves went into combat 1, one at a time
    assert result.combats[1].committed == ((), ())


@pytest.mark.rule("engle:reserves")
def test_reserves_get_no_dug_in_bonus(engle):
    side = parse_force(engle, "Soviet: infantry, mortar")
    dug_in = side.with_modifier(side_modifier(engle, side, "dug_in"))
    enemy = parse_force(engle, "Britain: infantry").units
    line = unit_modifiers(engle.battle, dug_in, dug_in.units[0], enemy)
    reserve = unit_modifiers(engle.battle, dug_in, dug_in.units[1], enemy, from_reserve=True)
    assert total(line) == 1
    assert total(reserve) == -1 and "dug in" not in [m.label for m in reserve]


# -------------------------------------------------------------------- outcome
@pytest.mark.rule("engle:outcome")
@pytest.mark.parametrize("scores, outcome, loser, points", [
    ((4, 4), "even", None, 0),
    ((3, 5), "repulsed", 0, 1),  # 5:3 is below 2:1
    ((7, 4), "repulsed", 1, 1),
    ((2, 4), "beaten", 0, 2),  # exactly 2:1 is not below 2:1
    ((5, 2), "beaten", 1, 2),
    ((2, 6), "routed", 0, 3),  # exactly 3:1
    ((9, 2), "routed", 1, 3),
    ((0, 2), "beaten", 0, 2),  # a score below 1 counts as 1
    ((-1, 1), "even", None, 0),
])
def test_outcome_by_ratio(engle, scores, outcome, loser, points):
    band, lost = outcome_of(engle.battle, scores)
    assert (band.id, lost, band.casualty_points) == (outcome, loser, points)


@pytest.mark.rule("engle:battle-loser")
def test_the_side_with_more_casualty_points_loses(engle):
    battle = setup(engle, "Britain: infantry x2", "Soviet: infantry x2")
    deployment = deploy(engle.battle, battle.forces)
    state = BattleState(reserves=((), ()), casualties=(1, 3), losses=((("repulsed", 1),), (("routed", 1),)))
    sides, loser = judge(battle, deployment, state)
    assert loser == 1 and sides[1].lost and not sides[0].lost
    drawn = BattleState(reserves=((), ()), casualties=(2, 2), losses=((("beaten", 1),), (("beaten", 1),)))
    sides, loser = judge(battle, deployment, drawn)
    assert loser is None and sides[0].lost is None
    assert sides[0].effect == sides[0].state.if_winner  # a drawn battle: both as winners (rulings)


# ----------------------------------------------------------------- army state
@pytest.mark.rule("engle:army-state")
@pytest.mark.parametrize("units, losses, state", [
    (4, {}, "steady"),
    (4, {"repulsed": 4}, "steady"),
    (4, {"beaten": 2}, "shaken"),  # half is not more than half
    (4, {"beaten": 3}, "broken"),
    (4, {"routed": 1}, "broken"),
    (4, {"routed": 2, "beaten": 2}, "broken"),
    (4, {"routed": 3}, "shattered"),
    (1, {"routed": 1}, "shattered"),
])
def test_army_state_table(engle, units, losses, state):
    assert army_state(engle.battle, ArmyCounts(units, losses)).id == state


@pytest.mark.rule("engle:army-state")
def test_army_state_effects_for_loser_and_winner(engle):
    battle = setup(engle, "Britain: infantry x2", "Soviet: infantry x2")
    deployment = deploy(engle.battle, battle.forces)
    state = BattleState(reserves=((), ()), casualties=(2, 6), losses=((("beaten", 1),), (("routed", 2),)))
    sides, loser = judge(battle, deployment, state)
    assert (sides[0].state.id, sides[0].effect, sides[0].exhausted) == ("shaken", "Cannot pursue", False)
    assert sides[1].state.id == "shattered" and sides[1].effect.startswith("Must withdraw") and sides[1].exhausted


@pytest.mark.rule("engle:army-state")
def test_a_losing_pair_counts_as_two_units(engle):
    battle = setup(engle, "Britain: infantry x2", "Soviet: tank")
    result = fight_battle(battle, Dice(1, 1, 6), Never())  # 2 against 6+2: 3:1 or more, routed
    assert result.combats[0].outcome.id == "routed"
    assert result.sides[0].counts["routed"] == 2 and result.sides[0].state.id == "shattered"
    assert result.sides[0].casualty_points == 3  # casualty points are per combat


# ------------------------------------------------------------ skirmish, ambush
@pytest.mark.rule("engle:skirmish")
def test_a_skirmish_is_one_unit_a_side_with_up_to_two_reserves(engle):
    a, b = forces(engle, "Britain: infantry x4, mortar", "Soviet: infantry x2")
    deployment = deploy(engle.battle, (a, b), skirmish=True)
    assert [len(line) for line in deployment.line] == [1, 1]
    assert labels(a, deployment.reserve[0]) == ["mortar", "infantry"] and len(deployment.held_back[0]) == 2
    assert len(deployment.reserve[1]) == 1 and deployment.held_back[1] == ()


@pytest.mark.rule("engle:skirmish")
def test_a_skirmish_grows_into_an_open_battle_when_both_commit_all_reserves(engle):
    battle = setup(engle, "Britain: infantry x4", "Soviet: infantry x3", skirmish=True)
    result = fight_battle(battle, Dice(*[3] * 30), Always())
    assert result.escalated is not None and not result.escalated.setup.skirmish
    assert len(result.escalated.deployment.line[0]) + len(result.escalated.deployment.reserve[0]) == 4
    calm = fight_battle(battle, Dice(*[3] * 30), Never())
    assert calm.escalated is None and len(calm.combats) == 1


@pytest.mark.rule("engle:ambush")
def test_ambushing_units_get_plus_one(engle):
    side = parse_force(engle, "Soviet: infantry, mortar")
    ambushing = side.with_modifier(engle.battle.modifiers[engle.battle.ambush])
    enemy = parse_force(engle, "Britain: infantry").units
    assert [total(unit_modifiers(engle.battle, ambushing, u, enemy)) for u in ambushing.units] == [1, 1]
    assert total(unit_modifiers(engle.battle, ambushing, ambushing.units[1], enemy, from_reserve=True)) == 0
