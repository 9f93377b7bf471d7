"""The web app of `referee serve`: pages for the phones at the table, on Starlette.

Every page is drawn on the server from the game's session (tables.py) with Jinja2 templates
that escape whatever they show; the little script bundled with the package (static/serve.js)
swaps the part of the page that a tap changes and listens for the other phones' moves
(server-sent events), so a page still works, more slowly, without it. Work on a game runs in
a worker thread, one game at a time under its lock, so the event loop stays free to tell the
phones what changed.
"""

from __future__ import annotations

import asyncio
import datetime
import os
from pathlib import Path
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from referee.errors import RecordError, SpecError, UsageError
from referee.i18n import LANGS, _, current, speaking
from referee.notation.colours import colour_named
from referee.server import RATE, exports, guard, taps
from referee.server.pictures import Writer
from referee.server.tables import NoSuchGame, Table, Tables, shown
from referee.spec.loader import available_games, specs_root
from referee.terminal import visible

HERE = Path(__file__).parent
EVENT_POLL = 0.25  # seconds between looks at a game's version for its listeners
HEARTBEAT = 15.0  # seconds between comments that keep an idle event stream open
MOST_LISTENERS = 256  # event streams open at once
RECENT = 8  # record lines shown under the buttons
CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"


class Settings:
    """How the server was started: the folder, the address, and the bounds on callers."""

    def __init__(self, folder: Path, host: str = "127.0.0.1", port: int = 8765, rate: float = RATE, burst: int | None = None):
        self.folder = folder
        self.host = host
        self.port = port
        self.codes = guard.needs_codes(host)
        self.rates = guard.Rates(rate, burst)
        self.server_code = guard.new_token()


def _templates() -> Environment:
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(default=True, default_for_string=True))
    env.filters["shown"] = lambda text: shown(str(text))
    env.filters["q"] = lambda text: quote(str(text), safe="")
    env.globals["_"] = _  # each page in the language of its request (see `guarded`)
    env.globals["langs"] = LANGS
    return env


def create_app(settings: Settings) -> Starlette:
    tables = Tables(settings.folder)
    env = _templates()
    writer = Writer()
    listeners = {"open": 0}
    if settings.codes:
        try:
            stored = (tables.folder / ".referee-serve-server-code").read_text("ascii").strip()
            settings.server_code = stored or settings.server_code
        except OSError:
            from referee.recording.durable import create_synced

            target = tables.folder / ".referee-serve-server-code"
            create_synced(str(target), settings.server_code.encode())
            os.chmod(target, 0o600)  # a secret of the server's owner

    def page(request: Request, name: str, status: int = 200, **values) -> HTMLResponse:
        values.setdefault("form_token", request.state.form_token)
        values.setdefault("lang", current())
        values.setdefault("path", request.url.path)
        html = env.get_template(name).render(**values)
        response = HTMLResponse(html, status_code=status)
        return response

    def message(request: Request, status: int, text: str) -> HTMLResponse:
        return page(request, "message.html", status, message=text, title="referee")

    # --- the checks every request passes -------------------------------------------------

    def check(request: Request) -> list[tuple[str, str, str]]:
        """The checks every request passes before it is served (a `Refused` if it fails), and
        the join cookies it earns."""
        address = request.client.host if request.client else ""
        if not settings.rates.allow(address):
            raise guard.Refused(429, _("too many requests from this phone; wait a moment and tap again"))
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > guard.MOST_BODY):
            raise guard.Refused(413, _("the request is larger than {n} bytes, the most a form may send").format(n=guard.MOST_BODY))
        if request.method not in ("GET", "HEAD", "POST"):
            raise guard.Refused(405, _("this server takes only GET and POST requests"))
        path = request.url.path
        if not settings.codes and not guard.local_host_header(request.headers.get("host", "")):
            # a page of another site whose name was pointed at this machine (DNS rebinding)
            raise guard.Refused(421, _("this server answers to its own address on this machine only"))
        joined = _join(request, path) if settings.codes and not path.startswith("/static/") else []
        if request.method == "POST":
            if not guard.same_site(request.headers.get("origin"), request.headers.get("host")):
                raise guard.Refused(403, _("a request from another site is not taken"))
        return joined

    def headers_of(request: Request, joined: list[tuple[str, str, str]], lang: str | None) -> list[tuple[bytes, bytes]]:
        """The cookies a response sets (the form token once, join codes as they are shown,
        the language the switch chose)."""
        cookies = Response()
        if lang is not None:
            cookies.set_cookie(guard.LANG_COOKIE, lang, max_age=365 * 24 * 3600, samesite="lax")
        if guard.FORM_COOKIE not in request.cookies:
            cookies.set_cookie(guard.FORM_COOKIE, request.state.form_token, httponly=True, samesite="strict")
        for name, value, where in joined:
            cookies.set_cookie(name, value, httponly=True, samesite="lax", path=where)
        return [(k, v) for k, v in cookies.raw_headers if k == b"set-cookie"]

    def guarded(app):
        """Every request's checks, and the headers every answer carries, as plain ASGI (a
        `BaseHTTPMiddleware` costs each request a task and a stream of its own)."""

        async def serve(scope, receive, send):
            if scope["type"] != "http":
                await app(scope, receive, send)
                return
            request = Request(scope)
            request.state.form_token = request.cookies.get(guard.FORM_COOKIE) or guard.new_token()
            asked = request.query_params.get("lang")
            lang = guard.language(asked, request.cookies.get(guard.LANG_COOKIE), request.headers.get("accept-language"))
            with speaking(lang):
                try:
                    joined = check(request)
                except guard.Refused as refused:
                    joined, app_or_page = [], message(request, refused.status, refused.message)
                else:
                    app_or_page = app
                extra = headers_of(request, joined, asked if asked in LANGS else None)

            async def sending(event):
                if event["type"] == "http.response.start":
                    headers = MutableHeaders(scope=event)
                    for key, value in extra:
                        headers.append(key.decode("latin-1"), value.decode("latin-1"))
                    headers["Content-Security-Policy"] = CSP
                    headers["X-Content-Type-Options"] = "nosniff"
                    headers["Referrer-Policy"] = "same-origin"  # "no-referrer" would make a browser send Origin: null on a form
                await send(event)

            with speaking(lang):
                await app_or_page(scope, receive, sending)

        return serve

    def _join(request: Request, path: str) -> list[tuple[str, str, str]]:
        """Off localhost: the join code of the game a request is about (or of the server for
        its list of games), from the address once and from a cookie after."""
        parts = path.strip("/").split("/")
        given = request.query_params.get("join")
        if len(parts) >= 2 and parts[0] == "g":
            try:
                tables.path_of(parts[1])
            except NoSuchGame:
                raise guard.Refused(404, _("no such game")) from None
            expected, cookie, where = tables.code_of(parts[1]), f"referee-join-{parts[1].replace('.', '-')}", f"/g/{parts[1]}"
        else:
            expected, cookie, where = settings.server_code, guard.SERVER_COOKIE, "/"
        if guard.same(request.cookies.get(cookie), expected) or guard.same(request.cookies.get(guard.SERVER_COOKIE), settings.server_code):
            return []
        if guard.same(given, expected):
            return [(cookie, expected, where)]
        raise guard.Refused(403, _("this game needs its join code: open the address shown at the table (or scan its QR code)"))

    async def read_form(request: Request) -> dict[str, list[str]]:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > guard.MOST_BODY:
                raise guard.Refused(413, _("the request is larger than {n} bytes, the most a form may send").format(n=guard.MOST_BODY))
        form = guard.parse_form(body)
        if not guard.same((form.get("form") or [None])[0], request.state.form_token) or guard.FORM_COOKIE not in request.cookies:
            raise guard.Refused(403, _("this form is stale or came from elsewhere; reload the page and tap again"))
        return form

    def table_of(request: Request) -> Table:
        try:
            return tables.table(request.path_params["game"])
        except NoSuchGame:
            raise guard.Refused(404, _("no such game in this server's folder")) from None
        except (UsageError, RecordError, SpecError) as exc:
            raise guard.Refused(400, visible(getattr(exc, "message", str(exc)), keep_lines=True)) from None

    # --- pages ---------------------------------------------------------------------------

    async def index(request: Request) -> Response:
        games = await run_in_threadpool(tables.listing)
        choices, colours = {}, {}
        for name in available_games():
            choices[name] = sorted(p.stem for p in (specs_root() / name / "variants").glob("*.yaml"))
            try:
                meta = await run_in_threadpool(_game_meta, name)
            except (SpecError, UsageError):
                continue
            colours[meta["names"]["en"]] = list(meta.get("colours") or ())
        return page(
            request,
            "index.html",
            games=games,
            choices=choices,
            colours=colours,
            every_colour=sorted({c for names in colours.values() for c in names}),
            title="referee serve",
            today=datetime.date.today().isoformat(),
        )

    async def new_game(request: Request) -> Response:
        form = await read_form(request)

        def value(key: str) -> str:
            return (form.get(key) or [""])[0].strip()

        game = value("game")
        seats = []
        for colour, name in zip(form.get("colour", []), form.get("name", [])):
            colour, name = colour.strip(), " ".join(name.split())
            if colour:
                seats.append(f"{colour} {name}".strip())
        if not seats:
            raise guard.Refused(400, _("name at least one player (a colour, and a name if you like)"))
        variants = [v for v in form.get("variant", []) if v.strip()]
        if any("/" in v or "\\" in v or v.startswith(".") for v in variants):
            raise guard.Refused(400, _("a variant is named, not given as a file"))
        try:
            table = await run_in_threadpool(tables.new_game, value("title") or game, game, ", ".join(seats), value("start") or None, variants)
        except (UsageError, RecordError, SpecError) as exc:
            raise guard.Refused(400, visible(getattr(exc, "message", str(exc)), keep_lines=True)) from None
        target = f"/g/{quote(table.id)}"
        if settings.codes:
            target += f"?join={quote(table.code)}"
        return RedirectResponse(target, status_code=303)

    def play_values(request: Request, table: Table, text: str, messages: list[str], version_seen: int | None = None) -> dict:
        """Everything the play part of a game's page shows, drawn under the game's lock."""
        with table.lock:
            recording = table.recording
            state = recording.state
            menu = table.cached(f"menu {text}", lambda: taps.menu(recording, text))
            offer, then = table.cached("checkpoint", lambda: taps.checkpoint(recording))
            owners = table.cached("figures", lambda: _figures(state))
            over = state.is_over()
            return {
                "table": table,
                "id": table.id,
                "version": table.version,
                "where": recording.where(),
                "menu": menu,
                "offer": offer,
                "then": then,
                "owners": owners,
                "over": over,
                "refused": recording.refused_move,
                "messages": messages,
                "recent": [line for line in recording.text.split("\n") if line.strip() and not line.lstrip().startswith("[")][-RECENT:],
                "standings": exports.standings(state) if over or request.query_params.get("scores") else None,
                "code": table.code if settings.codes else None,
                "game": recording.game.spec.name(recording.game.spec.meta, current(), recording.game.name),
                "seats": [seat.shown for seat in state.seats],
                "owner_names": {owner: colour_named(owner).translated() for owner, *_rest in owners},
            }

    async def game_page(request: Request) -> Response:
        table = table_of(request)
        text = request.query_params.get("text", "")
        if len(text) > taps.MOST_TEXT or any(not ch.isprintable() for ch in text):
            raise guard.Refused(400, _("the start of a move in this address cannot be read; start the move again"))
        values = await run_in_threadpool(play_values, request, table, text, [])
        status = 200
        if text.strip() and not (values["menu"].buttons or values["menu"].can_enter or values["menu"].free):
            values = await run_in_threadpool(play_values, request, table, "", [shown(_("no legal move starts with {text}; here are the moves from the start").format(text=text.strip()))])
            status = 400
        if request.headers.get("x-partial"):
            return page(request, "play.html", status, **values)
        values["qr"] = _qr(f"http://{request.headers.get('host', '')}/g/{quote(table.id)}?join={quote(table.code)}") if settings.codes else None
        return page(request, "game.html", status, title=f"{table.id}", **values)

    async def enter(request: Request) -> Response:
        table = table_of(request)
        form = await read_form(request)
        lines = [line for line in form.get("line", []) if line.strip()]
        for batch in form.get("batch", []):  # one tap for several lines (the passes before a purchase)
            lines += [line for line in batch.split("\n") if line.strip()]
        fill = " ".join((form.get("fill") or [""])[0].split())
        if not lines and fill:  # a chance outcome typed in after the words tapped before it
            lines = [(form.get("prefix") or [""])[0] + fill]
        if not lines:
            raise guard.Refused(400, _("no line to enter: tap a move, or type one"))
        if len(lines) > 16:
            raise guard.Refused(400, _("at most 16 lines at once"))
        return await _answer(request, table, lambda version: table.enter(lines, version), form)

    async def undo(request: Request) -> Response:
        table = table_of(request)
        form = await read_form(request)
        return await _answer(request, table, table.undo, form)

    async def _answer(request: Request, table: Table, act, form) -> Response:
        version = (form.get("version") or [""])[0]
        if not version.isdigit():
            raise guard.Refused(400, _("the form does not say which version of the game it was tapped on; reload the page"))

        def work():
            outcome, stale = act(int(version))
            text = "" if outcome.accepted or stale else (form.get("text") or [""])[0]
            return outcome, stale, play_values(request, table, text, [shown(m) for m in outcome.messages])

        outcome, stale, values = await run_in_threadpool(work)
        status = 200 if outcome.accepted else 409 if stale else 422
        if request.headers.get("x-partial"):
            return page(request, "play.html", status, **values)
        if outcome.accepted:
            return RedirectResponse(f"/g/{quote(table.id)}", status_code=303)
        values["qr"] = None
        return page(request, "game.html", status, title=table.id, **values)

    async def events(request: Request) -> Response:
        """Server-sent events: the game's version each time it changes, so every phone on
        the game fetches the new position within a second of a move."""
        table = table_of(request)
        if listeners["open"] >= MOST_LISTENERS:
            raise guard.Refused(503, _("too many phones are listening to this server"))

        async def stream():
            listeners["open"] += 1
            try:
                seen, quiet = None, 0.0
                yield "retry: 1000\n\n"
                while True:
                    if await request.is_disconnected():
                        return
                    await run_in_threadpool(table.fresh)
                    if table.version != seen:
                        seen = table.version
                        yield f"event: version\ndata: {seen}\n\n"
                        quiet = 0.0
                    elif quiet >= HEARTBEAT:
                        yield ": still here\n\n"
                        quiet = 0.0
                    await asyncio.sleep(EVENT_POLL)
                    quiet += EVENT_POLL
            finally:
                listeners["open"] -= 1

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def explain(request: Request) -> Response:
        from referee.report.explain import explain_bytes, format_explanation

        table = table_of(request)
        who, figure = request.query_params.get("who", ""), request.query_params.get("figure", "")

        def work():
            with table.lock:
                data = table.recording.text.encode("utf-8")
            try:
                report, found = explain_bytes(data, table.id, table.recording.variants, who, figure)
            except UsageError as exc:
                return None, str(exc)
            if found is None:
                return None, _("the record cannot be replayed to explain it")
            return format_explanation(report, found), None

        text, problem = await run_in_threadpool(work)
        if problem:
            raise guard.Refused(400, visible(problem))
        return page(request, "explain.html", title=f"{who} {figure}", id=table.id, text=shown(text), who=who, figure=figure)

    async def picture(request: Request) -> Response:
        """The position's picture, drawn once per version of the game; the page asks for it
        by version, so a phone's cache never shows an old position."""
        table = table_of(request)

        def work():
            with table.lock:
                return table.cached("picture", lambda: _picture(table.recording.state, writer))

        svg = await run_in_threadpool(work)
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "private, max-age=3600", "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'"})

    async def record_file(request: Request) -> Response:
        table = table_of(request)
        with table.lock:
            text = table.recording.text
        return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{table.id}"'})

    async def scores(request: Request) -> Response:
        table = table_of(request)
        with table.lock:
            text = await run_in_threadpool(exports.scores_csv, table.recording.state)
        return Response(text, media_type="text/csv", headers={"Content-Disposition": f'attachment; filename="{table.id[:-4]}-scores.csv"'})

    async def bg_stats(request: Request) -> Response:
        table = table_of(request)
        recording = table.recording
        date = recording.report.record.header.get("date") if recording.report.record else None
        text = exports.bg_stats(recording.state, recording.game.spec.meta["names"]["en"], date, recording.state.is_over(), table.id)
        return Response(text, media_type="application/json", headers={"Content-Disposition": f'attachment; filename="{table.id[:-4]}-bgstats.json"'})

    async def replay(request: Request) -> Response:
        from referee.pictures.replay_page import build

        table = table_of(request)
        with table.lock:
            data, variants = table.recording.text.encode("utf-8"), list(table.recording.variants)
        html, _ = await run_in_threadpool(build, data, table.id, variants)
        if html is None:
            raise guard.Refused(400, _("nothing of this record can be replayed yet"))
        return HTMLResponse(html, headers={"Content-Security-Policy": "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"})

    async def not_found(request: Request, exc: HTTPException) -> Response:
        return message(request, exc.status_code, _("no such page") if exc.status_code == 404 else _("this request is not taken"))

    async def failed(request: Request, exc: Exception) -> Response:
        return message(request, 500, _("the referee hit an internal error; the record file is as it was after the last saved move"))

    routes = [
        Route("/", index),
        Route("/new", new_game, methods=["POST"]),
        Route("/g/{game}", game_page),
        Route("/g/{game}/enter", enter, methods=["POST"]),
        Route("/g/{game}/undo", undo, methods=["POST"]),
        Route("/g/{game}/events", events),
        Route("/g/{game}/explain", explain),
        Route("/g/{game}/record", record_file),
        Route("/g/{game}/picture.svg", picture),
        Route("/g/{game}/scores.csv", scores),
        Route("/g/{game}/bgstats.json", bg_stats),
        Route("/g/{game}/replay", replay),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]

    async def refused(request: Request, exc: guard.Refused) -> Response:
        return message(request, exc.status, exc.message)

    app = Starlette(routes=routes, middleware=[Middleware(guarded)], exception_handlers={HTTPException: not_found, guard.Refused: refused, Exception: failed})
    app.state.tables = tables
    app.state.settings = settings
    app.state.listeners = listeners
    return app


def _game_meta(name: str) -> dict:
    """A game's meta data from its spec (names, colours, player counts)."""
    from referee.games import load_game

    return load_game(name).spec.meta


def _picture(state, writer: Writer) -> str:
    """The position's SVG picture, drawn from the spec and the state (its text escaped)."""
    try:
        return writer.tostring(state.game.draw(state, ""))
    except Exception:
        return ""


def _figures(state) -> list[tuple[str, list[tuple[str, object]]]]:
    """Each owner's figures that a checkpoint may state, for the table of figures (a tap on
    one explains it)."""
    out = []
    for owner in state.figure_owners():
        try:
            figures = state.figures(owner)
        except Exception:
            continue
        shown_figures = [(k, v if not isinstance(v, (list, tuple)) else " ".join(map(str, v)) or "-") for k, v in figures.items() if not isinstance(v, dict)]
        out.append((owner, shown_figures))
    return out


def _qr(address: str) -> str | None:
    """The address as a QR code, an SVG to scan from another phone."""
    try:
        import segno
    except ImportError:
        return None
    import io

    buffer = io.BytesIO()
    segno.make(address, error="m").save(buffer, kind="svg", scale=4, xmldecl=False, svgns=True)
    return buffer.getvalue().decode("utf-8")
