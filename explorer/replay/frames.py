"""Frames of the Replay page: per turn (what was sent, the cache-reusable prefix, the drift), the
losses, the history the model sees at one turn with each message's fate, the summary line, and
what each loop shrinks to (so a comparison of unequal budgets says so).

The drift has two counts per turn. ``anchors_lost_ever``: the anchors lost at some turn so far,
which never falls. ``anchors_missing``: the engine's ``anchors_lost`` (SPEC part C), the anchors
of the messages so far with no occurrence whole in what is sent at that turn; it falls when a
turn's new message repeats anchors that were missing (``anchors_back``), since that occurrence
is sent whole. A turn can only shorten or remove the messages it carries, so the new message is
the only way back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

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
from compactor.text import CHARS_PER_TOKEN, estimate_tokens
from explorer.replay.runs import DROP_OLDEST_LOOP, SEED_LOOP, ReplayRun

TURN_COLUMNS = [
    "loop",
    "turn",
    "messages_in",
    "chars_in",
    "messages_out",
    "chars_out",
    "compacted",
    "stable_prefix_messages",
    "stable_prefix_chars",
    "stable_share",
    "stable_share_smoothed",
    "anchors_lost_ever",
    "anchors_missing",
    "anchors_back",
]


def smoothing_window(turns: int) -> int:
    """The turns the smoothed cache-reusable share is taken over: a twentieth of the run, at
    least 3, at most a quarter of it (one turn on a run of 7 or fewer)."""
    return min(max(3, round(turns / 20)), max(1, turns // 4))


def drift_counts(run: ReplayRun) -> tuple[np.ndarray, np.ndarray]:
    """Per turn of ``run`` (1..n-1): the anchors lost at some turn so far (never falls), and
    the anchors back in what is sent at that turn (missing the turn before, whole again now)."""
    turns = run.replay.turns
    new, first = np.zeros(len(turns) + 2, np.int64), np.zeros(len(turns) + 2, np.int64)
    seen: set[str] = set()
    for loss in run.losses:
        new[loss.turn] += 1  # a loss is a fact going from kept to missing at that turn
        if loss.fact not in seen:
            seen.add(loss.fact)
            first[loss.turn] += 1
    at = np.array([t.turn for t in turns], dtype=np.int64)
    missing = np.array([t.anchors_lost for t in turns], dtype=np.int64)
    before = np.concatenate([[0], missing[:-1]])
    return np.cumsum(first)[at], before + new[at] - missing


def turns_frame(
    runs: Sequence[ReplayRun], tokens_out: Mapping[str, Sequence[int]] | None = None
) -> pd.DataFrame:
    """One row per loop and turn, the engine's per-turn report plus the stable share
    (stable prefix characters over characters sent, 0 when nothing was sent); with
    ``tokens_out`` (loop -> the tokens sent at each turn), a ``tokens_out`` column too."""
    parts = []
    for run in runs:
        rows = pd.DataFrame([t.to_dict() for t in run.replay.turns])
        if rows.empty:
            continue
        rows.insert(0, "loop", run.loop)
        rows["stable_share"] = _share(rows["stable_prefix_chars"], rows["chars_out"])
        window = smoothing_window(len(rows))
        rows["stable_share_smoothed"] = _share(
            rows["stable_prefix_chars"].rolling(window, min_periods=1).sum(),
            rows["chars_out"].rolling(window, min_periods=1).sum(),
        )
        rows = rows.rename(columns={"anchors_lost": "anchors_missing"})
        rows["anchors_lost_ever"], rows["anchors_back"] = drift_counts(run)
        if tokens_out is not None:
            rows["tokens_out"] = list(tokens_out[run.loop])
        parts.append(rows)
    columns = [*TURN_COLUMNS, "tokens_out"] if tokens_out is not None else TURN_COLUMNS
    if not parts:
        return pd.DataFrame(columns=columns)
    return pd.concat(parts, ignore_index=True)[columns]


def _share(part: pd.Series, whole: pd.Series) -> pd.Series:
    """``part / whole``, 0 where nothing was sent."""
    return (part / whole.where(whole > 0)).fillna(0.0)


def smoothing_sentence(turns: pd.DataFrame) -> str:
    """What the cache-reusable chart's bold and faint lines are."""
    per_loop = turns.groupby("loop", sort=False).size()
    window = smoothing_window(int(per_loop.max())) if len(per_loop) else 1
    if window == 1:
        return "Each turn's share: the stable prefix's characters over the characters sent."
    return (
        f"Bold: the share over the last {window} turns (the stable prefix's characters over the "
        "characters sent in them); faint: each turn's own share."
    )


def drift_sentence(turns: pd.DataFrame, noun: str = "anchors") -> str:
    """What the drift chart's two lines count, and, per loop, where the dashed one falls."""
    said = [
        f"Solid: the {noun} lost at some turn so far (it never falls). Dashed: the {noun} not "
        "whole in what is sent at that turn; it falls when a turn's new message repeats "
        f"{noun} that were missing, since the new message is sent whole."
    ]
    for loop, rows in turns.groupby("loop", sort=False):
        back = rows[rows["anchors_back"] > 0]
        if back.empty:
            continue
        most = back.loc[back["anchors_back"].idxmax()]
        said.append(
            f"{loop}: it falls at {len(back):,} turns, most at turn {int(most['turn'])} "
            f"({int(most['anchors_back']):,} back with message {int(most['turn'])})."
        )
    return " ".join(said)


def tokens_sentence(tokens_out: Mapping[str, Sequence[int]], encoding: str) -> str:
    """Per loop, the most tokens sent on one turn and the tokens sent over the whole run."""
    parts = [
        f"{loop}: at most {max(sent, default=0):,} a turn, {sum(sent):,} in all"
        for loop, sent in tokens_out.items()
    ]
    return f"In {encoding} tokens sent, {'; '.join(parts)}."


LOSS_COLUMNS = ["loop", "turn", "anchor", "index", "how", "lost_so_far"]


def losses_frame(runs: Sequence[ReplayRun]) -> pd.DataFrame:
    """Each loss: the turn, the anchor, the message (``index``) whose trim or removal lost it,
    and the anchors lost at some turn so far at that turn (where the drift chart draws it)."""
    columns: dict[str, list] = {name: [] for name in LOSS_COLUMNS}
    for run in runs:
        if not run.losses:
            continue
        ever, _ = drift_counts(run)
        lost_at = dict(zip((t.turn for t in run.replay.turns), ever.tolist(), strict=True))
        turn, anchor, index, how = zip(*run.losses, strict=True)  # Loss is a named tuple
        columns["loop"] += [run.loop] * len(run.losses)
        columns["turn"] += turn
        columns["anchor"] += anchor
        columns["index"] += index
        columns["how"] += how
        columns["lost_so_far"] += map(lost_at.__getitem__, turn)
    return pd.DataFrame(columns, columns=LOSS_COLUMNS).astype(
        {"turn": "int64", "index": "int64", "lost_so_far": "int64"}
    )


POINT_COLUMNS = ["loop", "turn", "index", "how", "lost_so_far", "anchors", "again", "first"]


def loss_points(runs: Sequence[ReplayRun]) -> pd.DataFrame:
    """The losses grouped by loop, turn and message (one point each on the drift chart), in
    the order they first occur: how many anchors that message's trim or removal lost, how many
    of them were lost before (and came back with a later message), the first of them, and the
    anchors lost at some turn so far at that turn (where the chart draws the point)."""
    parts = []
    for run in runs:
        if not run.losses:
            continue
        turn, anchor, index, how = zip(*run.losses, strict=True)
        turn, index = np.asarray(turn), np.asarray(index)
        anchor, how = np.asarray(anchor, dtype=object), np.asarray(how, dtype=object)
        key = (turn * (int(index.max()) + 1) + index) * 2 + (how == REMOVAL)
        _, first, group, counts = np.unique(
            key, return_index=True, return_inverse=True, return_counts=True
        )
        before = pd.Series(anchor).duplicated().to_numpy()  # lost at an earlier turn too
        again = np.bincount(group, weights=before, minlength=len(first))
        order = np.argsort(first, kind="stable")
        first, counts, again = first[order], counts[order], again[order]
        lost_at = np.array([0, *drift_counts(run)[0]])
        at = turn[first]
        parts.append(
            pd.DataFrame(
                {
                    "loop": run.loop,
                    "turn": at,
                    "index": index[first],
                    "how": how[first],
                    "lost_so_far": lost_at[at],
                    "anchors": counts,
                    "again": again.astype(np.int64),
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


#: The history's flag column: the message the drift chart's click picked.
LOST_HERE = "lost here"


def marked_history(run: ReplayRun, turn: int, marked: int | None) -> pd.DataFrame:
    """:func:`history_frame` at ``turn`` with :data:`LOST_HERE` first: whether the row is the
    recorded message ``marked`` (a loss clicked on the drift chart; None: none)."""
    history = history_frame(run, turn)
    history.insert(0, LOST_HERE, history["index"].eq(marked).fillna(False))
    return history


def history_sentence(history: pd.DataFrame, turn: int) -> str:
    """What the model is sent at ``turn`` (messages, characters) and what is already gone."""
    sent = history["position"].notna()
    return (
        f"Turn {turn}: {int(sent.sum()):,} messages, {int(history.loc[sent, 'chars'].sum()):,} "
        f"characters sent; {int((~sent).sum()):,} recorded messages already gone."
    )


def summary_line(run: ReplayRun, noun: str = "anchors") -> str:
    """The sentence for a design review: turns, the cache-reusable share, the drift and its
    first loss."""
    result: Replay = run.replay
    turns = len(result.turns)
    lost = len({loss.fact for loss in run.losses})  # each anchor lost at some turn, once
    line = (
        f"{run.loop}: over {turns} turns, {cache_reuse(result):.0%} of sent characters were "
        f"cache-reusable; {lost:,} {noun} lost"
    )
    if run.losses:
        first: Loss = run.losses[0]
        line += f", the first at turn {first.turn} (the {first.how} of message {first.index})"
    elif not run.facts:
        line += f" (no {noun} to watch)"
    return line + "."


@dataclass(frozen=True)
class Budget:
    """What a loop shrinks the history to: ``chars`` characters, or ``tokens`` by the
    estimate (``ceil(characters / 4)`` per message; the seeds/003 family counts so); neither:
    no size limit (the trim with keepLastMessages only)."""

    loop: str
    chars: int | None = None
    tokens: int | None = None

    def in_tokens(self) -> int | None:
        """The budget by the estimate (a character budget as the sidebar converts it)."""
        return estimate_tokens(self.chars) if self.chars is not None else self.tokens

    def describe(self) -> str:
        if self.chars is not None:
            return (
                f"{self.loop} works to {self.chars:,} characters "
                f"(about {estimate_tokens(self.chars):,} tokens)"
            )
        if self.tokens is None:
            return f"{self.loop} has no size limit"
        verb = "compacts over" if self.loop == SEED_LOOP else "works to"
        return (
            f"{self.loop} {verb} {self.tokens:,} tokens by the estimate "
            f"(about {self.tokens * CHARS_PER_TOKEN:,} characters)"
        )


def budget_of(loop: str, budget_chars: int, options: Mapping[str, object]) -> Budget:
    """What ``loop`` shrinks to: the seeds/003 trim its ``max_tokens_estimate``, the
    seeds/003 loop its ``token_limit``, every other loop the sidebar's ``budget_chars``."""
    if loop == DROP_OLDEST_LOOP:
        return Budget(loop, tokens=options.get("max_tokens_estimate"))  # type: ignore[arg-type]
    if loop == SEED_LOOP:
        return Budget(loop, tokens=options.get("token_limit"))  # type: ignore[arg-type]
    return Budget(loop, chars=budget_chars)


def unequal_budgets(budgets: Sequence[Budget]) -> str | None:
    """A warning when the loops compared do not work to the same budget (compared by the
    estimate), else None."""
    if len({b.in_tokens() for b in budgets}) <= 1:
        return None
    said = "; ".join(b.describe() for b in budgets)
    return (
        f"These loops do not work to the same budget: {said}. Their characters sent, "
        "cache reuse and drift are not a like-for-like comparison; set the token limits to "
        "the sidebar's budget in tokens to compare them as equals."
    )
