"""Catalog helpers for the language tests: a fresh extraction of every word in the code, the
committed catalogs, and a pseudo-locale in which every translated word is visibly marked."""

from __future__ import annotations

import io
import re
import unicodedata
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "scoresheet" / "translations"
CATALOG_LANGUAGES = ("ru", "uk", "pl", "de")
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "_l": None,
    "lazy_gettext": None,
    "N_": None,
}
"""What marks a word for translation (README, "Developing": `pybabel extract -k _l -k N_`)."""
PSEUDO = "eo"
"""The pseudo-locale's code: a locale Babel knows (it needs one) and the app never offers;
only the tests add it to `LANGUAGES`."""
OPEN, CLOSE = "⟦", "⟧"
MARKED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
FILL_OPEN, FILL_CLOSE = "‹", "›"
FILLED = re.compile(f"{FILL_OPEN}([^{FILL_OPEN}{FILL_CLOSE}]*){FILL_CLOSE}")
"""A value filled into a translated sentence, marked in the pseudo-locale (innermost first)."""
PLACEHOLDER = re.compile(r"%\([a-z_0-9]+\)[sd]|\{[a-z_0-9]+\}")


def extracted() -> Catalog:
    """Every word the code marks for translation, extracted now (as `pybabel extract` does)."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    catalog = Catalog()
    for _filename, lineno, message, comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS
    ):
        catalog.add(message, None, [(_filename, lineno)], auto_comments=comments, context=context)
    return catalog


def committed(language: str) -> Catalog:
    """The committed `.po` catalog of a language."""
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f, locale=language)


def pseudo_catalog(directory: Path) -> None:
    """Write the pseudo-locale's compiled catalog under `directory`: every message (a fresh
    extraction, so a word nobody ran `pybabel extract` for is marked too) wrapped in ⟦…⟧."""
    source = extracted()
    catalog = Catalog(locale=PSEUDO)
    for message in source:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            catalog.add(message.id, tuple(_pseudo(m) for m in message.id[:2]), context=message.context)
        else:
            catalog.add(message.id, _pseudo(message.id), context=message.context)
    target = directory / PSEUDO / "LC_MESSAGES"
    target.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    (target / "messages.mo").write_bytes(buffer.getvalue())


def _pseudo(message: str) -> str:
    """A message marked ⟦…⟧, each of its placeholders marked ‹…› (so that the value filled in
    can be told from the sentence around it)."""
    return OPEN + PLACEHOLDER.sub(lambda m: FILL_OPEN + m.group(0) + FILL_CLOSE, message) + CLOSE


def filled_values(text: str) -> list[str]:
    """The values filled into the text's translated sentences, with what of them is itself
    translated (marked) taken out: what a sentence says that no catalog said."""
    values = []
    previous = None
    while previous != text:
        previous = text
        values += [" ".join(MARKED.sub(" ", v).split()) for v in FILLED.findall(text)]
        text = FILLED.sub(" ", text)
    return [v for v in values if v]


def unmarked(text: str, allowed: tuple[str, ...] = ()) -> str:
    """What of `text` is words outside the catalog: marked parts (innermost first), the
    `allowed` words (names, codes) and everything that is not a letter removed."""
    previous = None
    while previous != text:
        previous, text = text, MARKED.sub(" ", text)
    for word in sorted(allowed, key=len, reverse=True):
        text = text.replace(word, " ")
    letters = "".join(c if unicodedata.category(c).startswith("L") else " " for c in text)
    return " ".join(letters.split())
