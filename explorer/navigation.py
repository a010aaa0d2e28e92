"""The explorer's pages: app.py (Overview) and one thin script each under pages/, in sections.

To add a view, write ``pages/<name>.py`` (starting with ``page.run``) and add one ``PageSpec``
here; the page menu (one drop-down per section), the page tests and the browser tests all read
this list.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PageSpec:
    path: str  # relative to the project root (where app.py is)
    title: str
    icon: str
    section: str


PAGES: tuple[PageSpec, ...] = (
    PageSpec("pages/conversation.py", "Conversation", ":material/forum:", "Input"),
    PageSpec("app.py", "Overview", ":material/dashboard:", "Views"),
    PageSpec("pages/timeline.py", "Fate timeline", ":material/view_timeline:", "Views"),
    PageSpec("pages/transcript.py", "Transcript", ":material/chat:", "Views"),
    PageSpec("pages/scores.py", "Scores", ":material/leaderboard:", "Views"),
    PageSpec("pages/protected.py", "Protected", ":material/shield:", "Views"),
    PageSpec("pages/duplicates.py", "Duplicates", ":material/content_copy:", "Views"),
    PageSpec("pages/trims.py", "Trims", ":material/content_cut:", "Views"),
    PageSpec("pages/output.py", "Output", ":material/output:", "Views"),
    PageSpec("pages/sweeps.py", "Budget sweep", ":material/stacked_line_chart:", "Tune"),
    PageSpec("pages/sensitivity.py", "Sensitivity", ":material/tune:", "Tune"),
    PageSpec("pages/compare.py", "A/B compare", ":material/compare:", "Tune"),
    PageSpec("pages/strategies.py", "Strategies", ":material/alt_route:", "Tune"),
    PageSpec("pages/replay.py", "Replay", ":material/replay:", "Tune"),
    PageSpec("pages/corpus.py", "Corpus", ":material/library_books:", "Tune"),
    PageSpec("pages/anchors.py", "Anchors", ":material/anchor:", "Check"),
    PageSpec("pages/facts.py", "Watched facts", ":material/visibility:", "Check"),
    PageSpec("pages/pairing.py", "Tool pairs", ":material/link:", "Check"),
    PageSpec("pages/graded.py", "Graded compactions", ":material/grading:", "Check"),
    PageSpec("pages/walkthrough.py", "Walkthrough", ":material/school:", "Teach"),
)


def sections() -> dict[str, list[PageSpec]]:
    """The pages by section title, in order, as the page menu lists them."""
    out: dict[str, list[PageSpec]] = {}
    for spec in PAGES:
        out.setdefault(spec.section, []).append(spec)
    return out
