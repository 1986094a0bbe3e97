"""Whole-game checks that a game plays as written (rulec/check/completeness.py), beyond the bad-game corpus:
what widens a table's reach, what counts as using a declaration, when a game has no sequence or no end, and that
every entry point refuses a game without a sequence alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.language.parse import parse_text
from rulec.pipeline import check

BAD_GAMES = Path(__file__).resolve().parent / "bad_games"


def codes(text: str) -> list[str]:
    return [d.code for d in check(parse_text(text, "t.rulec"))[1]]


def test_a_row_beyond_the_die_is_reachable_once_a_modifier_adds_to_the_roll():
    text = (BAD_GAMES / "crt-row-unreachable.rulec").read_text(encoding="utf-8")
    assert codes(text) == ["crt-row-unreachable"]
    assert codes(text + "modifier elite { applies = battle  drm = 1 }\n") == []
    assert codes(text.replace("terrain clear { move = 1 }", "terrain clear { move = 1  combat_drm = 1 }")) == []
    # A row below the die is reached only by a DRM that lowers the roll.
    low = text.replace("  7 = [NE, NE] }", "  0 = [NE, NE] }")
    assert codes(low) == ["crt-row-unreachable"]
    assert codes(low + "modifier tired { applies = battle  drm = -1 }\n") == []


def test_a_declaration_named_anywhere_outside_its_block_is_used():
    trace = (BAD_GAMES / "unused-trace.rulec").read_text(encoding="utf-8")
    assert codes(trace) == ["unused-trace"]
    assert codes(trace + "modifier cut { applies = unit  when = not supplied(unit)  strength_times = 0.5 }\n") == []
    assert codes(trace + "modifier cut { applies = unit  when = not traced(supply, unit)  strength_times = 0.5 }\n") == []
    marker = (BAD_GAMES / "unused-marker.rulec").read_text(encoding="utf-8")
    assert codes(marker + "modifier dug { applies = unit  when = marked(unit, dug_in)  strength_times = 2 }\n") == []
    hexside = (BAD_GAMES / "unused-hexside-type.rulec").read_text(encoding="utf-8")
    on_map = hexside.replace("  edges { west = 0101..0103 }",
                             "  edges { west = 0101..0103 }\n  hexsides creek { feature = river  sides = [0101/0102] }")
    assert codes(on_map) == []


def test_a_missing_sequence_is_an_error_told_beside_the_others_but_not_for_a_sequence_written_wrong():
    text = (BAD_GAMES / "no-sequence.rulec").read_text(encoding="utf-8")
    game, found = check(parse_text(text, "t.rulec"))
    assert game is None and [(d.code, d.severity) for d in found] == [("no-sequence", "error")]
    # Every mistake of a run at once: a missing sequence is one more, not a consequence of the others.
    assert codes(text.replace("side = red  type", "side = redd  type")) == ["no-sequence", "unknown-side"]
    assert codes(text + "sequence {}\n") == ["no-sequence"]  # an empty block has no phase to play
    # A sequence the checker left out for its own mistakes is not also missing.
    played = text + "sequence { phase blue_move { side = blue  kind = movement }  phase red_move { side = red  kind = movement } }\n"
    assert codes(played) == []
    assert codes(played.replace("kind = movement }  phase", "kind = movment }  phase")) == ["bad-value"]
    # A battle system has no map, and needs no sequence.
    assert codes(text.split("map {")[0]) == []


def test_every_game_and_made_up_game_checks_without_these_warnings():
    root = Path(__file__).resolve().parent.parent
    from rulec.check.completeness import COMPLETENESS_CODES
    from rulec.pipeline import check_file
    for path in sorted((root / "games").glob("*.rulec")) + sorted((root / "tests" / "games").glob("*.rulec")):
        found = [d.code for d in check_file(str(path)).diagnostics if d.code in COMPLETENESS_CODES]
        assert found == [], path.name


def test_a_game_without_a_last_turn_ends_by_a_sudden_death_or_a_default_scenario_or_is_refused():
    text = (BAD_GAMES / "no-end.rulec").read_text(encoding="utf-8")
    assert codes(text) == ["no-end"]
    assert codes(text.replace('title = "Tiny"', 'title = "Tiny"  turns = 0')) == ["no-end"]
    assert codes(text.replace('title = "Tiny"', 'title = "Tiny"  turns = 2')) == []
    assert codes(text + "victory { sudden_death late { when = turn >= 2  winner = blue } }\n") == []
    with_default = text.replace('title = "Tiny"', 'title = "Tiny"  scenario = short') + \
        'scenario short { name = "Short"  turns = 2 }\n'
    assert codes(with_default) == []
    assert codes(with_default.replace("turns = 2", "start = { turn = 1 }")) == ["no-end"]
    # A sudden death that fires only with an option ends no game played without it (found by playing mutants of
    # tests/games/option_rules.rulec: with its `turns` deleted, the check passed and random games never ended)
    optional = text + 'option quick { name = "Quick" }\n'
    gated = optional + "victory { sudden_death late { when = option(quick) and turn >= 2  winner = blue } }\n"
    assert codes(gated) == ["no-end"]
    game, found = check(parse_text(gated, "t.rulec"))
    assert "every sudden death asks for an option (quick): played without it, it never ends" in found[0].message
    assert (found[0].span.line, found[0].severity) == (len(optional.splitlines()) + 1, "error")
    assert codes(gated.replace("option(quick) and turn", "turn")) == []
    assert codes(gated.replace("option(quick) and turn", "not option(quick) and turn")) == []  # fires without it
    assert codes(gated.replace("} }\n", "}  sudden_death other { when = turn >= 3  winner = red } }\n")) == []
    assert codes(gated.replace('title = "Tiny"', 'title = "Tiny"  turns = 2')) == []
    # Nor does one that is false, written so or as a part of its `and`
    never = text + "victory { sudden_death never { when = false  winner = blue } }\n"
    assert codes(never) == ["no-end"]
    assert "no sudden death that can come true ('when = false')" in check(parse_text(never, "t.rulec"))[1][0].message
    assert codes(never.replace("when = false", "when = turn > 2 and false")) == ["no-end"]
    assert codes(never.replace("when = false", "when = turn > 2")) == []
    # A length written wrong is its own error, not also a missing one.
    assert codes(text.replace('title = "Tiny"', 'title = "Tiny"  turns = "two"')) == ["wrong-type"]
    assert codes(text.replace('title = "Tiny"', 'title = "Tiny"  turns = false')) == ["wrong-type"]


@pytest.mark.parametrize("command", ["check", "compile", "aids", "info", "play", "simulate", "serve"])
def test_every_command_refuses_a_map_game_without_a_sequence_alike(command, tmp_path, monkeypatch, capsys):
    from rulec.cli.main import main
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("uvicorn.run", lambda app, **kwargs: pytest.fail("rulec serve served a game it should refuse"))
    path = tmp_path / "tiny.rulec"
    path.write_text((BAD_GAMES / "no-sequence.rulec").read_text(encoding="utf-8"), encoding="utf-8")
    assert main([command, str(path)]) == 1
    printed = capsys.readouterr()
    err = printed.out + printed.err  # check prints its report; the others refuse on stderr
    assert f"{path}:3:6: error: the game has a map but no sequence of play" in err and "[no-sequence]" in err
    assert "hint: add a 'sequence { phase NAME" in err


def test_the_editor_and_the_adapters_refuse_it_alike():
    from rulec.adapters.games import load
    from rulec.diagnostics import DiagnosticError
    from rulec.editor.analysis import diagnose
    path = BAD_GAMES / "no-sequence.rulec"
    _, found = diagnose(path.read_text(encoding="utf-8"), str(path))
    assert [(d.code, d.severity, d.span.line, d.span.column) for d in found] == [("no-sequence", "error", 3, 6)]
    with pytest.raises(DiagnosticError) as refused:
        load(str(path))
    assert [(d.code, d.span.line, d.span.column) for d in refused.value.diagnostics] == [("no-sequence", 3, 6)]
