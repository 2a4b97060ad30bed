"""The README and the documentation stay short enough to read and their links resolve (issue 51).

Cheap, without MkDocs: CI's ``mkdocs build --strict`` checks the site as a whole (anchors, the
API reference, every page in the navigation); these hold the limits and the relative links of the
Markdown as GitHub shows it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README_LINES = 200
PAGE_LINES = 600

#: ``[text](target)`` and ``![alt](target)``, the target up to a space or ``)``.
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^(```|~~~)")


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def relative_links(page: Path) -> list[str]:
    """The relative link targets of a Markdown page, outside code blocks and code spans."""
    found: list[str] = []
    fenced = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if fenced:
            continue
        text = re.sub(r"`[^`]*`", "", line)
        for target in LINK.findall(text):
            if not re.match(r"^[a-z][a-z0-9+.-]*:|^#|^/", target):  # a scheme, an anchor of its own, a site path
                found.append(target)
    return found


def test_the_readme_is_read_in_five_minutes() -> None:
    lines = len((ROOT / "README.md").read_text(encoding="utf-8").splitlines())
    assert lines <= README_LINES, f"README.md has {lines} lines; at most {README_LINES} (move the rest into docs/)"


@pytest.mark.parametrize("page", sorted(DOCS.rglob("*.md")), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_documentation_page_is_over_600_lines(page: Path) -> None:
    lines = len(page.read_text(encoding="utf-8").splitlines())
    assert lines <= PAGE_LINES, f"{page.relative_to(ROOT)} has {lines} lines; at most {PAGE_LINES} (split it)"


def test_every_relative_link_resolves_to_a_file() -> None:
    broken = []
    for page in pages():
        for target in relative_links(page):
            path = target.split("#", 1)[0]
            if path and not (page.parent / path).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, "links to no file:\n" + "\n".join(broken)


def test_the_link_check_sees_links() -> None:
    """The check above reads links at all: the README links into the site."""
    targets = relative_links(ROOT / "README.md")
    assert "docs/getting-started.md" in targets and any(t.startswith("docs/benchmarks.md") for t in targets)
