"""Hostile texts in a game file stay text in the aids: no script runs, no request leaves, no file is read.

A copy of The Drive on Metz gets names and texts holding <script>, </svg>, CSS, a
newline in the title and javascript: links, all aimed at a web server on
localhost that counts what reaches it. Its aids are opened in headless Chromium
(scripts enabled) and printed by WeasyPrint; the server must see nothing, the
page's title must stay the game's and the DOM must hold no element the game
file wrote. A control page proves the harness sees a script that does run.
"""

from __future__ import annotations

import http.server
import re
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rulec.aids import chromium
from rulec.aids.render import render_html, write_aids
from rulec.pipeline import load_game

ROOT = Path(__file__).resolve().parent.parent
MARK = "PWNED"


class Listener:
    """A web server on localhost that records every request it gets."""

    def __init__(self) -> None:
        hits: list[str] = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
                hits.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.hits = hits
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "Listener":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def quoted(text: str) -> str:
    """A game-language text literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def hostile_game(folder: Path, url: str) -> Path:
    script = f"<script>document.title='{MARK}';fetch('{url}/script')</script>"
    texts = {
        # A newline and CSS in the title, which also reaches the PDF's @page rule.
        "title": f"Metz\"; }}\n@page {{ background: url({url}/page-css) }} x {{ content: \"</title>{script}",
        "side": f"<img src=\"{url}/img\" onerror=\"document.title='{MARK}'\">",
        "place": f"</svg></figure>{script}<svg onload=\"document.title='{MARK}'\">",
        "award": f"<a href=\"javascript:document.title='{MARK}'\">javascript:alert(1)</a>",
        "option": f"<style>body {{ background: url({url}/style) }}</style><link rel=stylesheet href=\"{url}/link\">",
        "unit": f"\"/><image href=\"{url}/svg-image\"/><script>document.title='{MARK}'</script>",
        "terrain": f"</text><image href=\"file:///etc/passwd\"/><foreignObject>{script}</foreignObject>",
    }
    text = (ROOT / "games" / "drive_on_metz.rulec").read_text(encoding="utf-8")
    text = text.replace('title = "The Drive on Metz"', f"title = {quoted(texts['title'])}")
    text = text.replace('name = "United States"', f"name = {quoted(texts['side'])}")
    text = text.replace('0807 = "Metz"', f"0807 = {quoted(texts['place'])}")
    text = re.sub(r'text = "5 VP for an American unit being the last[^"]*"', lambda _: f"text = {quoted(texts['award'])}", text)
    text = text.replace('name = "Command Control (11.1)"', f"name = {quoted(texts['option'])}")
    text = text.replace('designation = "CCA"', f"designation = {quoted(texts['unit'])}")
    text = text.replace('name = "City"', f"name = {quoted(texts['terrain'])}")
    assert text.count(MARK) >= 6, "the hostile texts did not all go in"
    path = folder / "hostile.rulec"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def listener():
    with Listener() as server:
        yield server


@pytest.fixture(scope="module")
def game(listener, tmp_path_factory):
    return load_game(str(hostile_game(tmp_path_factory.mktemp("hostile"), listener.url)))


def test_the_hostile_game_checks_and_its_texts_reach_the_aids(game):
    assert MARK in game.info.title and "\n" in game.info.title
    html = render_html(game)
    assert "document.title=&#39;PWNED&#39;" in html  # the texts are printed, escaped


def test_html_has_no_element_from_the_game_file(game):
    html = render_html(game)
    assert "<script" not in html and "<img" not in html and "<link" not in html and "<foreignObject" not in html
    assert not re.search(r"<a\b", html) and "<image" not in html
    style = re.search(r"<style>(.*?)</style>", html, re.S).group(1)
    outside_strings = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', style)  # the title stays inside its CSS string
    assert "url(" not in outside_strings and "PWNED" not in outside_strings and "<" not in style


def test_svg_files_have_no_element_or_attribute_from_the_game_file(game, tmp_path):
    write_aids(game, tmp_path, {"svg"})
    for name in ("map.svg", "counters.svg"):
        root = ET.parse(tmp_path / name).getroot()  # well-formed: no </svg> broke out
        tags = {element.tag.split("}")[-1] for element in root.iter()}
        assert not tags & {"script", "image", "foreignObject", "a", "style"}, (name, tags)
        attributes = {a for element in root.iter() for a in element.attrib}
        assert not [a for a in attributes if a.lower().startswith("on")], (name, attributes)


needs_chromium = pytest.mark.skipif(chromium.find_chromium() is None,
                                    reason="Chromium is not installed: run scripts/install-system-deps.sh")


def title_and_scripts(dom: str) -> tuple[str, int, int]:
    title = re.search(r"<title>(.*?)</title>", dom, re.S)
    return (title.group(1) if title else "", len(re.findall(r"<script\b", dom)),
            len(re.findall(r'<a\b[^>]*href="javascript:', dom)))


@needs_chromium
def test_chromium_runs_no_script_and_makes_no_request(game, listener, tmp_path):
    page = tmp_path / "aids.html"
    page.write_text(render_html(game), encoding="utf-8")
    before = list(listener.hits)
    dom = chromium.dump_dom(page)
    title, scripts, javascript_links = title_and_scripts(dom)
    assert title != MARK and title.startswith("Metz") and title.endswith(": player aids")  # the game's own title
    assert (scripts, javascript_links) == (0, 0)
    assert listener.hits == before, f"the page made requests: {listener.hits[len(before):]}"


@needs_chromium
def test_chromium_opens_the_svg_files_without_script_or_request(game, listener, tmp_path):
    write_aids(game, tmp_path, {"svg"})
    before = list(listener.hits)
    for name in ("map.svg", "counters.svg"):
        dom = chromium.dump_dom(tmp_path / name)
        assert "<svg" in dom and not re.search(r"<script\b", dom) and title_and_scripts(dom)[0] != MARK
    assert listener.hits == before, f"the SVG files made requests: {listener.hits[len(before):]}"


@needs_chromium
def test_the_harness_sees_a_script_that_runs(listener, tmp_path):
    # The control: the same checks on a page that does run a script and fetch an image.
    page = tmp_path / "control.html"
    page.write_text(f"<html><head><title>x</title></head><body><img src='{listener.url}/control'>"
                    f"<script>document.title='{MARK}'</script></body></html>", encoding="utf-8")
    dom = chromium.dump_dom(page)
    assert title_and_scripts(dom)[0] == MARK
    assert "/control" in listener.hits


def test_weasyprint_fetches_nothing(game, listener, tmp_path):
    pytest.importorskip("pypdf")
    try:
        from rulec.aids.pdf import folder_fetcher, render_pdf
        fetcher = folder_fetcher(tmp_path)
    except (ImportError, OSError) as error:
        pytest.skip(f"PDF output needs WeasyPrint and Pango: {error}")
    before = list(listener.hits)
    pdf = render_pdf(render_html(game, aids=("crt", "victory", "options", "oob")), tmp_path, fetcher)
    assert pdf[:5] == b"%PDF-"
    assert listener.hits == before, f"WeasyPrint made requests: {listener.hits[len(before):]}"


def test_the_pdf_fetcher_refuses_everything_outside_the_aids_folder(tmp_path, listener):
    try:
        from rulec.aids.pdf import folder_fetcher, render_pdf
        fetcher = folder_fetcher(tmp_path)
    except (ImportError, OSError) as error:
        pytest.skip(f"PDF output needs WeasyPrint and Pango: {error}")
    inside = tmp_path / "ok.svg"
    inside.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>', encoding="utf-8")
    before = list(listener.hits)
    html = (f"<html><body><img src='{listener.url}/pdf-img'><img src='file:///etc/hostname'>"
            f"<img src='../outside.png'><img src='ok.svg'></body></html>")
    render_pdf(html, tmp_path, fetcher)
    assert listener.hits == before
    assert f"{listener.url}/pdf-img" in fetcher.refused and "file:///etc/hostname" in fetcher.refused
    assert any(url.endswith("/outside.png") for url in fetcher.refused)
    assert not any(url.endswith("/ok.svg") for url in fetcher.refused)  # a file in the folder is served


def test_a_game_name_cannot_choose_the_aids_folder(tmp_path, capsys, monkeypatch):
    from rulec.cli.main import main

    text = (ROOT / "games" / "drive_on_metz.rulec").read_text(encoding="utf-8")
    path = tmp_path / "named.rulec"
    path.write_text(text.replace("game drive_on_metz {", 'game "../../escaped" {'), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["aids", str(path), "--format", "html"]) == 1
    error = capsys.readouterr().err
    assert "[aids-bad-name]" in error and "Traceback" not in error
    assert not any(p.name == "escaped" for p in tmp_path.parent.parent.rglob("escaped"))
    assert not (tmp_path / "generated").exists()


def test_autoescape_is_on_for_every_template_and_safe_marks_only_svg_the_aids_drew():
    from rulec.aids.environment import environment

    env = environment()
    assert env.autoescape is True  # for every template, HTML and SVG alike (not chosen by file name)
    names = env.list_templates()
    assert any(n.endswith(".html.j2") for n in names) and any(n.endswith(".svg.j2") for n in names)
    # `|safe` passes markup through unescaped: only for SVG the aids rendered themselves (already escaped).
    allowed = {"balance.svg|inline_svg", "counter_key", "front", "back", "tile"}
    for name in names:
        source = env.loader.get_source(env, name)[0]
        assert not re.search(r"autoescape\s+false", source, re.I), name
        for value in re.findall(r"\{\{\s*([^}]*?)\|safe\s*\}\}", source):
            assert value.strip() in allowed, (name, value)
    assert env.from_string("{{ t }}").render(t="<b>") == "&lt;b&gt;"


def test_the_balance_sheet_of_a_hostile_game_is_inert(game):
    pytest.importorskip("matplotlib")
    import dataclasses

    from rulec.aids.balance import balance_svg, play_games

    sides = dict(game.sides)
    sides["germany"] = dataclasses.replace(sides["germany"], name="$\\frac{1}{0}$ \\ </svg><script>x</script>")
    hostile = dataclasses.replace(game, sides=sides)
    svg = balance_svg(hostile, play_games(hostile, 1, seed=1))  # no mathematical-notation error
    root = ET.fromstring(svg.encode())
    tags = {element.tag.split("}")[-1] for element in root.iter()}
    assert not tags & {"script", "foreignObject", "image", "a"}
    assert "<script" not in svg and MARK not in svg
