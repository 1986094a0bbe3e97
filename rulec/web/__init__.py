"""The board in a browser: `rulec serve GAME...` (needs the `board` extra: Starlette and uvicorn).

    app.py      the Starlette application: routes, request limits, errors as JSON
    session.py  the games held, one per tab: positions for undo and replay, dice, AI moves
    view.py     a position and its legal orders as JSON (generic over action kinds)
    page.py     the HTML pages: the aids' SVG map and the counter sheet's faces
    battle.py   a map-less battle system's odds and a seeded battle, for its page
    static/     the page's script and style; templates/ the pages
"""
