"""docs/ai.md: every Python snippet runs as it stands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "ai.md"
SNIPPETS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


def test_the_guide_has_snippets_for_each_library():
    assert any("pyspiel" in s for s in SNIPPETS) and any("rulec.pettingzoo" in s for s in SNIPPETS)


@pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo.test.api_test")
@pytest.mark.parametrize("snippet", SNIPPETS, ids=[f"snippet{i}" for i in range(len(SNIPPETS))])
def test_each_snippet_runs(snippet, capsys, monkeypatch):
    pytest.importorskip("pyspiel" if "pyspiel" in snippet else "pettingzoo")
    monkeypatch.chdir(DOC.parent.parent)  # the snippets run from the project's root
    exec(compile(snippet, str(DOC), "exec"), {"__name__": "__snippet__"})
    assert capsys.readouterr().out or "api_test" in snippet  # each prints what it found
