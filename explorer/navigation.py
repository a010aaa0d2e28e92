"""The explorer's pages: one thin script each under pages/, in the sections of the menu.

``app.py`` routes to them with Streamlit's own navigation (``st.navigation``, the menu across the
top, one drop-down per section); Overview is the default page, at the root address, and every
other page's address is its file's name (``pages/timeline.py`` -> ``/timeline``). To add a view,
write ``pages/<name>.py`` (one call: ``page.run(title, draw)``) and add one ``PageSpec`` here; the
navigation, the page tests and the browser tests all read this list.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: The project's folder: where app.py and pages/ are.
ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class PageSpec:
    path: str  # relative to the project root (where app.py is)
    title: str
    icon: str
    section: str

    @property
    def url_path(self) -> str:
        """The page's address: the root for the default page (Overview), else its file's name."""
        return "" if self.default else self.path.removeprefix("pages/").removesuffix(".py")

    @property
    def file(self) -> Path:
        """The page's script, by its full path (the same wherever the entry that routes runs)."""
        return ROOT / self.path

    @property
    def default(self) -> bool:
        return self.path == DEFAULT_PAGE


#: The page the explorer opens on.
DEFAULT_PAGE = "pages/overview.py"

PAGES: tuple[PageSpec, ...] = (
    PageSpec("pages/conversation.py", "Conversation", ":material/forum:", "Input"),
    PageSpec("pages/overview.py", "Overview", ":material/dashboard:", "Views"),
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
    PageSpec("pages/recommend.py", "Recommend", ":material/auto_awesome:", "Tune"),
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


def file_of(path: str) -> str:
    """The full path of the page at ``path`` (relative to the project), for ``st.page_link`` and
    ``st.switch_page``: a page opens by the file its navigation registered."""
    spec = next((spec for spec in PAGES if spec.path == path), None)
    if spec is None:
        raise KeyError(f"no page {path!r} in explorer.navigation.PAGES")
    return str(spec.file)
