"""What a move keeps of the position before it (rulec/engine/move_memory.py): every side's enemy hexes, zones of
control and obstacles, kept for the mover's side and marked stale at the mover's hexes for the others, must equal
what a position worked out from scratch gives, after every move of random games of every map game, whether asked
at once or several moves later."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from big_games import STEPS_OF_A_BIG_GAME, is_big
from small_games import ONE_WAY_ON

from rulec.engine import legal_moves, move_ends, move_memory, new_game, reach, stacking
from rulec.engine.actions import DELAY, EXIT, MOVE, Action
from rulec.pipeline import GAMES_DIR, SUFFIX, load_game

TEST_GAMES = GAMES_DIR.parent / "tests" / "games"
MAP_GAMES = [str(p) for folder in (GAMES_DIR, TEST_GAMES) for p in sorted(folder.glob(f"*{SUFFIX}"))
             if load_game(str(p)).map is not None]
VIEWS = ("zoc", "enemy", "obstacles")


def _decisions(state, rng: random.Random):
    """Each step of a random game up to its end or its budget, dice rolled here: yields the step's number where a
    player is to decide (the caller plays that decision)."""
    limit = STEPS_OF_A_BIG_GAME if is_big(state.game) else 3000
    for step in range(limit):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        yield step


def _view(state, kind: str, side: str):
    if kind == "zoc":
        return state.enemy_zoc(side)
    if kind == "enemy":
        return state._enemy_occupied(side)
    return move_memory.obstacles(state, side)


def _fresh(state, kind: str, side: str):
    """The view of the position worked out from scratch, on a copy that knows nothing yet."""
    copy = state.clone()
    copy.forget()
    return _view(copy, kind, side)


def _kept_views_hold(path: str, seed: int) -> tuple[int, int]:
    """Play a random game of whole orders; after each move or exit compare every view the new position kept (or
    kept stale) with one from scratch. Views are asked at two actions of three only, so that stale ones pile up.
    (views compared, of them asked again from a stale view)."""
    game = load_game(path)
    state, rng = new_game(game, seed=seed), random.Random(seed)
    compared = stale = moves = 0
    for step in _decisions(state, rng):
        if step % 3 != 2:
            for side in game.sides:  # every side's views, known to the position the next move keeps them from
                for kind in VIEWS:
                    _view(state, kind, side)
        action = state.sample_legal_order(rng)
        state.apply_action(action)
        if action.kind not in (MOVE, EXIT):
            continue
        moves += 1
        for side in game.sides:
            for kind in VIEWS:
                was_stale = ("stale " + kind, side) in state._standing and (kind, side) not in state._standing
                if was_stale or (kind, side) in state._standing:
                    assert _view(state, kind, side) == _fresh(state, kind, side), (path, kind, side, state.history()[-3:])
                    compared += 1
                    stale += was_stale
    assert compared > 0 or moves == 0, path  # (a game of battles only, with no movement phase, moves nothing)
    return compared, stale


@pytest.mark.parametrize("path", MAP_GAMES, ids=lambda p: p.rsplit("/", 1)[-1].removesuffix(SUFFIX))
def test_views_kept_after_a_move_equal_views_from_scratch(path):
    _kept_views_hold(path, seed=3)


def test_a_move_patches_the_views_of_the_sides_it_does_not_belong_to():
    _, stale = _kept_views_hold(str(GAMES_DIR / f"drive_on_metz{SUFFIX}"), seed=4)
    assert stale > 50  # the enemy's zones and obstacles, kept through the mover's moves rather than worked out again


def _moves_kept_hold(path: str, seed: int, orders: bool = True, sampled: bool = False, mixed: bool = False,
                     drawn: bool = False) -> int:
    """Play a random game, of whole orders (every unit's moves listed at each decision; with `sampled`, drawn by
    sample_legal_order, which asks every mover's candidate orders) or of actions (a move in two steps: only whether
    each unit has a move is asked; with `drawn`, drawn by sample_legal_action, which searches each unit it draws
    whole); after each move, exit or delay compare what the new position kept of the one
    before with a position worked out from scratch: every unit's legal moves, whether it has a move (and the hex
    that says so), its candidate orders, may_end_move's answers, and the movement phase's list of actions patched
    from the one before. With `mixed`, each decision is drawn one of the three ways at random: answers made after
    draws that made none (legal_moves.REACHING is noted as they are made). The answers compared."""
    state, rng = new_game(load_game(path), seed=seed), random.Random(seed)
    compared = 0
    for _ in _decisions(state, rng):
        if mixed:
            way = rng.randrange(3)
            action = (state.sample_legal_order(rng) if way == 0 else rng.choice(state.legal_orders()) if way == 1
                      else rng.choice(state.legal_actions()))
        elif sampled:
            action = state.sample_legal_order(rng)
        elif drawn:
            action = state.sample_legal_action(rng)
        else:
            action = rng.choice(state.legal_orders() if orders else state.legal_actions())
        state.apply_action(action)
        copy = _scratch(state)  # (nor what the phase keeps: its hints and searches, shared by the clones made in it)
        if legal_moves.LISTING_PATCH in state._cache and legal_moves.LISTING not in state._cache:
            assert state.legal_actions() == copy.legal_actions(), (path, state.history()[-3:])
            compared += 1
        for uid, moves in state._cache.get(legal_moves.LEGAL_MOVES, {}).items():
            assert list(moves) == copy.moves_of(uid), (path, uid, state.history()[-3:])
            compared += 1
        for uid, answers in state._cache.get(move_ends.END_ALLOWED, {}).items():  # may_end_move's, by hex
            for h, ok in answers.items():
                assert ok == move_ends.end_allowed(copy, uid, h), (path, uid, h, state.history()[-3:])
                compared += 1
        for uid, candidates in state._cache.get(legal_moves.CANDIDATES, {}).items():
            assert candidates == legal_moves.candidate_orders(copy, uid), (path, uid, state.history()[-3:])
            compared += 1
        if sampled and state.phase.kind == "movement" and not state._stack and not state.terminal:
            # what the sampler draws among next: the movers, and each one's orders, the known ones looked up
            units, orders = legal_moves.movers_candidate_orders(state)
            assert units == legal_moves.movable_units(copy), (path, state.history()[-3:])
            assert orders == [legal_moves.candidate_orders(copy, uid) for uid in units], (path, state.history()[-3:])
            compared += 1
        for uid, (moves, _, _) in state._cache.get(move_ends.ALLOWED_ENDS, {}).items():
            reached = legal_moves.unit_moves(copy, uid)
            assert moves == move_ends.allowed_ends(copy, uid, reached.moves, reached.to)[0], (path, uid, state.history()[-3:])
            compared += 1
        for uid, witness in state._cache.get(legal_moves.HAS_MOVE, {}).items():
            assert (witness is not False) == legal_moves.has_move(copy, uid), (path, uid, state.history()[-3:])
            if witness is not False and witness is not True:  # a hex the unit may end its move in
                assert any(a.hex == witness for a in copy.moves_of(uid)), (path, uid, witness)
            compared += 1
    return compared


@pytest.mark.parametrize("path", MAP_GAMES, ids=lambda p: p.rsplit("/", 1)[-1].removesuffix(SUFFIX))
def test_moves_kept_after_a_move_equal_moves_from_scratch(path):
    _moves_kept_hold(path, seed=5)


@pytest.mark.parametrize("path", MAP_GAMES, ids=lambda p: p.rsplit("/", 1)[-1].removesuffix(SUFFIX))
def test_answers_and_listing_kept_after_a_move_equal_those_from_scratch(path):
    _moves_kept_hold(path, seed=7, orders=False)


@pytest.mark.parametrize("path", MAP_GAMES, ids=lambda p: p.rsplit("/", 1)[-1].removesuffix(SUFFIX))
def test_candidate_orders_kept_after_a_move_equal_those_from_scratch(path):
    _moves_kept_hold(path, seed=8, sampled=True)


@pytest.mark.parametrize("path", MAP_GAMES, ids=lambda p: p.rsplit("/", 1)[-1].removesuffix(SUFFIX))
def test_answers_kept_after_drawn_actions_equal_those_from_scratch(path):
    _moves_kept_hold(path, seed=10, drawn=True)


@pytest.mark.parametrize("path", MAP_GAMES, ids=lambda p: p.rsplit("/", 1)[-1].removesuffix(SUFFIX))
def test_answers_kept_when_draws_and_lists_alternate_equal_those_from_scratch(path):
    _moves_kept_hold(path, seed=9, mixed=True)


def test_a_move_keeps_the_moves_of_the_units_it_cannot_have_changed():
    assert _moves_kept_hold(str(GAMES_DIR / f"drive_on_metz{SUFFIX}"), seed=6) > 50
    assert _moves_kept_hold(str(GAMES_DIR / f"drive_on_metz{SUFFIX}"), seed=6, orders=False) > 50
    assert _moves_kept_hold(str(GAMES_DIR / f"drive_on_metz{SUFFIX}"), seed=6, sampled=True) > 50
    assert _moves_kept_hold(str(GAMES_DIR / f"drive_on_metz{SUFFIX}"), seed=6, drawn=True) > 50



def test_a_unit_whose_moves_hang_on_its_friends_is_asked_again_when_they_enter_or_leave_the_hexes_it_asked_of():
    """r_mover, in an enemy zone, leaves it only by leapfrogging into 0503, held by r_anchor (tests/games/leapfrog):
    its answer depends on who stands in the enemy-controlled hexes next to it (leave_zoc's into_zoc asks units_at
    there). A move far off (r_reserve's) keeps it; r_anchor's leaving 0503 asks it again, and takes the leap away."""
    game = load_game(str(TEST_GAMES / f"leapfrog{SUFFIX}"))
    state = new_game(game).arrange({"r_mover": "0402", "r_anchor": "0503", "r_reserve": "0101", "b_line": "0502"},
                                   turn=1, phase="red_move")
    assert any(a.unit == "r_mover" for a in state.legal_actions())
    state.apply_action(Action.move("r_reserve", "0201"))
    assert state._cache[legal_moves.HAS_MOVE].get("r_mover") == "0503"  # kept: the leap, into 0503
    assert any(a.unit == "r_mover" for a in state.legal_actions())
    state.apply_action(Action.move("r_anchor", "0504"))
    assert "r_mover" not in state._cache[legal_moves.HAS_MOVE]
    assert not legal_moves.has_move(state, "r_mover")
    assert not any(a.unit == "r_mover" for a in state.legal_actions())
    assert state.legal_actions() == _scratch(state).legal_actions()


def test_a_friend_entering_a_hex_that_into_zoc_asked_of_opens_a_way_out(tmp_path):
    """Where any friend in an enemy-controlled hex lets a unit leave into it (not only one that has not moved), a
    friend's move into such a hex gives r_mover a move it had not: though r_mover reached no hex before, the hexes
    its into_zoc asked of note it (reach.LEAVE_READS), and it is asked again."""
    path = tmp_path / f"stepping_stone{SUFFIX}"
    text = (TEST_GAMES / f"leapfrog{SUFFIX}").read_text()
    path.write_text(text.replace("where f.side == unit.side and not moved(f))", "where f.side == unit.side)"))
    state = new_game(load_game(str(path))).arrange(
        {"r_mover": "0402", "r_anchor": "0504", "r_reserve": "0101", "b_line": "0502"}, turn=1, phase="red_move")
    assert not any(a.unit == "r_mover" for a in state.legal_actions())
    assert state._cache[legal_moves.HAS_MOVE].get("r_mover") is False
    state.apply_action(Action.move("r_reserve", "0201"))
    assert state._cache[legal_moves.HAS_MOVE].get("r_mover") is False  # kept: nothing it asked of changed
    state.apply_action(Action.move("r_anchor", "0503"))
    assert legal_moves.has_move(state, "r_mover")
    assert state.legal_actions() == _scratch(state).legal_actions()
    state.apply_action(Action.move("r_mover", None))  # chosen to move: its one way out, the leap into 0503
    assert [a.hex for a in state.legal_actions() if a.kind == MOVE] == ["0503"]




def test_a_unit_searched_whole_keeps_its_move_while_the_hex_that_says_so_stays_open(tmp_path):
    """A sampler that moves the unit it draws has it searched whole (no neighbour tried first: has_move's
    `searched`), and whether it has a move is kept with the hex that says so, its witness: r_mover's one way on,
    0201. A friend's move elsewhere keeps the answer; one into 0201 fills it, and the unit is asked again: none."""
    path = tmp_path / f"one_way_on{SUFFIX}"
    path.write_text(ONE_WAY_ON)
    state = new_game(load_game(str(path)))
    assert legal_moves.has_move(state, "r_mover", searched=True)
    assert state._cache[legal_moves.HAS_MOVE]["r_mover"] == "0201"
    state.apply_action(Action.move("r_other", "0403"))
    assert state._cache[legal_moves.HAS_MOVE].get("r_mover") == "0201"  # kept: nothing it needs changed
    state.apply_action(Action.move("r_filler", "0201"))
    assert "r_mover" not in state._cache[legal_moves.HAS_MOVE]
    assert not legal_moves.has_move(state, "r_mover", searched=True)
    assert not any(a.unit == "r_mover" for a in state.legal_actions())
    assert state.legal_actions() == _scratch(state).legal_actions()


def _scratch(state):
    copy = state.clone()
    copy.forget()
    copy._phase_moves = {}
    return copy


def _where_units_stand_holds(path: str, seed: int) -> tuple[int, int]:
    """Play a random game of actions; before each, ask who stands where and every side's views, so that the position
    knows them; after it (a move, a battle's retreat, advance or loss, a phase's end, a marker ...) compare each
    entry the new position kept of them with one worked out from scratch. (entries compared, of them after an action
    that was not a move, exit or delay)."""
    game = load_game(path)
    state, rng = new_game(game, seed=seed), random.Random(seed)
    compared = other = 0
    for _ in _decisions(state, rng):
        state.occupants()
        stacking.occupant_sides(state)
        for side in game.sides:
            for kind in VIEWS:
                _view(state, kind, side)
        action = state.sample_legal_action(rng)
        state.apply_action(action)
        copy = state.clone()
        copy.forget()
        for key in list(state._standing):
            if key == "occupants":
                mine, fresh = ({h: sorted(us) for h, us in s.occupants().items()} for s in (state, copy))
            elif key == "occupant sides":
                mine, fresh = stacking.occupant_sides(state), stacking.occupant_sides(copy)
            elif key == stacking.SIDES_LINEAGE:
                continue  # (how the sides came about: trace_memory's tests compare what it tells)
            else:
                kind, side = key
                kind = kind.removeprefix("stale ")
                mine, fresh = _view(state, kind, side), _fresh(state, kind, side)
            assert mine == fresh, (path, key, state.history()[-3:])
            compared += 1
            other += action.kind not in (MOVE, EXIT, DELAY)
    return compared, other


@pytest.mark.parametrize("path", MAP_GAMES, ids=lambda p: p.rsplit("/", 1)[-1].removesuffix(SUFFIX))
def test_who_stands_where_kept_after_any_action_equals_it_worked_out_from_scratch(path):
    _where_units_stand_holds(path, seed=11)


def test_a_battle_keeps_who_stands_where_through_its_retreats_advances_and_losses():
    _, other = _where_units_stand_holds(str(GAMES_DIR / f"the_marne{SUFFIX}"), seed=12)
    assert other > 100  # kept through actions other than moves, not only worked out again


def test_a_new_phase_keeps_the_exact_views_and_drops_the_stale_ones():
    """A phase's end moves nobody: the views of who stands where that were exact are handed on to the next phase as
    they are (not worked out again), and those kept stale over the phase's moves are dropped (Position.
    forget_but_exact_views). What they hold is compared with views from scratch after every action above. Views are
    asked at one step of two only: one asked is exact (its stale copy dropped), and stale ones pile up between."""
    game = load_game(str(GAMES_DIR / f"drive_on_metz{SUFFIX}"))
    state, rng = new_game(game, seed=5), random.Random(5)
    kept = dropped = 0
    for step in _decisions(state, rng):
        state.occupants()
        for side in game.sides:
            for kind in VIEWS if step % 2 else ():
                _view(state, kind, side)
        action = state.sample_legal_order(rng)
        phase, relocated, before = state.phase_index, state.last_relocated, dict(state._standing)
        state.apply_action(action)
        if state.phase_index == phase or state.last_relocated is not relocated:
            continue  # (the same phase, or a unit changed hexes on the way: patched, compared above)
        for key, value in before.items():
            if type(key) is tuple and key[0].startswith("stale "):
                assert key not in state._standing, (key, state.history()[-3:])
                dropped += 1
            else:
                assert state._standing.get(key) is value, (key, state.history()[-3:])
                kept += 1
    assert kept > 100 and dropped > 10, (kept, dropped)


def _leapfrog_where_the_way_out_reads(tmp_path, into_zoc: str, r_anchor: str):
    """tests/games/leapfrog with leave_zoc's into_zoc made `into_zoc`, set up in Red's movement phase: r_mover in
    an enemy zone next to b_line, r_reserve far off, r_anchor at `r_anchor`."""
    path = tmp_path / f"counted{SUFFIX}"
    text = (TEST_GAMES / f"leapfrog{SUFFIX}").read_text()
    path.write_text(text.replace("into_zoc = any(f in units_at(hex) where f.side == unit.side and not moved(f))",
                                 f"into_zoc = {into_zoc}"))
    return new_game(load_game(str(path))).arrange(
        {"r_mover": "0402", "r_anchor": r_anchor, "r_reserve": "0101", "b_line": "0502"}, turn=1, phase="red_move")


def test_a_unit_whose_way_out_reads_more_than_who_stands_there_is_asked_again_after_every_move(tmp_path):
    """An into_zoc that counts every friend on the map reads what any move changes: r_mover's answers are not kept
    (keeps_moves), so a move far off still asks it again."""
    state = _leapfrog_where_the_way_out_reads(tmp_path, "count(units(side = red)) > 2", r_anchor="0504")
    assert not reach.leave_asks_units(state) and not reach.keeps_moves(state, "r_mover")
    assert any(a.unit == "r_mover" for a in state.legal_actions())
    state.apply_action(Action.move("r_reserve", "0201"))
    assert "r_mover" not in state._cache[legal_moves.HAS_MOVE]
    assert state.legal_actions() == _scratch(state).legal_actions()


def test_a_unit_whose_way_out_reads_more_than_who_stands_there_has_its_candidate_orders_asked_again(tmp_path):
    """The sampler's candidate orders are carried over a move for the units whose moves it cannot have changed: not
    for one whose way out of an enemy zone counts the friends that have not moved yet. r_reserve's move, far off,
    takes r_mover's leap into 0503 away: asked again, not carried."""
    state = _leapfrog_where_the_way_out_reads(tmp_path, "count(f in units(side = red) where not moved(f)) > 2",
                                              r_anchor="0503")
    leap = Action.move("r_mover", "0503")
    assert leap in legal_moves.candidate_orders(state, "r_mover")
    state.apply_action(Action.move("r_reserve", "0201"))
    assert "r_mover" not in state._cache[legal_moves.CANDIDATES]
    assert leap not in legal_moves.candidate_orders(state, "r_mover")
    assert legal_moves.candidate_orders(state, "r_anchor") == legal_moves.candidate_orders(_scratch(state), "r_anchor")


def test_a_marker_and_a_battle_that_moves_nobody_keep_who_stands_where():
    """Markers change nothing of where units stand: putting one keeps the occupants, their sides and each side's
    views (markers.py), as does a battle's die roll whose result only marks (an even battle of
    tests/games/disruption.rulec disrupts both sides)."""
    game = load_game(str(Path(__file__).resolve().parent / "games" / "disruption.rulec"))
    state = new_game(game).arrange({"r1": "0202", "r2": "0204", "b1": "0302", "b2": "0604"}, phase="red_fight")
    sides, zoc, occupants = stacking.occupant_sides(state), state.enemy_zoc("red"), state.occupants()
    state.mark("r2", "disrupted")
    assert stacking.occupant_sides(state) is sides and state.enemy_zoc("red") is zoc and state.occupants() is occupants
    for action in (Action.attack("0302"), Action.with_unit("r1"), Action.resolve(), Action.roll(1)):
        state.apply_action(action)
    assert state.markers_on("r1") == ("disrupted",) and state.markers_on("b1") == ("disrupted",)
    assert stacking.occupant_sides(state) is sides and state.enemy_zoc("red") is zoc and state.occupants() is occupants
    fresh = _scratch(state)
    assert (stacking.occupant_sides(fresh), fresh.enemy_zoc("red"), fresh.occupants()) == (sides, zoc, occupants)


def test_an_action_that_moves_nobody_hands_on_who_stands_where_as_it_is():
    """Keep what is known: an action after which every unit stands where it stood, in the same phase (a unit chosen,
    a battle declared or resolved without a retreat, a marker, a delay), hands on the position's knowledge of where
    units stand, the very same (not copied, not sifted); one that changed a unit's hex does not."""
    game = load_game(str(GAMES_DIR / f"the_marne{SUFFIX}"))
    state, rng = new_game(game, seed=5), random.Random(5)
    handed_on = anew = 0
    for _ in _decisions(state, rng):
        state.occupants()
        standing, relocated, phase = state._standing, state.last_relocated, (state.turn, state.phase_index)
        state.apply_action(state.sample_legal_action(rng))
        if (state.turn, state.phase_index) != phase:
            continue  # (a new phase forgets it: Position.forget)
        if state.last_relocated is relocated:
            assert state._standing is standing, state.history()[-2:]
            handed_on += 1
        else:
            assert state._standing is not standing
            anew += 1
    assert handed_on > 100 and anew > 50, (handed_on, anew)
