"""The table's language: the catalogs, choosing the language, and what never changes."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo, write_mo
from conftest import app_config
from flask import Flask
from i18n_helpers import CATALOG_LANGUAGES, PSEUDO, TRANSLATIONS, committed, extracted, pseudo_catalog
from sqlalchemy import event

from scoresheet import create_app
from scoresheet.storage.extensions import db
from scoresheet.storage.models import User

from .page_helpers import Phone, parse


def messages(catalog: Catalog) -> dict[Any, Any]:
    """A compiled catalog's messages, comparable (plural ids and strings as tuples)."""

    def plain(value: Any) -> Any:
        return tuple(value) if isinstance(value, tuple | list) else value

    return {plain(m.id): plain(m.string) for m in catalog if m.id}


@pytest.mark.parametrize("language", CATALOG_LANGUAGES)
def test_every_committed_mo_is_compiled_from_its_po(language: str) -> None:
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo", "rb") as f:
        committed_mo = read_mo(f)
    fresh = io.BytesIO()
    write_mo(fresh, committed(language))  # what `pybabel compile` makes of the .po now
    fresh.seek(0)
    assert messages(committed_mo) == messages(read_mo(fresh)), (
        f"{language}: messages.mo is out of date: run `pybabel compile -d scoresheet/translations`"
    )


@pytest.mark.parametrize("language", CATALOG_LANGUAGES)
def test_every_catalog_holds_every_word_of_the_code(language: str) -> None:
    words = {(m.id, m.context) for m in extracted() if m.id}
    held = {(m.id, m.context) for m in committed(language) if m.id}
    assert not words - held, (
        f"{language}: missing {sorted(map(str, words - held))[:5]}: run "
        "`pybabel extract` and `pybabel update` (README, Developing)"
    )
    assert not held - words, f"{language}: words no longer in the code: {sorted(map(str, held - words))[:5]}"


PLACEHOLDER = re.compile(r"%\([a-z_0-9]+\)[sd]|\{[a-z_0-9]+\}")


@pytest.mark.parametrize("language", CATALOG_LANGUAGES)
def test_the_barrel_chip_keeps_its_count_with_the_word_before_it(language: str) -> None:
    """The chip is a third of a phone wide: "бочка: ещё 3" may break after "бочка:", never
    leave the 3 alone on a line of its own (a no-break space before it)."""
    chip = committed(language)["barrel: %(num)d left"]
    assert all("\u00a0%(num)d" in s for s in chip.string)


def _placeholders(text: str) -> list[str]:
    """The placeholders of a message, sorted (`%(name)s` for gettext, `{name}` for the engine's)."""
    return sorted(PLACEHOLDER.findall(text))


@pytest.mark.parametrize("language", CATALOG_LANGUAGES)
def test_every_entry_is_translated_with_the_same_placeholders(language: str) -> None:
    """No empty or fuzzy entry in any catalog, and every translation keeps its placeholders."""
    wrong = []
    for m in committed(language):
        if not m.id:
            continue
        ids = list(m.id) if isinstance(m.id, tuple | list) else [m.id]
        strings = list(m.string) if isinstance(m.string, tuple | list) else [m.string]
        if m.fuzzy or not all(strings):
            wrong.append(f"untranslated or fuzzy: {ids[0]!r}")
            continue
        if any(_placeholders(s) != _placeholders(ids[-1]) for s in strings):
            wrong.append(f"placeholders differ: {ids[0]!r}")
    assert not wrong, f"{language}: {len(wrong)} entries: {wrong[:5]}"


@pytest.fixture
def pseudo_app(tmp_path: Path) -> Iterator[Flask]:
    """The app on SQLite, speaking the pseudo-locale too."""
    pseudo_catalog(tmp_path / "pseudo")
    app = create_app(
        app_config(
            f"sqlite:///{tmp_path / 'test.sqlite'}",
            tmp_path,
            LANGUAGES=["en", "ru", "uk", "pl", "de", PSEUDO],
            BABEL_TRANSLATION_DIRECTORIES=f"translations;{tmp_path / 'pseudo'}",
        )
    )
    yield app
    with app.app_context():
        db.engine.dispose()


def html_lang(response: Any) -> str:
    """The page's `<html lang>`."""
    return next(n.attrs["lang"] for n in parse(response.text).walk() if n.tag == "html")


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("ru-RU,ru;q=0.9,en;q=0.5", "ru"),
        ("uk", "uk"),
        ("pl-PL", "pl"),
        ("de-CH,de;q=0.8", "de"),
        ("fr-FR,fr;q=0.9", "en"),
        ("", "en"),
        ("en-GB", "en"),
        ("el, pl;q=0.5", "pl"),
    ],
)
def test_the_phones_language_is_the_default(pseudo_app: Flask, header: str, lang: str) -> None:
    response = pseudo_app.test_client().get("/login", headers={"Accept-Language": header})
    assert response.status_code == 200
    assert html_lang(response) == lang


def test_every_page_has_the_switch_each_language_in_its_own_words(pseudo_app: Flask) -> None:
    page = parse(pseudo_app.test_client().get("/login").text)
    buttons = {
        n.attrs["value"]: (n.attrs["lang"], n.text())
        for n in page.walk()
        if n.tag == "button" and n.attrs.get("name") == "lang"
    }
    assert buttons["ru"] == ("ru", "Русский") and buttons["uk"] == ("uk", "Українська")
    assert buttons["pl"] == ("pl", "Polski") and buttons["de"] == ("de", "Deutsch")
    assert buttons["en"] == ("en", "English")


def test_words_rendered_once_per_language_are_each_readers_own(pseudo_app: Flask) -> None:
    """The phone's offline words, the switch's buttons, a match's state and the rulesets' names
    are made once per language (`i18n.per_language`, `common._words_in_language`): readers of
    Russian and German, in turns on one app, each still read their own, with their own name."""
    said = {lang: {m.id: m.string for m in committed(lang) if m.id} for lang in ("ru", "de")}
    phones = {}
    for name, lang in (("anna", "ru"), ("boris", "de"), ("vera", "ru")):
        phone = Phone(pseudo_app.test_client())
        phone.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
        phone.register(name)
        phone.new_match(rules="polish")  # a ruleset whose name each catalog translates
        phones[name] = (phone, lang)
    for name, (phone, lang) in [*phones.items(), *phones.items()]:
        page = parse(phone.get("/").text)
        words = next(n for n in page.walk() if n.attrs.get("id") == "offline-words")
        assert words.attrs["data-user"] == name
        assert words.attrs["data-waiting"] == said[lang]["waiting to be sent"]
        current = [n.attrs["value"] for n in page.walk() if "current" in n.classes()]
        assert current == [lang]
        status = next(n for n in page.walk() if "status" in n.classes()).text()
        assert said[lang]["in progress"] in status and said[lang]["Polish"] in status


def test_the_switch_is_remembered_in_a_cookie_and_for_the_account(pseudo_app: Flask) -> None:
    pseudo_app.config["WTF_CSRF_ENABLED"] = True
    phone = Phone(pseudo_app.test_client())
    response = phone.post("/language", {"lang": "pl", "next": "/register"}, form_url="/login")
    assert response.status_code == 302 and response.location == "/register"
    assert html_lang(phone.get("/login", headers={"Accept-Language": "de"})) == "pl"  # cookie
    commits: list[Any] = []
    count = commits.append
    with pseudo_app.app_context():
        engine = db.engine
    event.listen(engine, "commit", count)
    try:
        assert phone.register("anna").status_code == 302
    finally:
        event.remove(engine, "commit", count)
    with pseudo_app.app_context():  # the choice made before registering is the account's
        assert db.session.execute(db.select(User.language)).scalar_one() == "pl"
    assert len(commits) == 1  # made with it: never an account whose language was lost
    phone.post("/language", {"lang": "uk", "next": "/"}, form_url="/")
    with pseudo_app.app_context():
        assert db.session.execute(db.select(User.language)).scalar_one() == "uk"
    other = Phone(pseudo_app.test_client())  # another phone, which asks for German
    other.post("/login", {"username": "anna", "password": "correct horse"})
    assert html_lang(other.get("/", headers={"Accept-Language": "de"})) == "uk"  # the account's


def test_the_switch_refuses_unknown_languages_and_other_sites(pseudo_app: Flask) -> None:
    client = pseudo_app.test_client()
    response = client.post("/language", data={"lang": "xx", "next": "//evil.example/"})
    assert response.status_code == 302 and response.location == "/"
    assert "lang=" not in response.headers.get("Set-Cookie", "")


def test_the_api_follows_accept_language_and_keeps_its_keys(pseudo_app: Flask) -> None:
    client = pseudo_app.test_client()
    response = client.get("/api/matches", headers={"Accept-Language": PSEUDO})
    assert response.status_code == 401
    assert set(response.json) == {"error", "field"}
    assert response.json["error"].startswith("⟦") and response.json["error"].endswith("⟧")
    english = client.get("/api/matches", headers={"Accept-Language": "fr"})
    assert english.json["error"] == "Send a valid token: Authorization: Bearer <token>."
    client.set_cookie("lang", PSEUDO)  # a cookie does not change what a script reads
    assert client.get("/api/matches").json["error"] == english.json["error"]


def test_the_manifest_speaks_the_pages_language(pseudo_app: Flask) -> None:
    client = pseudo_app.test_client()
    page = client.get("/login", headers={"Accept-Language": PSEUDO})
    link = next(
        n.attrs["href"] for n in parse(page.text).walk() if n.tag == "link" and n.attrs.get("rel") == "manifest"
    )
    manifest = client.get(link).json
    assert manifest["name"].startswith("⟦") and manifest["description"].startswith("⟦")
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert client.get("/manifest.webmanifest?lang=zz").json["name"] == "Tysiacha scoresheet"


@pytest.mark.parametrize(
    ("count", "word"),
    [(1, "раздача"), (2, "раздачи"), (4, "раздачи"), (5, "раздач"), (11, "раздач"), (21, "раздача"), (22, "раздачи")],
)
def test_plural_forms_follow_the_language(tmp_path: Path, count: int, word: str) -> None:
    catalog = Catalog(locale="ru")
    catalog.add(("%(num)d hand", "%(num)d hands"), ("%(num)d раздача", "%(num)d раздачи", "%(num)d раздач"))
    (tmp_path / "ru" / "LC_MESSAGES").mkdir(parents=True)
    with open(tmp_path / "ru" / "LC_MESSAGES" / "messages.mo", "wb") as f:
        write_mo(f, catalog)
    app = create_app(
        app_config(f"sqlite:///{tmp_path / 'test.sqlite'}", tmp_path, BABEL_TRANSLATION_DIRECTORIES=str(tmp_path))
    )
    with app.test_request_context(headers={"Accept-Language": "ru"}):
        from flask_babel import ngettext

        assert ngettext("%(num)d hand", "%(num)d hands", count) == f"{count} {word}"
    with app.app_context():
        db.engine.dispose()


@pytest.mark.parametrize(
    ("language", "written"),
    [
        ("en", r"\d{1,2}/\d{1,2}/\d{2}, \d{1,2}:\d{2}\s?[AP]M UTC"),
        ("de", r"\d{2}\.\d{2}\.\d{2}, \d{2}:\d{2} UTC"),
        ("ru", r"\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} UTC"),
    ],
)
def test_history_times_are_utc_written_for_the_language(pseudo_app: Flask, language: str, written: str) -> None:
    phone = Phone(pseudo_app.test_client())
    phone.register("anna")
    mid = phone.new_match()
    page = parse(phone.get(f"/matches/{mid}/history", headers={"Accept-Language": language}).text)
    time = next(n for n in page.walk() if n.tag == "time")
    assert re.fullmatch(written, time.text()), time.text()
    assert time.attrs["datetime"].endswith("+00:00") and "data-local" in time.attrs
    notes = {n.attrs["data-zone"]: "hidden" in n.attrs for n in page.walk() if "data-zone" in n.attrs}
    assert notes == {"utc": False, "local": True}  # without a script: UTC, and it says so


def test_a_request_finds_its_catalog_once_and_a_forced_language_still_applies(
    pseudo_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flask_babel import Domain, force_locale, gettext

    looked_up: list[str] = []
    real = Domain.get_translations

    def counted(self: Domain) -> Any:
        looked_up.append("catalog")
        return real(self)

    monkeypatch.setattr(Domain, "get_translations", counted)
    with pseudo_app.test_request_context("/", headers={"Accept-Language": "de"}):
        words = [gettext("Log in") for _ in range(50)]
        with force_locale("ru"):
            forced = gettext("Log in")
        after = gettext("Log in")
    assert words == [words[0]] * 50 and words[0] != "Log in"
    assert len(looked_up) == 2  # German once, Russian once (German is put back after the block)
    assert forced not in (words[0], "Log in")
    assert after == words[0]


HOUSE_REFUSALS = [
    ({"zeros": "off", "zero_penalty": "100"}, "zeros", ("total", "consecutive")),
    ({"blind_doubles": "declarer"}, "blind_doubles", ("declarer",)),
    ({"rules": "polish", "barrel_hands": "4"}, "barrel_hands", ()),
    ({"rules": "polish", "barrel_knock_off": "y"}, "barrel_knock_off", ()),
    ({"zeros": "off", "barrel_zeros": "y"}, "zeros", ("total", "consecutive")),
    ({"dump_at": "550"}, "dump_555", ("plus", "both")),
    ({"rules": "polish", "barrel_gap": "100"}, "barrel_gap", ()),
    ({"rules": "polish", "barrel_zeros": "y"}, "barrel_zeros", ()),
]
API_NAMES = re.compile(
    r"\b(zero_penalty|blind_bids|blind_doubles|barrel_hands|barrel_knock_off|barrel_gap|barrel_zeros|"
    r"dump_555|dump_at|must be|true|false)\b|[“«„](zeros|total|consecutive|declarer|off|plus|both)\W"
)
"""What the API's sentences name that a page must not: option names and values as sent."""


@pytest.mark.parametrize(("fields", "option", "choices"), HOUSE_REFUSALS)
def test_a_house_rule_refusal_on_the_page_names_the_forms_own_words(
    pseudo_app: Flask, fields: dict[str, str], option: str, choices: tuple[str, ...]
) -> None:
    phone = Phone(pseudo_app.test_client())
    phone.register("anna")
    token = phone.client.post("/api/tokens", json={"username": "anna", "password": "correct horse"}).json["token"]
    data = {
        "players-0": "Anna",
        "players-1": "Boris",
        "players-2": "Vera",
        "rules": "squarescores",
        "target": "",
        "sheet": "",
        "first_dealer": "0",
        **fields,
    }
    options = {k: (True if v == "y" else int(v) if v.isdigit() else v) for k, v in fields.items() if k != "rules"}
    for language in ("en", "ru", "uk", "pl", "de"):
        response = phone.post("/matches/new", data, headers={"Accept-Language": language})
        assert response.status_code == 422
        page = parse(response.text)
        [error] = [
            li.text()
            for n in page.walk()
            if n.tag == "ul" and "errors" in n.classes()
            for li in n.children
            if not isinstance(li, str)
        ]
        label = next(
            n.text()
            for n in page.walk()
            if n.tag == "label" and (n.attrs.get("for") == option or any(c.attrs.get("id") == option for c in n.walk()))
        )
        assert label in error, (label, error)  # the option as the form labels it
        for value in choices:  # and its choices as the form offers them
            shown = next(
                n.text()
                for n in page.walk()
                if n.tag == "option"
                and n.attrs.get("value") == value
                and n.parent is not None
                and n.parent.attrs.get("id") == option
            )
            assert shown in error, (shown, error)
        assert not API_NAMES.search(error.replace(label, "")), error
        assert language == "en" or not re.search(r"\bzeros\b", error), error
        # The API says the same refusal with the names a script sends.
        api = phone.client.post(
            "/api/matches",
            json={
                "players": ["Anna", "Boris", "Vera"],
                "rules": fields.get("rules", "squarescores"),
                "options": options,
            },
            headers={"Accept-Language": language, "Authorization": f"Bearer {token}"},
        )
        assert api.status_code == 422 and api.json["field"] == "options"
        # the API names the options by their keys (the one it needs, where one needs another)
        assert re.search(r"\b(zeros|blind_bids)\b|" + option, api.json["error"]), api.json["error"]


def test_an_import_refused_by_the_schema_names_the_place_and_what_is_wrong(pseudo_app: Flask) -> None:
    phone = Phone(pseudo_app.test_client())
    phone.register("anna")
    token = phone.client.post("/api/tokens", json={"username": "anna", "password": "correct horse"}).json["token"]
    phone.new_match()
    backup = phone.get("/backup.json").json
    del backup["matches"][0]["join_code"]
    for language, missing in (
        ("en", "/matches/0/join_code is missing"),
        ("ru", "нет поля /matches/0/join_code"),
        ("uk", "немає поля /matches/0/join_code"),
        ("pl", "brakuje pola /matches/0/join_code"),
        ("de", "/matches/0/join_code fehlt"),
    ):
        for doc, words in ((backup, missing), ({**backup, "matches": 5}, "/matches")):
            response = phone.post(
                "/import",
                {"file": (io.BytesIO(json.dumps(doc).encode()), "backup.json")},
                headers={"Accept-Language": language},
            )
            assert response.status_code == 422
            text = response.get_data(as_text=True)
            assert words in text and "required property" not in text and "of type" not in text
        answer = phone.client.post(
            "/api/matches/import",
            json=backup,
            headers={"Authorization": f"Bearer {token}", "Accept-Language": language},
        )
        assert answer.status_code == 400 and answer.json["field"] == "/matches/0"
        assert missing in answer.json["error"]


@pytest.mark.parametrize(
    ("language", "name"), [("en", "Tysiacha"), ("ru", "Тысяча"), ("uk", "Тисяча"), ("pl", "Tysiąc"), ("de", "Tausend")]
)
def test_the_apps_own_name_is_the_game_as_the_reader_writes_it(client: Any, language: str, name: str) -> None:
    """The header, the page title and the web app manifest's short name (the share picture
    reads it from the page's share button)."""
    page = parse(client.get("/login", headers={"Accept-Language": language}).text)
    assert next(n.text() for n in page.walk() if "brand" in n.classes()) == name
    assert next(n.text() for n in page.walk() if n.tag == "title").endswith(f"· {name}")
    assert client.get(f"/manifest.webmanifest?lang={language}").json["short_name"] == name
