"""Frames of the Replay page: per turn (what was sent, the cache-reusable prefix, the drift), the
losses, the history the model sees at one turn with each message's fate, and the summary line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from compactor.analyses.replay import (
    GONE,
    NEW,
    REMOVAL,
    TRIMMED,
    Loss,
    Replay,
    cache_reuse,
    message_fates,
)
from explorer.session.replays import ReplayRun

TURN_COLUMNS = [
    "setting",
    "turn",
    "messages_in",
    "chars_in",
    "messages_out",
    "chars_out",
    "compacted",
    "stable_prefix_messages",
    "stable_prefix_chars",
    "stable_share",
    "anchors_lost",
]


def turns_frame(
    runs: Sequence[ReplayRun], tokens_out: Mapping[str, Sequence[int]] | None = None
) -> pd.DataFrame:
    """One row per setting and turn, the engine's per-turn report plus the stable share
    (stable prefix characters over characters sent, 0 when nothing was sent); with
    ``tokens_out`` (setting -> the tokens sent at each turn), a ``tokens_out`` column too."""
    rows = []
    for run in runs:
        sent = tokens_out[run.setting] if tokens_out is not None else None
        for k, t in enumerate(run.replay.turns):
            row = {"setting": run.setting, **t.to_dict()}
            row["stable_share"] = t.stable_prefix_chars / t.chars_out if t.chars_out else 0.0
            if sent is not None:
                row["tokens_out"] = sent[k]
            rows.append(row)
    columns = [*TURN_COLUMNS, "tokens_out"] if tokens_out is not None else TURN_COLUMNS
    return pd.DataFrame(rows, columns=columns)


def tokens_sentence(tokens_out: Mapping[str, Sequence[int]], encoding: str) -> str:
    """Per setting, the most tokens sent on one turn and the tokens sent over the whole run."""
    parts = [
        f"{setting}: at most {max(sent, default=0):,} a turn, {sum(sent):,} in all"
        for setting, sent in tokens_out.items()
    ]
    return f"In {encoding} tokens sent, {'; '.join(parts)}."


LOSS_COLUMNS = ["setting", "turn", "anchor", "index", "how", "lost_so_far"]


def losses_frame(runs: Sequence[ReplayRun]) -> pd.DataFrame:
    """Each loss: the turn, the anchor, the message (``index``) whose trim or removal lost it,
    and the anchors lost so far at that turn (where the drift chart draws it)."""
    columns: dict[str, list] = {name: [] for name in LOSS_COLUMNS}
    for run in runs:
        if not run.losses:
            continue
        lost_at = {t.turn: t.anchors_lost for t in run.replay.turns}
        turn, anchor, index, how = zip(*run.losses, strict=True)  # Loss is a named tuple
        columns["setting"] += [run.setting] * len(run.losses)
        columns["turn"] += turn
        columns["anchor"] += anchor
        columns["index"] += index
        columns["how"] += how
        columns["lost_so_far"] += map(lost_at.__getitem__, turn)
    return pd.DataFrame(columns, columns=LOSS_COLUMNS).astype(
        {"turn": "int64", "index": "int64", "lost_so_far": "int64"}
    )


POINT_COLUMNS = ["setting", "turn", "index", "how", "lost_so_far", "anchors", "first"]


def loss_points(runs: Sequence[ReplayRun]) -> pd.DataFrame:
    """The losses grouped by setting, turn and message (one point each on the drift chart), in
    the order they first occur: how many anchors that message's trim or removal lost, the first
    of them, and the anchors lost so far at that turn (where the chart draws the point)."""
    parts = []
    for run in runs:
        if not run.losses:
            continue
        turn, anchor, index, how = zip(*run.losses, strict=True)
        turn, index = np.asarray(turn), np.asarray(index)
        anchor, how = np.asarray(anchor, dtype=object), np.asarray(how, dtype=object)
        key = (turn * (int(index.max()) + 1) + index) * 2 + (how == REMOVAL)
        _, first, counts = np.unique(key, return_index=True, return_counts=True)
        order = np.argsort(first, kind="stable")
        first, counts = first[order], counts[order]
        lost_at = np.array([0, *(t.anchors_lost for t in run.replay.turns)])
        at = turn[first]
        parts.append(
            pd.DataFrame(
                {
                    "setting": run.setting,
                    "turn": at,
                    "index": index[first],
                    "how": how[first],
                    "lost_so_far": lost_at[at],
                    "anchors": counts,
                    "first": anchor[first],
                },
                columns=POINT_COLUMNS,
            )
        )
    if not parts:
        return pd.DataFrame(columns=POINT_COLUMNS)
    return pd.concat(parts, ignore_index=True)


HISTORY_COLUMNS = ["position", "index", "role", "fate", "chars", "original_chars", "content"]


def fate_label(status: str, at: int | None) -> str:
    """``kept``, ``trimmed at turn 12``, ``dropped at turn 30`` or ``new at turn 8``."""
    return f"{status} at turn {at}" if status in (TRIMMED, GONE, NEW) and at is not None else status


def history_frame(run: ReplayRun, turn: int, include_gone: bool = True) -> pd.DataFrame:
    """The messages at ``turn``: those sent (in the order sent), then, when ``include_gone``,
    the recorded messages already gone. ``position`` is the place in what was sent (empty when
    gone); ``index`` the recorded message (empty for new text such as a summary)."""
    fates = message_fates(run.replay, run.recorded, turn)
    sent = sorted((f for f in fates if f.position is not None), key=lambda f: f.position)
    gone = [f for f in fates if f.position is None] if include_gone else []
    rows = [
        {
            "position": f.position,
            "index": f.index,
            "role": f.role,
            "fate": fate_label(f.status, f.at),
            "chars": f.chars,
            "original_chars": f.original_chars if f.index is not None else None,
            "content": f.content,
        }
        for f in (*sent, *gone)
    ]
    return pd.DataFrame(rows, columns=HISTORY_COLUMNS).astype(
        {"position": "Int64", "index": "Int64", "original_chars": "Int64"}
    )


def summary_line(run: ReplayRun, noun: str = "anchors") -> str:
    """The sentence for a design review: turns, the cache-reusable share, the drift and its
    first loss."""
    result: Replay = run.replay
    turns = len(result.turns)
    lost = len({loss.fact for loss in run.losses})  # each anchor lost at some turn, once
    line = (
        f"{run.setting}: over {turns} turns, {cache_reuse(result):.0%} of sent characters were "
        f"cache-reusable; {lost:,} {noun} lost"
    )
    if run.losses:
        first: Loss = run.losses[0]
        line += f", the first at turn {first.turn} (the {first.how} of message {first.index})"
    elif not run.facts:
        line += f" (no {noun} to watch)"
    return line + "."
