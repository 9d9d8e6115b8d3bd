"""Pages for people (a minimal stub; the pages are built on top of it)."""

from flask import Blueprint, render_template

bp = Blueprint("pages", __name__)


@bp.get("/")
def index() -> str:
    """Home page."""
    return render_template("index.html")
