"""The README is what a newcomer needs and the manual is in docs/ (issue 32): the README stays
short and opens with the two commands, every docs page is linked from it, every relative link
resolves inside the repository (to a heading, when it names one), and nothing points outside it
(the shared contract is named in words, never by a path)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.paths import ROOT

README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS]

FENCE = re.compile(r"^(```|~~~)")
#: An inline link or image, ``[text](target)`` or ``[text](target "title")``.
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
#: Path text that climbs out of a folder (``../x``), anywhere: prose, code spans, code blocks.
CLIMB = re.compile(r"(?<![\w.])(?:\.\./)+[^\s`)\]\"'<>,;]*")
SHARED = re.compile(r"(?<![\w-])shared/")


def prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks."""
    out, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if not fenced:
            out.append(line)
    return out


def fenced_blocks(text: str) -> list[list[str]]:
    blocks, current = [], None
    for line in text.splitlines():
        if FENCE.match(line.lstrip()):
            if current is None:
                current = []
            else:
                blocks.append(current)
                current = None
        elif current is not None:
            current.append(line)
    return blocks


def links(text: str) -> list[str]:
    """Every link target in prose (not in code blocks or code spans)."""
    return [
        m.group(1) for line in prose_lines(text) for m in LINK.finditer(CODE_SPAN.sub("", line))
    ]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped (hyphens and spaces
    kept), spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """The anchors of a page's headings, repeated headings numbered as GitHub numbers them."""
    seen: dict[str, int] = {}
    out = set()
    for line in prose_lines(text):
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if match:
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            out.add(base if count == 0 else f"{base}-{count}")
    return out


def broken_links(page: Path, text: str) -> list[str]:
    """Each relative link of ``text`` (as if at ``page``) that names no file in the repository,
    or no heading of it."""
    broken = []
    for target in links(text):
        if SCHEME.match(target):
            continue
        path, _, anchor = target.partition("#")
        if not path:
            if anchor not in anchors(text):
                broken.append(f"{target}: no such heading on this page")
            continue
        file = (page.parent / path).resolve()
        if not file.is_relative_to(ROOT) or not file.is_file():
            broken.append(f"{target}: no such file in the repository")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file.read_text("utf-8")):
            broken.append(f"{target}: no heading #{anchor} in {file.relative_to(ROOT)}")
    return broken


def leaving(page: Path, text: str) -> list[str]:
    """Links and path text (code included) that lead out of the repository."""
    out = []
    for target in links(text):
        if not SCHEME.match(target) and not target.startswith("#"):
            resolved = (page.parent / target.partition("#")[0]).resolve()
            if not resolved.is_relative_to(ROOT):
                out.append(target)
    for match in CLIMB.finditer(text):
        if not (page.parent / match.group(0)).resolve().is_relative_to(ROOT):
            out.append(match.group(0))
    out += [text[m.start() : m.end() + 20] for m in SHARED.finditer(text)]
    return out


def unlinked_docs(readme: str) -> list[str]:
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in links(readme) if not SCHEME.match(t)}
    return [str(doc.relative_to(ROOT)) for doc in DOCS if doc.resolve() not in linked]


def first_commands(readme: str) -> list[str]:
    """The commands of the README's first code block, comments left out."""
    first = fenced_blocks(readme)[0]
    return [line.split("#", 1)[0].strip() for line in first if line.split("#", 1)[0].strip()]


def test_the_readme_is_short():
    assert len(README.read_text("utf-8").splitlines()) < 250


def test_the_readme_opens_with_the_two_commands():
    readme = README.read_text("utf-8")
    assert first_commands(readme) == ["bash scripts/run.sh", "bash scripts/test.sh"]
    before = readme[: readme.index("```")]
    assert [line for line in before.splitlines() if line.strip()] == ["# Compaction explorer"]


def test_every_relative_link_resolves_inside_the_repository():
    assert DOCS, "docs/ holds the manual"
    broken = {
        str(page.relative_to(ROOT)): broken_links(page, page.read_text("utf-8")) for page in PAGES
    }
    assert {page: b for page, b in broken.items() if b} == {}


def test_nothing_points_outside_the_repository():
    outside = {
        str(page.relative_to(ROOT)): leaving(page, page.read_text("utf-8")) for page in PAGES
    }
    assert {page: o for page, o in outside.items() if o} == {}


def test_every_docs_page_is_linked_from_the_readme():
    assert unlinked_docs(README.read_text("utf-8")) == []


def test_every_docs_page_opens_with_its_title_and_what_it_covers():
    for doc in DOCS:
        lines = doc.read_text("utf-8").splitlines()
        assert lines[0].startswith("# "), doc.name
        opening = lines[2]
        assert lines[1] == "" and opening and not opening.startswith(("#", "```", "|", "-")), (
            doc.name
        )


def test_the_checks_catch_what_they_are_for():
    """Each check fails on a page that breaks it."""
    page = ROOT / "docs" / "example.md"
    assert broken_links(page, "[x](nowhere.md)") != []
    assert broken_links(page, "[x](cli.md#no-such-heading)") != []
    assert broken_links(page, "[x](#nowhere)") != []
    assert broken_links(page, "[x](cli.md#exit-codes) [y](#here)\n\n## Here\n") == []
    assert leaving(README, "the contract in `../shared/SPEC.md`") != []
    assert leaving(README, "[spec](../shared/SPEC.md)") != []
    assert leaving(README, "see shared/golden/") != []
    assert leaving(page, "[up](../README.md) and `../compactor/`") == []
    assert unlinked_docs("[cli](docs/cli.md)") != []
    assert first_commands("# T\n\n```bash\nbash scripts/run.sh\n```\n") != [
        "bash scripts/run.sh",
        "bash scripts/test.sh",
    ]
    assert slug("Shipping a setting: compaction.toml, `shrink`, LangChain and the Agents SDK") == (
        "shipping-a-setting-compactiontoml-shrink-langchain-and-the-agents-sdk"
    )
