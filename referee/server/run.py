"""`referee serve`: the folder of games, the address, and uvicorn serving the app.

The address is printed for the phones; off this machine, with the server's join code and
a QR code of both drawn in the terminal, so a phone at the table scans it and is in.
"""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

from referee.errors import UsageError
from referee.i18n import _
from referee.server import RATE
from referee.terminal import visible


def default_folder() -> Path:
    """The user's data folder (XDG_DATA_HOME, else ~/.local/share) / referee / games."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "referee" / "games"


def serve(games: str | None, host: str, port: int, rate: float = RATE) -> int:
    try:
        import uvicorn

        from referee.server.app import Settings, create_app
    except ImportError as exc:
        raise UsageError(_("referee serve needs the web stack: pip install 'referee[serve]' ({module} is missing)").format(module=exc.name)) from None
    if not 0 < port < 65536:
        raise UsageError(_("--port takes a port number from 1 to 65535, not {port}").format(port=port))
    if not 0 < rate <= 100_000:
        raise UsageError(_("--rate takes a number of requests a second above 0 and at most 100000, not {rate}").format(rate=visible(str(rate))))
    folder = Path(games) if games else default_folder()
    if folder.exists() and not folder.is_dir():
        raise UsageError(_("{folder} is not a folder").format(folder=visible(str(folder))))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(_("cannot make the folder {folder}: {reason}").format(folder=visible(str(folder)), reason=exc.strerror or exc)) from None
    try:
        with socket.create_server((host, port)) if ":" not in host else socket.create_server((host, port), family=socket.AF_INET6):
            pass  # the address is free: uvicorn binds it next
    except OSError as exc:
        raise UsageError(_("cannot listen on {host}:{port}: {reason}").format(host=visible(host), port=port, reason=exc.strerror or exc)) from None
    settings = Settings(folder, host, port, rate=rate)
    app = create_app(settings)
    address = _address(host, port)
    print(visible(f"referee serve: games in {folder.resolve()}"))
    if settings.codes:
        joined = f"{address}/?join={settings.server_code}"
        print(visible(f"open {joined} on a phone of this network (the join code is {settings.server_code})"))
        _print_qr(joined)
    else:
        print(visible(f"open {address}/ in a browser on this machine (Ctrl-C stops the server)"))
    sys.stdout.flush()
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False, timeout_graceful_shutdown=2, limit_concurrency=512, h11_max_incomplete_event_size=16 * 1024)
    uvicorn.Server(config).run()
    return 0


def _address(host: str, port: int) -> str:
    """The address a phone opens: this machine's address on the network for 0.0.0.0."""
    shown = host
    if host in ("0.0.0.0", "::", ""):
        try:
            shown = socket.gethostbyname(socket.gethostname())
        except OSError:
            shown = socket.gethostname()
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


def _print_qr(text: str) -> None:
    try:
        import segno
    except ImportError:
        return
    try:
        segno.make(text, error="m").terminal(compact=True)
    except Exception:  # a terminal that cannot show it: the address above still holds
        pass
