"""Replay: a recorded conversation sent through an agent loop that shrinks it on every turn.

SPEC part C, "Replay". The carried history starts as ``H = [m_0]``; at turn ``t`` (1..n-1) the
loop has ``X_t = H + [m_t]`` and, when the policy says so (``always``, or ``over-budget`` when
the characters of ``X_t`` exceed ``budget_chars``), a strategy shrinks it; ``H`` becomes the
result (else ``X_t`` itself), and that is what the model is sent at turn ``t``. Each turn
reports what went in and out, the leading messages a provider's prompt cache can reuse (equal in
role and content to the previous turn's), and the facts lost so far: those of ``m_0..m_t`` none
of whose occurrences there is still in ``H`` whole.

Strategies are callables from the history to the shrunk history (:class:`Strategy`):
:class:`MemoryCompact` (the engine, with its analysis reused across turns), :class:`KeepLast`,
:class:`ContextTrim` (the seeds/003 trim) and :class:`SeedLoop`, the seeds/003 loop around any
compact strategy (an LLM one, say), which is only built when one is given. Facts are plain
``(text, occurrences)`` pairs (:class:`Fact`), so watched phrases (:func:`facts_from_phrases`)
and anchors serve alike.

A message is carried as :class:`Carried`: role, content, id, pin, and ``origin``, the index of
the recorded message its content is a prefix of (None for new text, such as a summary, which
then keeps no fact: the spec counts an occurrence only in its own message); a strategy that
keeps parts other than a prefix (anchor-keep) carries the recorded ``spans`` its content joins,
and an occurrence there is kept when one span holds it whole.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from compactor.analyses._facts import find_phrase
from compactor.analyses._prefix import common_prefix
from compactor.analyses.replay._drift import Drift, FactIndex, Loss
from compactor.model import Message

ALWAYS = "always"
OVER_BUDGET = "over-budget"
POLICIES = (ALWAYS, OVER_BUDGET)


@dataclass(frozen=True)
class Carried:
    """One message of the carried history."""

    role: str
    content: str
    id: str | None = None
    pin: bool = False
    #: Index of the recorded message whose content this is a prefix of; None for new text.
    origin: int | None = None
    #: When the content is not a prefix but the recorded message's ``(start, end)`` spans
    #: joined (a cut that keeps parts), those spans, ordered and disjoint; else None.
    spans: tuple[tuple[int, int], ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The message as a request carries it (``id`` when set, ``pin`` when true)."""
        out: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.id is not None:
            out["id"] = self.id
        if self.pin:
            out["pin"] = True
        return out


@dataclass(frozen=True)
class Shrunk:
    """A strategy's answer when it may leave the history as it is (``compacted=False``)."""

    messages: Sequence[Carried]
    compacted: bool = True


class Strategy(Protocol):
    """Shrinks a history. Returns the new one (a sequence of :class:`Carried`, or a
    :class:`Shrunk` to say it did not compact); raises to say it failed (:class:`SeedLoop`
    then falls back). It may keep state across the turns of one replay, and may have a
    ``prepare(recorded)`` method, which :func:`replay` calls once with every recorded message
    (as :class:`Carried`) before the first turn."""

    name: str

    def __call__(self, history: Sequence[Carried]) -> Sequence[Carried] | Shrunk: ...


@dataclass(frozen=True)
class Fact:
    """Something the conversation must not lose: its text and every occurrence as
    ``(index, start, end)`` code-point offsets into the recorded message ``index``."""

    text: str
    occurrences: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True)
class Turn:
    """One turn of the loop: ``X_t`` in, ``H`` out."""

    turn: int
    messages_in: int
    chars_in: int
    messages_out: int
    chars_out: int
    compacted: bool  # whether the strategy shrank X_t
    stable_prefix_messages: int  # leading messages of H equal to the previous turn's
    stable_prefix_chars: int
    anchors_lost: int  # how many facts of m_0..m_t are no longer whole in H
    #: those facts, in the facts' order, read when asked for (thousands on a long run)
    _lost: Callable[[], tuple[str, ...]] = field(default=tuple, repr=False, compare=False)

    @property
    def lost(self) -> tuple[str, ...]:
        """The facts of m_0..m_t no longer whole in H, in the facts' order."""
        return self._lost()

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "messages_in": self.messages_in,
            "chars_in": self.chars_in,
            "messages_out": self.messages_out,
            "chars_out": self.chars_out,
            "compacted": self.compacted,
            "stable_prefix_messages": self.stable_prefix_messages,
            "stable_prefix_chars": self.stable_prefix_chars,
            "anchors_lost": self.anchors_lost,
        }


@dataclass(frozen=True)
class Replay:
    strategy: str
    policy: str
    turns: tuple[Turn, ...]
    #: ``histories[t]``: H after turn t (``histories[0]`` is ``[m_0]``).
    histories: tuple[tuple[Carried, ...], ...]
    #: Each loss of a fact, in turn order, then the facts' order (:class:`Loss`).
    losses: tuple[Loss, ...] = ()

    @property
    def final(self) -> tuple[Carried, ...]:
        return self.histories[-1]

    def to_dict(self) -> dict[str, Any]:
        """``{"turns": [...], "final": [messages]}``, as the CLI prints it."""
        return {
            "turns": [t.to_dict() for t in self.turns],
            "final": [m.to_dict() for m in self.final],
        }


# --- the loop --------------------------------------------------------------------------------


def replay(
    messages: Sequence[Message],
    strategy: Strategy,
    *,
    policy: str = ALWAYS,
    budget_chars: int | None = None,
    facts: Iterable[Fact | tuple[str, Iterable[tuple[int, int, int]]]] | FactIndex = (),
    on_turn: Callable[[int, int], None] | None = None,
) -> Replay:
    """Replay ``messages`` through the loop with ``strategy`` under ``policy``.

    ``budget_chars`` is what ``over-budget`` compares the characters of ``X_t`` with.
    ``facts`` are :class:`Fact` or ``(text, occurrences)`` pairs (occurrences into
    ``messages``), or a :class:`FactIndex` of them built once for many replays; anchors from
    ``compactor.analyses.anchors._report`` fit as ``(a.text, a.occurrences)``.
    ``on_turn(t, turns)``, when given, is called after each turn (progress).
    """
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")
    if policy == OVER_BUDGET and budget_chars is None:
        raise ValueError("the over-budget policy needs budget_chars")
    recorded = [Carried(m.role, m.content, m.id, m.pin, origin=i) for i, m in enumerate(messages)]
    if not isinstance(facts, FactIndex):
        facts = FactIndex([(f.text, f.occurrences) for f in map(_as_fact, facts)])
    drift = Drift(facts)
    if recorded:
        drift.arrive(0, len(recorded[0].content))
    losses: list[Loss] = []
    prepare = getattr(strategy, "prepare", None)
    if prepare is not None:
        prepare(recorded)
    history: tuple[Carried, ...] = tuple(recorded[:1])
    histories = [history]
    turns = []
    for t in range(1, len(recorded)):
        sent = (*history, recorded[t])
        drift.arrive(t, len(recorded[t].content))
        chars_in = _chars(sent)
        compacted = policy == ALWAYS or chars_in > budget_chars  # type: ignore[operator]
        if compacted:
            shrunk = strategy(sent)
            if isinstance(shrunk, Shrunk):
                compacted, shrunk = shrunk.compacted, shrunk.messages
            new = tuple(shrunk)
        else:
            new = sent
        stable = common_prefix(history, new)
        lost, lost_now = drift.turn(t, held_of(new) if len(drift) else {})
        losses.extend(lost_now)
        turns.append(
            Turn(
                turn=t,
                messages_in=len(sent),
                chars_in=chars_in,
                messages_out=len(new),
                chars_out=_chars(new),
                compacted=compacted,
                stable_prefix_messages=stable,
                stable_prefix_chars=_chars(new[:stable]),
                anchors_lost=lost.count,
                _lost=lost.texts,
            )
        )
        history = new
        histories.append(history)
        if on_turn is not None:
            on_turn(t, len(recorded) - 1)
    name = getattr(strategy, "name", "custom")
    return Replay(name, policy, tuple(turns), tuple(histories), tuple(losses))


def _chars(messages: Sequence[Carried]) -> int:
    return sum(len(m.content) for m in messages)


Span = tuple[int, int]


def held_of(history: Sequence[Carried]) -> dict[int, int | tuple[Span, ...]]:
    """Per recorded message in ``history``, what of it is held there: the length of its prefix
    (the longest, if twice), or, when a copy keeps other spans, the spans held (all copies'
    spans joined)."""
    lengths: dict[int, int] = {}
    spans: dict[int, list[Span]] = {}
    for m in history:
        if m.origin is None:
            continue
        lengths[m.origin] = max(lengths.get(m.origin, -1), len(m.content))
        if m.spans is not None:
            spans.setdefault(m.origin, []).extend(m.spans)
    out: dict[int, int | tuple[Span, ...]] = dict(lengths)
    for i, found in spans.items():
        prefix = [(0, len(m.content)) for m in history if m.origin == i and m.spans is None]
        out[i] = joined([*found, *prefix])
    return out


def joined(spans: Iterable[Span]) -> tuple[Span, ...]:
    """Spans sorted, overlapping or adjacent ones joined, empty ones left out."""
    out: list[list[int]] = []
    for start, end in sorted(s for s in spans if s[0] < s[1]):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return tuple((a, b) for a, b in out)


def compose_spans(outer: Sequence[Span], inner: Sequence[Span]) -> tuple[Span, ...]:
    """The recorded spans a cut keeps: ``inner`` are spans of a content that is the recorded
    ``outer`` spans joined; each is mapped back through them.

    >>> compose_spans([(0, 4), (10, 14)], [(2, 6)])
    ((2, 4), (10, 12))
    """
    out = []
    for a, b in inner:
        at = 0  # where the outer span starts in the content
        for start, end in outer:
            size = end - start
            low, high = max(a, at), min(b, at + size)
            if low < high:
                out.append((start + low - at, start + high - at))
            at += size
    return joined(out)


def _as_fact(fact: Any) -> Fact:
    if isinstance(fact, Fact):
        return fact
    if isinstance(fact, tuple):
        text, occurrences = fact
    else:  # anything with .text and .occurrences, such as an anchor
        text, occurrences = fact.text, fact.occurrences
    return Fact(str(text), tuple((int(i), int(s), int(e)) for i, s, e in occurrences))


def facts_from_phrases(messages: Sequence[Message | str], phrases: Iterable[str]) -> list[Fact]:
    """Watched phrases as facts: every occurrence under the watched-facts matching rule
    (:mod:`compactor.analyses._facts`). Blank phrases are skipped."""
    contents = [m if isinstance(m, str) else m.content for m in messages]
    facts = []
    for phrase in phrases:
        if phrase.strip():
            spans = [(i, s, e) for i, c in enumerate(contents) for s, e in find_phrase(phrase, c)]
            facts.append(Fact(phrase.strip(), tuple(spans)))
    return facts


# --- strategies ------------------------------------------------------------------------------
