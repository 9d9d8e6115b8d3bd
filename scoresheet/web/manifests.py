"""The web app manifests: the app's own (every page links it: the app on a phone's home
screen) and a scoreboard's (`/watch/<token>/board`: the board on a tablet's home screen, an
app of its own that opens straight to that board). Both are answered here as JSON."""

from __future__ import annotations

import json
from typing import Any

from flask import current_app
from werkzeug.wrappers import Response

ICONS = [
    {"src": "/static/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any maskable"},
    {"src": "/static/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any maskable"},
]
COLOURS = {"background_color": "#ffffff", "theme_color": "#0b4fa8"}
APP = {
    "id": "/",
    "start_url": "/",
    "scope": "/",
    "display": "standalone",
    "orientation": "any",
    **COLOURS,
    "icons": ICONS,
}
"""The app's manifest fields that no language changes (its words are added per language)."""


def board(path: str) -> dict[str, Any]:
    """A scoreboard's manifest fields: its own app (its id), opened at the board and kept to it
    (start_url and scope), the whole screen of the tablet (fullscreen, else standalone)."""
    return {
        "id": path,
        "start_url": path,
        "scope": path,
        "display": "fullscreen",
        "orientation": "any",
        **COLOURS,
        "icons": ICONS,
    }


def answer(body: dict[str, Any]) -> Response:
    """A manifest as the browser asks for it (`application/manifest+json`, written as UTF-8)."""
    return current_app.response_class(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json")
