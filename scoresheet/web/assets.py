"""Static files for phones on slow connections: content-hashed URLs cached for a year, and
text responses sent gzip-compressed."""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os

from flask import Flask, current_app, request, url_for
from werkzeug.wrappers import Response

from .extensions import kept

COMPRESSIBLE = ("text/", "application/json", "application/javascript", "application/manifest+json", "image/svg+xml")
MIN_COMPRESS = 500
"""Smaller bodies are sent as they are: gzip would not save a packet."""
YEAR = 365 * 24 * 3600

mimetypes.add_type("application/manifest+json", ".webmanifest")
_hashes: dict[str, tuple[float, str]] = {}


def static_url(filename: str) -> str:
    """The URL of a static file with `?v=<hash of its content>`: cached until it changes. Every
    page asks for five; the files change only with a deployment, so each URL is made once per
    app (while templates reload, in debug, the file is looked at every time)."""
    return kept("static_urls", (request.script_root, filename), lambda: _versioned_url(filename))


def _versioned_url(filename: str) -> str:
    path = os.path.join(current_app.static_folder or "", filename)
    mtime = os.path.getmtime(path)
    known = _hashes.get(path)
    if known is None or known[0] != mtime:
        with open(path, "rb") as f:
            known = (mtime, hashlib.sha256(f.read()).hexdigest()[:12])
        _hashes[path] = known
    return url_for("static", filename=filename, v=known[1])


def _cache_versioned(response: Response) -> Response:
    """A versioned static file never changes under its URL: let phones keep it a year."""
    if request.endpoint == "static" and request.args.get("v") and response.status_code == 200:
        response.cache_control.no_cache = None  # send_file's default: revalidate every time
        response.cache_control.public = True
        response.cache_control.max_age = YEAR
        response.cache_control.immutable = True
    return response


def compress(response: Response) -> Response:
    """Gzip a text response when the browser accepts it (a slow 4G link thanks us)."""
    if (
        response.status_code != 200
        or "Content-Encoding" in response.headers
        or not (response.mimetype or "").startswith(COMPRESSIBLE)
        or response.mimetype == "text/event-stream"  # live updates: each event at once
        or "gzip" not in request.headers.get("Accept-Encoding", "")
    ):
        return response
    response.direct_passthrough = False  # static files: read the file into the body
    source = response.response
    body = response.get_data()
    if hasattr(source, "close"):
        source.close()
    if len(body) < MIN_COMPRESS:
        return response
    response.set_data(gzip.compress(body, compresslevel=6))
    response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    etag, weak = response.get_etag()
    if etag and not weak:
        response.set_etag(etag, weak=True)  # a different byte sequence than the plain one
    return response


def _close_unsent(response: Response) -> Response:
    """A 304 sends no body: close the file a static answer opened for it (werkzeug drops it
    unclosed, to the garbage collector; an icon revalidated by every board leaked one)."""
    if response.status_code == 304:
        response.close()
    return response


def init_app(app: Flask) -> None:
    """Add `static_url` to the templates and the caching and compression hooks."""
    app.after_request(_cache_versioned)
    app.after_request(compress)
    app.after_request(_close_unsent)
