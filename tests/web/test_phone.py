"""What a phone gets besides the pages: the hand preview, the live-update version, the
service worker, the manifest, versioned and compressed static files."""

from __future__ import annotations

import gc
import gzip
import re
import struct
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from .page_helpers import Phone, count_hands, live_part, played

STATIC = Path(__file__).resolve().parents[2] / "static"


def fetch(client: Any, url: str, **kw: Any) -> Any:
    """GET a URL and close the response (a static file's is a file)."""
    response = client.get(url, **kw)
    response.get_data()
    response.close()
    return response


def version(phone: Phone, match_id: str, **kw: Any) -> Any:
    """GET the match's version."""
    return phone.get(f"/matches/{match_id}/version", **kw)


def preview(phone: Phone, match_id: str, fields: dict[str, Any], number: int | None = None) -> Any:
    """POST the hand form as it stands to the preview (with the page's CSRF token)."""
    url = f"/matches/{match_id}/hands/preview" + (f"?number={number}" if number else "")
    return phone.post(url, fields, form_url=f"/matches/{match_id}")


def test_the_version_counts_hands_and_changes_and_answers_304_while_unchanged(
    phone: Phone,
) -> None:
    match_id = phone.new_match()
    first = version(phone, match_id)
    assert first.status_code == 200 and first.json == {"version": "0-0"}
    assert first.headers["ETag"] == '"0-0"' and "no-cache" in first.headers["Cache-Control"]
    same = version(phone, match_id, headers={"If-None-Match": '"0-0"'})
    assert same.status_code == 304 and same.data == b""
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    assert version(phone, match_id, headers={"If-None-Match": '"0-0"'}).json == {"version": "1-1"}
    phone.post(f"/matches/{match_id}/hands/1/edit", played(1, 100, [45, None, 20]))
    assert version(phone, match_id).json == {"version": "1-2"}  # a correction: same count


def test_the_match_page_carries_the_version_it_shows(phone: Phone) -> None:
    match_id = phone.new_match()
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    page = phone.get(f"/matches/{match_id}").text
    assert 'data-version="1-1"' in page
    assert f'data-version-url="/matches/{match_id}/version"' in page


def _playing(phone: Phone) -> str:
    match_id = phone.new_match()
    for number in (1, 2):
        phone.hand(match_id, number, **played(1, 100, [40, None, 20]))
    return match_id


def _won(phone: Phone) -> str:
    match_id = phone.new_match(**{"start_scores-0": "870"})
    phone.hand(match_id, 1, **played(0, 140, [None, 20, 20], {0: ["hearts"]}))
    return match_id


def _banked(phone: Phone) -> str:
    match_id = _won(phone)
    assert phone.post(f"/matches/{match_id}/bank", {"confirm": "y"}).status_code == 302
    return match_id


def _ended(phone: Phone) -> str:
    match_id = _playing(phone)
    assert phone.post(f"/matches/{match_id}/end", {"confirm": "y"}).status_code == 302
    return match_id


def _tichu(phone: Phone) -> str:
    match_id = phone.new_match(["Anna", "Boris", "Vera", "Gleb"], rules="tichu", sheet="")
    calls = {f"calls_{seat}": "" for seat in range(4)}
    assert phone.post(f"/matches/{match_id}/hands/new", {**calls, "card_points": "50"}).status_code == 302
    return match_id


@pytest.mark.parametrize(
    ("make", "shown"),
    [
        (_playing, ["Undo hand 2", "Hand 3: Vera deals."]),  # the offer, the banner
        (_won, ["Anna wins with 1010!", "result.js"]),  # the won match's script, which app.js loads
        (_banked, ["Anna wins with 1010!", ">Rematch</button>"]),
        (_ended, ["This match was ended without a winner.", ">Rematch</button>"]),
        (_tichu, ["Undo round 1", "Round 2: Boris deals."]),
    ],
)
def test_the_live_part_alone_is_the_pages_own_and_only_that(
    phone: Phone, make_phone: Any, make: Callable[[Phone], str], shown: list[str]
) -> None:
    match_id = make(phone)
    page = phone.get(f"/matches/{match_id}").text
    assert f'data-live-url="/matches/{match_id}/live"' in page
    part = phone.get(f"/matches/{match_id}/live")
    assert part.status_code == 200 and part.headers["Cache-Control"] == "no-store"
    assert live_part(part.text) == live_part(page)
    assert all(words in part.text for words in shown), shown
    assert "<html" not in part.text and "Share and keep" not in part.text  # nothing around it
    assert make_phone("stranger").get(f"/matches/{match_id}/live").status_code == 404
    logged_out = Phone(phone.client.application.test_client()).get(f"/matches/{match_id}/live")
    assert logged_out.status_code == 302 and "/login" in logged_out.headers["Location"]


def test_a_stranger_gets_no_version_and_no_preview(phone: Phone, make_phone: Any) -> None:
    match_id = phone.new_match()
    stranger = make_phone("stranger")
    assert version(stranger, match_id).status_code == 404
    response = stranger.post(f"/matches/{match_id}/hands/preview", played(1, 100, [40, None, 20]), form_url="/")
    assert response.status_code == 404
    assert (
        Phone(phone.client.application.test_client()).get(f"/matches/{match_id}/version").status_code == 302
    )  # logged out: to the login page


def test_the_preview_is_the_engines_result_and_stores_nothing(phone: Phone, csrf_app: Flask) -> None:
    match_id = phone.new_match(**{"start_scores-0": "650", "start_scores-1": "420", "start_scores-2": "300"})
    answer = preview(phone, match_id, played(1, 160, [42, None, 23], {1: ["hearts", "clubs"]}))
    assert answer.status_code == 200
    assert answer.json == {
        "ok": True,
        "outcome": "made",
        "summary": "Boris made 160: took 215.",
        "seats": ["Anna: +40 → 690", "Boris: +160 → 580", "Vera: +25 → 325"],
    }  # RULES.md §9 worked hand
    missed = preview(phone, match_id, played(1, 200, [42, None, 23]))
    assert missed.json["outcome"] == "missed"
    assert missed.json["seats"][1] == "Boris: −200 → 220 (the sheet writes 0; the debt is now 200)"
    assert count_hands(csrf_app) == 0


def test_the_preview_says_a_gain_pays_a_debt_off_first(phone: Phone) -> None:
    """Boris owes 200 after a missed 200; a made 100 pays half of it (the sheet writes 0), and
    then a made 120 pays the other 100 and writes the last 20 (RULES.md §8)."""
    match_id = phone.new_match(**{"start_scores-0": "650", "start_scores-1": "420", "start_scores-2": "300"})
    phone.hand(match_id, **played(1, 200, [42, None, 23]))
    paying = preview(phone, match_id, played(1, 100, [5, None, 5]))
    assert paying.json["seats"][1] == "Boris: +100 → 320 (the sheet writes 0; 100 pays off debt, 100 still owed)"
    phone.hand(match_id, **played(1, 100, [5, None, 5]))
    paid = preview(phone, match_id, played(1, 120, [5, None, 5], {1: ["hearts"]}))
    assert paid.json["seats"][1] == "Boris: +120 → 440 (the sheet writes +20; 100 pays the debt off)"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"kind": "played", "bid": "100"}, "Say who declared"),
        ({**played(1, 100, [90, None, 90])}, "120"),
        ({**played(1, 100, [40, None, 20]), "bid": "abc"}, "Enter a whole number."),
    ],
)
def test_the_preview_says_what_is_missing_or_wrong(phone: Phone, fields: dict[str, Any], message: str) -> None:
    match_id = phone.new_match()
    answer = preview(phone, match_id, fields)
    assert answer.status_code == 200 and answer.json["ok"] is False
    assert message in answer.json["message"]


def test_a_correction_is_previewed_in_place(phone: Phone) -> None:
    match_id = phone.new_match()
    phone.hand(match_id, 1, **played(1, 100, [40, None, 20]))
    phone.hand(match_id, 2, kind="redeal")
    answer = preview(phone, match_id, {**played(1, 100, [60, None, 50])}, number=1)
    assert answer.json["outcome"] == "missed" and answer.json["seats"][0] == "Anna: +60 → 60"
    assert preview(phone, match_id, {"kind": "redeal"}, number=3).status_code == 404
    redeal = preview(phone, match_id, {"kind": "redeal"})
    assert redeal.json["outcome"] == "redeal" and "nobody scores" in redeal.json["summary"]


def test_the_preview_needs_the_forms_csrf_token(phone: Phone) -> None:
    match_id = phone.new_match()
    response = phone.client.post(f"/matches/{match_id}/hands/preview", data=played(1, 100, [40, None, 20]))
    assert response.status_code == 400


def test_the_service_worker_is_served_from_the_root_and_the_offline_page_is_plain(
    client: Any,
) -> None:
    sw = fetch(client, "/sw.js")
    assert sw.status_code == 200 and "javascript" in sw.mimetype
    assert "no-cache" in sw.headers["Cache-Control"]
    assert 'searchParams.has("v")' in sw.text  # only versioned static files
    offline = client.get("/offline")
    assert offline.status_code == 200 and "No connection" in offline.text
    assert "csrf_token" not in offline.text  # cached: nothing personal in it


def test_the_manifest_and_its_icons_make_the_app_installable(client: Any) -> None:
    page = client.get("/login").text
    url = re.search(r'<link rel="manifest" href="([^"]+)"', page)
    assert url
    response = fetch(client, url.group(1))
    assert response.mimetype == "application/manifest+json"
    manifest = response.json
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    for icon in manifest["icons"]:
        png = fetch(client, icon["src"]).data
        width, height = struct.unpack(">II", png[16:24])
        assert png.startswith(b"\x89PNG") and f"{width}x{height}" == icon["sizes"]
    assert {i["sizes"] for i in manifest["icons"]} == {"192x192", "512x512"}


def test_static_urls_carry_a_content_hash_and_are_kept_a_year(client: Any) -> None:
    page = client.get("/login").text
    urls = re.findall(r'(?:href|src)="(/static/[^"]+)"', page)
    assert {u.split("?")[0] for u in urls} >= {"/static/app.css", "/static/app.js"}
    for url in urls:
        assert re.search(r"\?v=[0-9a-f]{12}$", url), url
        response = fetch(client, url)
        assert response.status_code == 200
        assert "immutable" in response.headers["Cache-Control"]
        assert "max-age=31536000" in response.headers["Cache-Control"]
        assert "no-cache" not in response.headers["Cache-Control"]
    assert "immutable" not in fetch(client, "/static/app.css").headers.get("Cache-Control", "")


@pytest.mark.parametrize("url", ["/static/icon-192.png", "/favicon.ico"])
def test_a_file_revalidated_with_304_is_closed_not_left_to_the_garbage_collector(client: Any, url: str) -> None:
    etag = fetch(client, url).headers["ETag"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        answer = client.get(url, headers={"If-None-Match": etag})
        assert answer.status_code == 304 and answer.data == b""
        del answer
        gc.collect()
    assert not [w for w in caught if issubclass(w.category, ResourceWarning)]


def test_text_is_sent_gzipped_to_browsers_that_take_it(client: Any) -> None:
    plain = fetch(client, "/static/app.css")
    zipped = fetch(client, "/static/app.css", headers={"Accept-Encoding": "gzip, br"})
    assert "Content-Encoding" not in plain.headers
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped.headers["Vary"]
    assert gzip.decompress(zipped.data) == plain.data == (STATIC / "app.css").read_bytes()
    page = client.get("/login", headers={"Accept-Encoding": "gzip"})
    assert b"<h1>Log in</h1>" in gzip.decompress(page.data)
    icon = fetch(client, "/static/icon-192.png", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in icon.headers  # PNGs are compressed already
