"""A game file's `rule_texts`: the text of its rulebook cases, checked, and shown by `rules CASE` at the
`rulec play` prompt and by the board's rules endpoint, with the refusals that cite each case."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from rulec.cli.main import main
from rulec.engine.rule_cases import cases_under, rule_case
from rulec.language.parse import parse_text
from rulec.pipeline import check
from rulec.web.app import create_app

BASE = (Path(__file__).resolve().parent / "bad_games" / "ok_minimal.rulec").read_text(encoding="utf-8")


def checked(text: str):
    game, diagnostics = check(parse_text(text, "t.rulec"))
    return game, [(d.code, d.message, d.hint, d.span.line if d.span else None) for d in diagnostics if d.is_error]


def test_texts_are_read_with_or_without_a_citation():
    game, errors = checked(BASE + 'rule_refs { zoc_stop = "7.41"  stacking = "7.32" }\n'
                                  'rule_texts { "7.41" = "A unit must stop."  "12.1" = "Supply is traced." }\n')
    assert errors == []
    assert rule_case(game, "7.41").text == "A unit must stop." and rule_case(game, "7.41").cited_by == ("zoc stop",)
    assert rule_case(game, "7.32").text is None and rule_case(game, "7.32").cited_by == ("stacking",)  # cited, no text
    assert rule_case(game, "12.1").cited_by == ()  # a text nothing cites is reference
    assert rule_case(game, "7.4") is None
    assert [c.case for c in cases_under(game, "7")] == ["7.32", "7.41"]


def test_a_text_that_is_not_text_is_an_error_at_its_line():
    lines = BASE.count("\n")
    _, errors = checked(BASE + 'rule_texts {\n  "7.41" = 741\n}\n')
    [(code, message, _, line)] = errors
    assert code == "wrong-type" and "text" in message and line == lines + 2


def test_a_misspelt_block_gets_did_you_mean():
    _, errors = checked(BASE + 'rule_text { "7.41" = "A unit must stop." }\n')
    assert [(code, hint) for code, _, hint, _ in errors] == [("unknown-field", "did you mean 'rule_texts'?")]


def test_rules_at_the_prompt_prints_the_text_and_the_refusals_that_cite_it(capsys, monkeypatch, tmp_path, metz):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("rules 7.41\nrules 11.32\nquit\n"))
    assert main(["play", "drive_on_metz", "--player", "germany=greedy", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert f"  7.41: {metz.rule_texts['7.41']}\n      cited when refusing: zoc stop\n" in out
    assert metz.rule_texts["7.41"].startswith("Whenever a unit enters a hex that is directly adjacent")
    assert "cited when refusing: placement, marker landed\n" in out


def test_every_case_metz_cites_has_its_text(metz):
    assert set(metz.rule_refs.values()) <= set(metz.rule_texts)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_boards_rules_endpoint_gives_the_text_of_a_refusals_case(metz):
    client = TestClient(create_app({"drive_on_metz": metz}))
    game_id = client.post("/api/games", json={"game": "drive_on_metz", "seed": 1}).json()["id"]
    refused = client.post(f"/api/games/{game_id}/orders", json={"order": "move 357 0403"}).json()
    rule = client.get(f"/api/games/{game_id}/rules/{refused['rule']}")
    assert rule.status_code == 200
    assert rule.json() == {"case": "7.31", "text": "A unit may never enter or pass through a hex containing an enemy unit.",
                           "cited_by": ["enemy occupied"]}
    missing = client.get(f"/api/games/{game_id}/rules/99.9")
    assert missing.status_code == 404 and "no case '99.9'" in missing.json()["error"]
