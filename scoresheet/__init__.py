"""The Tysiacha scoresheet web app: `create_app` builds it (flaskr-style factory) from its
layers (docs/architecture.md): the settings (`config`), storage, then the web layer."""

from __future__ import annotations

import os
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from . import config as settings


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app; keys in `config` override every other source of configuration."""
    config = dict(config or {})
    app = Flask(
        __name__,
        instance_relative_config=True,
        instance_path=config.pop("INSTANCE_PATH", None),
        template_folder=settings.folder("templates"),
        static_folder=settings.folder("static"),
    )
    os.makedirs(app.instance_path, exist_ok=True)
    settings.load(app, config)

    from . import storage, web

    storage.init_app(app)
    web.init_app(app)

    if app.config["TRUSTED_PROXIES"]:
        hops = int(app.config["TRUSTED_PROXIES"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        """Liveness check: the app answers."""
        return {"status": "ok"}

    return app
