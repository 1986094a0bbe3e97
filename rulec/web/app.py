"""The board server: a Starlette application holding games by id, one per browser tab.

    GET  /                          the games this server offers, and a form to start one
    GET  /games/{id}                the board page of a game
    POST /api/games                 {"game", "seed", "options", "players": {side: kind}, "scenario"} -> {"id"}
    POST /api/load                  a saved game (the `rulec play` format) -> {"id"}
    GET  /api/games/{id}            the position and its legal orders (?at=N: after N actions, for replay)
    POST /api/games/{id}/orders     {"order": "move 357 0204"}: a human's order
    POST /api/games/{id}/ai         the AI whose decision is due makes one (shown one by one)
    POST /api/games/{id}/undo       take back the last human order (not past a die roll or AI decision)
    GET  /api/games/{id}/save       the saved game, as `rulec play --load` reads it
    GET  /api/games/{id}/log        the game's events (?at=N: up to action N): moves, battles, retreats, VP
    GET  /api/games/{id}/hex/{hex}  terrain, hexsides, units, ZOC of a hex
    GET  /api/games/{id}/rules/{case}   a rulebook case's text and the refusals that cite it
    GET  /battle/{game}             a map-less battle system's page: two forces, their odds, a battle
    POST /api/battle                {"game", "sides": [FORCE, FORCE], "seed", "skirmish"} -> odds and a battle
    GET  /api/games/{id}/costs/{unit}   the MP each hex the unit may move to costs it
    GET  /api/games/{id}/odds?attack=HEX&with=UNIT,UNIT   a battle's odds before it is declared

Every request on one game is served in turn (the session's lock); engine work runs in a
worker thread so other games are not held up. A bad request gets a JSON error and a
4xx status and changes nothing: a position is replaced only by a new one made whole.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from rulec.diagnostics import DiagnosticError, render
from rulec.engine import Action
from rulec.engine.rule_cases import rule_case
from rulec.players.saves import game_hash
from rulec.web.battle import BattleRequestError, fight
from rulec.web.capacity import MEMORY_BUDGET, GameTable
from rulec.web.headers import SecurityHeaders
from rulec.web.page import board_page, index_page, map_less_page
from rulec.web.security import RequestGuard
from rulec.web.session import GameSession, SessionError, load_session, new_session, read_uploaded_save
from rulec.web.view import hex_info, odds_view, position_view

MAX_BODY = 256 * 1024  # bytes: a saved game of a long game is far smaller
STATIC = __file__.rsplit("/", 1)[0] + "/static"


class BodyTooLarge(Exception):
    pass


async def read_json(request: Request) -> dict[str, Any]:
    """The request's JSON object, read no further than MAX_BODY bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise BodyTooLarge()
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise BodyTooLarge()
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise SessionError("the request body is not JSON") from None
    if not isinstance(data, dict):
        raise SessionError("the request body must be a JSON object")
    return data


def create_app(games: dict[str, Any], *, host: str | None = None, port: int | None = None,
               memory_budget: int = MEMORY_BUDGET) -> Starlette:
    """The server for `games` (name -> compiled Game); only these can be started or loaded.
    `host`, `port`: where it is served, the only Host it answers (rulec.web.security)."""
    registry = GameTable(memory_budget=memory_budget)
    for game in games.values():
        game_hash(game)  # once, here: worked out in a worker thread it could race another's (players.saves)

    def game_named(name: Any) -> Any:
        if not isinstance(name, str) or name not in games:
            raise SessionError(f"this server has no game '{str(name)[:60]}' (it has: {', '.join(games)})", status=404)
        return games[name]

    async def locked(request: Request, work) -> Any:
        """Run `work(session)` in a worker thread, one request at a time per game."""
        session = registry.get(request.path_params["game_id"])
        async with session.lock:
            return await run_in_threadpool(work, session)

    async def index(request: Request) -> Response:
        return HTMLResponse(index_page(games))

    async def board(request: Request) -> Response:
        session = registry.get(request.path_params["game_id"])
        return HTMLResponse(board_page(session.game, request.path_params["game_id"], session.state.scenario))

    async def start(request: Request) -> Response:
        data = await read_json(request)
        game = game_named(data.get("game"))
        seed, options, players = data.get("seed", 0), data.get("options", []), data.get("players", {})
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise SessionError("seed must be a whole number, 0 or more")
        if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
            raise SessionError("options must be a list of option names")
        if not isinstance(players, dict) or not all(isinstance(v, str) for v in players.values()):
            raise SessionError("players must map each side to human, random, greedy or mcts")
        scenario = data.get("scenario")
        if scenario is not None and not isinstance(scenario, str):
            raise SessionError("scenario must be the name of one of the game's scenarios")
        session = await run_in_threadpool(new_session, data["game"], game, tuple(options), seed, players, scenario or None)
        game_id = await run_in_threadpool(registry.add, session)  # measured (rulec.web.capacity) off the event loop
        return JSONResponse({"id": game_id}, status_code=201)

    async def load(request: Request) -> Response:
        data = await read_json(request)
        saved = await run_in_threadpool(read_uploaded_save, data)  # the checks of `rulec play --load`
        game = game_named(saved.game)
        session = await run_in_threadpool(load_session, saved, game)
        game_id = await run_in_threadpool(registry.add, session)  # measured (rulec.web.capacity) off the event loop
        return JSONResponse({"id": game_id}, status_code=201)

    async def show(request: Request) -> Response:
        at = request.query_params.get("at")

        def work(session: GameSession) -> dict:
            if at is None:
                return position_view(session.state, session.kinds)
            if not at.isdigit():
                raise SessionError("at must be a step number")
            view = position_view(session.at(int(at)), session.kinds)
            view["legal"] = []  # a past position is shown, not played
            return view
        return JSONResponse(await locked(request, work))

    async def order(request: Request) -> Response:
        data = await read_json(request)
        text = data.get("order")
        if not isinstance(text, str) or not text.strip():
            raise SessionError("the request needs an order, e.g. {\"order\": \"end\"}")

        def work(session: GameSession) -> dict:
            session.order(text)
            return position_view(session.state, session.kinds)
        return JSONResponse(await locked(request, work))

    async def ai(request: Request) -> Response:
        def work(session: GameSession) -> dict:
            said = session.ai_step()
            return {**position_view(session.state, session.kinds), "ai_order": said}
        return JSONResponse(await locked(request, work))

    async def undo(request: Request) -> Response:
        def work(session: GameSession) -> dict:
            undone = session.undo()
            return {**position_view(session.state, session.kinds), "undone": undone}
        return JSONResponse(await locked(request, work))

    async def log(request: Request) -> Response:
        at = request.query_params.get("at")
        if at is not None and not at.isdigit():
            raise SessionError("at must be a step number")

        def work(session: GameSession) -> dict:
            step = min(int(at), len(session.log)) if at is not None else None
            events, total = session.events(step)
            return {"events": events, "total": total}
        return JSONResponse(await locked(request, work))

    async def save(request: Request) -> Response:
        saved = await locked(request, lambda session: session.saved())
        name = saved.game.rsplit("/", 1)[-1].removesuffix(".rulec")
        return JSONResponse(saved.to_json(), headers={"content-disposition": f'attachment; filename="{name}-save.json"'})

    async def hex_view(request: Request) -> Response:
        hex_id = request.path_params["hex"]

        def work(session: GameSession) -> dict:
            if hex_id not in session.game.map.terrain:
                raise SessionError(f"no hex '{hex_id[:20]}' on the map", status=404)
            return hex_info(session.state, hex_id)
        return JSONResponse(await locked(request, work))

    async def rules(request: Request) -> Response:
        case = request.path_params["case"]
        found = rule_case(registry.get(request.path_params["game_id"]).game, case)  # the game never changes: no lock
        if found is None:
            raise SessionError(f"the game cites no case '{case[:20]}'", status=404)
        return JSONResponse({"case": found.case, "text": found.text, "cited_by": list(found.cited_by)})

    async def odds(request: Request) -> Response:
        target = request.query_params.get("attack", "")
        units = [u for u in request.query_params.get("with", "").split(",") if u]

        def work(session: GameSession) -> dict:
            state = session.state
            line = f"attack {target} with {' '.join(units)}"
            problem = state.explain(line)
            if problem is not None:
                raise SessionError(problem)
            steps = state.parse_orders(line)
            battle = Action.attack(steps[0].hex, tuple(step.unit for step in steps if step.unit))
            return odds_view(session.game, state.odds(battle))
        return JSONResponse(await locked(request, work))

    async def costs(request: Request) -> Response:
        uid = request.path_params["unit"]

        def work(session: GameSession) -> dict:
            state = session.state
            hexes = {a.hex for a in state.moves_of(uid) if a.kind == "move"}
            costs = {h: state.move_cost(uid, h) for h in sorted(hexes)}
            # A move in a mode such as rail may cost a fraction of a MP: shown as its text ("3/2").
            return {"unit": uid, "costs": {h: c if c is None or isinstance(c, int) else str(c) for h, c in costs.items()}}
        return JSONResponse(await locked(request, work))

    async def battle_page(request: Request) -> Response:
        name = request.path_params["name"]
        game = game_named(name)
        if game.battle is None:
            raise SessionError(f"'{name}' has a map: start it from the games page", status=404)
        return HTMLResponse(map_less_page(game, name))

    async def battle(request: Request) -> Response:
        data = await read_json(request)
        game = game_named(data.get("game"))
        if game.battle is None:
            raise SessionError(f"'{data.get('game')}' has no battle system")
        seed = data.get("seed", 1)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise SessionError("seed must be a whole number, 0 or more")
        sides = data.get("sides")
        try:
            fought = await run_in_threadpool(fight, game, sides if isinstance(sides, list) else [],
                                             seed, bool(data.get("skirmish")))
        except BattleRequestError as error:
            raise SessionError(str(error)) from None
        return JSONResponse(fought)

    async def session_error(request: Request, error: SessionError) -> Response:
        return JSONResponse({"error": error.message, "rule": error.rule}, status_code=error.status)

    async def diagnostic_error(request: Request, error: DiagnosticError) -> Response:
        return JSONResponse({"error": "\n".join(render(d) for d in error.diagnostics)}, status_code=400)

    async def too_large(request: Request, error: BodyTooLarge) -> Response:
        return JSONResponse({"error": f"the request body is over {MAX_BODY} bytes"}, status_code=413)

    async def http_error(request: Request, error: HTTPException) -> Response:
        return JSONResponse({"error": error.detail}, status_code=error.status_code)

    async def server_error(request: Request, error: Exception) -> Response:
        # The game is unchanged (positions are replaced only when made whole): say so and go on.
        return JSONResponse({"error": f"the server could not do that ({type(error).__name__}); the game is unchanged"},
                            status_code=500)

    routes = [
        Route("/", index), Route("/games/{game_id}", board),
        Route("/api/games", start, methods=["POST"]), Route("/api/load", load, methods=["POST"]),
        Route("/api/games/{game_id}", show), Route("/api/games/{game_id}/orders", order, methods=["POST"]),
        Route("/api/games/{game_id}/ai", ai, methods=["POST"]), Route("/api/games/{game_id}/undo", undo, methods=["POST"]),
        Route("/api/games/{game_id}/save", save), Route("/api/games/{game_id}/hex/{hex}", hex_view),
        Route("/api/games/{game_id}/rules/{case}", rules), Route("/api/games/{game_id}/log", log),
        Route("/battle/{name}", battle_page), Route("/api/battle", battle, methods=["POST"]),
        Route("/api/games/{game_id}/odds", odds), Route("/api/games/{game_id}/costs/{unit}", costs), Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(RequestGuard, host=host, port=port)], exception_handlers={
        SessionError: session_error, DiagnosticError: diagnostic_error, BodyTooLarge: too_large,
        HTTPException: http_error, Exception: server_error})
    app.add_middleware(SecurityHeaders)  # a strict Content-Security-Policy on every response
    app.state.registry = registry
    return app
