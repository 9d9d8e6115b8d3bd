"""Fixtures of the page tests (defined in page_helpers)."""

from .page_helpers import csrf_app, make_phone, phone  # noqa: F401
