"""Summarise a conversation that may not fit the model's context window: chunks, then merges.

The context window (the provider's ``context_window_tokens``, when configured) bounds each call:
the system prompt, the user message and the summary's ``max_tokens`` must fit it, with tokens
estimated as for the trim (``ceil(characters / 4)``). The messages are packed in order into as
few chunks as fit (a message too long for one call is split into parts, at a space where one is
near); each chunk is summarised (pass 1), then the summaries are packed and merged the same way
(passes 2, 3, ...) until one remains. When the provider still answers that a prompt is over the
window (the estimate is a heuristic; or no window was configured), the window it states, or half
the failed chunk, becomes the new bound and the rest is packed again.

It gives up, with :class:`CannotSummarize` and the reason, when the window leaves no room for
the conversation, when more than :data:`MAX_CHUNKS` chunks would be needed in a pass, or when a
merge pass does not reduce the number of summaries (they are too long to merge in the window).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from compactor.errors import Problem, ProblemError
from compactor.providers import ContextWindowExceeded, Provider
from compactor.strategies._context_trim import CHARS_PER_TOKEN
from compactor.strategies._summary_prompt import (
    FRAME_CHARS,
    SEPARATOR,
    Piece,
    conversation_prompt,
    merge_prompt,
)

#: At most this many chunks are summarised in one pass: a bound on calls, time and cost.
MAX_CHUNKS = 64
#: At most this many passes (the first, then merges).
MAX_PASSES = 8
#: The fewest characters of conversation a call must be able to hold.
MIN_CHUNK_CHARS = 200


class CannotSummarize(ProblemError):
    """The conversation cannot be summarised within the model's context window; says why."""


@dataclass(frozen=True)
class Summary:
    text: str
    chunks: int  # chunks of the conversation summarised in the first pass
    passes: int
    prompt_tokens: int | None  # the provider's reported usage, summed; None if not reported
    completion_tokens: int | None


async def summarise(
    pieces: Sequence[Piece], provider: Provider, model: str, system: str, max_tokens: int
) -> Summary:
    """One summary of ``pieces`` (the older messages, in order), in as many passes as needed.

    The calls are made one after another; cancelling this cancels the call in flight.
    """
    return await _Summariser(provider, model, system, max_tokens).run(pieces)


class _Summariser:
    def __init__(self, provider: Provider, model: str, system: str, max_tokens: int):
        self.provider = provider
        self.model = model
        self.system = system
        self.max_tokens = max_tokens
        self.window = provider.config.context_window_tokens
        self.budget = None if self.window is None else self._budget_for(self.window)
        self.prompt_tokens: int | None = 0
        self.completion_tokens: int | None = 0

    async def run(self, pieces: Sequence[Piece]) -> Summary:
        self._check_budget()
        summaries = await self._pass(pieces, conversation_prompt)
        chunks, passes = len(summaries), 1
        while len(summaries) > 1:
            if passes == MAX_PASSES:
                raise self._cannot(f"{len(summaries)} summaries remain after {passes} passes")
            merging = [Piece(f"summary {k}", s, 0, len(s)) for k, s in enumerate(summaries, 1)]
            merged = await self._pass(merging, merge_prompt)
            passes += 1
            if len(merged) >= len(summaries):
                raise self._cannot(
                    f"the {len(summaries)} summaries of pass {passes - 1} are too long to merge "
                    "within the window; ask for a smaller targetTokensEstimate"
                )
            summaries = merged
        return Summary(summaries[0], chunks, passes, self.prompt_tokens, self.completion_tokens)

    async def _pass(
        self, pieces: Sequence[Piece], prompt: Callable[[Sequence[Piece]], str]
    ) -> list[str]:
        groups = deque(self._pack(pieces))
        summaries: list[str] = []
        while groups:
            if len(summaries) + len(groups) > MAX_CHUNKS:
                raise self._cannot(
                    f"it needs more than {MAX_CHUNKS} chunks in one pass (at most "
                    f"{self.budget:,} characters each)"
                )
            group = groups.popleft()
            try:
                summaries.append(await self._call(prompt(group)))
            except ContextWindowExceeded as error:
                self._shrink(error, group)
                groups = deque(self._pack([p for g in (group, *groups) for p in g]))
        return summaries

    async def _call(self, user: str) -> str:
        completion = await self.provider.acomplete(
            model=self.model, system=self.system, user=user, max_tokens=self.max_tokens
        )
        text = completion.text.strip()
        if not text:
            raise self.provider.error("answered with an empty summary")
        self.prompt_tokens = _add(self.prompt_tokens, completion.prompt_tokens)
        self.completion_tokens = _add(self.completion_tokens, completion.completion_tokens)
        return text

    def _budget_for(self, window: int) -> int:
        """Characters of pieces one call can hold in ``window`` tokens."""
        room = window - self.max_tokens - _tokens(self.system)
        return room * CHARS_PER_TOKEN - FRAME_CHARS

    def _shrink(self, error: ContextWindowExceeded, group: Sequence[Piece]) -> None:
        """Lower the bound after the provider refused ``group`` as over its window."""
        bounds = [_size(group) // 2]
        if error.window_tokens is not None:
            self.window = error.window_tokens
            bounds.append(self._budget_for(error.window_tokens))
        self.budget = min(bounds)
        self._check_budget()

    def _check_budget(self) -> None:
        if self.budget is not None and self.budget < MIN_CHUNK_CHARS:
            raise self._cannot(
                f"after the instructions (about {_tokens(self.system)} tokens) and the summary "
                f"(up to {self.max_tokens} tokens) the window leaves room for fewer than "
                f"{MIN_CHUNK_CHARS} characters of conversation per call; use a model with a "
                "larger context window, shorter instructions, or a shorter summary (a smaller "
                "targetTokensEstimate, or the provider's max_output_tokens without one)"
            )

    def _cannot(self, reason: str) -> CannotSummarize:
        window = "unknown" if self.window is None else f"{self.window:,} tokens"
        return CannotSummarize(
            [
                Problem(
                    f"cannot summarise with provider {self.provider.name!r} and model "
                    f"{self.model!r} (context window {window}): {reason}"
                )
            ]
        )

    def _pack(self, pieces: Sequence[Piece]) -> list[list[Piece]]:
        """The pieces in order, in as few groups of at most ``budget`` characters as fit."""
        if self.budget is None:
            return [list(pieces)]
        groups: list[list[Piece]] = []
        size = 0
        for piece in pieces:
            for part in self._split(piece):
                length = len(part.rendered)
                if groups and size + len(SEPARATOR) + length <= self.budget:
                    groups[-1].append(part)
                    size += len(SEPARATOR) + length
                else:
                    groups.append([part])
                    size = length
        return groups

    def _split(self, piece: Piece) -> list[Piece]:
        """``piece``, or its parts when it is longer than one call holds."""
        assert self.budget is not None
        if len(piece.rendered) <= self.budget:
            return [piece]
        room = self.budget - piece.overhead()
        whole = piece.whole if piece.whole is not None else len(piece.text)
        text, parts, at = piece.text, [], 0
        while at < len(text):
            end = min(at + room, len(text))
            if end < len(text):
                # Cut after the last space in the last quarter of the room, if there is one.
                space = max(text.rfind(" ", at + room * 3 // 4, end), text.rfind("\n", at, end))
                end = space + 1 if space >= at + room * 3 // 4 else end
            parts.append(Piece(piece.label, text[at:end], piece.start + at, whole))
            at = end
        return parts


def _add(total: int | None, reported: int | None) -> int | None:
    return None if total is None or reported is None else total + reported


def _tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def _size(group: Sequence[Piece]) -> int:
    return sum(len(p.rendered) for p in group) + len(SEPARATOR) * (len(group) - 1)
