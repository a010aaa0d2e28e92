"""``python -m compactor compact FILE``: compact a request, or any conversation the importer reads,
and print the response or the compacted conversation in a provider's format."""

from __future__ import annotations

import argparse

from compactor.cli._commands import help_of
from compactor.cli._io import (
    add_indent_argument,
    add_input_argument,
    emit,
    fail,
    indent_of,
    reports_bad_input,
)
from compactor.cli._params import (
    add_parameter_arguments,
    overrides,
    setting_of,
    with_token_budget,
)
from compactor.cli._records import add_fix_arguments, add_source_arguments, read_input
from compactor.cli._reports import write_lines
from compactor.contract import AGENT_LIFTED, AGENT_LIMITS, CONTRACT_LIMITS, LIMITS
from compactor.engine import compact
from compactor.formats import FORMATS, TARGETS, WRITABLE, export, resolve

#: The formats ``--emit`` writes, each with its line of the format registry.
EMIT_LIST = "\n".join(f"  {name:<11} {FORMATS[name].label}" for name in WRITABLE)
DESCRIPTION = f"""\
Compact a conversation and print the result.

FILE is a memory-compact request (the catalog's input schema: messages, budget_chars and
optional keep_last_n, keep_roles, duplicate_threshold, max_message_chars), or any conversation
`import` reads ({", ".join(FORMATS)}): it is imported first, and the import's report (every
change it made) goes to standard error. --setting FILE (a compaction.toml, as the explorer's
'Download setting' writes it) gives the parameters and the budget (a budget in tokens becomes
the largest budget_chars whose output fits it); the parameter options override the file's own
values and the setting's.

--emit chooses what is printed:
  response    the memory-compact response (the default): survivors, stages, loss, budget
{EMIT_LIST}
  same        the file's own format, when it is one of those
In the provider formats the import's call lines ('[tool call NAME id=ID] ARGUMENTS') become
structured calls again. Where compaction kept a call without its result, a result without its
call, or cut a call's line with a trim, that orphan half is dropped and each drop is reported on
standard error (--keep-orphans keeps them as text instead); nothing else is changed.

Exit 0 on success; 2 when the input is not JSON, not a conversation, breaks the schema (every
problem on standard error, nothing on standard output), or needs a fix not chosen (a request
holds at most {LIMITS["max_messages"]} messages: --keep-last [M], --keep-first N, --range A:B,
--cut-long; the report names what they left out). --agent takes a whole agent session instead:
the same four stages and response, with only these checks lifted: {"; ".join(AGENT_LIFTED)}."""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "compact",
        help=help_of("compact"),
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_argument(parser)
    add_parameter_arguments(parser)
    parser.add_argument(
        "--emit",
        choices=TARGETS,
        default="response",
        metavar="TARGET",
        help=f"what to print: {', '.join(TARGETS)} (default response)",
    )
    parser.add_argument(
        "--keep-orphans",
        action="store_true",
        help="keep a call without its result (or a result without its call) as plain text "
        "instead of dropping it",
    )
    parser.add_argument(
        "--agent",
        action="store_true",
        help="the agent mode: a whole session, any number of messages and contents of any "
        "length, a budget up to 2,000,000 characters; no window or cut needed",
    )
    add_source_arguments(parser)
    add_fix_arguments(parser)
    add_indent_argument(parser)
    parser.set_defaults(run=run)


@reports_bad_input
def run(args: argparse.Namespace) -> int:
    setting = setting_of(args)
    # --agent, or a setting that says limits = "agent" (its budget may be over 400,000)
    args.agent = args.agent or (setting is not None and setting.limits == AGENT_LIMITS)
    found = read_input(args, overrides(args), limits=not args.agent)
    request = with_token_budget(args, found.request)
    conversion = found.conversion
    try:
        target = resolve(args.emit, conversion.format if conversion else "request")
    except ValueError as error:
        return fail([str(error)])
    response = compact(request, limits=AGENT_LIMITS if args.agent else CONTRACT_LIMITS)
    empty = {call for _, call in conversion.removed_results} if conversion else set()
    exported = export(
        response, request, target, keep_orphans=args.keep_orphans, empty_results=empty
    )
    write_lines(f"export {exported.target}: {note}" for note in exported.notes)
    return emit(exported.value, indent_of(args))
