"""The command list: each command's name, the one line ``--help`` gives it, and the module that
registers its arguments and runs it. Light on purpose: ``python -m compactor`` reads this list,
and imports a command's module (and the layers it needs) only when that command runs."""

from __future__ import annotations

from typing import NamedTuple


class Command(NamedTuple):
    """A subcommand: ``module`` has ``register(sub)``, which adds its parser (with ``help``).
    (A named tuple, not a dataclass: ``--help`` then loads no ``dataclasses`` nor ``inspect``.)"""

    name: str
    module: str
    help: str


#: Every subcommand, in the order ``--help`` lists them.
COMMANDS = (
    Command(
        "compact",
        "compactor.cli._compact",
        "compact a request or conversation; print the response or a provider's messages",
    ),
    Command(
        "shrink",
        "compactor.cli._shrink",
        "compact a conversation with a compaction.toml; print it in its own format",
    ),
    Command(
        "import",
        "compactor.cli._import",
        "convert a conversation in any format the registry reads to a request",
    ),
    Command(
        "sweep",
        "compactor.cli._sweep",
        "print the smallest budget_chars from which each message survives",
    ),
    Command(
        "replay",
        "compactor.cli._replay",
        "replay a conversation through a loop that compacts it on every turn",
    ),
    Command(
        "anchors",
        "compactor.cli._anchors",
        "print every anchor (ids, amounts, dates, URLs, paths, code names) and its survival",
    ),
    Command(
        "outcomes",
        "compactor.cli._outcomes",
        "needed-later recall, role balance and probes, beside keep-last and random",
    ),
    Command(
        "report",
        "compactor.cli._report",
        "write one decision (or a corpus's summary) as a self-contained HTML report",
    ),
    Command(
        "graded",
        "compactor.cli._graded",
        "grade the compactions a Claude Code or Codex log recorded against every strategy",
    ),
    Command(
        "tokens",
        "compactor.cli._tokens",
        "count each message's tokens with an offline tokenizer, beside the chars/4 estimate",
    ),
    Command(
        "similar",
        "compactor.cli._similar",
        "print same-role message pairs close in meaning whose word overlap dedupe misses",
    ),
    Command(
        "summarize",
        "compactor.cli._summarize",
        "summarise the older messages with a language model (LLM compact)",
    ),
    Command(
        "evaluate",
        "compactor.cli._evaluate",
        "evaluate a grid of settings over a corpus of conversations (rows and a summary)",
    ),
    Command(
        "recommend",
        "compactor.cli._recommend",
        "search strategies and parameters for the best setting under a goal; write compaction.toml",
    ),
    Command(
        "serve",
        "compactor.cli._serve",
        "run the HTTP service (POST /v1/memory-compact, POST /v1/context/trim)",
    ),
)

_BY_NAME = {command.name: command for command in COMMANDS}


def help_of(name: str) -> str:
    """The one line ``--help`` gives the command ``name`` (a name of :data:`COMMANDS`)."""
    return _BY_NAME[name].help


def command_named(name: str) -> Command | None:
    """The command called ``name``, or None."""
    return _BY_NAME.get(name)
