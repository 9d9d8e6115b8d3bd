"""Every answer of two scripted matches, recorded: proof that a change of structure changes no
behaviour.

A fixed script plays a 30-hand Tysiacha match and a 5-round Tichu match through the app's
test client, as four people would: registering (on the pages and by the API), joining by link,
by code and by the API, claiming and giving seats, entering hands on the hand form and by the
API (refused ones, a corrected one, deleted and restored ones), watching, banking. It records
the answer to every request (status, headers, body) of every page a player sees and every API
call, in English and in Russian (`Accept-Language`, which the pages and the API both honour),
and compares the recording with the files in `recorded/` byte for byte, on SQLite and on
PostgreSQL: one file per match and language serves both databases.

Only what differs from run to run is normalized (`BEFORE_SECRETS`, `AFTER_SECRETS`, each a
narrow pattern): the content hash in static URLs, CSRF tokens, the session cookie's value, the
cookies' expiry dates and the Date header, times, the QR code of the join link; and the random
match ids, join codes, watch tokens and API tokens, each replaced by a placeholder numbered in
the order the script met it (`SECRET_KINDS`). Headers are recorded sorted by name, without
Content-Length (the body is there).

Re-record after an intended change of behaviour, then read the diff of `recorded/` before
committing it:

    RECORD_ANSWERS=1 TEST_DATABASE_URL=postgresql://… pytest tests/web/test_recorded_answers.py

The first database of the run writes each file and the other is compared with what it wrote,
so one run both re-records and proves that the two databases answer alike. Recording also
checks that every request of the script was answered as the script expects (a hand meant to be
refused is refused), so what is recorded is the match as written here.
"""

from __future__ import annotations

import difflib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scoresheet.web.pages.news import UNDO_SECONDS

pytestmark = pytest.mark.recorded

RECORDED = Path(__file__).parent / "recorded"
RECORDING = os.environ.get("RECORD_ANSWERS", "") not in ("", "0")
LANGUAGES = ("en", "ru")
PASSWORD = "correct horse"
WRITTEN: set[Path] = set()
"""The files this run has written (RECORD_ANSWERS=1): the second database compares with them."""

CSRF = re.compile(r'(name="csrf_token" (?:type="hidden" )?value=")([^"]+)(")')
SECRET_KINDS = ("match", "join-code", "watch-token", "api-token", "hand")
"""Random values learned while the script runs, each replaced by `<kind:n>` (n: the order met)."""
BEFORE_SECRETS: list[tuple[re.Pattern[str], str]] = [
    # static_url(): /static/app.css?v=<the first 12 hex digits of the file's SHA-256>
    (re.compile(r"(/static/[\w./-]+\?v=)[0-9a-f]{12}\b"), r"\1<hash>"),
    # Flask-WTF's tokens are signed with the time: a new one on every page
    (CSRF, r"\1<csrf>\3"),
    # a form that starts a match has a key of its own (`StartForm`): a new one on every page
    (re.compile(r'(name="start" (?:type="hidden" )?value=")[A-Za-z0-9_-]{16}(")'), r"\1<start>\2"),
    # the signed session holds the CSRF secret and a time; cookies expire some days from now
    (re.compile(r"^(< Set-Cookie: session=)[^;\n]+", re.M), r"\1<session>"),
    # the remember-me cookie holds the account's random session secret and its issue time
    (re.compile(r"^(< Set-Cookie: remember_token=)[^;\n]+", re.M), r"\1<remember>"),
    (re.compile(r"(; Expires=)\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT"), r"\1<date>"),
    # werkzeug dates every conditional answer (the CSV, the version)
    (re.compile(r"^(< Date: )\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$", re.M), r"\1<date>"),
    # a download is named with the day it was made (a recording made yesterday is no different)
    (re.compile(r"^(< Content-Disposition: [^\n]*?filename\*?=[^\n]*?)\d{4}-\d{2}-\d{2}", re.M), r"\1<day>"),
]
HAND_UID = re.compile(r'(?:"uid": ?"|uid=|name="uid" type="hidden" value=")([A-Za-z0-9_-]{16})')
"""A hand's uid (random), in the match object, a link or a form: learned as `<hand:n>`."""
UNDO_LEFT = re.compile(r'(data-toast-seconds=")(\d+)(")')
AFTER_SECRETS: list[tuple[re.Pattern[str], str]] = [
    # the history page's times, as its language writes them; every ISO 8601 time
    (re.compile(r'(<time datetime="[^"]*" data-local>)[^<]*(</time>)'), r"\1<time>\2"),
    (re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:Z|[+-]\d{2}:\d{2})?"), "<time>"),
    # the join link's QR code draws the random join code
    (re.compile(r'<svg aria-hidden="true" focusable="false" [^>]*class="qr".*?</svg>', re.S), "<qr-svg>"),
    # the seconds the Undo has left: 29 a moment after the save, 28 a second later (`add` checks them)
    (UNDO_LEFT, r"\1<seconds>\3"),
]
"""What legitimately differs from run to run, and what it becomes in the recording; the
secrets (`SECRET_KINDS`) are replaced between the two lists."""

# --- The Tysiacha match: RULES.md §4 (zeros, Rospisat', the barrel), §6 and §8 (owed) ------

N = None
H, D, C, S = "hearts", "diamonds", "clubs", "spades"
TYSIACHA_PLAYERS = ["Anna", "Boris", "Vera", "Дарья"]
TYSIACHA_OPTIONS = ("blind_bids", "barrel_knock_off")


def played(declarer: int, bid: int, points: list[int | None], **kw: Any) -> dict[str, Any]:
    """A played hand as the API takes it (marriages by seat: `{1: ["hearts"]}`)."""
    marriages = kw.pop("marriages", {})
    hand = {"kind": "played", "declarer": declarer, "bid": bid, "points": points}
    return hand | {"marriages": [marriages.get(seat, []) for seat in range(len(points))], **kw}


def forfeit(declarer: int, bid: int) -> dict[str, Any]:
    """A hand called off by its declarer (Rospisat')."""
    return {"kind": "forfeit", "declarer": declarer, "bid": bid}


REDEAL = {"kind": "redeal"}
TYSIACHA_HANDS: list[dict[str, Any]] = [
    played(1, 140, [N, N, 40, 20], marriages={1: [H]}),  # the dealer sits out
    played(2, 140, [30, N, N, 10]),  # Vera misses: owed 140
    played(3, 100, [50, 0, N, N]),  # Boris's first zero
    REDEAL,
    forfeit(0, 110),  # Anna's first Rospisat': +60 to each opponent
    played(1, 160, [N, N, 12, 8], marriages={1: [C]}, blind=True),  # a blind bid, doubled
    played(0, 105, [N, N, 10, 5], marriages={3: [S]}),  # first entered wrong, corrected later
    played(3, 120, [20, 0, N, N], marriages={3: [D]}),  # Boris's second zero
    played(2, 100, [35, 0, N, N]),  # his third: 120 off
    played(2, 125, [N, 30, N, 20], marriages={2: [H], 1: [S]}),
    forfeit(0, 100),  # Anna's second
    played(1, 200, [10, N, N, 5], marriages={1: [H, D]}),
    played(1, 220, [20, N, 15, N], marriages={1: [H, C]}),  # Boris on the barrel
    played(2, 250, [N, 30, N, 10], marriages={2: [H, D, C]}),  # his first barrel hand
    forfeit(0, 100),  # Anna's third: 120 off
    played(3, 300, [5, 40, N, N], marriages={3: [H, D, C, S]}),  # Boris's second barrel hand
    played(0, 200, [N, 20, 25, N], marriages={0: [H, D]}),  # his third: he falls to 760
    played(2, 150, [N, 40, N, 45]),
    played(3, 200, [10, N, 10, N], marriages={3: [H, D]}),
    played(1, 120, [15, N, N, 70]),  # Дарья on the barrel
    played(0, 250, [N, 0, 10, N], marriages={0: [H, D, C]}),
    played(2, 200, [N, 25, N, 30], marriages={2: [H, D]}),
    played(0, 260, [N, N, 5, 20], marriages={0: [H, D, C]}),  # Anna mounts, Дарья knocked off
    played(1, 150, [30, N, N, 20], marriages={1: [H]}),
    played(2, 200, [20, 0, N, N], marriages={2: [H, D]}),
    played(1, 140, [N, N, 50, 40]),  # Anna sits out: not a barrel hand
    played(2, 140, [20, N, N, 15], marriages={2: [H]}),  # Anna falls, Vera mounts
    played(1, 100, [30, N, N, 25]),
    played(0, 120, [N, 45, 0, N]),  # Vera's first barrel hand: her 0 is no zero
    played(2, 120, [N, 5, N, 10], marriages={2: [D]}),  # Vera wins from the barrel
]
WRONG_HAND_7 = played(0, 105, [N, N, 15, 5], marriages={3: [S]})
"""Hand 7 as first entered: Anna took 100 against 105, a miss it was not."""
NOT_120 = played(1, 105, [60, 30, 50, N])
"""A hand the rules refuse: the card points add up to more than 120."""

# --- The Tichu match: RULES.md §10 --------------------------------------------------------

TICHU_PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]
TICHU_ROUNDS: list[dict[str, Any]] = [
    {"calls": ["tichu", None, None, None], "first_out": 0, "card_points": [35, 65]},
    {"calls": [None, "grand", None, None], "first_out": 1, "double_victory": True},
    {"calls": [None, None, "tichu", "tichu"], "first_out": 2, "card_points": [75, 25]},
    {"calls": ["grand", None, None, None], "first_out": 0, "double_victory": True},
    {"calls": [None, "tichu", "tichu", None], "first_out": 2, "double_victory": True},  # Anna & Vera win
]
WRONG_ROUND_3 = {"calls": [None, None, "tichu", "tichu"], "first_out": 2, "card_points": [70, 30]}
"""Round 3 as first entered, corrected after round 4."""


@dataclass
class Recording:
    """The answers recorded so far, one list per match, and the random values met."""

    language: str
    section: str = ""
    answers: dict[str, list[str]] = field(default_factory=dict)
    secrets: dict[str, str] = field(default_factory=dict)
    surprises: list[str] = field(default_factory=list)

    def start(self, section: str) -> None:
        """Record the following answers into the file of this match."""
        self.section = section
        self.answers.setdefault(section, [])

    def learn(self, kind: str, value: str) -> str:
        """A random value to replace by `<kind:n>` wherever it appears; the value."""
        assert kind in SECRET_KINDS and value, (kind, value)
        if value not in self.secrets:
            count = sum(1 for k in self.secrets.values() if k.startswith(f"<{kind}:"))
            self.secrets[value] = f"<{kind}:{count + 1}>"
        return value

    def add(self, who: str, method: str, path: str, sent: str, response: TestResponse, expect: int) -> None:
        """One request and its whole answer (and a surprise if its status is not `expect`)."""
        lines = [f"### {who} {method} {path}"] + ([f"> {sent}"] if sent else []) + [f"< {response.status}"]
        headers = sorted((k, v) for k, v in response.headers.items() if k != "Content-Length")
        lines += [f"< {name}: {value}" for name, value in headers]
        body = response.get_data().decode("utf-8")
        assert all(0 < int(left) <= UNDO_SECONDS for _, left, _ in UNDO_LEFT.findall(body)), path
        self.answers[self.section].append("\n".join(lines) + "\n\n" + body + "\n")
        if response.status_code != expect:
            self.surprises.append(f"{who} {method} {path}: {response.status}, not {expect}")

    def text(self, section: str) -> str:
        """The recording of one match, normalized."""
        text = "".join(self.answers[section])
        for pattern, replacement in BEFORE_SECRETS:
            text = pattern.sub(replacement, text)
        for uid in HAND_UID.findall(text):
            self.learn("hand", uid)
        for value, placeholder in self.secrets.items():
            text = text.replace(value, placeholder)
        for pattern, replacement in AFTER_SECRETS:
            text = pattern.sub(replacement, text)
        return text


def client(app: Flask, language: str) -> FlaskClient:
    """A test client that asks for this language."""
    made = app.test_client()
    made.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    return made


class Person:
    """One player: a phone on the pages (sending each form's CSRF token, as a browser does)
    and a script calling the API with a token, both in the recording's language."""

    def __init__(self, app: Flask, recording: Recording, username: str) -> None:
        self.username, self.recording = username, recording
        self.phone, self.script = client(app, recording.language), client(app, recording.language)
        self.csrf = self.token = ""

    def page(self, path: str, expect: int = 200) -> TestResponse:
        """GET a page (its CSRF token kept for the next form)."""
        response = self.phone.get(path)
        self._keep_csrf(response)
        self.recording.add(self.username, "GET", path, "", response, expect)
        return response

    def post(self, path: str, data: dict[str, Any] | None = None, expect: int = 302) -> TestResponse:
        """Post a form as its page would; then open the page it sends the phone on to."""
        data = data or {}
        sent = "&".join(f"{k}={v}" for k, vs in data.items() for v in (vs if isinstance(vs, list) else [vs]))
        response = self.phone.post(path, data={**data, "csrf_token": self.csrf})
        self._keep_csrf(response)
        self.recording.add(self.username, "POST", path, sent, response, expect)
        if response.status_code == 302 and response.location.startswith("/"):
            self.page(response.location)
        return response

    def _keep_csrf(self, response: TestResponse) -> None:
        found = CSRF.search(response.get_data(as_text=True))
        if found:
            self.csrf = found.group(2)

    def api(self, method: str, path: str, body: Any = None, expect: int = 200) -> TestResponse:
        """Call the API with this person's token."""
        kw: dict[str, Any] = {"headers": {"Authorization": f"Bearer {self.token}"} if self.token else {}}
        if body is not None:
            kw["json"] = body
        response = self.script.open(path, method=method, **kw)
        sent = "" if body is None else json.dumps(body, ensure_ascii=False)
        self.recording.add(self.username, method, path, sent, response, expect)
        return response

    def register_on_the_page(self) -> None:
        """Make an account on the register page, then take an API token."""
        self.page("/register")
        self.post("/register", {"username": self.username, "password": PASSWORD, "remember": "y"})
        response = self.api("POST", "/api/tokens", {"username": self.username, "password": PASSWORD}, 201)
        self.token = self.recording.learn("api-token", response.json["token"])

    def register_by_api(self) -> None:
        """Make an account by the API (its answer holds the token)."""
        response = self.api("POST", "/api/users", {"username": self.username, "password": PASSWORD}, 201)
        self.token = self.recording.learn("api-token", response.json["token"])

    def log_in(self) -> None:
        """Log in on the log-in page."""
        self.page("/login")
        self.post("/login", {"username": self.username, "password": PASSWORD, "remember": "y"})


def hand_fields(hand: dict[str, Any], number: int) -> dict[str, Any]:
    """A Tysiacha hand as the hand form posts it."""
    data: dict[str, Any] = {"kind": hand["kind"], "expected_hand": str(number)}
    if hand["kind"] != "redeal":
        data |= {"declarer": str(hand["declarer"]), "bid": str(hand["bid"])}
    for seat, points in enumerate(hand.get("points", [])):
        data[f"points_{seat}"] = "" if points is None else str(points)
        data[f"marriages_{seat}"] = hand["marriages"][seat]
    if hand.get("blind"):
        data["blind"] = "y"
    if "sitter_points" in hand:
        data["sitter_points"] = str(hand["sitter_points"])
    return data


def round_fields(hand: dict[str, Any], number: int) -> dict[str, Any]:
    """A Tichu round as the round form posts it (team 0's card points; team 1's follow)."""
    data: dict[str, Any] = {f"calls_{seat}": call or "" for seat, call in enumerate(hand["calls"])}
    data |= {"first_out": str(hand["first_out"]), "expected_hand": str(number)}
    if hand.get("double_victory"):
        data["double_victory"] = "y"
    else:
        data["card_points"] = str(hand["card_points"][0])
    return data


class Table:
    """The people of the script, someone who only watches, and the match being played."""

    def __init__(self, app: Flask, recording: Recording) -> None:
        self.recording = recording
        self.anna, self.boris, self.vera, self.gleb = (
            Person(app, recording, name) for name in ("anna", "boris", "vera", "gleb")
        )
        self.watcher = client(app, recording.language)
        self.match = self.api_match = self.watch = ""

    def started(self, match_id: str) -> str:
        """Play the new match from now on; its join code."""
        self.match, self.api_match = f"/matches/{match_id}", f"/api/matches/{match_id}"
        return self.learn_match(match_id)

    def learn_match(self, match_id: str) -> str:
        """Learn a new match's id and its join code (from the API's match object); the code."""
        self.recording.learn("match", match_id)
        return self.recording.learn("join-code", self.anna.api("GET", f"/api/matches/{match_id}").json["join_code"])

    def learn_watch_link(self) -> None:
        """Learn the watch link's token (from the API's links)."""
        url = self.anna.api("GET", f"{self.api_match}/links").json["watch_url"]
        self.watch = f"/watch/{self.recording.learn('watch-token', url.rsplit('/', 1)[1])}"

    def every_answer(self, game: str, open_for_hands: bool, at_the_end: bool = False) -> None:
        """Every page a player sees of the match and around it, and every API answer about it."""
        anna, vera = self.anna, self.vera
        for path in ("", "/history", "/rules", "/sheet.csv", "/version"):
            anna.page(f"{self.match}{path}")
        if open_for_hands:
            vera.page(f"{self.match}/hands/new")
        for path in ("", "/board", "/sheet.csv", "/version"):
            self.recording.add("watcher", "GET", self.watch + path, "", self.watcher.get(self.watch + path), 200)
        for path in ("/", "/players/anna", "/players/vera", "/leaderboard", "/guests"):
            anna.page(path)
        anna.page("/head-to-head?one=anna&two=vera")
        for path in ("", "/history", "/seats", "/links", "/sheet.csv"):
            vera.api("GET", f"{self.api_match}{path}")
        for path in ("/api/matches", "/api/players/vera", f"/api/leaderboard/{game}", "/api/guests"):
            anna.api("GET", path)
        anna.api("GET", "/api/players/anna/versus/vera")
        if at_the_end:
            anna.page(f"{self.match}/backup.json")
            vera.api("GET", f"{self.api_match}/backup")
            anna.page("/backup.json")
            anna.api("GET", "/api/backup")


def tysiacha_match(table: Table) -> None:
    """The 30-hand Tysiacha match, from the first registration to the banked sheet."""
    anna, boris, vera, gleb = table.anna, table.boris, table.vera, table.gleb
    table.recording.start("tysiacha")
    anna.register_on_the_page()
    boris.register_by_api()
    boris.log_in()
    vera.register_on_the_page()
    gleb.register_by_api()

    anna.page("/matches/new")
    fields = {f"players-{seat}": name for seat, name in enumerate(TYSIACHA_PLAYERS)}
    fields |= {"rules": "squarescores", "target": "", "sheet": "deferred", "first_dealer": "0"}
    fields |= {key: "y" for key in TYSIACHA_OPTIONS}
    anna.post("/matches/new", fields | {"players-3": "anna"}, expect=422)  # two players named Anna
    code = table.started(anna.post("/matches/new", fields).location.rsplit("/", 1)[1])

    boris.page(f"/join/{code}")
    boris.post(f"/join/{code}")
    vera.page("/")
    vera.post("/join", {"code": code})
    gleb.api("POST", "/api/matches/join", {"code": code})
    anna.post(f"{table.match}/seats/0/claim")
    boris.api("POST", f"{table.api_match}/seats/1/claim")
    anna.post(f"{table.match}/seats/2/assign", {"username": "vera"})
    gleb.api("POST", f"{table.api_match}/seats/3/claim")
    gleb.api("DELETE", f"{table.api_match}/seats/3")  # Дарья stays a guest
    anna.post(f"{table.match}/watch")
    table.learn_watch_link()
    anna.post(f"{table.match}/board")
    table.every_answer("tysiacha", open_for_hands=True)

    for number, hand in enumerate(TYSIACHA_HANDS, start=1):
        enter_hand(table, number, WRONG_HAND_7 if number == 7 else hand)
        if number == 3:
            vera.api("POST", f"{table.api_match}/hands/preview", TYSIACHA_HANDS[3])
            vera.api("POST", f"{table.api_match}/hands/preview", NOT_120, expect=422)
            vera.page(f"{table.match}/hands/new")
            vera.post(f"{table.match}/hands/new", hand_fields(NOT_120, 4), expect=422)
            vera.api("POST", f"{table.api_match}/hands", {**NOT_120, "expected_hand": 3}, expect=409)
        if number == 9:
            corrected = hand_fields(TYSIACHA_HANDS[6], 7) | {"version": "1"}
            boris.page(f"{table.match}/hands/7/edit")
            boris.post(f"{table.match}/hands/preview?number=7", corrected, expect=200)
            boris.post(f"{table.match}/hands/7/edit", corrected)
        if number == 10:
            delete_and_restore_on_the_pages(table, 4)
            table.every_answer("tysiacha", open_for_hands=True)
        if number == 14:
            vera.api("POST", f"{table.api_match}/hands/preview", forfeit(1, 100), expect=422)  # on the barrel
        if number == 20:
            delete_and_restore_by_the_api(table, 20)
            table.every_answer("tysiacha", open_for_hands=True)
    table.every_answer("tysiacha", open_for_hands=False)
    vera.api("POST", f"{table.api_match}/hands", REDEAL, expect=409)  # the match has a winner
    anna.page(f"{table.match}/bank")
    anna.post(f"{table.match}/bank", {"confirm": "y"})
    table.every_answer("tysiacha", open_for_hands=False, at_the_end=True)
    table.learn_match(boris.post(f"{table.match}/rematch").location.rsplit("/", 1)[1])
    sitter_bonus_table(table)
    language = table.recording.language
    for path in ("/account", "/rules", "/rules/squarescores", "/rules/tichu", f"/offline?lang={language}"):
        anna.page(path)
    anna.page(f"/manifest.webmanifest?lang={language}")


def sitter_bonus_table(table: Table) -> None:
    """A table of four that gives the sitter-out the talon's points (RULES.md §6): one hand.
    Its rules page answers 422 ("The sitter-out bonus needs four at the table."): recorded as
    the app answers it today."""
    options = {"sitter_bonus": True}
    body = {"players": TYSIACHA_PLAYERS, "options": options}
    match_id = table.anna.api("POST", "/api/matches", body, expect=201).json["id"]
    table.learn_match(match_id)
    path = f"/matches/{match_id}"
    table.anna.page(f"{path}/hands/new")
    table.anna.api("POST", f"/api{path}/hands", played(1, 120, [N, N, 30, 30], sitter_points=20), expect=201)
    table.anna.page(path)
    table.anna.page(f"{path}/rules", expect=422)


def enter_hand(table: Table, number: int, hand: dict[str, Any]) -> None:
    """Enter a hand: on the hand form (Anna or Boris), or by the API (Vera)."""
    if number % 3 == 2:
        table.vera.api("POST", f"{table.api_match}/hands", {**hand, "expected_hand": number}, expect=201)
        table.boris.page(table.match)
        return
    person = table.anna if number % 3 == 1 else table.boris
    person.page(f"{table.match}/hands/new")
    person.post(f"{table.match}/hands/preview", hand_fields(hand, number), expect=200)  # as typed
    person.post(f"{table.match}/hands/new", hand_fields(hand, number))


def delete_and_restore_on_the_pages(table: Table, number: int) -> None:
    """Delete a hand on its confirmation page, then restore it from the history page."""
    boris = table.boris
    boris.page(f"{table.match}/hands/{number}/delete")
    boris.post(f"{table.match}/hands/{number}/delete", {"confirm": "y"})
    history = boris.page(f"{table.match}/history").get_data(as_text=True)
    restore = re.search(r'href="(/matches/[\w-]+/history/restore\?entry=\d+)"', history)
    assert restore, "no restore link on the history page"
    boris.page(restore.group(1))
    boris.post(restore.group(1), {"confirm": "y"})


def delete_and_restore_by_the_api(table: Table, number: int) -> None:
    """Delete a hand by the API, then restore it by its history entry."""
    vera = table.vera
    vera.api("DELETE", f"{table.api_match}/hands/{number}")
    history = vera.api("GET", f"{table.api_match}/history").json["history"]
    entry = next(e for e in history if e["restorable"])
    vera.api("POST", f"{table.api_match}/history/{entry['id']}/restore")


def tichu_match(table: Table) -> None:
    """The 5-round Tichu match: started by the API, played on the pages and by the API."""
    anna, boris, vera, gleb = table.anna, table.boris, table.vera, table.gleb
    table.recording.start("tichu")
    gleb.log_in()
    started = anna.api("POST", "/api/matches", {"players": TICHU_PLAYERS, "rules": "tichu"}, expect=201)
    code = table.started(started.json["id"])
    boris.page(f"/join/{code}")
    boris.post(f"/join/{code}")
    vera.api("POST", "/api/matches/join", {"code": code})
    gleb.page("/")
    gleb.post("/join", {"code": code})
    anna.api("POST", f"{table.api_match}/seats/0/claim")
    boris.post(f"{table.match}/seats/1/claim")
    anna.api("PUT", f"{table.api_match}/seats/2", {"username": "vera"})
    gleb.post(f"{table.match}/seats/3/claim")
    anna.api("POST", f"{table.api_match}/watch", expect=201)
    table.learn_watch_link()
    table.every_answer("tichu", open_for_hands=True)

    for number, hand in enumerate(TICHU_ROUNDS, start=1):
        entered = WRONG_ROUND_3 if number == 3 else hand
        if number % 2:
            person = anna if number < 5 else vera
            person.page(f"{table.match}/hands/new")
            person.post(f"{table.match}/hands/preview", round_fields(entered, number), expect=200)
            person.post(f"{table.match}/hands/new", round_fields(entered, number))
        else:
            person = boris if number == 2 else gleb
            person.api("POST", f"{table.api_match}/hands", {**entered, "expected_hand": number}, expect=201)
        if number == 3:
            anna.api("POST", f"{table.api_match}/hands/preview", {**hand, "card_points": [70, 20]}, expect=422)
        if number == 4:
            vera.page(f"{table.match}/hands/3/edit")
            vera.post(f"{table.match}/hands/3/edit", round_fields(TICHU_ROUNDS[2], 3) | {"version": "1"})
            table.every_answer("tichu", open_for_hands=True)
    table.every_answer("tichu", open_for_hands=False)
    gleb.api("POST", f"{table.api_match}/bank")
    table.every_answer("tichu", open_for_hands=False, at_the_end=True)


def first_difference(expected: str, actual: str) -> str:
    """Where two recordings part: the first answer that differs, the place in it where they
    part (a JSON answer is one long line), and a diff of its lines."""

    def answers(text: str) -> list[str]:
        return [a for a in re.split(r"(?m)^(?=### )", text) if a]

    old, new = answers(expected), answers(actual)
    at = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), None)
    if at is None:
        return f"{len(old)} answers recorded, {len(new)} now; the first {min(len(old), len(new))} are the same"
    was, now = old[at], new[at]
    k = next((i for i, (a, b) in enumerate(zip(was, now, strict=False)) if a != b), min(len(was), len(now)))
    start = max(was.rfind("\n", 0, k) + 1, k - 100)
    diff = difflib.unified_diff(was.splitlines(), now.splitlines(), "recorded", "now", lineterm="", n=1)
    cut = [line if len(line) <= 200 else f"{line[:200]} … ({len(line)} characters)" for line in diff]
    return "\n".join(
        [
            f"answer {at + 1} of {len(old)} differs ({sum(a != b for a, b in zip(old, new, strict=False))} differ):",
            was.partition("\n")[0],
            f"line {was.count(chr(10), 0, k) + 1}, from character {k - start} of what is shown:",
            f"  recorded: {was[start : k + 100]!r}",
            f"  now:      {now[start : k + 100]!r}",
            *cut[:60],
        ]
    )


def recorded_file(section: str, language: str, database: str) -> Path:
    """The stored recording of a match in a language (a database that answers otherwise would
    have a file of its own)."""
    own = RECORDED / f"{section}.{language}.{database}.txt"
    return own if own.exists() else RECORDED / f"{section}.{language}.txt"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_and_api_answer_of_two_scripted_matches_is_as_recorded(
    csrf_app: Flask, database_url: str, language: str
) -> None:
    recording = Recording(language)
    table = Table(csrf_app, recording)
    done = False
    try:
        tysiacha_match(table)
        tichu_match(table)
        done = True
    finally:  # a script that stopped half-way is still compared: the diff says where and why
        keep_or_compare(recording, database_url.split(":", 1)[0], done)


def keep_or_compare(recording: Recording, database: str, done: bool) -> None:
    """Compare the recording with the stored files (RECORD_ANSWERS=1: write them, once the
    script has gone as written; a file written earlier in this run is compared with)."""
    failures = []
    for section in recording.answers:
        path, text = recorded_file(section, recording.language, database), recording.text(section)
        if RECORDING and path not in WRITTEN:
            assert not recording.surprises, "the script did not go as written:\n" + "\n".join(recording.surprises)
            if done:
                RECORDED.mkdir(exist_ok=True)
                path.write_bytes(text.encode("utf-8"))
                WRITTEN.add(path)
        elif not path.exists():
            failures.append(f"{path} is missing: record it with RECORD_ANSWERS=1")
        elif text != (expected := path.read_bytes().decode("utf-8")):
            failures.append(f"{path.name}: {first_difference(expected, text)}")
    if failures:
        pytest.fail("\n\n".join(failures), pytrace=False)
