"""A phone in a real browser: taps through the pages like a player; API shortcuts to set up
long matches quickly."""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from werkzeug.serving import WSGIRequestHandler

from scoresheet import create_app

PASSWORD = "correct horse battery"
SEATS = ["Anna", "Boris", "Vera", "Gleb"]
_numbers = itertools.count(1)


def unique(name: str) -> str:
    """A username nobody in this test session has taken yet."""
    return f"{name}{next(_numbers)}"


class Phone:
    """One browser context (one phone, one person) and its open page."""

    def __init__(self, context: Any, server: str) -> None:
        self.context = context
        self.server = server
        self.requests: list[str] = []
        self.errors: list[str] = []
        context.on("request", lambda r: self.requests.append(r.url))
        self.page = self.open_page()

    def open_page(self) -> Any:
        """A new tab whose console errors and uncaught exceptions fail the test."""
        page = self.context.new_page()
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        return page

    def tap(self, selector: str) -> None:
        """Tap an element with the thumb."""
        self.page.locator(selector).first.tap()

    def choose(self, legend: str, label: str) -> None:
        """Tap one of the big radio buttons of a group."""
        self.page.locator(f"fieldset:has(> legend:text-is('{legend}')) label.choice", has_text=label).first.tap()

    def register(self, username: str) -> None:
        """Make an account through the page."""
        self._account_form("/register", username, "button:text('Make my account')")

    def log_in(self, username: str) -> None:
        """Log in through the page."""
        self._account_form("/login", username, "form.stack button:text('Log in')")

    def _account_form(self, url: str, username: str, button: str) -> None:
        """Fill in the username and password form at `url`, send it, land on the home page."""
        self.page.goto(url)
        self.page.fill("#username", username)
        self.page.fill("#password", PASSWORD)
        self.tap(button)
        self.page.wait_for_url(f"{self.server}/")

    def screenshot(self, folder: Path, name: str) -> None:
        """The visible screen as a small PNG (CSS pixels, not the phone's 2.6× pixels)."""
        self.page.screenshot(path=str(folder / f"{name}.png"), scale="css", animations="disabled")


def fill_ordinary_hand(page: Any, hand: int) -> None:
    """From the sheet: open hand `hand`'s form and fill in a played hand (the first declarer
    offered, bid 100, 10 card points to every other seat at the table), up to its preview."""
    page.locator("a.button", has_text=f"Enter hand {hand}").tap()
    page.wait_for_selector(f"h1:text('Hand {hand}')")
    page.locator("label.choice", has_text="Played").first.tap()
    seats = page.locator("[id^=points_]:visible")  # the sitter's boxes are hidden
    page.locator("fieldset:has(> legend:text-is('Declarer')) label.choice:visible").first.tap()
    page.fill("#bid", "100")
    chosen = page.locator("input[name=declarer]:checked").get_attribute("value")
    for i in range(seats.count()):
        if seats.nth(i).get_attribute("id") != f"points_{chosen}":
            seats.nth(i).fill("10")
    page.locator(".preview", has_text="Preview:").wait_for()


def bank_and_download(phone: Phone) -> list[list[str]]:
    """Bank the finished match on the open match page, download its sheet: the CSV's rows
    (after checking its byte-order mark)."""
    phone.tap("a.button:text('Bank the match')")
    phone.tap("label.check")
    phone.tap("button:text('Bank the match')")
    phone.page.wait_for_selector("li.flash:has-text('Match banked')")
    with phone.page.expect_download() as download:
        phone.tap("a:text('Download the sheet (CSV)')")
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


def api_user(phone: Phone, username: str) -> dict[str, str]:
    """Register a user through the JSON API; the Authorization header of its token."""
    response = phone.context.request.post("/api/users", data={"username": username, "password": PASSWORD})
    assert response.status == 201, response.text()
    return {"Authorization": f"Bearer {response.json()['token']}"}


def api_match(phone: Phone, auth: dict[str, str], hands: int, seats: int = 3) -> str:
    """A match of `hands` ordinary hands that nobody wins (made and missed bids, marriages,
    a redeal now and then), built through the JSON API; its id."""
    request = phone.context.request
    response = request.post("/api/matches", headers=auth, data={"players": SEATS[:seats]})
    assert response.status == 201, response.text()
    match = response.json()
    for k in range(hands):
        nxt = match["next"]
        playing = [s for s in range(seats) if s != nxt["sitting_out"]]
        declarer = nxt["first_bidder"]
        defenders = [s for s in playing if s != declarer]
        made = k % 2 == 0
        points: list[int | None] = [None] * seats
        for d, p in zip(defenders, (15, 10) if made else (30, 25), strict=True):
            points[d] = p
        marriages: list[list[str]] = [[] for _ in range(seats)]
        if made:
            marriages[declarer] = ["spades"]
        hand: dict[str, Any] = (
            {"kind": "redeal"}
            if k % 13 == 12
            else {"kind": "played", "declarer": declarer, "bid": 100, "points": points, "marriages": marriages}
        )
        response = request.post(f"/api/matches/{match['id']}/hands", headers=auth, data=hand)
        assert response.status == 201, response.text()
        match = response.json()
    assert match["winner"] is None
    return str(match["id"])


def api_tichu_match(phone: Phone, auth: dict[str, str]) -> str:
    """Four players in two teams, a round with calls and one with a double victory, built
    through the JSON API; its id."""
    request = phone.context.request

    def post(path: str, body: dict[str, Any]) -> Any:
        response = request.post(path, headers=auth, data=body)
        assert response.status in (200, 201), response.text()
        return response.json()

    match = post("/api/matches", {"players": ["Anna", "Boris", "Vera", "Gleb"], "rules": "tichu"})
    path = f"/api/matches/{match['id']}/hands"
    post(path, {"calls": ["grand", "tichu", None, None], "first_out": 1, "card_points": [35, 65]})
    post(path, {"calls": [None, None, "tichu", None], "first_out": 2, "double_victory": True})
    return str(match["id"])


class _Answer:
    """A response that closes once, whoever asks first: werkzeug or `_ClosingHandler`."""

    def __init__(self, response: Any) -> None:
        self.response = response
        self.closed = False

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.response)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            if hasattr(self.response, "close"):
                self.response.close()


def _answering(app: Any) -> Any:
    """`app`, keeping each response in its request's environ for `_ClosingHandler`."""

    def answering(environ: dict[str, Any], start_response: Any) -> _Answer:
        environ["tests.answer"] = answer = _Answer(app(environ, start_response))
        return answer

    return answering


class _ClosingHandler(WSGIRequestHandler):
    """Werkzeug's handler, closing the response of a connection the browser reset: werkzeug skips
    its close when the reset comes while it drains the request (serving.py, run_wsgi's
    `finally`), and the open file of a static response then fails whichever test runs."""

    def connection_dropped(self, error: BaseException, environ: Any = None) -> None:
        if environ and "tests.answer" in environ:
            environ["tests.answer"].close()


@contextlib.contextmanager
def serving(tmp: Path, **config: Any) -> Iterator[str]:
    """The app on a fresh SQLite database in `tmp` (with `config`), served by a threaded werkzeug
    server; its base URL."""
    from werkzeug.serving import make_server

    app = create_app(
        {
            "SECRET_KEY": "browser test secret key",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'browser.sqlite'}",
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1",
            "INSTANCE_PATH": str(tmp / "instance"),
            "RATELIMIT_ENABLED": False,  # every test registers from 127.0.0.1
            "SESSION_COOKIE_SECURE": False,  # plain http on 127.0.0.1
            **config,
        }
    )
    httpd = make_server("127.0.0.1", 0, _answering(app), threaded=True, request_handler=_ClosingHandler)
    httpd.daemon_threads = True  # open event streams do not hold the shutdown up
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    httpd.server_close()
    thread.join()
    with app.app_context():
        from scoresheet.storage.extensions import db

        db.engine.dispose()
