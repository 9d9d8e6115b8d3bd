"""Helpers for the page tests: a phone that posts forms with their CSRF token, and a tiny
HTML reader that finds the errors shown next to a field."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func

from scoresheet.storage.extensions import db
from scoresheet.storage.models import Hand, Match

VOID = {"input", "meta", "link", "br", "img", "hr"}
TOKEN = re.compile(
    r'name="csrf_token" type="hidden" value="([^"]+)"|'
    r'name="csrf_token" value="([^"]+)"'
)


@dataclass
class Node:
    """One element of a parsed page."""

    tag: str
    attrs: dict[str, str]
    parent: Node | None = None
    children: list[Node | str] = field(default_factory=list)

    def text(self) -> str:
        """All the text inside, spaces collapsed."""
        parts = [c if isinstance(c, str) else c.text() for c in self.children]
        return " ".join(" ".join(parts).split())

    def walk(self) -> Any:
        """This element and every element inside it."""
        yield self
        for c in self.children:
            if isinstance(c, Node):
                yield from c.walk()

    def classes(self) -> set[str]:
        """The element's classes."""
        return set(self.attrs.get("class", "").split())


class TreeBuilder(HTMLParser):
    """Build a tree of `Node`s (enough HTML for our own templates)."""

    def __init__(self) -> None:
        super().__init__()
        self.root = self.current = Node("root", {})

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data: str) -> None:
        self.current.children.append(data)


def parse(html: str) -> Node:
    """The page as a tree."""
    builder = TreeBuilder()
    builder.feed(html)
    return builder.root


def direct_errors(container: Node) -> list[str]:
    """The errors listed directly in a field's container."""
    return [
        li.text().lstrip("⚠ ")
        for ul in container.children
        if isinstance(ul, Node) and ul.tag == "ul" and "errors" in ul.classes()
        for li in ul.children
        if isinstance(li, Node)
    ]


def errors_next_to(html: str, element_id: str) -> list[str]:
    """The errors shown with the field whose input has this id."""
    target = next((n for n in parse(html).walk() if n.attrs.get("id") == element_id), None)
    assert target is not None, f"no element with id {element_id}"
    node = target.parent
    while node is not None and not ("field" in node.classes() or node.tag == "fieldset"):
        node = node.parent
    assert node is not None
    return direct_errors(node)


def group_errors(html: str, legend: str) -> list[str]:
    """The errors shown at the top of the fieldset with this legend."""
    for node in parse(html).walk():
        if node.tag == "fieldset":
            legends = [c for c in node.children if isinstance(c, Node) and c.tag == "legend"]
            if legends and legends[0].text() == legend:
                return direct_errors(node)
    raise AssertionError(f"no fieldset {legend!r}")


def all_errors(html: str) -> list[str]:
    """Every error shown on the page."""
    return [
        li.text().lstrip("⚠ ")
        for n in parse(html).walk()
        if n.tag == "ul" and "errors" in n.classes()
        for li in n.children
        if isinstance(li, Node)
    ]


def flashes(html: str) -> list[str]:
    """The flash messages shown on the page."""
    return [n.text() for n in parse(html).walk() if "flash" in n.classes()]


LIVE_PART = re.compile(r"<!--live-->.*<!--/live-->", re.S)
CSRF = re.compile(r'name="csrf_token" value="[^"]*"')
TOAST_SECONDS = re.compile(r'data-toast-seconds="\d+"')


def live_part(html: str) -> str:
    """The live part of a match or watch page (between its marks), its form tokens blanked
    (each request signs its own), and the Undo's seconds left (two requests may straddle a
    second)."""
    found = LIVE_PART.search(html)
    assert found is not None, html
    return TOAST_SECONDS.sub('data-toast-seconds=""', CSRF.sub('name="csrf_token" value=""', found[0]))


def count_hands(app: Flask) -> int:
    """Hand records stored, in every match."""
    with app.app_context():
        return db.session.execute(db.select(func.count(Hand.id))).scalar_one()


def count_matches(app: Flask) -> int:
    """Matches stored."""
    with app.app_context():
        return db.session.execute(db.select(func.count(Match.id))).scalar_one()


class Phone:
    """One person's browser: fetches each form first and posts it back with its CSRF token."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def get(self, url: str, **kw: Any) -> Any:
        """GET a page."""
        return self.client.get(url, **kw)

    def token(self, url: str) -> str:
        """The CSRF token of the form on this page (one per session: a page without a form,
        such as the sheet, lends the token of the log-out question every page links to)."""
        response = self.client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        match = TOKEN.search(response.text)
        if match is None and 'href="/logout"' in response.text:
            match = TOKEN.search(self.client.get("/logout").text)
        assert match, f"no CSRF token on {url}"
        return match.group(1) or match.group(2)

    def post(self, url: str, data: dict[str, Any], form_url: str | None = None, **kw: Any) -> Any:
        """Post a form as the page would: with the token of the page it is on."""
        return self.client.post(url, data={**data, "csrf_token": self.token(form_url or url)}, **kw)

    def register(self, username: str, password: str = "correct horse") -> Any:
        """Make an account (and log in)."""
        return self.post("/register", {"username": username, "password": password})

    def new_match(self, players: list[str] | None = None, **fields: Any) -> str:
        """Start a match through the page; its id."""
        names = players or ["Anna", "Boris", "Vera"]
        data = {f"players-{i}": name for i, name in enumerate(names)}
        data.update({"rules": "squarescores", "target": "", "sheet": "deferred", "first_dealer": "0"})
        data.update(fields)
        response = self.post("/matches/new", data)
        assert response.status_code == 302, all_errors(response.text)
        return str(response.location).rsplit("/", 1)[1]

    def hand(self, match_id: str, expected: int | None = None, **fields: Any) -> Any:
        """Post the hand form (fields by form name: kind, declarer, bid, points_0, …)."""
        url = f"/matches/{match_id}/hands/new"
        data = {"kind": "played", **{k: v for k, v in fields.items() if v is not None}}
        if expected is not None:
            data["expected_hand"] = str(expected)
        return self.post(url, data, form_url=f"/matches/{match_id}")


def played(
    declarer: int, bid: int, points: list[int | None], marriages: dict[int, list[str]] | None = None
) -> dict[str, Any]:
    """A played hand as form fields."""
    data: dict[str, Any] = {"kind": "played", "declarer": str(declarer), "bid": str(bid)}
    for i, p in enumerate(points):
        data[f"points_{i}"] = "" if p is None else str(p)
    for seat, suits in (marriages or {}).items():
        data[f"marriages_{seat}"] = suits
    return data


@pytest.fixture
def csrf_app(app: Flask) -> Flask:
    """The app with CSRF protection on, as in production."""
    app.config["WTF_CSRF_ENABLED"] = True
    return app


@pytest.fixture
def make_phone(csrf_app: Flask) -> Any:
    """A factory: a new phone with its own account, logged in."""

    def make(username: str = "anna") -> Phone:
        phone = Phone(csrf_app.test_client())
        response = phone.register(username)
        assert response.status_code == 302, all_errors(response.text)
        return phone

    return make


@pytest.fixture
def phone(make_phone: Any) -> Phone:
    """anna's phone, logged in."""
    return make_phone("anna")
