"""docs/tutorial.md can never rot: its game text is the files in tests/games/tutorial/, and every
command it shows prints what it says.

The tutorial marks its fenced blocks:
- ```rulec STAGE``` adds its text to the game file STAGE (stage1 ... final); a stage's file is every
  block of the stages up to it, in the order written, separated by a blank line;
- ```rulec STAGE replaces WORD``` takes the place, in STAGE and the stages after it, of the earlier
  block that begins with WORD (a block the game outgrows, such as a first sequence of play);
- ```rulec VARIANT from STAGE``` shows the one line in which VARIANT.rulec differs from STAGE.rulec
  (a typical mistake, a first try);
- ```console FILE``` holds commands (`$ rulec ...`) run on FILE.rulec copied to `ashford.rulec`,
  each followed by its output; a line `...` stands for any number of lines. In a `rulec play`
  transcript, the text after a `north> ` or `south> ` prompt is what the player typed.
When a message changes on purpose, the failure prints the command's new output: copy it into the
tutorial (keeping its `...` lines), and edit the prose around it if it no longer fits.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulec.cli.main import main
from rulec.diagnostics import DiagnosticError
from rulec.engine.state import new_game
from rulec.pipeline import check, generate, load_compiled, parse
from rulec.players.match import play_match
from rulec.players.setup import build_players

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "docs" / "tutorial.md"
STAGES = ROOT / "tests" / "games" / "tutorial"
GAME_FILE = "ashford.rulec"  # the name the tutorial gives the file
PROMPT = re.compile(r"^(north|south)> (.*)$")


@dataclass
class Block:
    kind: str        # "rulec" or "console"
    label: str       # the stage, variant or file it belongs to
    base: str | None  # for a variant: the stage it changes
    replaces: str | None  # for a stage block: the first word of the earlier block it takes the place of
    text: str
    line: int        # where it starts in the tutorial


def tutorial_blocks(text: str) -> list[Block]:
    blocks, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        fence = re.fullmatch(r"```(rulec|console) (\w+)(?: from (\w+))?(?: replaces (\w+))?", lines[i])
        if fence is None:
            i += 1
            continue
        end = lines.index("```", i + 1)
        text = "".join(line + "\n" for line in lines[i + 1:end])
        blocks.append(Block(fence[1], fence[2], fence[3], fence[4], text, i + 1))
        i = end + 1
    return blocks


BLOCKS = tutorial_blocks(TUTORIAL.read_text(encoding="utf-8"))
STAGE_ORDER = list(dict.fromkeys(b.label for b in BLOCKS if b.kind == "rulec" and b.base is None))
VARIANTS = [b for b in BLOCKS if b.kind == "rulec" and b.base is not None]
CONSOLES = [b for b in BLOCKS if b.kind == "console"]


def stage_text(stage: str) -> str:
    upto = STAGE_ORDER[:STAGE_ORDER.index(stage) + 1]
    texts: list[str] = []
    for block in BLOCKS:
        if block.kind != "rulec" or block.base is not None or block.label not in upto:
            continue
        if block.replaces:
            texts[replaced_index(texts, block)] = block.text
        else:
            texts.append(block.text)
    return "\n".join(texts)


def replaced_index(texts: list[str], block: Block) -> int:
    """Where the one earlier block that `block` replaces is (the one that begins with its word)."""
    earlier = [n for n, text in enumerate(texts) if text.split(None, 1)[0] == block.replaces]
    assert len(earlier) == 1, f"docs/tutorial.md:{block.line}: replaces {len(earlier)} blocks beginning with {block.replaces!r}"
    return earlier[0]


def file_of(label: str) -> Path:
    return STAGES / f"{label}.rulec"


def test_the_tutorial_marks_its_stages_variants_and_commands():
    assert STAGE_ORDER[0] == "stage1" and STAGE_ORDER[-1] == "final" and len(STAGE_ORDER) >= 6
    assert len(VARIANTS) >= 3 and len(CONSOLES) >= 10
    assert {p.stem for p in STAGES.glob("*.rulec")} == set(STAGE_ORDER) | {b.label for b in VARIANTS}
    assert all(b.base is None for b in BLOCKS if b.replaces)  # a variant changes one line, never a block


@pytest.mark.parametrize("stage", STAGE_ORDER)
def test_each_stage_file_is_exactly_what_the_tutorial_shows(stage):
    assert file_of(stage).read_text(encoding="utf-8") == stage_text(stage)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda b: b.label)
def test_each_variant_differs_from_its_stage_by_the_line_shown(variant):
    base = file_of(variant.base).read_text(encoding="utf-8").split("\n")
    changed = file_of(variant.label).read_text(encoding="utf-8").split("\n")
    assert len(changed) == len(base)
    differing = [n for n, (a, b) in enumerate(zip(base, changed)) if a != b]
    assert len(differing) == 1 and changed[differing[0]] + "\n" == variant.text


def diagnostics_of(label: str):
    """(the game or None, every diagnostic) of a file in tests/games/tutorial/."""
    try:
        document = parse(file_of(label))
    except DiagnosticError as error:  # syntax errors: nothing to check further
        return None, error.diagnostics
    return check(document)


def test_the_empty_file_and_the_map_without_terrain_fail_and_the_other_stages_check_clean():
    failing = {"stage1": {"missing-field"}, "stage3": {"unknown-terrain", "unknown-hexside-feature"}}
    for stage in STAGE_ORDER:
        game, diagnostics = diagnostics_of(stage)
        errors = {d.code for d in diagnostics if d.is_error}
        assert errors == failing.get(stage, set()), stage
        assert (game is None) == (stage in failing), stage
    assert diagnostics_of("final")[1] == []  # not even a warning


def test_from_the_first_stage_with_a_map_every_stage_checks_clean_and_plays():
    """What the tutorial promises: from section 4 on, each file is a game `rulec play` plays."""
    import random
    with_map = [stage for stage in STAGE_ORDER if "\nmap {" in file_of(stage).read_text(encoding="utf-8")]
    assert with_map[0] == "stage3"  # the map, its terrain still undeclared
    for stage in with_map[1:]:
        game, diagnostics = diagnostics_of(stage)
        assert game is not None and not any(d.is_error for d in diagnostics), stage  # `rulec check` accepts it
        assert game.sequence, stage
        state, rng = new_game(game, seed=0), random.Random(stage)
        for _ in range(60):
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert state.turn >= 2 or state.is_terminal(), stage  # the turn went round: every phase was played


@pytest.mark.parametrize("variant,code", [("mistake_equals", "syntax-missing-equals"),
                                          ("mistake_side", "unknown-side"),
                                          ("mistake_crt", "unknown-result-code")])
def test_each_typical_mistake_gets_its_diagnostic(variant, code):
    game, diagnostics = diagnostics_of(variant)
    assert game is None and [d.code for d in diagnostics if d.is_error] == [code]


@pytest.fixture(scope="module")
def compiled_final(tmp_path_factory):
    game, diagnostics = diagnostics_of("final")
    assert game is not None and diagnostics == []
    module = tmp_path_factory.mktemp("compiled") / "ashford.py"
    module.write_text(generate(game), encoding="utf-8")
    return load_compiled(module)


@pytest.mark.parametrize("north,south,seed", [("greedy", "random", 1), ("random", "greedy", 2), ("greedy", "greedy", 3)])
def test_the_final_game_compiles_and_plays_to_its_end_under_its_victory_rule(compiled_final, north, south, seed):
    sides = list(compiled_final.sides)
    state = new_game(compiled_final, seed=seed)
    result = play_match(state, build_players({"north": north, "south": south}, sides, seed), seed=seed)
    assert result.finished and state.is_terminal()
    assert state.turn == compiled_final.info.turns  # nothing ends this game early
    vp = state.vp
    winner = "north" if vp["north"] >= vp["south"] + 12 else "south"  # the victory block, read by hand
    returns = state.returns()
    assert returns[sides.index(winner)] > returns[sides.index("north" if winner == "south" else "south")]


def run_command(argv: list[str], typed: list[str], monkeypatch) -> tuple[int, str]:
    """`rulec ARGV` in this process, with `typed` as its input; its stdout and stderr interleaved."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in typed)))
    output = io.StringIO()
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
        status = main(argv)
    return status, output.getvalue()


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the actual lines are the expected ones, each `...` standing for any lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[n:]) for n in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])


def commands_of(block: Block) -> list[tuple[list[str], list[str]]]:
    """[(argv, expected output lines)] of a console block."""
    commands = []
    for line in block.text.rstrip("\n").split("\n"):
        if line.startswith("$ rulec "):
            commands.append((shlex.split(line[len("$ rulec "):]), []))
        else:
            commands[-1][1].append(line.rstrip())
    return commands


@pytest.fixture
def served_apps(monkeypatch):
    """`rulec serve` runs the board in this process: the app it would serve is kept, not served."""
    apps = []
    monkeypatch.setattr("uvicorn.run", lambda app, **kwargs: apps.append(app))
    return apps


def test_every_command_the_tutorial_shows_prints_what_it_says(tmp_path, monkeypatch, served_apps):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    for block in CONSOLES:
        shutil.copy(file_of(block.label), tmp_path / GAME_FILE)
        for argv, expected in commands_of(block):
            typed = [m[2] for m in map(PROMPT.match, expected) if m]
            status, output = run_command(argv, typed, monkeypatch)
            actual = [line.rstrip() for line in output.rstrip("\n").split("\n")]
            where = f"docs/tutorial.md:{block.line}: rulec {' '.join(argv)}"
            assert matches(expected, actual), f"{where} printed:\n" + "\n".join(actual)
            assert status == (1 if any(": error:" in line for line in expected) else 0), where
    map_sheet = tmp_path / "generated" / "aids" / "ashford" / "map.svg"  # rulec aids drew the map the tutorial shows
    assert map_sheet.read_bytes() == (TUTORIAL.parent / "images" / "tutorial_map.svg").read_bytes()
    assert len(served_apps) == 1  # the board served the tutorial's game
    from starlette.testclient import TestClient
    client = TestClient(served_apps[0], base_url="http://127.0.0.1:8000")  # the only Host `rulec serve` answers
    assert "Crossing at Ashford" in client.get("/").text


def heading_anchors(markdown: str) -> set[str]:
    """The anchors a Markdown renderer gives the headings (lower case, punctuation dropped, spaces to '-')."""
    anchors, in_code = set(), False
    for line in markdown.split("\n"):
        in_code = in_code != line.startswith("```")
        if not in_code and line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            anchors.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return anchors


def test_every_link_of_the_tutorial_leads_to_a_file_and_heading_there_is():
    text = TUTORIAL.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]*)\)", text)
    assert any(link.startswith("language.md#") for link in links)
    for link in links:
        target, _, anchor = link.partition("#")
        page = TUTORIAL if not target else TUTORIAL.parent / target
        assert page.is_file(), link
        if anchor:
            assert anchor in heading_anchors(page.read_text(encoding="utf-8")), link


def test_the_town_guard_option_puts_a_second_company_in_ashford(compiled_final):
    def on_map(options):
        state = new_game(compiled_final, options=options, seed=0)
        return {state.unit_name(u): h for u, h in state.positions.items()}
    assert "s_guard" not in on_map(())
    with_guard = on_map(("guard",))
    assert with_guard["s_guard"] == with_guard["s_1"] == "0405"
