"""Nothing escapes the catalog: every page and every refusal (pages and API), rendered in a
pseudo-locale whose every word is marked ⟦…⟧, shows no unmarked word a player reads (player
names, usernames, join codes and the app's name aside)."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import app_config
from flask import Flask
from i18n_helpers import PSEUDO, filled_values, pseudo_catalog, unmarked

from scoresheet import create_app
from scoresheet.rules.house import WORDS
from scoresheet.storage.extensions import db
from scoresheet.storage.models import Match

from .page_helpers import Node, Phone, parse, played

NAMES = ("Anna", "Boris", "Vera", "Dmitri", "anna", "boris", "Tysiacha", "UTC", "tysiacha-scoresheet")
"""Names (players, usernames, the app's, its backup format's) and the time zone's."""
API_WORDS = re.compile(
    r"\b[a-z]+_[a-z_]+\b|[“«„]({})[”»“]".format(
        "|".join(
            sorted({w for words in WORDS.values() for w in words} | {"true", "false", "forced", "deferred", "signed"})
        )
    )
)
"""The API's names that a page never says, even inside a translated sentence: option names
(`blind_bids`, `zero_penalty`) and values in quotes (“total”, “declarer”, “forced”)."""
POINTER = re.compile(r"(?:/[\w~-]+)+")
"""A place in a backup document (a JSON pointer, /matches/0/join_code): shown as it is."""
SEEN_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt", "data-preview-label")
SKIPPED = {"script", "style"}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """The app on SQLite, speaking the pseudo-locale, CSRF on as in production."""
    pseudo_catalog(tmp_path / "pseudo")
    app = create_app(
        app_config(
            f"sqlite:///{tmp_path / 'test.sqlite'}",
            tmp_path,
            LANGUAGES=["en", PSEUDO],
            WTF_CSRF_ENABLED=True,
            BABEL_TRANSLATION_DIRECTORIES=f"translations;{tmp_path / 'pseudo'}",
        )
    )
    yield app
    with app.app_context():
        db.engine.dispose()


class Reader:
    """A phone asking for the pseudo-locale that checks every page and answer it gets."""

    def __init__(self, app: Flask) -> None:
        self.phone = Phone(app.test_client())
        self.phone.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = PSEUDO
        self.allowed = list(NAMES)
        self.seen: list[str] = []
        self.problems: list[str] = []

    def check_html(self, where: str, html: str) -> None:
        """Every text and every attribute a player reads is marked, and the page has the
        language switch (on every page)."""
        self.seen.append(where)
        page = parse(html)
        if where != "/offline" and not any(  # the page shown offline, where no switch could work
            n.tag == "button" and n.attrs.get("name") == "lang" for n in page.walk()
        ):
            self.problems.append(f"{where}: no language switch")
        self._check_node(where, page)

    def _check_node(self, where: str, node: Node) -> None:
        if (
            node.tag in SKIPPED
            or (node.attrs.get("lang") and node.tag != "html")
            or node.attrs.get("translate") == "no"
        ):
            return  # a language's own name in the switch; a join code
        for name in SEEN_ATTRIBUTES:
            if node.attrs.get(name):
                self.check_text(f"{where} <{node.tag} {name}>", node.attrs[name])
        for child in node.children:
            if isinstance(child, Node):
                self._check_node(where, child)
            else:
                self.check_text(f"{where} <{node.tag}>", child)

    def check_text(self, where: str, text: str, page: bool = True) -> None:
        """The text has no word outside the catalog; on a page, neither has any value filled
        into a translated sentence (an API word such as `blind_bids` or “total” inside an
        otherwise translated refusal): the API's sentences may name what a script sends."""
        left = unmarked(text, tuple(self.allowed))
        if left:
            self.problems.append(f"{where}: {left!r} in {' '.join(text.split())!r}")
        found = API_WORDS.search(POINTER.sub(" ", text)) if page else None
        if found:
            self.problems.append(f"{where}: the API's {found.group(0)!r} in {' '.join(text.split())!r}")
        for value in filled_values(text) if page else ():
            left = unmarked(POINTER.sub(" ", value), tuple(self.allowed))
            if left:
                self.problems.append(f"{where}: filled in {left!r} in {' '.join(text.split())!r}")

    def page(self, url: str, status: int = 200) -> str:
        """GET a page, check it."""
        response = self.phone.get(url, follow_redirects=True)
        assert response.status_code == status, (url, response.status_code)
        self.check_html(url, response.text)
        return response.text

    def post(self, url: str, data: dict[str, Any], status: int = 200, form_url: str | None = None) -> str:
        """Post a form (following the redirect to the flash), check what comes back."""
        response = self.phone.post(url, data, form_url=form_url, follow_redirects=True)
        assert response.status_code == status, (url, response.status_code)
        self.check_html(f"POST {url}", response.text)
        return response.text

    def api(self, method: str, url: str, status: int, token: str | None = None, **kw: Any) -> Any:
        """Call the API; an error's sentence must be marked."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.phone.client.open(url, method=method, headers=headers, **kw)
        assert response.status_code == status, (method, url, response.status_code, response.get_data(as_text=True))
        if status >= 400:
            self.check_text(f"{method} {url}", response.json["error"], page=False)
        return response.json


def test_every_page_and_refusal_is_in_the_catalog(app: Flask) -> None:
    r = Reader(app)
    # Logged out: the account pages and their refusals, the offline page, error pages.
    r.page("/login")
    r.page("/register")
    r.post("/register", {"username": "", "password": ""}, status=422)
    r.post("/register", {"username": "a", "password": "short"}, status=422)
    r.post("/login", {"username": "", "password": ""}, status=422)
    r.post("/login", {"username": "nobody", "password": "wrong password"}, status=422)
    r.page("/offline")
    r.page("/rules")
    for name in ("squarescores", "polish", "classic", "ggtables", "tyzicha", "tichu"):
        r.page(f"/rules/{name}")
    r.page("/no/such/page", status=404)
    r.page("/", status=200)  # to the log-in page, with its flash
    manifest = r.phone.get(f"/manifest.webmanifest?lang={PSEUDO}").json
    r.check_text("manifest name", manifest["name"])
    r.check_text("manifest description", manifest["description"])
    bad_csrf = r.phone.client.post("/login", data={"username": "x", "password": "y"})
    assert bad_csrf.status_code == 400
    r.check_html("CSRF refusal", bad_csrf.text)
    big = r.phone.client.post("/login", data={"username": "x" * 70_000})
    assert big.status_code == 413
    r.check_html("413", big.text)
    wrong_method = r.phone.client.delete("/logout")
    assert wrong_method.status_code == 405
    r.check_html("405", wrong_method.text)

    # Boris registers on his phone; anna on this one.
    boris = Reader(app)
    boris.post("/register", {"username": "boris", "password": "correct horse"})
    r.post("/register", {"username": "anna", "password": "correct horse"})
    r.post(
        "/register", {"username": "boris", "password": "correct horse"}, status=422, form_url="/login"
    )  # logged in already: the page still answers
    r.page("/")
    r.page("/account")
    r.page("/logout")  # the question before logging out
    token = r.api("POST", "/api/tokens", 201, json={"username": "anna", "password": "correct horse"})["token"]

    # Matches in every state: a deferred sheet with owed points, zeros, Rospisat's and the
    # barrel; a four-seat table with a sitter-out; the Polish lock; banked and ended ones.
    r.page("/matches/new")
    three = {
        "players-0": "Anna",
        "players-1": "Boris",
        "players-2": "Vera",
        "target": "",
        "rules": "squarescores",
        "sheet": "",
        "first_dealer": "0",
    }
    for house in (
        {"zeros": "off", "zero_penalty": "100"},
        {"blind_doubles": "declarer"},
        {"rules": "polish", "barrel_hands": "4"},
        {"rules": "polish", "barrel_knock_off": "y"},
        {"rules": "tichu", "players-3": "Dmitri", "zeros": "consecutive"},
        {"rules": "tichu", "players-3": "Dmitri", "ace_marriage": "y"},
        {"great_grand_tichu": "y"},
        {"zeros": "weird"},
    ):
        r.post("/matches/new", {**three, **house}, status=422)  # the house rules' refusals
    r.post(
        "/matches/new",
        {
            "players-0": "Anna",
            "first_dealer": "x",
            "rules": "nope",
            "target": "7",
            "sheet": "zz",
            "start_scores-0": "abc",
        },
        status=422,
    )
    r.post(
        "/matches/new",
        {
            "players-0": "Anna",
            "players-1": "Boris",
            "players-2": "Vera",
            "rules": "squarescores",
            "target": "",
            "sheet": "deferred",
            "first_dealer": "0",
            "start_scores-0": "600",
            "start_scores-1": "100",
            "start_scores-2": "0",
        },
    )
    with app.app_context():
        match = db.session.execute(db.select(Match)).scalars().first()
        assert match is not None
        mid, code = match.id, match.join_code
    r.allowed.append(code)
    boris.allowed.append(code)
    stranger = Reader(app)
    stranger.allowed += [code, "vera"]
    stranger.page(f"/join/{code}")  # logged out: to the log-in page
    stranger.post("/register", {"username": "vera", "password": "correct horse"})
    stranger.page(f"/join/{code}")  # the question: join this match?
    stranger.page("/join/NOPE", status=404)
    r.problems += stranger.problems
    hands = f"/api/matches/{mid}/hands"
    for hand in (
        {"kind": "forfeit", "declarer": 1, "bid": 100},
        {"kind": "forfeit", "declarer": 1, "bid": 100},
        {"kind": "forfeit", "declarer": 1, "bid": 100},
        {"declarer": 0, "bid": 100, "points": [None, 0, 0]},  # on the barrel
        {"declarer": 2, "bid": 100, "points": [0, 60, None]},  # zeros, owed
        {"kind": "redeal"},
        {"declarer": 1, "bid": 100, "points": [0, None, 0], "blind": False},
    ):
        r.api("POST", hands, 201, token, json=hand)
    r.page(f"/matches/{mid}")
    r.page(f"/matches/{mid}/rules")
    house = r.api(
        "POST",
        "/api/matches",
        201,
        token,
        json={
            "players": ["Anna", "Boris", "Vera"],
            "options": {
                "zeros": "consecutive",
                "dump_555": "plus",
                "barrel_knock_off": True,
                "barrel_miss": "stays",
                "barrel_hands": 1,
                "three_falls_reset": True,
                "declarer_rounding": True,
                "forfeit_pays": "half_bid",
                "blind_bids": True,
                "blind_doubles": "declarer",
                "ace_marriage": True,
                "gold_set": True,
            },
        },
    )
    r.page(f"/matches/{house['id']}/rules")  # every house rule in the table's own words
    r.post(f"/matches/{house['id']}/usual", {}, form_url=f"/matches/{house['id']}")
    r.page("/")  # with the button that starts the next match with the usual rules
    r.page(f"/matches/{mid}/hands/new")
    r.post(
        f"/matches/{mid}/hands/new",
        {**played(1, 100, [40, None, 20]), "bid": "abc", "declarer": "x", "kind": "won", "marriages_0": ["stars"]},
        status=422,
        form_url=f"/matches/{mid}",
    )
    r.post(
        f"/matches/{mid}/hands/new",
        {**played(1, 100, [40, None, 20]), "expected_hand": "1"},
        form_url=f"/matches/{mid}",
    )  # a conflict
    r.post(f"/matches/{mid}/hands/new", played(1, 100, [40, None, 20]), form_url=f"/matches/{mid}")  # recorded
    r.page(f"/matches/{mid}/hands/2/edit")
    r.post(
        f"/matches/{mid}/hands/2/edit",
        {"kind": "forfeit", "declarer": "1", "bid": "105", "version": "1"},
        form_url=f"/matches/{mid}",
    )
    r.post(
        f"/matches/{mid}/hands/2/edit",
        {"kind": "forfeit", "declarer": "1", "bid": "100", "version": "1"},
        form_url=f"/matches/{mid}",
    )
    r.page(f"/matches/{mid}/hands/8/delete")
    r.post(f"/matches/{mid}/hands/8/delete", {}, status=422)
    r.post(f"/matches/{mid}/hands/8/delete", {"confirm": "y"})
    preview = r.phone.post(
        f"/matches/{mid}/hands/preview", played(0, 120, [None, 20, 40], {0: ["hearts"]}), form_url=f"/matches/{mid}"
    )
    r.check_text("preview", preview.json["summary"])
    for line in preview.json["seats"]:
        r.check_text("preview", line)
    for draft in (
        {"kind": "forfeit", "declarer": "1", "bid": "120"},
        {"kind": "redeal"},
        {**played(1, 100, [40, None, 20]), "bid": "abc"},
    ):
        answer = r.phone.post(f"/matches/{mid}/hands/preview", draft, form_url=f"/matches/{mid}")
        r.check_text("preview", answer.json.get("summary") or answer.json["message"])
    r.page(f"/matches/{mid}/hands/99/edit", status=404)
    history = r.page(f"/matches/{mid}/history")
    entry = re.search(r"history/restore\?entry=(\d+)", history)
    assert entry, "a deleted hand can be restored"
    r.page(f"/matches/{mid}/history/restore?entry={entry.group(1)}")
    r.post(f"/matches/{mid}/history/restore?entry={entry.group(1)}", {"confirm": "y"})
    r.post(
        f"/matches/{mid}/history/restore?entry={entry.group(1)}", {"confirm": "y"}, form_url=f"/matches/{mid}"
    )  # restored already
    boris.post("/join", {"code": "NOPE"}, status=422, form_url="/")
    boris.post("/join", {"code": code}, form_url="/")
    r.page(f"/matches/{mid}/history")
    r.page(f"/matches/{mid}/bank")
    r.post(f"/matches/{mid}/bank", {"confirm": "y"})  # nobody has won yet
    r.page(f"/matches/{mid}/end")
    r.post(f"/matches/{mid}/end", {"confirm": "y"})
    r.page(f"/matches/{mid}")
    r.page(f"/matches/{mid}/hands/new")  # the match is over
    r.page(f"/matches/{mid}/hands/1/edit")

    four = r.api(
        "POST",
        "/api/matches",
        201,
        token,
        json={
            "players": ["Anna", "Boris", "Vera", "Dmitri"],
            "rules": "squarescores",
            "options": {"sitter_bonus": True, "blind_bids": True},
        },
    )
    r.api(
        "POST",
        f"/api/matches/{four['id']}/hands",
        201,
        token,
        json={
            "declarer": 1,
            "bid": 100,
            "points": [None, None, 40, 20],
            "blind": True,
            "sitter_points": 10,
            "marriages": [[], ["hearts"], [], []],
        },
    )
    r.page(f"/matches/{four['id']}")
    r.page(f"/matches/{four['id']}/hands/new")
    r.page(f"/matches/{four['id']}/hands/1/edit")

    polish = r.api(
        "POST",
        "/api/matches",
        201,
        token,
        json={"players": ["Anna", "Boris", "Vera"], "rules": "polish", "start_scores": [890, 0, 0]},
    )
    r.api(
        "POST",
        f"/api/matches/{polish['id']}/hands",
        201,
        token,
        json={"declarer": 0, "bid": 100, "points": [None, 0, 0]},
    )
    r.page(f"/matches/{polish['id']}")

    won = r.api(
        "POST",
        "/api/matches",
        201,
        token,
        json={"players": ["Anna", "Boris", "Vera"], "rules": "tyzicha", "start_scores": [900, 0, 0]},
    )
    r.api(
        "POST",
        f"/api/matches/{won['id']}/hands",
        201,
        token,
        json={"declarer": 0, "bid": 120, "points": [None, 0, 0], "forced": False},
    )
    r.page(f"/matches/{won['id']}")
    r.post(f"/matches/{won['id']}/hands/new", played(1, 100, [40, None, 20]), form_url=f"/matches/{won['id']}")
    r.post(f"/matches/{won['id']}/end", {"confirm": "y"}, form_url=f"/matches/{won['id']}")
    r.post(f"/matches/{won['id']}/bank", {"confirm": "y"}, form_url=f"/matches/{won['id']}")
    r.page(f"/matches/{won['id']}")
    r.page(f"/matches/{won['id']}/history")
    for _ in range(2):  # the rematch, then "had already started"
        r.post(f"/matches/{won['id']}/rematch", {}, form_url=f"/matches/{won['id']}")
    r.page("/")

    # Players: seats on a match page, a player's page, the leaderboard and their refusals.
    at = f"/matches/{mid}"
    r.post(f"{at}/seats/0/claim", {}, form_url=at)
    boris.post(f"{at}/seats/0/claim", {}, form_url=at)  # taken
    r.post(f"{at}/seats/1/assign", {"username": "nobody"}, form_url=at)  # not a member
    r.post(f"{at}/seats/1/assign", {"username": "boris"}, form_url=at)
    boris.post(f"{at}/seats/0/release", {}, status=403, form_url=at)
    r.post(f"{at}/seats/1/release", {}, form_url=at)
    r.post(f"/matches/{won['id']}/seats/0/claim", {}, form_url=f"/matches/{won['id']}")
    r.page("/players/anna")
    r.page("/players/anna/records")
    boris.page("/claim-past")
    boris.post("/claim-past", {"name": "Nobody", "confirm": "y"}, status=422)  # not offered
    boris.post("/claim-past", {"name": "Nobody"}, status=422)  # not confirmed
    r.page("/players/boris")
    boris.page("/players/anna")
    boris.page("/players/boris")
    r.page("/players/nobody", status=404)
    r.page("/leaderboard")
    r.page("/head-to-head")
    r.page("/head-to-head?one=anna&two=boris")
    r.page("/head-to-head?one=anna&two=anna", status=422)
    r.page("/guests")
    boris.page("/guests")
    r.api("GET", "/api/players/nobody", 404, token)
    r.api("GET", "/api/leaderboard/chess", 404, token)
    r.api("GET", "/api/players/anna/versus/nobody", 404, token)
    r.api("POST", "/api/guests/claim", 422, token, json={"name": "Nobody"})
    r.api("POST", "/api/guests/claim", 400, token, json={"name": 7})

    forced = r.api("POST", "/api/matches", 201, token, json={"players": ["Anna", "Boris", "Vera"], "rules": "tyzicha"})[
        "id"
    ]
    r.post(
        f"/matches/{forced}/hands/new",
        {**played(1, 120, [40, None, 20]), "forced": "y"},
        status=422,
        form_url=f"/matches/{forced}",
    )  # the forced box, as the form names it

    # A Tichu table that plays Great Grand: its sheet, its round form and the form's refusals.
    tichu = r.api(
        "POST",
        "/api/matches",
        201,
        token,
        json={"players": ["Anna", "Boris", "Vera", "Dmitri"], "rules": "tichu", "options": {"great_grand_tichu": True}},
    )
    tid = tichu["id"]
    for body in (
        {"calls": ["tichu", None, None, None], "first_out": 0, "card_points": [60, 40]},
        {"calls": [None, "great_grand", None, None], "first_out": 2, "card_points": [-25, 125]},
        {"calls": [None, None, None, None], "first_out": 1, "double_victory": True},
    ):
        r.api("POST", f"/api/matches/{tid}/hands", 201, token, json=body)
    r.page(f"/matches/{tid}")
    r.page(f"/matches/{tid}/hands/new")
    r.page(f"/matches/{tid}/hands/1/edit")
    r.page(f"/matches/{tid}/history")
    rounds = {"calls_0": "", "calls_1": "", "calls_2": "", "calls_3": ""}
    for bad in (
        {"calls_0": "grandest", "first_out": "0", "card_points": "50"},
        {"first_out": "0", "card_points": "52"},
        {"first_out": "9", "card_points": "50"},
        {"calls_1": "tichu", "card_points": "50"},
        {"first_out": "0", "card_points": ""},
    ):
        r.post(f"/matches/{tid}/hands/new", {**rounds, **bad}, status=422, form_url=f"/matches/{tid}")
    r.api("POST", f"/api/matches/{mid}/seats/9/claim", 404, token)
    r.api("PUT", f"/api/matches/{mid}/seats/1", 422, token, json={"username": "nobody"})

    # The history of the changes that are not hands: seats, the watch link, a deleted account.
    boris.post(f"{at}/seats/2/claim", {}, form_url=at)
    boris.post(f"{at}/seats/2/release", {}, form_url=at)  # his own seat
    r.post(f"{at}/watch", {}, form_url=at)
    boris.post(f"{at}/watch", {}, form_url=at)  # replaced
    with app.app_context():
        watch_token = db.session.get(Match, mid).watch_token
    watcher = Reader(app)
    watcher.allowed += [code, watch_token]
    watcher.page(f"/watch/{watch_token}")  # no account needed
    watcher.page(f"/watch/{watch_token}/board")  # the scoreboard
    r.problems += watcher.problems
    r.post(f"{at}/watch/stop", {}, form_url=at)
    boris.post("/account/delete", {"password": "correct horse"}, form_url="/account")
    r.page(f"{at}/history")
    actions = [e["action"] for e in r.api("GET", f"/api/matches/{mid}/history", 200, token)["history"]]
    assert {
        "seat_claimed",
        "seat_assigned",
        "seat_released",
        "watch_link_made",
        "watch_link_replaced",
        "watch_link_stopped",
        "account_deleted",
    } <= set(actions)

    # Backups: the import page and its refusals, one match and several.
    r.page("/import")
    r.post("/import", {}, status=422)
    r.post("/import", {"file": (io.BytesIO(b"not json"), "x.json")}, status=422)
    r.post("/import", {"file": (io.BytesIO(b'{"format": "other"}'), "x.json")}, status=422)
    for broken in ({"matches": 5}, {"matches": [{"id": "x"}]}, {"matches": [], "extra": 1}):
        document = {"format": "tysiacha-scoresheet", "version": 1, **broken}
        r.post(
            "/import", {"file": (io.BytesIO(json.dumps(document).encode()), "x.json")}, status=422
        )  # the schema's refusals, in words
    backup = r.phone.get("/backup.json").get_data()
    r.post("/import", {"file": (io.BytesIO(backup), "all.json")})
    first = json.loads(backup)["matches"][0]
    again = json.dumps({**json.loads(backup), "matches": [first]})
    r.post("/import", {"file": (io.BytesIO(again.encode()), "one.json")}, status=422)  # imported already
    one = json.dumps({**json.loads(backup), "matches": [{**first, "id": "elsewhere"}]})
    r.post("/import", {"file": (io.BytesIO(one.encode()), "one.json")})

    # The API's refusals that the web layer words.
    api = r.api
    api("GET", "/api/matches", 401)
    api("GET", "/api/nothing", 404, token)
    api("PATCH", "/api/matches", 405, token)
    api("POST", "/api/matches", 413, token, data="x" * 70_000, content_type="application/json")
    api("POST", "/api/matches", 400, token, data="{", content_type="application/json")
    api("POST", "/api/matches", 400, token, data="[]", content_type="text/plain")
    api("POST", "/api/matches", 400, token, json=[1])
    api("POST", "/api/users", 400, json={"username": "x", "password": "y", "extra": 1})
    api("POST", "/api/users", 400, json={"username": 1, "password": "long enough"})
    api("POST", "/api/users", 400, json={"username": "newbie", "password": 1})
    api("POST", "/api/users", 422, json={"username": "newbie", "password": "short"})
    api("POST", "/api/users", 422, json={"username": "no spaces", "password": "long enough"})
    api("POST", "/api/users", 422, json={"username": "newbie", "password": "x" * 1025})
    api("POST", "/api/users", 409, json={"username": "ANNA", "password": "correct horse"})
    api("POST", "/api/users", 422, json={"username": "newbie", "password": "password123"})
    api("POST", "/api/tokens", 400, json={"username": "anna", "password": 5})
    api("POST", "/api/tokens", 401, json={"username": "anna", "password": "wrong password"})
    api("POST", "/api/matches/join", 400, token, json={"code": 5})
    api("POST", "/api/matches/join", 404, token, json={"code": "NOPE"})
    api("GET", "/api/matches/nosuchmatch", 404, token)
    api("GET", "/api/matches/bad%20id", 404, token)
    api("PUT", f"/api/matches/{four['id']}/hands/9", 404, token, json={"kind": "redeal"})
    api("POST", f"/api/matches/{four['id']}/hands", 400, token, json={"kind": "redeal", "expected_hand": "x"})
    api("PUT", f"/api/matches/{four['id']}/hands/1", 400, token, json={"kind": "redeal", "version": 0})
    api("PUT", f"/api/matches/{four['id']}/hands/1", 409, token, json={"kind": "redeal", "version": 7})
    api("POST", f"/api/matches/{four['id']}/hands", 409, token, json={"kind": "redeal", "expected_hand": 1})
    api("POST", f"/api/matches/{four['id']}/hands", 409, token, json={"kind": "redeal", "expected_hand": 5})
    api("POST", f"/api/matches/{four['id']}/bank", 409, token)
    api("POST", f"/api/matches/{won['id']}/end", 409, token)
    api("POST", f"/api/matches/{won['id']}/hands", 409, token, json={"kind": "redeal"})
    api("POST", f"/api/matches/{mid}/hands", 409, token, json={"kind": "redeal"})
    api("POST", f"/api/matches/{four['id']}/history/99999/restore", 404, token)
    api("POST", "/api/matches/import", 400, token, json={"format": "other"})
    api("POST", "/api/matches/import", 400, token, json={"format": "tysiacha-scoresheet", "version": 99})
    api("POST", "/api/matches/import", 400, token, json={"format": "tysiacha-scoresheet", "version": 1, "matches": 5})
    # The engine's refusals (message ids translated by the web layer), on the API and pages.
    for setup in (
        {"players": ["Anna", "Boris"]},
        {"players": ["Anna", "Anna", "Vera"]},
        {"players": ["Anna", "Boris", "Vera"], "options": {"target": 500}},
        {"players": ["Anna", "Boris", "Vera"], "options": {"zeros": 1}},
        {"players": ["Anna", "Boris", "Vera"], "rules": "ggtables", "options": {"gold_set": True}},
        {"players": ["Anna", "Boris", "Vera"], "start_scores": [900, 0, 0]},
        {"players": ["Anna", "Boris", "Vera"], "rules": "bridge"},
        {"players": "Anna"},
        {"players": ["Anna", "Boris", "Vera"], "first_dealer": 7},
    ):
        api(
            "POST",
            "/api/matches",
            400 if setup.get("players") == "Anna" or "zeros" in setup.get("options", {}) else 422,
            token,
            json=setup,
        )
    fresh = api("POST", "/api/matches", 201, token, json={"players": ["Anna", "Boris", "Vera"]})
    for hand, status in (
        ({"declarer": 1, "bid": 95, "points": [40, None, 20]}, 422),
        ({"declarer": 1, "bid": 100, "points": [90, None, 90]}, 422),
        ({"declarer": 1, "bid": 105, "points": [40, None, 20], "marriages": [["hearts"], ["hearts"], []]}, 422),
        ({"declarer": 1, "bid": 100, "points": [40, None, 20], "marriages": [["stars"], [], []]}, 422),
        ({"kind": "redeal", "bid": 100}, 422),
        ({"bid": 100}, 422),
        ({"declarer": 1, "bid": 100, "points": [40, None, 20], "made": True}, 422),
        ({"declarer": 1, "bid": 100, "points": [40, None, 20], "blind": True}, 422),
        ({"declarer": 1, "bid": "x"}, 400),
        ({"kind": 5}, 400),
        ({"declarer": 1, "bid": 100, "colour": "red"}, 400),
    ):
        api("POST", f"/api/matches/{fresh['id']}/hands", status, token, json=hand)
    r.post(
        "/matches/new",
        {
            "players-0": "Anna",
            "players-1": "Anna",
            "players-2": "Vera",
            "rules": "squarescores",
            "target": "",
            "sheet": "deferred",
            "first_dealer": "0",
        },
        status=422,
    )
    r.post(
        f"/matches/{fresh['id']}/hands/new",
        played(1, 95, [40, None, 20]),
        status=422,
        form_url=f"/matches/{fresh['id']}",
    )
    r.post(
        f"/matches/{fresh['id']}/hands/new",
        played(1, 100, [90, None, 90]),
        status=422,
        form_url=f"/matches/{fresh['id']}",
    )
    history = r.api("GET", f"/api/matches/{mid}/history", 200, token)["history"]
    for item in history:
        r.check_text("API history words", item["words"])

    # The switch, and a page after logging out; finally too many tries.
    r.post("/language", {"lang": PSEUDO, "next": "/"}, form_url="/")
    r.post("/logout", {}, form_url="/")
    app.config["RATELIMIT_ENABLED"] = True
    assert len(r.seen) > 60
    assert not r.problems, "\n".join(r.problems)
