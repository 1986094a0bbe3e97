"""Printable player aids, generated from the same checked game model the engine runs.

    from rulec.aids.render import render_html, write_aids
    write_aids(load_game("NAME"), Path("generated/aids/NAME"), {"html", "svg", "pdf"}, paper="a4")

One file per job: `sheets` (and `tec`, `crt_odds`, `turn_values`, `battle_sheets`) shape the
model into what each aid shows; `map_svg` (with `geometry`) and `counters_svg` draw the map and
the counter sheet; `palette` holds terrain colours and patterns; `environment` is the strict
Jinja2 environment for `templates/`; `render` puts it together and prints PDF with WeasyPrint;
`chromium` drives headless Chromium for screenshots and the browser tests.
"""
