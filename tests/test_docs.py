"""The documentation stands alone and stays true.

Every relative link of every Markdown file stays inside the repository and reaches a file;
every § a comment or page cites is a section of docs/rules.md; every route of the API is in
docs/api.md, and every hand body it shows is sent to the API and answered as the page says.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"
API = ROOT / "docs" / "api.md"

_FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
_CODE_SPAN = re.compile(r"(`+).+?\1", re.S)
_LINK = re.compile(
    r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)"  # [text](target "title")
    r"|^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)"  # [label]: target
    r"|<(?:a|img|source)\b[^>]*?\b(?:href|src)\s*=\s*[\"']([^\"']+)[\"']",  # HTML
    re.M | re.I,
)
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)


def _markdown_files() -> list[Path]:
    """Every Markdown file of the repository: tracked, or new and not ignored."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    return sorted({ROOT / name for name in listed if (ROOT / name).is_file()})


def _links(text: str) -> list[str]:
    """The link targets of a Markdown text, code blocks and code spans left out."""
    prose = _CODE_SPAN.sub("", _FENCE.sub("", text))
    return [next(g for g in m.groups() if g) for m in _LINK.finditer(prose)]


def _broken_links(path: Path, root: Path = ROOT) -> list[str]:
    """The relative links of one Markdown file that leave `root` or reach nothing."""
    broken = []
    for target in _links(path.read_text(encoding="utf-8")):
        if _SCHEME.match(target) or target.startswith(("#", "//")):
            continue  # another site, or an anchor on this page
        file = target.split("#", 1)[0].split("?", 1)[0]
        resolved = ((root / file.lstrip("/")) if file.startswith("/") else path.parent / file).resolve()
        if not resolved.is_relative_to(root.resolve()):
            broken.append(f"{target} (outside the repository)")
        elif not resolved.exists():
            broken.append(f"{target} (no such file)")
    return broken


def test_every_relative_link_in_the_markdown_stays_inside_and_reaches_a_file() -> None:
    files = _markdown_files()
    assert ROOT / "README.md" in files and RULES in files and API in files
    broken = {str(f.relative_to(ROOT)): b for f in files if (b := _broken_links(f))}
    assert not broken


def test_the_link_check_catches_links_outside_or_to_nothing(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "here.md").write_text("here")
    page = tmp_path / "docs" / "page.md"
    page.write_text(
        "[rules](../../shared/RULES.md) [gone](gone.md#top) [ok](here.md#a) [web](https://x.org)\n"
        '[anchor](#words) <img src="../missing.png"> ![pic](./here.md)\n'
        "[ref]: ../README.md\n"
        "`[code](nowhere.md)`\n```\n[fenced](nowhere.md)\n```\n",
        encoding="utf-8",
    )
    assert _broken_links(page, tmp_path) == [
        "../../shared/RULES.md (outside the repository)",
        "gone.md#top (no such file)",
        "../missing.png (no such file)",
        "../README.md (no such file)",
    ]


def _sections() -> set[str]:
    """The § numbers of docs/rules.md's headings: "1", …, "11", "11.1", …"""
    return set(re.findall(r"^#{2,4} (\d+(?:\.\d+)*)\.? ", RULES.read_text(encoding="utf-8"), re.M))


def test_every_cited_section_is_one_of_docs_rules_md() -> None:
    sections = _sections()
    assert {str(n) for n in range(1, 12)} | {f"11.{n}" for n in range(1, 11)} <= sections
    sources = [*ROOT.glob("scoresheet/**/*.py"), *ROOT.glob("tests/**/*.py"), *_markdown_files()]
    cited = {
        (str(path.relative_to(ROOT)), number.rstrip("."))
        for path in sources
        for number in re.findall(r"§(\d+(?:\.\d+)*)", path.read_text(encoding="utf-8"))
    }
    assert not {c for c in cited if c[1] not in sections}


def _api_examples() -> list[tuple[dict[str, Any], list[tuple[dict[str, Any], str]]]]:
    """docs/api.md's examples: each a match body and its hand bodies with the answer shown."""
    examples: list[tuple[dict[str, Any], list[tuple[dict[str, Any], str]]]] = []
    hand: dict[str, Any] | None = None
    for line in API.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("POST /api/matches {"):
            examples.append((json.loads(line.removeprefix("POST /api/matches ")), []))
        elif line.startswith("POST /api/matches/<id>/hands {"):
            hand = json.loads(line.removeprefix("POST /api/matches/<id>/hands "))
        elif line.startswith("→ ") and hand is not None:
            examples[-1][1].append((hand, line.removeprefix("→ ")))
            hand = None
    return examples


def test_api_md_shows_a_hand_body_of_every_kind() -> None:
    hands = [h for _, hs in _api_examples() for h, _ in hs]
    kinds = {h.get("kind", "played") for h in hands}
    assert kinds == {"played", "forfeit", "redeal"}
    assert all(any(key in h for h in hands) for key in ("blind", "sitter_points", "forced", "made"))
    assert any(m.get("options", {}).get("gold_set") for m, _ in _api_examples())


def test_every_hand_body_of_api_md_is_answered_as_it_says(api_user: Any) -> None:
    for match_body, hands in _api_examples():
        match = api_user.new_match(**match_body)
        for body, answer in hands:
            response = api_user.post(f"/api/matches/{match['id']}/hands", json=body)
            status, _, rest = answer.partition(" ")
            shown = f"{match_body} {body} → {answer}: {response.json}"
            assert str(response.status_code) == status.rstrip(","), shown
            if rest.startswith("scores "):
                scores = [s["score"] for s in response.json["standings"]]
                assert scores == json.loads(rest.removeprefix("scores ")), shown
            elif rest:
                assert response.json["field"] == rest, shown


@pytest.mark.parametrize("page", ["README.md", "docs/api.md", "docs/rules.md"])
def test_pages_send_nobody_to_files_beside_the_repository(page: str) -> None:
    assert "../shared" not in (ROOT / page).read_text(encoding="utf-8")


def _route(path: str) -> str:
    """A path with every `<part>` written as `<>`: `/api/matches/<match_id>` → `/api/matches/<>`."""
    return re.sub(r"<[^>]+>", "<>", path)


def test_api_md_documents_every_api_route(app: Any) -> None:
    documented = {
        (method, _route(path))
        for method, path in re.findall(
            r"\b(GET|POST|PUT|PATCH|DELETE) (/api/(?:<[^>]*>|[^\s`<])*)", API.read_text(encoding="utf-8")
        )
    }
    served = {
        (method, _route(rule.rule))
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}
    }
    assert ("POST", "/api/matches/<>/hands") in served
    assert not served - documented
