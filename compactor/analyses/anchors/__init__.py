"""Anchors (SPEC part C): the exact strings a later turn may need verbatim, where they are, and
what a compaction does to them.

:mod:`~compactor.analyses.anchors._patterns` documents the patterns and
:mod:`~compactor.analyses.anchors._word_lists` their word lists;
:mod:`~compactor.analyses.anchors._finder` finds every anchor (by a numpy scan, private to this
package and held equal to the patterns, with a small memo of recent conversations);
:mod:`~compactor.analyses.anchors._report` reads a result: kept or lost, by which stage, from
which budget."""

from compactor.analyses.anchors._finder import (
    WATCHED,
    Anchor,
    AnchorTable,
    FoundAnchors,
    find_anchor_columns,
    find_anchor_table,
    find_anchors,
    forget_found_anchors,
)
from compactor.analyses.anchors._report import (
    STAGE_VERBS,
    STAGES,
    AnchorFate,
    AnchorReport,
    MessageAnchor,
    RetentionStep,
    StageLoss,
    anchor_report,
    message_anchors,
    retention_curve,
    stage_losses,
)

__all__ = [
    "Anchor",
    "AnchorFate",
    "AnchorReport",
    "AnchorTable",
    "FoundAnchors",
    "MessageAnchor",
    "RetentionStep",
    "STAGES",
    "STAGE_VERBS",
    "StageLoss",
    "WATCHED",
    "anchor_report",
    "find_anchor_columns",
    "find_anchor_table",
    "find_anchors",
    "forget_found_anchors",
    "message_anchors",
    "retention_curve",
    "stage_losses",
]
