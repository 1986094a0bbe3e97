"""The rulebook's cases as a game file gives them: a case's text (`rule_texts`) and the refusals that
cite it (`rule_refs` by engine mechanic, and markers' own `rule`), for `rules 7.41` and the board."""

from __future__ import annotations

from dataclasses import dataclass

from rulec.runtime.model import Game


@dataclass(frozen=True)
class RuleCase:
    case: str
    text: str | None  # None when the game file cites the case but gives no text
    cited_by: tuple[str, ...]  # in players' words: "zoc stop", "marker landed"


def case_order(case: str) -> list[int]:
    """7.4 < 7.41 < 7.5 < 10.1: by the numbers between the dots."""
    return [int(part) if part.isdigit() else 0 for part in case.split(".")]


def citations(game: Game) -> dict[str, list[str]]:
    """Every case the game cites, with what cites it."""
    cited: dict[str, list[str]] = {}
    for mechanic, case in game.rule_refs.items():
        cited.setdefault(case, []).append(mechanic.replace("_", " "))
    for marker_id, marker in game.markers.items():
        if marker.rule:
            cited.setdefault(marker.rule, []).append(f"marker {marker_id}")
    return cited


def known_cases(game: Game) -> list[str]:
    """Every case with a text or a citation, in rulebook order."""
    return sorted(set(citations(game)) | set(game.rule_texts), key=case_order)


def rule_case(game: Game, case: str) -> RuleCase | None:
    """The case's text and its citations; None when the game neither cites it nor gives its text."""
    cited = citations(game).get(case, [])
    text = game.rule_texts.get(case)
    if text is None and not cited:
        return None
    return RuleCase(case, text, tuple(cited))


def cases_under(game: Game, prefix: str) -> list[RuleCase]:
    """The cases numbered `prefix` or nested in it (7.4 covers 7.41 and 7.43, 7 covers 7.21 but not 70.1);
    every case for an empty prefix."""
    def under(case: str) -> bool:
        return not prefix or case == prefix or case.startswith(prefix + ".") or ("." in prefix and case.startswith(prefix))
    return [found for case in known_cases(game) if under(case) and (found := rule_case(game, case))]
