"""No expression of the game language is printed raw on an aid (issue 11): every made-up game and every
game in games/ goes through `rulec aids` and its HTML text holds no call of the function table, no
comparison operator and no compiled name."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from rulec.cli.main import main
from rulec.compile.functions import known_functions

ROOT = Path(__file__).resolve().parent.parent
# The tutorial's mistakes , its empty first stage and its third (terrain still to come) do not check: they have no aids.
GAMES = sorted(p for p in [*ROOT.glob("games/*.rulec"), *ROOT.glob("tests/games/**/*.rulec")]
               if not p.name.startswith("mistake_") and p.name not in ("stage1.rulec", "stage3.rulec"))
CALL = re.compile(r"\b(" + "|".join(map(re.escape, known_functions())) + r")\(")
OPERATORS = re.compile(r"==|!=|>=|<=|\bv_|\bctx\.")


def visible_text(page: str) -> str:
    """What a player reads: the page without styles, scripts, drawings and tags."""
    page = re.sub(r"<(style|script|svg)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.stem)
def test_no_expression_is_printed_raw(game, tmp_path, capsys):
    assert main(["aids", str(game), "--out", str(tmp_path), "--format", "html"]) == 0
    text = visible_text((tmp_path / "aids.html").read_text())
    assert not CALL.findall(text), CALL.findall(text)
    assert not OPERATORS.findall(text), [text[max(0, m.start() - 60):m.end() + 60] for m in OPERATORS.finditer(text)]
