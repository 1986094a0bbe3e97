"""Printable player aids, generated from the same checked game model the engine runs.

    from rulec.aids.render import render_html, write_aids
    write_aids(load_game("NAME"), Path("generated/aids/NAME"), {"html", "svg", "pdf"}, paper="a4")

One file per job: `sheets` (and `tec`, `crt_odds`, `turn_values`, `vp_range`, `battle_sheets`) shape
the model into what each aid shows, `words` puts the language's expressions into words; `map_svg`
(with `geometry`) draws the map on the chosen paper or in overlapping sections, `counters_svg` the
die-cut counter sheet, its back and its key; `palette` holds terrain colours and patterns;
`environment` is the strict, autoescaping Jinja2 environment for `templates/`; `render` groups the
aids on the sheets a publisher prints; `pdf` prints them with WeasyPrint, reading nothing outside the
aids folder; `balance` plays AI games and plots the balance sheet; `chromium` drives headless
Chromium for screenshots and the browser tests. docs/aids.md is the printing guide.
"""
