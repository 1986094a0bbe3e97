"""The TextMate grammar in editors/: a small line-by-line TextMate scanner applies it to the games.

The scanner follows TextMate's rule for a line: at each position the first pattern (in order) that
matches earliest wins; `begin`/`end` rules carry over lines. The grammar's regexes are written in the
subset that Oniguruma and Python's `re` read alike, which the scanner also checks.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = json.loads((ROOT / "editors" / "rulec.tmLanguage.json").read_text(encoding="utf-8"))


def _flatten(patterns, repository):
    for pattern in patterns:
        if "include" in pattern:
            yield from _flatten([repository[pattern["include"].lstrip("#")]], repository)
        elif "patterns" in pattern and "match" not in pattern and "begin" not in pattern:
            yield from _flatten(pattern["patterns"], repository)
        else:
            yield pattern


RULES = list(_flatten(GRAMMAR["patterns"], GRAMMAR["repository"]))


def scopes(text: str) -> list[tuple[str, str]]:
    """(scope, text) for every scoped piece of `text`; unscoped text is (\"\", text)."""
    out: list[tuple[str, str]] = []
    open_rule = None
    for line in text.split("\n"):
        position = 0
        while position < len(line):
            if open_rule is not None:
                end = re.compile(open_rule["end"]).search(line, position)
                stop = end.end() if end else len(line)
                out.append((open_rule["name"], line[position:stop]))
                position = stop
                if end:
                    open_rule = None
                continue
            best = None
            for rule in RULES:
                found = re.compile(rule.get("match") or rule["begin"], re.M).search(line, position)
                if found and (best is None or found.start() < best[1].start()):
                    best = (rule, found)
            if best is None or best[1].end() == best[1].start():
                out.append(("", line[position:]))
                break
            rule, found = best
            if found.start() > position:
                out.append(("", line[position:found.start()]))
            if "begin" in rule:
                out.append((rule["name"], found.group()))
                open_rule = rule
            elif "captures" in rule:
                for group, capture in rule["captures"].items():
                    if found.group(int(group)):
                        out.append((capture["name"], found.group(int(group))))
            else:
                out.append((rule["name"], found.group()))
            position = found.end()
    return out


def test_every_pattern_compiles():
    for rule in RULES:
        for key in ("match", "begin", "end"):
            if key in rule:
                re.compile(rule[key])


def test_the_parts_of_a_game_file_get_their_scopes():
    found = scopes('unit us_4ad { strength = 3  move = 4 }  # a comment\nside = [us, 0701/0801, 3:1, 1..9]\n'
                   'terrain = <<\n  C F\n>>\nvp = count(units(side = us)) and true\n')
    assert ("keyword.other.section.rulec", "unit") in found
    assert ("entity.name.section.rulec", " us_4ad") in found
    assert ("variable.other.property.rulec", "strength") in found
    assert ("constant.numeric.integer.rulec", "3") in found
    assert ("comment.line.number-sign.rulec", "# a comment") in found
    assert ("constant.numeric.hexside.rulec", "0701/0801") in found
    assert ("constant.numeric.ratio.rulec", "3:1") in found
    assert ("keyword.operator.range.rulec", "..") in found
    assert ("string.unquoted.heredoc.rulec", "  C F") in found  # a here-document's inner line stays a string
    assert ("entity.name.function.rulec", "count") in found
    assert ("keyword.operator.word.rulec", "and") in found and ("constant.language.rulec", "true") in found


@pytest.mark.parametrize("path", sorted((ROOT / "games").glob("*.rulec")), ids=lambda p: p.stem)
def test_every_block_keyword_of_a_game_is_scoped_as_a_section(path):
    text = path.read_text(encoding="utf-8")
    keywords = {m.group(1) for m in re.finditer(r"^\s*([a-z_]+)\b[^=\n]*\{", text, re.M)}
    scoped = {piece for scope, piece in scopes(text) if scope == "keyword.other.section.rulec"}
    assert keywords and keywords <= scoped
