"""At the table: the scoreboard of the watch link on a tablet or TV (big numbers,
who deals, the barrel, live, landscape and portrait, light and dark), the watch page and the
board saying they may be out of date while their updates fail, and a won match shared as a
picture drawn from the page's own chart (headless Chromium has no Web Share: the download)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import Any

from .helpers import api_user, unique
from .test_offline import forget_network_errors

TABLET = {"viewport": {"width": 1280, "height": 800}, "is_mobile": False, "has_touch": False, "device_scale_factor": 1}
PHONE = {"viewport": {"width": 360, "height": 640}}
HAND = {"declarer": 0, "bid": 120, "points": [None, 10, 20], "marriages": [["hearts"], [], []]}


def _watched_match(phone: Any, **fields: Any) -> tuple[dict[str, str], str, str]:
    """A match Anna made through the API, with its watch link: her token, the match, the link."""
    auth = api_user(phone, unique("anna"))
    request = phone.context.request
    match = request.post("/api/matches", headers=auth, data={"players": ["Anna", "Boris", "Vera"], **fields}).json()
    watch = request.post(f"/api/matches/{match['id']}/watch", headers=auth).json()["watch_url"]
    return auth, match["id"], watch


def _sides(page: Any) -> list[dict[str, Any]]:
    """Each side on the board: its words and where its score is drawn, how big."""
    return page.evaluate("""() => Array.from(document.querySelectorAll('.board-side')).map(li => {
        const score = li.querySelector('.board-score'), box = li.getBoundingClientRect();
        return {name: li.querySelector('.board-name').textContent.trim(),
                score: score.textContent.trim(),
                marks: li.querySelector('.board-marks').textContent.trim(),
                px: parseFloat(getComputedStyle(score).fontSize),
                box: {x: box.x, y: box.y, right: box.right, bottom: box.bottom}};
    })""")


def _fits(page: Any, sides: list[dict[str, Any]]) -> None:
    """Every side wholly on the screen, nothing scrolling sideways."""
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    for s in sides:
        assert s["box"]["x"] >= 0 and s["box"]["right"] <= width, s
        assert s["box"]["bottom"] <= height, s
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_board_shows_big_scores_who_deals_and_the_barrel_and_follows_the_table(new_phone: Any, shots: Path) -> None:
    from playwright.sync_api import expect

    anna = new_phone(**PHONE)
    auth, match_id, watch = _watched_match(anna, start_scores=[760, 0, 0])
    request = anna.context.request
    assert request.post(f"/api/matches/{match_id}/hands", headers=auth, data=HAND).status == 201
    tv = new_phone(**TABLET)
    tv.page.goto(watch)
    tv.page.locator("a:text('Scoreboard')").click()
    tv.page.wait_for_url(f"{watch}/board")
    expect(tv.page.locator(".board-status")).to_have_text("Hand 2: Boris deals.")
    sides = _sides(tv.page)
    assert [(s["name"], s["score"]) for s in sides] == [("Anna", "880"), ("Boris", "10"), ("Vera", "20")]
    assert sides[0]["marks"] == "on the barrel: 3 hands left" and sides[1]["marks"] == "deals next"
    assert all(s["px"] >= 120 for s in sides), sides  # read from across the table
    assert len({round(s["box"]["y"]) for s in sides}) == 1  # landscape: side by side
    _fits(tv.page, sides)
    tv.screenshot(shots, "board")
    # Live: a hand recorded on Anna's phone reaches the board within seconds.
    assert (
        request.post(
            f"/api/matches/{match_id}/hands", headers=auth, data={"declarer": 1, "bid": 100, "points": [40, None, 0]}
        ).status
        == 201
    )
    expect(tv.page.locator(".board-status")).to_have_text("Hand 3: Vera deals.", timeout=20_000)
    after = _sides(tv.page)
    assert [s["score"] for s in after] == ["880", "−90", "20"]
    assert after[0]["marks"] == "on the barrel: 2 hands left" and after[2]["marks"] == "deals next"
    expect(tv.page.locator(".board-side.seat-1 .board-change")).to_have_text("hand 2: −100")

    # Portrait, dark: one side under another, still all on a 360 x 640 screen.
    phone = new_phone(**PHONE, color_scheme="dark")
    phone.page.goto(f"{watch}/board")
    sides = _sides(phone.page)
    assert len({round(s["box"]["x"]) for s in sides}) == 1 and all(s["px"] >= 48 for s in sides)
    _fits(phone.page, sides)
    background = phone.page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(13, 15, 18)"  # the dark page
    phone.screenshot(shots, "board-portrait-dark")
    tv.page.goto("about:blank")
    phone.page.goto("about:blank")


def test_the_board_without_javascript_shows_the_sheet_and_reloads_itself(new_phone: Any) -> None:
    anna = new_phone(**PHONE)
    _, _, watch = _watched_match(anna)
    tv = new_phone(**TABLET, java_script_enabled=False)
    tv.page.goto(f"{watch}/board")
    assert tv.page.locator(".board-status").text_content() == "Hand 1: Anna deals."
    assert tv.page.locator("noscript").count() == 2  # the refresh and the words saying so
    assert "reloads itself every 30 seconds" in tv.page.content()


def _stale(page: Any) -> Any:
    return page.locator("p.offline-line[data-stale-words]")


def test_the_watch_page_and_the_board_say_when_they_may_be_out_of_date(new_phone: Any) -> None:
    import re

    from playwright.sync_api import expect

    anna = new_phone(**PHONE)
    auth, match_id, watch = _watched_match(anna)
    for url in (watch, f"{watch}/board"):
        viewer = new_phone(**PHONE)
        viewer.page.goto(url)
        line = _stale(viewer.page)
        expect(line).to_be_hidden()
        viewer.context.set_offline(True)
        expect(line).to_be_visible(timeout=10_000)
        expect(line).to_have_text(re.compile(r"^The sheet may be out of date: no connection since \d\d:\d\d\.$"))
        viewer.context.set_offline(False)
        expect(line).to_be_hidden(timeout=10_000)
        # A server that does not answer: the version request fails, the line comes back.
        viewer.page.route("**/version", lambda route: route.abort())
        expect(line).to_be_visible(timeout=10_000)
        viewer.page.unroute("**/version")
        assert anna.context.request.post(f"/api/matches/{match_id}/hands", headers=auth, data=HAND).status == 201
        expect(line).to_be_hidden(timeout=10_000)
        viewer.page.goto("about:blank")
        forget_network_errors(viewer)


def test_the_russian_line_says_it_in_russian(new_phone: Any) -> None:
    from playwright.sync_api import expect

    anna = new_phone(**PHONE)
    _, _, watch = _watched_match(anna)
    viewer = new_phone(**PHONE, locale="ru-RU", extra_http_headers={"Accept-Language": "ru"})
    viewer.page.goto(f"{watch}/board")
    viewer.page.route("**/version", lambda route: route.abort())
    expect(_stale(viewer.page)).to_contain_text("Запись может быть устаревшей: нет связи с", timeout=10_000)
    viewer.page.goto("about:blank")
    forget_network_errors(viewer)


def _pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    """A PNG's width, height and rows of RGBA pixels (8-bit RGB or RGBA, no interlace)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, data, header = 8, b"", b""
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos : pos + 8])
        body = png[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            data += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0
    step = 4 if colour == 6 else 3
    raw, stride, rows, previous = zlib.decompress(data), width * step, [], bytearray(width * step)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up, corner = previous[i], previous[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(
            bytes(line) if step == 4 else b"".join(bytes(line[i : i + 3]) + b"\xff" for i in range(0, stride, 3))
        )
        previous = line
    return width, height, rows


def test_a_won_match_is_shared_as_a_picture_of_its_standings_and_race(new_phone: Any, shots: Path) -> None:
    anna = new_phone(**PHONE)
    name = unique("anna")
    auth = api_user(anna, name)
    request = anna.context.request
    match = request.post(
        "/api/matches", headers=auth, data={"players": ["Anna", "Boris", "Vera"], "start_scores": [640, 300, 0]}
    ).json()
    for _ in range(2):  # Anna climbs on the barrel...
        assert request.post(f"/api/matches/{match['id']}/hands", headers=auth, data=HAND).status == 201
    anna.log_in(name)
    anna.page.goto(f"/matches/{match['id']}")
    button = anna.page.locator("button[data-share-result]")
    assert button.count() == 0
    assert anna.page.locator("script[src*='result.js']").count() == 0  # two scripts, as ever
    # ... and takes her 120 on it, entered on another phone: the live update brings the button.
    answer = request.post(f"/api/matches/{match['id']}/hands", headers=auth, data=HAND)
    assert answer.status == 201 and answer.json()["winner"] == 0
    from playwright.sync_api import expect

    expect(button).to_be_visible(timeout=20_000)
    button.scroll_into_view_if_needed()
    assert anna.page.evaluate("typeof navigator.canShare") == "undefined"  # no Web Share here
    with anna.page.expect_download() as caught:
        button.click()
    download = caught.value
    assert download.suggested_filename.startswith("tysiacha-")
    assert download.suggested_filename.endswith(".png")
    png = Path(download.path()).read_bytes()
    (shots / "result.png").write_bytes(png)  # the picture itself, as README shows it
    assert 20_000 < len(png) < 2_000_000
    width, height, rows = _pixels(png)
    assert width == 1080 and 600 < height < 2000
    background = rows[0][:4]
    assert background == b"\xff\xff\xff\xff"  # the light page's own background
    drawn = sum(1 for row in rows for i in range(0, len(row), 4) if row[i : i + 4] != background)
    assert drawn > width * height // 50  # words, swatches, the race: far from blank
    # The race's lines kept the players' colours (no CSS variable reaches an SVG image): Anna's
    # blue and Boris's red are in the lower half, where the chart is drawn.
    lower = [row for row in rows[height // 2 :]]
    for colour in (b"\x0b\x4f\xa8\xff", b"\xb3\x26\x1e\xff"):
        assert sum(row.count(colour) for row in lower) > 200, colour
    assert anna.page.locator(".share-result-status").text_content() == "Picture saved."
    # Dark mode: the picture is drawn again in the page's dark colours.
    anna.page.emulate_media(color_scheme="dark")
    with anna.page.expect_download() as caught:
        button.click()
    width, height, rows = _pixels(Path(caught.value.path()).read_bytes())
    assert rows[0][:4] == b"\x0d\x0f\x12\xff"  # the dark page's background
    assert sum(row.count(b"\x7f\xb2\xff\xff") for row in rows[height // 2 :]) > 200  # Anna's line
