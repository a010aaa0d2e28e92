"""``python -m compactor shrink FILE --setting compaction.toml``: what ``compactor.shrink`` gives
an agent, from the command line: the conversation compacted by the setting, in its own format."""

from __future__ import annotations

import argparse
import sys

from compactor.cli._commands import help_of
from compactor.cli._io import (
    add_indent_argument,
    add_input_argument,
    emit,
    indent_of,
    read_bytes,
    reports_bad_input,
)
from compactor.cli._params import MEMORY_COMPACT, add_parameter_arguments, flag_values, setting_of
from compactor.cli._records import add_source_arguments, read_input
from compactor.errors import FormatError, Problem, ProblemError
from compactor.formats import WRITABLE, detect_format, read_document
from compactor.integrations import Setting, shrink_with_report

DESCRIPTION = f"""\
Compact a conversation with a chosen setting (a compaction.toml, as the explorer's 'Download
setting' writes it) and print it in the format it came in ({", ".join(WRITABLE)}): what
compactor.shrink(messages, setting) returns to an agent. Tool calls come back structured, and
the orphan half of a call and its result is dropped, never sent. The report (the budget used,
messages removed, cut and dropped) goes to standard error.

FILE is any file `import` reads (--format and --record as there). A conversation in a format
this tool only reads (JSON Lines, a Claude Code session, a Codex rollout, a record of a
collection: --record N) is imported as `import` reads it (its report on standard error) and
printed as a request: its messages compacted, with the parameters used.

The parameter flags override the setting's memory-compact parameters; --budget-chars replaces
its budget (in characters or tokens). Exit 0 on success; 2 when the input or the setting cannot
be used, one line per problem naming the file, key and line."""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "shrink",
        help=help_of("shrink"),
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_argument(parser)
    add_parameter_arguments(parser)
    add_source_arguments(parser)
    parser.add_argument(
        "--lossy-fixes",
        action="store_true",
        help="keep the last 200 messages and cut contents over 8,000 characters when needed",
    )
    add_indent_argument(parser)
    parser.set_defaults(run=run)


def chosen_setting(args: argparse.Namespace) -> Setting:
    """The --setting file's setting with the flags over it; ProblemError without one."""
    setting = setting_of(args)
    if setting is None:
        raise ProblemError([Problem("shrink needs --setting FILE (a compaction.toml)")])
    flags = flag_values(args)
    if not flags:
        return setting
    data = setting.to_dict()
    if "budget_chars" in flags:
        for key in ("budget_tokens", "encoding"):
            data.pop(key, None)
        data["budget_chars"] = flags.pop("budget_chars")
    if flags and setting.strategy != MEMORY_COMPACT:
        named = ", ".join(f"--{name.replace('_', '-')}" for name in flags)
        raise ProblemError(
            [
                Problem(
                    f"{named}: a memory-compact parameter, and this setting names "
                    f"{setting.strategy}",
                    path=f"{args.setting}: strategy",
                )
            ]
        )
    data["params"] = {**data.get("params", {}), **flags}
    return Setting.from_dict(data)


def _writable(data: object, args: argparse.Namespace) -> bool:
    """A conversation shrink writes back in its own format (one JSON value)."""
    if args.format is not None:
        return args.format in WRITABLE
    try:
        return detect_format(data) in WRITABLE
    except FormatError:
        return False


@reports_bad_input
def run(args: argparse.Namespace) -> int:
    setting = chosen_setting(args)
    raw = read_bytes(args.file)
    document = read_document(raw, args.format)
    one = document.data is not None and args.record is None and document.collection is None
    if not (one and _writable(document.data, args)):
        # written back as a request: the import's own form of it
        hint = "add --lossy-fixes to keep the last 200 messages and cut contents over 8,000"
        found = read_input(args, as_sent=lambda *_: False, raw=raw, fix_hint=hint)
        data, format = found.request, "request"
    else:
        data, format = document.data, args.format
    shrunk = shrink_with_report(data, setting, format=format, lossy_fixes=args.lossy_fixes)
    report = shrunk.report
    lines = [report.summary(), *(f"export: {note}" for note in report.export_notes)]
    sys.stderr.write("".join(f"{line}\n" for line in lines))
    return emit(shrunk.messages, indent_of(args))
