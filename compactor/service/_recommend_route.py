"""``POST /v1/recommend``: the command's ``recommend`` over HTTP, on conversations sent in the
body, within the server's limits (at most :data:`MAX_TRIALS` trials, no trial started after
:data:`MAX_SECONDS` seconds, at most :data:`MAX_CONVERSATIONS` conversations), answering the same
JSON as ``recommend --json`` with the ``compaction.toml`` text in it.

The body::

    {"conversations": [{"messages": [...]}, ...],      # or "conversation": {"messages": [...]}
     "goal": {"budget_chars": 4000, "objective": "needed", ...},
     "trials": 20, "seed": 0, "timeout_seconds": 10, "check_share": 0.3, "strategies": [...]}

Every problem names its JSON path (``conversations[3].messages[2].role``, ``goal.floor``,
``trials``); nothing is read from the server's files (no price file: the shipped table).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from types import NoneType
from typing import Any, get_args, get_type_hints

from compactor.contract import AUTO_LIMITS
from compactor.errors import InvalidRequest, Problem, ProblemError, UnreadableJSON
from compactor.evaluation import CorpusItem
from compactor.input import parse_json, validate
from compactor.recommend import SPACES, Goal, Options, RecommendUnavailable, recommend
from compactor.service._handling import TITLES, encode, error_body

#: The server's limits on one request (docs/service.md): trials, seconds, conversations.
MAX_TRIALS = 50
MAX_SECONDS = 30.0
MAX_CONVERSATIONS = 500
DEFAULT_TRIALS = 20

#: :class:`~compactor.recommend.Goal`'s fields a client may not set: a file on the server's
#: disk (the price table: the shipped one is used) and the tokenizer's encoding (the server's).
SERVER_SIDE = ("prices", "encoding")


def _goal_keys() -> dict[str, type]:
    """The goal's keys, each with its kind: every field of Goal but :data:`SERVER_SIDE`, so that a
    field added to Goal is a key here without a second list to keep."""
    hints = get_type_hints(Goal)
    keys = {}
    for field in fields(Goal):
        if field.name not in SERVER_SIDE:
            kinds = [
                k for k in get_args(hints[field.name]) or (hints[field.name],) if k is not NoneType
            ]
            keys[field.name] = kinds[0]
    return keys


#: The goal's keys: :class:`~compactor.recommend.Goal`'s fields a client may set, with their kind.
GOAL_KEYS = _goal_keys()
BODY_KEYS = (
    "conversations",
    "conversation",
    "goal",
    "trials",
    "seed",
    "timeout_seconds",
    "check_share",
    "strategies",
)

#: An example body (two conversations are the fewest a split can tune on and check on).
EXAMPLE: dict[str, Any] = {
    "conversations": [
        {
            "messages": [
                {"role": "user", "content": f"My order QX-{7000 + k} ships to Lyon."},
                {"role": "assistant", "content": "Noted."},
                {"role": "user", "content": f"Any news on QX-{7000 + k}?"},
            ]
        }
        for k in range(2)
    ],
    "goal": {"budget_chars": 900, "objective": "needed"},
    "trials": 4,
    "seed": 0,
}


def recommend_body(value: Any) -> dict[str, Any]:
    """The recommendation for the body ``value`` (parsed JSON), as ``recommend --json`` prints
    it. Raises InvalidRequest whose problems name their JSON paths."""
    if not isinstance(value, dict):
        raise InvalidRequest([Problem("must be an object", "$")])
    problems = [
        Problem(f"is not a key of the body; the keys are {', '.join(BODY_KEYS)}", key)
        for key in value
        if key not in BODY_KEYS
    ]
    goal = _goal(value.get("goal"), problems)
    items = _conversations(value, 4000 if goal is None else goal.chars, problems)
    options = _options(value, problems)
    if problems:
        raise InvalidRequest(problems)
    assert goal is not None and options is not None
    try:
        found = recommend(items, goal, options)
    except ProblemError as error:  # the goal, the corpus, a floor no trial reached
        one = "conversation" in value
        raise InvalidRequest([_in_body(p, one) for p in error.problems]) from None
    return found.to_dict()


def handle_recommend(body: bytes) -> tuple[int, bytes]:
    """The status and JSON answer to a ``POST /v1/recommend`` body: 400 not JSON, 422 a body
    the recommendation refuses (each problem at its JSON path), 503 without the recommend
    extra, 200 the recommendation (a module function: a compute process runs it)."""
    try:
        value = parse_json(body)
    except UnreadableJSON as error:
        return 400, encode(error_body(400, error.problems))
    try:
        return 200, encode(recommend_body(value))
    except RecommendUnavailable as error:
        return 503, encode(error_body(503, error.problems, UNAVAILABLE))
    except InvalidRequest as error:
        return 422, encode(error_body(422, error.problems))


#: The titles of this endpoint's answers: the service's, and 503 without Optuna.
UNAVAILABLE = {**TITLES, 503: "Recommend is not installed on this server"}


def _conversations(
    value: Mapping[str, Any], budget: int, problems: list[Problem]
) -> list[CorpusItem]:
    if ("conversations" in value) == ("conversation" in value):
        problems.append(Problem("give either conversations (a list) or conversation", "$"))
        return []
    if "conversation" in value:
        given, prefix = [value["conversation"]], "conversation"
    else:
        given = value["conversations"]
        if not isinstance(given, list) or not given:
            problems.append(Problem("must be a list of at least one conversation", "conversations"))
            return []
        if len(given) > MAX_CONVERSATIONS:
            problems.append(
                Problem(
                    f"has {len(given):,} conversations; the server takes at most "
                    f"{MAX_CONVERSATIONS:,}",
                    "conversations",
                )
            )
            return []
        prefix = "conversations"
    items = []
    for k, conversation in enumerate(given):
        where = prefix if prefix == "conversation" else f"{prefix}[{k}]"
        if not isinstance(conversation, dict):
            problems.append(Problem("must be an object with messages", where))
            continue
        request = {"budget_chars": budget, **conversation}
        try:
            validate(request, limits=AUTO_LIMITS)  # a whole session: the agent mode
        except InvalidRequest as error:
            problems += [
                Problem(p.message, f"{where}.{p.path}" if p.path else where) for p in error.problems
            ]
            continue
        items.append(CorpusItem(k, request))
    return items


def _goal(goal: Any, problems: list[Problem]) -> Goal | None:
    if not isinstance(goal, dict):
        problems.append(Problem("must be an object with one budget (budget_chars, ...)", "goal"))
        return None
    fields: dict[str, Any] = {}
    for key, value in goal.items():
        kind = GOAL_KEYS.get(key)
        if kind is None:
            problems.append(
                Problem(f"is not a goal key; the keys are {', '.join(GOAL_KEYS)}", f"goal.{key}")
            )
        elif not _is(value, kind):
            problems.append(Problem(f"must be {_KINDS[kind]}, not {value!r}", f"goal.{key}"))
        else:
            fields[key] = value
    if any(p.path.startswith("goal") for p in problems if p.path):
        return None
    found = Goal(**fields)
    try:
        found.check()
    except ProblemError as error:
        problems += [_in_body(p) for p in error.problems]
        return None
    return found


def _options(value: Mapping[str, Any], problems: list[Problem]) -> Options | None:
    before = len(problems)
    trials = value.get("trials", DEFAULT_TRIALS)
    if not _is(trials, int) or not 1 <= trials <= MAX_TRIALS:
        problems.append(
            Problem(f"must be a whole number from 1 to {MAX_TRIALS} (the server's limit)", "trials")
        )
    seconds = value.get("timeout_seconds", MAX_SECONDS)
    if not _is(seconds, float) or not 0 < seconds <= MAX_SECONDS:
        problems.append(
            Problem(
                f"must be a number of seconds above 0 and at most {MAX_SECONDS:g} (the server's "
                "limit)",
                "timeout_seconds",
            )
        )
    seed = value.get("seed", 0)
    if not _is(seed, int):
        problems.append(Problem(f"must be a whole number, not {seed!r}", "seed"))
    share = value.get("check_share", 0.3)
    if not _is(share, float) or not 0 < share < 1:
        problems.append(Problem("must be a share above 0 and below 1", "check_share"))
    strategies = value.get("strategies")
    if strategies is not None:
        if not isinstance(strategies, list) or not strategies:
            problems.append(Problem("must be a list of strategy names", "strategies"))
        else:
            for k, name in enumerate(strategies):
                if name not in SPACES:
                    problems.append(
                        Problem(
                            f"has no search space; choose from {', '.join(SPACES)}",
                            f"strategies[{k}]",
                        )
                    )
    if len(problems) > before:
        return None
    return Options(
        trials=trials,
        timeout=float(seconds),
        seed=seed,
        check_share=float(share),
        strategies=None if strategies is None else tuple(strategies),
        workers=1,  # the request's own process: the compute pool's, or the worker's thread
    )


_KINDS = {
    int: "a whole number",
    float: "a number",
    bool: "true or false",
    str: "a string",
}


def _is(value: Any, kind: type) -> bool:
    if kind is bool:
        return isinstance(value, bool)
    if isinstance(value, bool):
        return False
    if kind is float:
        return isinstance(value, int | float)
    return isinstance(value, kind)


def _in_body(problem: Problem, one: bool = False) -> Problem:
    """A goal's or corpus's problem at its path in the body (``goal.floor``, a conversation
    named by its index: ``conversations[3]``, or ``conversation`` when ``one``)."""
    path = problem.path or "$"
    if path in GOAL_KEYS or path == "budget":
        path = f"goal.{path}"
    elif path == "corpus":
        path = "conversation" if one else "conversations"
    elif path.isdigit():
        path = "conversation" if one else f"conversations[{path}]"
    return Problem(problem.message, path, problem.line, problem.column)
