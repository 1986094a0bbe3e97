"""`rulec aids`: files written where asked, byte-stable text outputs, one-line errors."""

from __future__ import annotations

import sys

import pytest

from rulec.cli.main import main


def test_writes_html_and_svg_byte_stable(tmp_path, capsys):
    first, second = tmp_path / "one", tmp_path / "two"
    assert main(["aids", "drive_on_metz", "--out", str(first), "--format", "html,svg"]) == 0
    printed = capsys.readouterr().out.split()
    assert printed == [str(first / n) for n in ("aids.html", "map.svg", "counters.svg")]
    assert main(["aids", "drive_on_metz", "--out", str(second), "--format", "svg,html", "--paper", "a4"]) == 0
    for name in ("aids.html", "map.svg", "counters.svg"):
        assert (first / name).read_bytes() == (second / name).read_bytes()


def test_several_games_go_to_their_own_folders(tmp_path, capsys):
    assert main(["aids", "drive_on_metz", "engle_ww2_battle", "--out", str(tmp_path), "--format", "html"]) == 0
    assert (tmp_path / "drive_on_metz" / "aids.html").is_file()
    assert (tmp_path / "engle_ww2_battle" / "aids.html").is_file()
    assert not (tmp_path / "engle_ww2_battle" / "map.svg").exists()


def test_default_folder_is_generated_aids_name(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["aids", "engle_ww2_battle", "--format", "html", "--paper", "letter"]) == 0
    page = tmp_path / "generated" / "aids" / "engle_ww2_battle" / "aids.html"
    assert "size: letter;" in page.read_text(encoding="utf-8")


def test_pdf_format(tmp_path, capsys):
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError) as error:
        pytest.skip(f"PDF output needs WeasyPrint and Pango: {error}")
    assert main(["aids", "engle_ww2_battle", "--out", str(tmp_path), "--format", "pdf"]) == 0
    assert (tmp_path / "aids.pdf").read_bytes()[:5] == b"%PDF-"


def test_unknown_game_is_a_diagnostic_not_a_traceback(capsys):
    assert main(["aids", "no_such_game_here"]) == 1
    error = capsys.readouterr().err
    assert "no game named 'no_such_game_here'" in error and "Traceback" not in error


@pytest.mark.parametrize("arguments", [["--format", "html,png"], ["--paper", "a3"], ["--counters", "3/4"],
                                       ["--seed", "-1"]])
def test_usage_errors_exit_2(arguments, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["aids", "drive_on_metz", *arguments])
    assert stop.value.code == 2
    assert "rulec: error:" in capsys.readouterr().err


def test_pdf_without_weasyprint_is_a_one_line_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # `import weasyprint` now fails
    assert main(["aids", "engle_ww2_battle", "--out", str(tmp_path), "--format", "pdf"]) == 1
    error = capsys.readouterr().err
    assert "PDF output needs WeasyPrint" in error and "[pdf-unavailable]" in error and "Traceback" not in error
    assert not (tmp_path / "aids.pdf").exists()


def test_an_unwritable_folder_is_a_one_line_error(tmp_path, capsys):
    a_file = tmp_path / "a_file"
    a_file.write_text("not a folder", encoding="utf-8")
    for out in (a_file, a_file / "below"):
        assert main(["aids", "drive_on_metz", "--out", str(out), "--format", "html"]) == 2
        error = capsys.readouterr().err
        assert error.startswith("rulec: error: cannot write the aids into") and error.count("\n") == 1
    assert a_file.read_text(encoding="utf-8") == "not a folder"


def test_files_are_written_whole_and_readable(tmp_path, capsys):
    assert main(["aids", "drive_on_metz", "--out", str(tmp_path), "--format", "html,svg", "--counters", "1/2"]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["aids.html", "counters.svg", "map.svg"]  # no temporary file left behind
    assert all(p.stat().st_mode & 0o444 == 0o444 for p in tmp_path.iterdir())
    assert 'data-pitch="36"' in (tmp_path / "counters.svg").read_text(encoding="utf-8")
