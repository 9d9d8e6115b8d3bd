"""What a phone does first, through the reverse proxy: register with the page's form (a POST
whose Referer must match the host, port included), open a static file, start a match and open
its join link, which must carry the address the phone used. Used by deploy/walkthrough and
tests/test_deploy.py; standard library only (it runs under any Python ≥ 3.11).

    python3 deploy/smoke.py https://scores.example.org:8443 --connect 127.0.0.1 --cafile cert.pem
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import re
import secrets
import socket
import ssl
import sys
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

SECURITY_HEADERS = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options")


class Phone:
    """A browser: cookies kept, redirects not followed (their target is checked instead)."""

    def __init__(self, base: str, cafile: str | None) -> None:
        self.base = base.rstrip("/")
        context = ssl.create_default_context(cafile=cafile) if cafile else None
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
            urllib.request.HTTPSHandler(context=context),
            _NoRedirect(),
        )

    def send(self, path: str, data: bytes | None = None, headers: dict[str, str] | None = None) -> Any:
        """One request; the response, whatever its status."""
        request = urllib.request.Request(self.base + path, data=data, headers=headers or {})
        try:
            return self.opener.open(request, timeout=30)
        except urllib.error.HTTPError as error:
            return error


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *_args: Any) -> None:
        return None


def _connect_to(host: str, address: str) -> None:
    """Send every connection to `host` to `address` instead (curl's --resolve)."""
    resolve = socket.getaddrinfo

    def patched(name: Any, *args: Any, **kwargs: Any) -> Any:
        return resolve(address if name == host else name, *args, **kwargs)

    socket.getaddrinfo = patched  # type: ignore[assignment]


def check(base: str, cafile: str | None = None) -> list[str]:
    """Run the phone's first steps against `base`; what was seen, one line each (raises
    AssertionError on the first thing that is wrong)."""
    seen = []
    phone = Phone(base, cafile)
    page = phone.send("/register")
    body = page.read().decode()
    assert page.status == 200, page.status
    for name in SECURITY_HEADERS:
        assert page.headers[name], f"/register lacks {name}"
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', body)
    assert token, "no CSRF token on /register"
    username = "walk" + secrets.token_hex(4)
    password = "a table of four " + secrets.token_hex(4)
    form = urllib.parse.urlencode(
        {"csrf_token": token[1], "username": username, "password": password, "remember": "y"}
    ).encode()
    answer = phone.send(
        "/register",
        form,
        {"Content-Type": "application/x-www-form-urlencoded", "Referer": f"{phone.base}/register"},
    )
    answer.read()
    assert answer.status in (302, 303), f"the register form answered {answer.status}"
    seen.append(f"form POST /register with Referer {phone.base}/register: {answer.status}")

    css = re.search(r'<link rel="stylesheet" href="([^"]+)"', body)
    assert css, "no stylesheet on /register"
    static = phone.send(css[1])
    static.read()
    assert static.status == 200, static.status
    missing = [name for name in SECURITY_HEADERS if not static.headers[name]]
    assert not missing, f"{css[1]} lacks {missing}"
    seen.append(f"GET {css[1]}: {static.status}, with {', '.join(SECURITY_HEADERS)}")
    if base.startswith("https:"):
        assert static.headers["Strict-Transport-Security"], "no Strict-Transport-Security"

    tokens = phone.send(
        "/api/tokens",
        json.dumps({"username": username, "password": password}).encode(),
        {"Content-Type": "application/json"},
    )
    bearer = json.load(tokens)["token"]
    made = phone.send(
        "/api/matches",
        json.dumps({"players": ["Anna", "Boris", "Vera"], "rules": "squarescores"}).encode(),
        {"Content-Type": "application/json", "Authorization": f"Bearer {bearer}"},
    )
    match = json.load(made)
    assert made.status == 201, match
    shown = phone.send(f"/matches/{match['id']}").read().decode()
    link = f"{phone.base}/join/{match['join_code']}"
    assert link in shown, f"the match page does not offer {link}"
    joined = phone.send(f"/join/{match['join_code']}")
    joined.read()
    where = joined.headers["Location"] or ""
    assert joined.status == 200 or (joined.status in (302, 303) and where.startswith((phone.base + "/", "/"))), (
        joined.status,
        where,
    )
    seen.append(f"the match page's join link is {link}; it answers {joined.status} {where}".rstrip())
    return seen


def main() -> None:
    """Command line: the base URL, where to connect, which CA to trust."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="the address the phones use, e.g. https://scores.example.org:8443")
    parser.add_argument("--connect", help="connect to this address instead of the base's host name")
    parser.add_argument("--cafile", help="trust this certificate (a self-signed one)")
    args = parser.parse_args()
    if args.connect:
        _connect_to(urllib.parse.urlsplit(args.base).hostname or "", args.connect)
    try:
        for line in check(args.base, args.cafile):
            print(line)
    except AssertionError as error:
        sys.exit(f"smoke check failed: {error}")


if __name__ == "__main__":
    main()
