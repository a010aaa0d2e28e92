"""The compacted conversation as turns with structured tool calls, each paired with its result.

Providers reject a tool call without its result and a result without its call, and want the
results right after the message that made the calls (before any other message). Compaction can
keep one half of a pair, or cut a call's line with a trim; such an orphan half is dropped here
and each drop is reported (or, with ``keep_orphans``, kept as plain text). A call without an id
gets one, and a call repeating an earlier call's id gets a fresh one, its result too, each said
in a note (:mod:`compactor.formats._ids`): providers refuse two calls of one id. Nothing else
changes: every other character of every returned content is in the turns.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from compactor.formats._calls import Call, Piece, calls_in, join, split
from compactor.formats._ids import IdPlan, ids_in


@dataclass
class Turn:
    """One compacted message, ready for a provider: its text pieces and structured calls."""

    role: str
    index: int  # the message's index in the request (#N)
    pieces: list[Piece]  # text and calls in order; calls here are structured unless ``as_text``
    id: str | None = None  # the message's id (for a tool result: the call it answers)
    answers: str | None = None  # a tool result: the id of the call it answers
    as_text: set[int] = field(default_factory=set)  # positions of calls kept as plain text
    restored: bool = False  # an empty result the import had removed, given back

    @property
    def calls(self) -> list[Call]:
        return [p.call for k, p in enumerate(self.pieces) if p.call and k not in self.as_text]

    @property
    def text(self) -> str:
        kept = [
            (p.call is not None, p.text)
            for k, p in enumerate(self.pieces)
            if (p.call is None and p.text) or k in self.as_text
        ]
        return join(kept)


@dataclass(frozen=True)
class Structured:
    turns: tuple[Turn, ...]
    notes: tuple[str, ...]  # each drop (or orphan kept as text), each restored result


def structure(
    response: Mapping[str, Any],
    request: Mapping[str, Any],
    *,
    keep_orphans: bool = False,
    empty_results: Collection[str] = (),
) -> Structured:
    """The response's messages as turns, with the call lines of assistant messages structured.

    ``request`` is the compacted request (its contents show where a trim cut a call's line);
    ``empty_results`` are call ids whose (empty) result the import removed: such a call that
    survives gets its empty result back instead of being dropped.
    """
    originals = request["messages"]
    notes: list[str] = []
    turns: list[Turn] = []
    cut_ids: set[str] = set()
    for message in response["messages"]:
        index, role, content = message["index"], message["role"], message["content"]
        if role == "assistant":
            pieces, cut = _assistant_pieces(index, content, originals[index]["content"])
            turn = Turn(role, index, pieces, message.get("id"))
            for k in cut:
                call = pieces[k].call
                cut_ids.add(call.id)
                if keep_orphans:
                    turn.as_text.add(k)
                    notes.append(f"#{index}: a trim cut the call to {call.name}; kept as text")
                else:
                    notes.append(
                        f"#{index}: dropped the call to {call.name} id={call.id}: a trim cut its "
                        "line, so it cannot be sent"
                    )
            if not keep_orphans:
                turn.pieces = [p for k, p in enumerate(pieces) if k not in cut]
        else:
            turn = Turn(role, index, [Piece(text=content)], message.get("id"))
            if role == "tool":
                turn.answers = message.get("id")
        turns.append(turn)
    _settle_ids(turns, IdPlan(taken=set(ids_in(originals))), notes)
    turns = _pair(turns, _Orphans(cut_ids, keep_orphans, set(empty_results)), notes)
    out = []
    for turn in turns:
        if turn.role == "assistant" and not turn.calls and not turn.text:
            notes.append(f"#{turn.index}: left out, it held only the call(s) dropped above")
            continue
        out.append(turn)
    return Structured(tuple(out), tuple(notes))


def _assistant_pieces(index: int, content: str, original: str) -> tuple[list[Piece], list[int]]:
    """The pieces of a returned (possibly trimmed) content, and the positions of cut calls.

    Call lines are found in the original content, so a line the trim cut is known as a call.
    A call without an id gets ``call_<message>_<k>``: providers need one to pair its result.
    """
    length = len(content)
    found: list[Call] = []
    cut_at: set[int] = set()
    for k, call in enumerate(calls_in(original)):
        if call.start >= length:
            break  # trimmed away entirely: not in the output at all
        call = replace(call, id=call.id or f"call_{index}_{k}")
        if call.end > length:
            call = replace(call, end=length)
            cut_at.add(call.start)
        found.append(call)
    pieces = [_with_line(p, content) for p in split(content, found)]
    cut = [k for k, p in enumerate(pieces) if p.call is not None and p.call.start in cut_at]
    return pieces, cut


def _settle_ids(turns: list[Turn], plan: IdPlan, notes: list[str]) -> None:
    """No two calls of the turns share an id: a repeated one gets a fresh id, and so do the
    results right after its turn that answered it (each said in ``notes``)."""
    for turn in turns:
        if turn.role == "tool":
            turn.answers = turn.id = plan.result(turn.answers)
            continue
        positions = [k for k, p in enumerate(turn.pieces) if p.call and k not in turn.as_text]
        if turn.role != "assistant" or not positions:
            plan.other()
            continue
        calls = [turn.pieces[k].call for k in positions]
        ids = plan.calls(turn.index, [(c.name, c.id) for c in calls if c is not None])
        for k, call, new in zip(positions, calls, ids, strict=True):
            if call is not None and new != call.id:
                turn.pieces[k] = replace(turn.pieces[k], call=replace(call, id=new))
    notes += plan.notes


def _with_line(piece: Piece, content: str) -> Piece:
    """A call piece carries its line as written, for when it is kept as text."""
    if piece.call is None:
        return piece
    return Piece(text=content[piece.call.start : piece.call.end], call=piece.call)


@dataclass(frozen=True)
class _Orphans:
    """How the pairing treats a half without its other half: the calls a trim cut, whether an
    orphan is kept as text (else dropped), and the calls whose empty result the import removed."""

    cut_ids: set[str]
    keep: bool
    empty: set[str]


def _pair(turns: list[Turn], orphans: _Orphans, notes: list[str]) -> list[Turn]:
    """Results right after their calls' message; orphans dropped (or kept as text)."""
    out: list[Turn] = []
    open_turn: Turn | None = None  # the assistant message whose results may follow
    answered: set[str] = set()
    for turn in turns:
        if turn.role != "tool":
            out += _close(open_turn, answered, orphans, notes)
            open_turn = turn if turn.role == "assistant" and turn.calls else None
            answered = set()
            out.append(turn)
            continue
        call = _answered_call(turn, open_turn, answered)
        if call is None:
            out += _orphan_result(turn, orphans, notes)
            continue
        answered.add(call.id)
        turn.answers = turn.id = call.id
        out.append(turn)
    out += _close(open_turn, answered, orphans, notes)
    return out


def _close(
    open_turn: Turn | None, answered: set[str], orphans: _Orphans, notes: list[str]
) -> list[Turn]:
    """Settle the calls of ``open_turn`` no result answered: each gets its empty result back
    (returned, to follow the turn) or is kept as text or dropped from the turn."""
    if open_turn is None:
        return []
    restored = []
    for k, piece in enumerate(open_turn.pieces):
        call = piece.call
        if call is None or k in open_turn.as_text or call.id in answered:
            continue
        where = f"#{open_turn.index}"
        if call.id in orphans.empty:
            result = Turn("tool", open_turn.index, [Piece(text="")], call.id, call.id)
            result.restored = True
            restored.append(result)
            notes.append(
                f"{where}: gave back the empty result of the call to {call.name} "
                f"id={call.id} (the import had removed it, being empty)"
            )
        elif orphans.keep:
            open_turn.as_text.add(k)
            notes.append(
                f"{where}: the call to {call.name} id={call.id} has no result in "
                "the compacted conversation; kept as text"
            )
        else:
            open_turn.pieces[k] = Piece()
            notes.append(
                f"{where}: dropped the call to {call.name} id={call.id}: its "
                "result is not in the compacted conversation"
            )
    return restored


def _orphan_result(turn: Turn, orphans: _Orphans, notes: list[str]) -> list[Turn]:
    """A tool result without its call: as user text when orphans are kept, else nothing."""
    why = _orphan_why(turn, orphans.cut_ids)
    if orphans.keep:
        label = f"[tool result id={turn.answers}]" if turn.answers else "[tool result]"
        notes.append(f"#{turn.index}: the tool result has no call ({why}); kept as user text")
        return [Turn("user", turn.index, [Piece(text=f"{label} {turn.text}")])]
    named = f" for call {turn.answers}" if turn.answers else ""
    notes.append(f"#{turn.index}: dropped the tool result{named}: {why}")
    return []


def _orphan_why(turn: Turn, cut_ids: set[str]) -> str:
    if turn.answers in cut_ids:
        return "a trim cut its call's line"
    return "its call is not in the compacted conversation right before it"


def _answered_call(turn: Turn, open_turn: Turn | None, answered: set[str]) -> Call | None:
    """The open call this tool message answers: by id, or the next one when it has none."""
    if open_turn is None:
        return None
    calls = [c for c in open_turn.calls if c.id not in answered]
    if turn.answers is not None:
        return next((c for c in calls if c.id == turn.answers), None)
    return next(iter(calls), None)
