"""The listing of legal moves and its samplers, each rule found by planting a fault in the engine's code that the
rest of the suite let through: legal_moves.py (which units may move and where, has_move and its witness hex, the
answers a move carries over: carry_moves), sampling.py (drawing an action or order without listing them all),
move_ends.py and end_sets.py (movement { may_end_move }, asked per hex or as sets of hexes) and frames.py. Each test
plays the rule through the public API (or the kept answers' own functions, as tests/test_engine_move_memory.py
does) on a shipped game, a made-up one in tests/games/, or a variant of one; a position worked out from scratch
(`clone(); forget()`) says what a kept answer should be. A draw is checked for uniformity by a chi-square bound
loose enough for a fixed seed (six standard deviations), tight enough for the bias each planted fault gives."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from game_variants import variant
from small_games import MOVEMENT_ONLY, ONE_WAY_ON, loaded
from test_engine_sampling import _counts, _uniform

from rulec.engine import PENDING, Action, legal_moves, new_game
from rulec.pipeline import load_game

GAMES = Path(__file__).parent / "games"


def destinations(state, uid):
    return sorted(a.hex for a in state.moves_of(uid) if a.kind == "move")


def scratch(state):
    """The same position worked out from scratch: nothing kept from the positions before it, nor from the phase."""
    copy = state.clone()
    copy.forget()
    copy._phase_moves = {}
    return copy


def movers(state):
    return {a.unit for a in state.legal_actions() if a.kind == "move"}


# ------------------------------------------------------------ a game that ends in a movement phase (legal_moves.py)
@pytest.fixture(scope="module")
def two_at_the_bridge(tmp_path_factory):
    """tests/games/last_bridge with a second Red unit: Red wins at once (sudden death, checked always) on
    taking the bridge 0303, in the middle of its movement phase."""
    return variant(tmp_path_factory.mktemp("bridge"), "last_bridge",
                   ("unit b1 {", "unit r2 { side = red  type = infantry  strength = 3  move = 2  setup = 0101 }\nunit b1 {"))


def _bridge_taken(game):
    state = new_game(game).arrange({"r1": "0203", "r2": "0101", "b1": "0505"}, phase="red_move", turn=1)
    assert destinations(state, "r2")  # listed while the game goes on
    state.apply_action(Action.move("r1", "0303"))
    assert state.is_terminal() and state.legal_actions() == [] and state.legal_orders() == []
    return state


def test_no_unit_has_a_move_once_the_game_is_over(two_at_the_bridge):
    """moves_of is empty for a unit that may not move now: once a sudden death has ended the game, r2 (which
    has not moved, in what was its side's movement phase) has none."""
    fresh = scratch(_bridge_taken(two_at_the_bridge))
    assert fresh.moves_of("r2") == [] and not fresh.is_legal(Action.move("r2", "0102"))


def test_the_moves_listed_before_a_move_that_ends_the_game_are_not_kept(two_at_the_bridge):
    """r2's moves, listed before r1 took the bridge, are not handed on to the position the game ended in."""
    state = _bridge_taken(two_at_the_bridge)
    assert state.moves_of("r2") == scratch(state).moves_of("r2") == []


# ------------------------------------------------------------ what a move keeps and asks again (carry_moves)
def _with(text: str, *replacements: tuple[str, str]) -> str:
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new)
    return text


# small_games.ONE_WAY_ON with a leader, who does not count for stacking, and room for two in a hex.
_ONE_WAY_ON = _with(ONE_WAY_ON,
                    ('unit_type infantry { name = "Infantry" }',
                     'unit_type infantry { name = "Infantry" }\nunit_type leader { name = "Leader" }'),
                    ("unit r_filler", "unit r_chief  { side = red   type = leader    strength = 1  move = 1  setup = 0101 }\n"
                                      "unit r_filler"),
                    ("stacking { limit = 1 }", "stacking { limit = 2  counts = unit.type != leader }"))


@pytest.fixture(scope="module")
def one_way_on(tmp_path_factory):
    """r_mover's and r_chief's one way on (1 MP) is 0201 (0102 and 0202 are marsh); r_filler and r_other stand
    there. Two units fill a hex (limit 2), and a leader does not count (stacking { counts })."""
    return loaded(tmp_path_factory.mktemp("one_way_on"), "one_way_on", _ONE_WAY_ON)


def test_a_unit_hemmed_in_is_asked_again_when_a_friend_leaves_a_hex_it_reaches(one_way_on):
    """With r_filler and r_other in 0201, r_mover has no move; r_filler's leaving 0201 (a hex r_mover reaches:
    whether it has a move hangs on it, though it had no hex to say so) gives it one."""
    state = new_game(one_way_on).arrange({"r_mover": "0101", "r_filler": "0201", "r_other": "0201",
                                          "r_chief": "0403", "b_far": "0404"}, phase="red_move")
    assert "r_mover" not in movers(state)
    state.apply_action(Action.move("r_filler", "0303"))
    assert "r_mover" in movers(state) and state.legal_actions() == scratch(state).legal_actions()
    assert destinations(state, "r_mover") == ["0201"]


def test_a_unit_that_does_not_count_for_stacking_ends_its_move_in_a_full_hex(one_way_on):
    """stacking { counts = unit.type != leader }: 0201 is full (r_filler and r_other), but the leader r_chief may
    still end its move there: it has a move, and 0201 is listed."""
    state = new_game(one_way_on).arrange({"r_mover": "0403", "r_filler": "0201", "r_other": "0201",
                                          "r_chief": "0101", "b_far": "0404"}, phase="red_move")
    assert "r_mover" not in movers(new_game(one_way_on).arrange(
        {"r_mover": "0101", "r_filler": "0201", "r_other": "0201", "r_chief": "0403", "b_far": "0404"},
        phase="red_move"))  # (where an infantry unit may not)
    assert "r_chief" in movers(state)
    assert destinations(state, "r_chief") == ["0201"]
    assert state.is_legal(Action.move("r_chief", "0201"))


def test_a_reinforcements_ends_are_asked_again_when_a_friend_opens_its_entry(tmp_path):
    """tests/games/far_watch with a may_end_move that reads nothing a move changes (so moves carry over): Blue's
    relief enters by the east edge but not next to a Blue unit (entry_blocked), so its moves hang on where b_guard
    stands, and those that may_end_move allows are asked again when b_guard moves away from the edge."""
    game = variant(tmp_path, "far_watch",
                   ("""  may_end_move = unit.side == red
                 or not any(n in neighbours(hex) where any(units(side = red, hex = n)))
                 or count(units(side = red, zone = western)) <= 1""", "  may_end_move = unit.side == red or hex != 0404"))
    state = new_game(game).arrange({"r_north": "0202", "r_south": "0204", "b_guard": "0503", "b_relief": PENDING},
                                   phase="blue_move", turn=2)
    before = destinations(state, "b_relief")
    assert "0601" not in before and "0404" not in before
    state.apply_action(Action.move("b_guard", "0501"))
    assert destinations(state, "b_relief") == destinations(scratch(state), "b_relief")
    assert "0602" in destinations(state, "b_relief") and "0404" not in destinations(state, "b_relief")


def test_the_hex_that_said_a_unit_had_a_move_is_no_answer_once_the_unit_no_longer_reaches_it(tmp_path):
    """tests/games/leapfrog with a may_end_move (so the hex that answered last is asked first): r_mover's one way
    out of b_line's zone is the leap into 0503, held by r_anchor. Once r_anchor leaves, r_mover no longer reaches
    0503, empty and allowed as it now is: it has no move."""
    game = variant(tmp_path, "leapfrog", ("    then_stop = true\n  }\n", "    then_stop = true\n  }\n  may_end_move = hex != 0101\n"))
    state = new_game(game).arrange({"r_mover": "0402", "r_anchor": "0503", "r_reserve": "0101", "b_line": "0502"},
                                   turn=1, phase="red_move")
    assert "r_mover" in movers(state)
    state.apply_action(Action.move("r_anchor", "0504"))
    assert "r_mover" not in movers(state) and not legal_moves.has_move(state, "r_mover")
    assert state.legal_actions() == scratch(state).legal_actions()


_WAY_OFF = """
game way_off { title = "Way off"  turns = 1 }
side red  { name = "Red" }
side blue { name = "Blue" }
map { columns = 1..3  rows = 1..3  default_terrain = clear  edges { west = 0101..0103 }
      features { marsh = [0102, 0103, 0201, 0202, 0203, 0301, 0302, 0303] } }
terrain marsh { move = 9 }
terrain clear { move = 1 }
unit_type infantry { name = "Infantry" }
unit r_leaving { side = red   type = infantry  strength = 1  move = 1  setup = 0101 }
unit r_mover   { side = red   type = infantry  strength = 1  move = 1  setup = 0102 }
unit b_far     { side = blue  type = infantry  strength = 1  move = 1  setup = 0303 }
movement { zoc = none  exit_map = true }
stacking { limit = 1  moves_end_over_limit = true }
""" + MOVEMENT_ONLY


def test_a_friend_whose_one_way_on_is_off_the_map_may_still_make_room(tmp_path):
    """stacking { moves_end_over_limit = true }: a move may end over the limit on a friend that may still move
    away. r_leaving, in the one clear hex (0101), may go nowhere on the map (marsh all round) but may leave it by
    the west edge: r_mover may end its move on it."""
    state = new_game(loaded(tmp_path, "way_off", _WAY_OFF))
    assert destinations(state, "r_leaving") == [] and [a.edge for a in state.moves_of("r_leaving")] == ["west"]
    assert destinations(state, "r_mover") == ["0101"] and "r_mover" in movers(state)


# ------------------------------------------------------------ legality (legal_moves.py)
def test_cancel_is_refused_where_no_unit_is_chosen(metz):
    """`cancel` puts a chosen unit back: in a movement phase with no unit chosen it is not legal."""
    state = new_game(metz, seed=1)
    assert not state.is_legal(Action.cancel())
    state.apply_action(Action.move(next(iter(movers(state)))))
    assert state.is_legal(Action.cancel())


def test_a_landing_that_may_come_any_turn_never_holds_the_phase_open():
    """reinforcement_delay = false forces in a reinforcement due this turn, not one that arrives `turn = any`
    (never due, docs/rulings.md): tests/games/reinforcements' r_light may land, and the phase may end without it."""
    game = load_game(str(GAMES / "reinforcements.rulec"))
    state = new_game(game, options=("light_landing",)).arrange({"r_line": "0202", "b_line": "0404",
                                                                "r_light": PENDING}, turn=1, phase="red_move")
    assert "r_light" in movers(state) and Action.end() in state.legal_actions()
    state.apply_action(Action.end())
    assert state.phase.id == "red_fight" and state.status("r_light") == PENDING


@pytest.fixture(scope="module")
def leash(tmp_path_factory):
    """tests/games/supply_leash (may_end_move: in supply, traced 4 hexes from the side's edge) with one to a hex
    and a second Red unit."""
    return variant(tmp_path_factory.mktemp("leash"), "supply_leash",
                   ("stacking { moves_end_over_limit = true }", "stacking { limit = 1 }"),
                   ("unit r_guard", "unit r_two { side = red  type = infantry  strength = 2  move = 4  setup = 0802 }\n"
                                    "unit r_guard"))


def test_may_end_move_is_false_for_a_hex_the_unit_does_not_reach(leash):
    """GameState.may_end_move: b_lost (4 MP, in 0802) does not reach 0102, though the rule (in supply) holds
    there, as b_scout's answer says; it reaches 0402, which is in supply too."""
    state = new_game(leash).arrange({"b_scout": "0302", "b_lost": "0802", "r_guard": "0903", "r_two": "0901"},
                                    turn=1, phase="blue_move")
    assert state.may_end_move("b_scout", "0102") and state.may_end_move("b_lost", "0402")
    assert not state.may_end_move("b_lost", "0102")


def test_a_full_hex_is_cut_from_the_moves_may_end_move_allows(leash):
    """b_lost in 0602 cuts Red's supply west of it: r_guard's reach holds hexes may_end_move forbids (sorted
    before the others), and 0801, where r_two has ended its move: its listed moves are the hexes it reaches that
    the rule allows, 0801 alone left out."""
    state = new_game(leash).arrange({"b_scout": "0101", "b_lost": "0602", "r_guard": "0903", "r_two": "0802"},
                                    turn=1, phase="red_move")
    state.apply_action(Action.move("r_two", "0801"))
    reached = legal_moves.unit_moves(state, "r_guard").to
    assert any(not state.may_end_move("r_guard", h) for h in reached if h < "0801")
    assert destinations(state, "r_guard") == sorted(h for h in reached if state.may_end_move("r_guard", h) and h != "0801")


# ------------------------------------------------------------ may_end_move asked as sets (end_sets.py)
_TWO_CORNERS = ("  may_end_move = (unit.side == blue and distance(hex, 0101) <= 2) or (unit.side == red and "
                "distance(hex, 0903) <= 1)")
_LEASH_RULE = """  may_end_move = if(marked(unit, isolated), distance_to(west, hex) < distance_to(west, unit.hex),
                    traced_hex(supply, unit.side, hex))"""


def test_two_conditions_on_the_map_alone_are_each_answered_for_themselves(tmp_path):
    """may_end_move with two parts about the map alone (kept once a game as sets of hexes): Blue may end near its
    corner, Red near its own. Asked in Blue's phase and then in Red's of one game, each side's part answers."""
    game = variant(tmp_path, "supply_leash", (_LEASH_RULE, _TWO_CORNERS))
    state = new_game(game).arrange({"b_scout": "0302", "b_lost": "0103", "r_guard": "0703"}, turn=1, phase="blue_move")
    assert destinations(state, "b_scout") == ["0101", "0102", "0103", "0201", "0202", "0301"]
    state.apply_action(Action.end())
    assert state.phase.id == "red_move"
    assert destinations(state, "r_guard") == ["0802", "0803", "0902", "0903"]


def test_a_unit_off_the_map_is_in_no_hex_of_the_condition(tmp_path):
    """may_end_move = hex == unit.hex or hex == 0102, asked as sets: a reinforcement waiting off the map stands in
    no hex, so it may end only in 0102."""
    game = variant(tmp_path, "supply_leash", (_LEASH_RULE, "  may_end_move = hex == unit.hex or hex == 0102"),
                   ("unit r_guard", "unit b_new { side = blue  type = infantry  strength = 2  move = 3  "
                                    "arrives = { turn = 1, area = west } }\nunit r_guard"))
    state = new_game(game).arrange({"b_scout": "0302", "b_lost": "0702", "r_guard": "0903", "b_new": PENDING},
                                   turn=1, phase="blue_move")
    assert destinations(state, "b_new") == ["0102"]


# ------------------------------------------------------------ the samplers' distributions (sampling.py)
def test_actions_are_drawn_uniformly_when_most_movers_have_moved():
    """Late in the Marne's first movement phase most of the movers drawn are refused (moved already), and once
    most candidates are drawn the sampler tries the rest in a random order: still each legal action with the same
    chance (in their order, the first unit would be drawn far more often than `end`, the last candidate)."""
    state = new_game(load_game("the_marne"), seed=1)
    while len(movers(state)) > 1:  # move the units in order of their names, each to its first hex
        uid = min(movers(state))
        state.apply_action(state.moves_of(uid)[0])
    legal = state.clone().legal_actions()  # the last unit's `move UNIT`, and `end`
    assert state.phase.kind == "movement" and len(legal) == 2 and len(state._movers) > 20 * len(legal)
    draws = 300 * len(legal)
    _uniform(_counts(state, "sample_legal_action", draws, seed=5), legal, draws)


def test_orders_are_drawn_uniformly_while_a_reinforcement_must_enter():
    """tests/games/reinforcements, turn 2: r_reserve is due and may not be held back, so `end` is not legal: every
    order drawn is a move of r_line or an entry of r_reserve, each with the same chance."""
    game = load_game(str(GAMES / "reinforcements.rulec"))
    state = new_game(game).arrange({"r_line": "0202", "b_line": "0404", "r_reserve": PENDING}, turn=2, phase="red_move")
    legal = state.clone().legal_orders()
    assert Action.end() not in legal and {a.unit for a in legal} == {"r_line", "r_reserve"}
    draws = 40 * len(legal)
    _uniform(_counts(state, "sample_legal_order", draws, seed=3), legal, draws)


def test_a_target_only_a_unit_bound_elsewhere_reaches_is_never_drawn():
    """tests/games/ranged_duties (must_attack = true, no may_join): the gun in 0403 has r2 (0603) in range but stands
    next to r3 (0402), and a unit next to an enemy owes its attack there: no unit may join a battle against 0603, so
    `attack 0603` is not legal, though the gun reaches it. r3 and r1 (next to i1) must be attacked: `end` is not legal
    either. The sampler draws the two attacks left, each with the same chance."""
    game = load_game(str(GAMES / "ranged_duties.rulec"))
    state = new_game(game).arrange({"gun": "0403", "i1": "0105", "i2": "0101", "r1": "0106", "r2": "0603",
                                    "r3": "0402"}, phase="blue_fight")
    legal = state.clone().legal_actions()
    assert legal == [Action.attack("0106"), Action.attack("0402")]
    draws = 100 * len(legal)
    _uniform(_counts(state, "sample_legal_action", draws, seed=4), legal, draws)


def test_a_target_no_unit_may_join_a_battle_against_is_never_drawn():
    """tests/games/bridgehead (combat { may_join }, no duty): b1, cut off from supply by r2 on the bridge, may join
    only an attack that would reopen its supply: against r2 (0502), not r1 (0702), though it stands next to both.
    The sampler draws `attack 0502` and `end`, each with the same chance, never `attack 0702`."""
    game = load_game(str(GAMES / "bridgehead.rulec"))
    state = new_game(game).arrange({"b1": "0602", "r1": "0702", "r2": "0502"}, phase="blue_combat")
    legal = state.clone().legal_actions()
    assert legal == [Action.attack("0502"), Action.end()]
    draws = 100 * len(legal)
    _uniform(_counts(state, "sample_legal_action", draws, seed=4), legal, draws)


# ------------------------------------------------------------ a battle's report (frames.py)
def test_a_battle_against_several_hexes_is_reported_at_its_first_target():
    """combat { multi_hex }: Blue b1 attacks 0403 and 0503 together (tests/games/retreat_policies.rulec); the
    report's hex is the first of the targets, sorted."""
    policies = load_game(str(GAMES / "retreat_policies.rulec"))
    game = replace(policies, combat=replace(policies.combat, multi_hex=True))
    state = new_game(game).arrange({"b1": "0402", "r1": "0403", "r2": "0503"}, phase="blue_fight")
    for step in [Action.attack("0503"), Action.with_unit("b1"), Action.attack("0403"), Action.resolve(), Action.roll(1)]:
        state.apply_action(step)
    assert state.last_battle.battle.targets == ("0403", "0503") and state.last_battle.hex == "0403"


# ------------------------------------------------------------ whole orders (legal_moves.movement_orders)
def _expanded(state, actions):
    """legal_orders as legal_actions says it: each `move UNIT` replaced by the unit's moves, in its place."""
    orders = []
    for a in actions:
        orders += state.moves_of(a.unit) if a.kind == "move" and a.hex is None else [a]
    return orders


@pytest.mark.parametrize("path", sorted(str(p) for p in GAMES.glob("*.rulec")) + ["drive_on_metz", "the_marne"],
                         ids=lambda path: Path(path).stem)
def test_whole_orders_are_the_actions_with_each_units_moves_in_its_place(path):
    """A movement phase's whole orders are made without its list of actions (movement_orders): at every decision of
    a random game of whole orders, they are that list, worked out from scratch, with each `move UNIT` replaced by the
    unit's moves, in the same order (delays, reinforcements that must enter first, and `end` included); and the
    same once the position's own list of actions is made."""
    game = load_game(path)
    state, rng = new_game(game, seed=3), random.Random(3)
    compared = 0
    for _ in range(150):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes], k=1)[0])
            continue
        orders = state.legal_orders()
        if state.phase.kind == "movement" and state.pending is None:
            fresh = scratch(state)
            assert orders == _expanded(fresh, fresh.legal_actions()), (path, state.history()[-3:])
            assert state.legal_orders() == _expanded(state, state.legal_actions()) == orders  # listed, then the same
            compared += 1
        state.apply_action(rng.choice(orders))
    assert compared or not any(p.kind == "movement" for p in game.sequence), path
