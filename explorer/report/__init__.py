"""The report a customer keeps: one self-contained HTML file of one decision (the conversation
before and after with each message's reason, what each stage removed, the outcome figures beside
keep-last and random, the strategies at the same budget, the cost per turn, the setting) or of a
corpus's summary. ``contents`` gathers the values from the engine and the shared frames and
charts; ``render`` writes the page (Jinja2, autoescaped; the charts' libraries inlined). Pure:
no Streamlit, so the Overview, Transcript, Strategies and Corpus pages and
``python -m compactor report`` make the same file.
"""

from explorer.report.contents import (
    COST_COLUMNS,
    JUDGE,
    CostColumn,
    Report,
    corpus_report,
    decision_report,
    file_name,
    redacted_text,
)
from explorer.report.render import render

__all__ = [
    "COST_COLUMNS",
    "CostColumn",
    "JUDGE",
    "Report",
    "corpus_report",
    "decision_report",
    "file_name",
    "redacted_text",
    "render",
]
