"""The API's authentication, shared by the blueprints that answer under /api/: a request sends
`Authorization: Bearer <token>` (docs/api.md)."""

from __future__ import annotations

from flask import Response, g, request

from ..services import accounts
from .errors import error_response


def bearer_token() -> str | None:
    """The token the request sends, if it sends one."""
    scheme, _space, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def require_bearer_token() -> Response | None:
    """Sign the request in as the token's user (`g.api_user`, `g.api_token`), or answer 401."""
    token = bearer_token()
    user = accounts.user_for_token(token) if token else None
    if user is None:
        return error_response(401)
    g.api_user, g.api_token = user, token
    return None
