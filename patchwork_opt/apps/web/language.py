"""The language of each request: chosen from ``?lang=``, the ``lang`` cookie and Accept-Language,
in effect while the request is answered, and said back in ``Content-Language``.

``i18n.choose`` makes the choice (the pages use the same function and cookie); this middleware puts
it in effect (``i18n.LANGUAGE``) for the routes, the error handler and the worker threads the
request's jobs run in (``jobs.JobQueue`` carries the request's context into them), and adds
``Content-Language`` and ``Vary`` so a cache keeps each language's answer apart. Every ``words`` and
text field of an answer follows it; JSON keys and enum values stay English.
"""

from __future__ import annotations

from http.cookies import SimpleCookie
from urllib.parse import parse_qs

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from patchwork_opt.i18n import LANGUAGE, choose

#: The cookie the pages' language picker sets, and the address's query parameter.
COOKIE = "lang"
QUERY = "lang"


def request_language(scope: Scope) -> str:
    """The language a request asks for: its ``?lang=``, else its ``lang`` cookie, else its
    Accept-Language, else English (``i18n.choose``)."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get(QUERY, [None])[0]
    header: dict[str, str] = {}
    for name, value in scope.get("headers", ()):
        key = name.decode("latin-1").lower()
        if key in ("cookie", "accept-language"):
            header[key] = (header[key] + "; " if key in header else "") + value.decode("latin-1")
    cookie = None
    if "cookie" in header:
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(header["cookie"])
        except Exception:  # a malformed Cookie header is no reason to refuse the request
            jar = SimpleCookie()
        cookie = jar[COOKIE].value if COOKIE in jar else None
    return choose(query, cookie, header.get("accept-language"))


class Language:
    """ASGI middleware: the request's language in effect while it is answered, and named in the answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        code = request_language(scope)
        token = LANGUAGE.set(code)

        async def send_with_language(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers["Content-Language"] = code
                headers.add_vary_header("Accept-Language")
                headers.add_vary_header("Cookie")
            await send(message)

        try:
            await self.app(scope, receive, send_with_language)
        finally:
            LANGUAGE.reset(token)
