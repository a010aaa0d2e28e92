"""``python -m compactor graded FILE``: the compactions an agent recorded (Claude Code, Codex),
each summary graded beside every strategy of the lineup at the same size."""

from __future__ import annotations

import argparse

from compactor.analyses import grade
from compactor.analyses.pricing import TokenCounter, graded_costs
from compactor.cli._anchors import add_conversation_arguments
from compactor.cli._commands import help_of
from compactor.cli._io import (
    add_indent_argument,
    add_input_argument,
    emit,
    indent_of,
    reports_bad_input,
)
from compactor.cli._params import add_parameter_arguments, add_watch_argument, overrides
from compactor.cli._pricing import add_price_arguments, priced_model
from compactor.cli._records import read_input
from compactor.contract import AUTO_LIMITS
from compactor.input import validate

DESCRIPTION = """\
Grade the compactions a Claude Code transcript (compact_boundary and its isCompactSummary
message) or a Codex rollout (compacted items) recorded. At each one, the history the tool had
before it, whole (from the start of the session, or from the previous compaction's summary and
boundary), is compacted by every strategy of the lineup (memory-compact with the parameters,
keep-last, drop-oldest (the recency trim), LangChain when installed) in the agent mode (no
window or cut) with budget_chars = the characters of the summary the tool wrote (within
100..2,000,000), and the summary and each strategy are judged on the messages after the
boundary, up to the next recorded compaction: needed-later recall (SPEC part D; a summary keeps
a need when the anchor's text occurs in it), re-read recall (judge: re-read, files the agent
read again after the compaction: a Read after it of lines a Read of the history returned, with
no Edit, Write, MultiEdit or NotebookEdit of the file between; a strategy holds one when half of
the earlier result's characters are in what it kept verbatim, the summary when half of the
result's lines occur in it; random, the mean of 20 draws of whole messages at the same budget,
beside keep-last) and the history's anchors kept. Repeated Grep/Glob searches and Bash commands
are listed apart, not as needs. Messages are counted as `import` makes them: an assistant turn
with its tool calls is one message, each tool result one.

Prints {"recorded_compactions", "compactions": [{"compaction", "boundary", "trigger",
"pre_tokens", "post_tokens", "summary_chars", "past_messages", "future_messages",
"budget_chars", "valid", "rereads": {"judge", "rereads", "chars", "chars_read_again", "files":
[{"file", "before", "before_result", "before_lines", "after", "after_result", "after_lines",
"chars", "chars_again"}], "repeated_searches", "repeated_commands", "random": {"draws",
"rereads", "held", "recall"}}, "anchors", "rows": [{"key", "name", "output_chars",
"needed_later_recall", "reread_recall": {"rereads", "held", "recall"}, "anchors_kept"}]}]} as
JSON; the recorded summary is the row "recorded"; a recall is a share 0..1, null without
re-reads.
A conversation with no recorded compaction prints an empty list. FILE is any conversation
`import` reads, or '-' for standard input; it is read whole, and the fixes of `import`
(--keep-last [M], --keep-first N, --range A:B, --cut-long) are there to choose, no longer needed
(a compaction with no kept message before it is left out). With --model or --prices, each row
has its cost: the recorded summary's call (the history read from the cache, the summary as
output) and every row's rewrite of the cache (the next call writes what it kept); docs/cost.md.
Exit 0 on success; 2 when the
input cannot be used, one line per problem (a path, or line and column)."""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "graded",
        help=help_of("graded"),
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_argument(parser)
    add_conversation_arguments(parser)
    add_watch_argument(parser)
    add_parameter_arguments(parser)
    add_price_arguments(parser)
    add_indent_argument(parser)
    parser.set_defaults(run=run)


@reports_bad_input
def run(args: argparse.Namespace) -> int:
    found = read_input(args, overrides(args), limits=False)
    compactions = found.conversion.compactions if found.conversion else ()
    model = priced_model(args)
    graded = grade(validate(found.request, limits=AUTO_LIMITS), compactions, watched=args.watch)
    out = graded.to_dict()
    if model is not None:
        counter = TokenCounter.best()
        for g, said in zip(graded.compactions, out["compactions"], strict=True):
            if not g.valid:
                continue
            costs = graded_costs(g, model, counter=counter, lifetime_seconds=args.cache_lifetime)
            for row in said["rows"]:
                if row["key"] in costs:
                    row["cost"] = costs[row["key"]].to_dict()
        out["cost"] = {
            "model": model.key,
            "tokens": counter.method,
            "approximate": not counter.exact_for(model),
        }
    return emit(out, indent_of(args))
