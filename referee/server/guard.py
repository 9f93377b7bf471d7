"""What keeps a server on a shared network safe: join codes, cross-site checks, bounds.

Bound to the machine itself (localhost), the server trusts its callers, as any program on
the machine could read the record files anyway. Bound to another address, every game needs
its join code (a random token, printed and shown as a QR code when the server starts, and
on the game's page for the next phone): a phone shows it once, in the address, and keeps
it in a cookie. Whatever the address, a request that changes a game must carry the form
token of the browser that loaded the page (a cookie sent only to this site), and must not
come from a page of another site; requests are bounded in size and in rate.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import threading
import time
from urllib.parse import parse_qs

from referee.i18n import LANGS, _, language_of
from referee.server import BURST, RATE

LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
MOST_BODY = 16 * 1024  # a form of a few lines of a record, with room to spare
MOST_FIELDS = 64
FORM_COOKIE = "referee-form"
LANG_COOKIE = "referee-lang"
SERVER_COOKIE = "referee-join"


class Refused(Exception):
    """A request the server will not serve: its status and the message for the page."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def needs_codes(host: str) -> bool:
    """Whether the server listens beyond this machine (every game then needs its code)."""
    return host.strip("[]").lower() not in LOCAL_HOSTS


def local_host_header(host: str) -> bool:
    """Whether a request's Host names this machine (localhost, 127.0.0.1, [::1]), any port."""
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    return name.strip("[]").lower() in LOCAL_HOSTS or name.startswith("127.")


def same(given: str | None, expected: str) -> bool:
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())


def new_token() -> str:
    return secrets.token_urlsafe(16)


def parse_form(body: bytes) -> dict[str, list[str]]:
    """A URL-encoded form, bounded; bad bytes are refused rather than guessed at."""
    if len(body) > MOST_BODY:
        raise Refused(413, _("the request is larger than {n} bytes, the most a form may send").format(n=MOST_BODY))
    try:
        text = body.decode("ascii")
        form = parse_qs(text, keep_blank_values=True, strict_parsing=False, max_num_fields=MOST_FIELDS, errors="strict")
    except (UnicodeDecodeError, ValueError):
        raise Refused(400, _("the form could not be read")) from None
    return form


def same_site(origin: str | None, host: str | None) -> bool:
    """A request from a page of this server: its Origin (when the browser sends one) names
    the host the request was sent to."""
    if not origin:
        return True
    if origin == "null" or not host:
        return False
    return origin.split("://", 1)[-1].rstrip("/").lower() == host.lower()


class Rates:
    """At most `rate` requests a second from one address, in bursts of up to `burst`
    (`BURST` seconds' worth where not given)."""

    def __init__(self, rate: float = RATE, burst: int | None = None):
        self.rate = rate
        self.burst = max(1, round(BURST * rate)) if burst is None else burst
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def allow(self, address: str) -> bool:
        now = time.monotonic()
        with self._lock:
            tokens, then = self._buckets.get(address, (float(self.burst), now))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            if tokens < 1:
                self._buckets[address] = (tokens, now)
                return False
            self._buckets[address] = (tokens - 1, now)
            if len(self._buckets) > 10000:  # addresses not seen for a while are forgotten
                self._buckets = {a: b for a, b in self._buckets.items() if now - b[1] < 60}
            return True


def is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def language(asked: str | None, kept: str | None, accepted: str | None) -> str:
    """The language of a page: the switch's (`?lang=`), else the one the phone chose before
    (a cookie), else the first of the browser's languages (Accept-Language) that the
    referee speaks, else English."""
    for choice in (asked, kept):
        if choice in LANGS:
            return choice
    ranked = []
    for i, part in enumerate((accepted or "")[:400].split(",")[:20]):
        name, _sep, quality = part.strip().partition(";q=")
        try:
            weight = float(quality) if quality else 1.0
        except ValueError:
            continue
        code = language_of(name.strip())
        if code and weight > 0:
            ranked.append((-weight, i, code))
    return min(ranked)[2] if ranked else "en"
