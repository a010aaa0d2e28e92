"""``python -m compactor report FILE --setting compaction.toml -o report.html``: the report a
customer keeps, one self-contained HTML file (no network, no server) of one decision, or of a
corpus's summary when FILE is a folder or a file of many conversations.

The page is written by the explorer's report layer (``explorer.report``: Jinja2 and Altair),
imported here only when the command runs, so the engine never loads Altair; without the
``report`` extra the command says how to install it.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from compactor.analyses.outcomes import DEFAULT_FUTURE
from compactor.cli._anchors import FILE_HELP, add_conversation_arguments, read_request
from compactor.cli._commands import help_of
from compactor.cli._io import MissingExtra, add_input_argument, read_bytes, reports_bad_input
from compactor.cli._params import add_parameter_arguments, flag_values, setting_of
from compactor.cli._pricing import add_price_arguments, priced_model
from compactor.cli._reports import write_lines
from compactor.errors import Problem, ProblemError
from compactor.wording import install_command, plural

EXTRA = "report"
INSTALL_HINT = (
    f"the report needs Jinja2, Altair and vl-convert-python (the {EXTRA} extra): "
    f"{install_command(EXTRA)}"
)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "report",
        help=help_of("report"),
        description=(
            "Write the report of one decision as one self-contained HTML file (styles, charts "
            "and data inside: it opens from disk or an e-mail attachment with no network): the "
            "conversation before and after with each message's reason, what each stage "
            "removed, needed-later recall beside keep-last and random (the judge named), every "
            "strategy at the same budget, the cost per turn (the stable prefix a prompt cache "
            "reuses), the setting as a compaction.toml block, the version and the date. A "
            "folder, or a file of many conversations, gives the corpus summary instead: the "
            "setting and keep-last and random at its budget over every conversation. "
            f"{FILE_HELP} Exit 0 on success; 2 when the input cannot be used, one line per "
            "problem."
        ),
    )
    add_input_argument(parser)
    add_conversation_arguments(parser)
    parser.add_argument(
        "-o",
        "--out",
        metavar="FILE",
        required=True,
        help="the HTML file to write (compaction-report-DATE.html is the explorer's name)",
    )
    parser.add_argument(
        "--redacted",
        action="store_true",
        help="replace every message's content by its length and fate (and leave out ids and "
        "the file's name), for a reader who may not see the traffic",
    )
    parser.add_argument(
        "--future",
        type=int,
        default=DEFAULT_FUTURE,
        metavar="K",
        help=f"the last K messages are the future of the outcome figures (default "
        f"{DEFAULT_FUTURE})",
    )
    add_parameter_arguments(parser)
    add_price_arguments(parser)
    parser.set_defaults(run=run)


def _report_layer() -> Any:
    try:
        import explorer.report as report
    except ImportError as missing:
        raise MissingExtra(f"{INSTALL_HINT} ({missing})") from None
    return report


def is_corpus(args: argparse.Namespace) -> bool:
    """FILE is a folder, or a file of many conversations read without ``--record``."""
    if args.file != "-" and Path(args.file).is_dir():
        return True
    if getattr(args, "record", None) is not None or args.file == "-":
        return False
    from compactor.formats import ManyConversations, convert_document, read_document

    try:
        convert_document(read_document(read_bytes(args.file), args.format), args.format, None)
    except ManyConversations:
        return True
    except ProblemError:
        return False  # said when the conversation is read, with where
    return False


@reports_bad_input
def run(args: argparse.Namespace) -> int:
    report = _report_layer()
    if args.future < 1:
        raise ProblemError([Problem(f"--future must be at least 1, not {args.future}")])
    if is_corpus(args):
        made = corpus_report(args, report)
    else:
        request = read_request(args)
        name = None if args.file == "-" else Path(args.file).name
        made = report.decision_report(
            request,
            setting=shown_setting(args, request),
            future=args.future,
            redacted=args.redacted,
            name=name,
            model=priced_model(args),
            cache_lifetime=args.cache_lifetime,
        )
    _write(args.out, report.render(made))
    write_lines([f"wrote {args.out}"])
    return 0


def shown_setting(args: argparse.Namespace, request: Any) -> Any:
    """The setting the report shows: ``--setting``'s file as it is, or, when a flag overrides
    it, the parameters that ran with the file's name and note (None: the request's own)."""
    setting = setting_of(args)
    if setting is None or not flag_values(args):
        return setting
    from compactor.strategies import Setting, SettingError

    values = request.params.to_dict()
    params = {k: v for k, v in values.items() if k != "budget_chars"}
    try:
        return Setting(
            strategy=setting.strategy,
            params=params,
            budget_chars=values["budget_chars"],
            name=setting.name,
            note=setting.note,
        )
    except SettingError:  # a budget beyond a setting's range: the report says there is none
        return None


def corpus_report(args: argparse.Namespace, report: Any) -> Any:
    """The corpus summary of FILE at the setting's budget (``--setting``, or ``--budget-chars``
    with the flags), the setting beside keep-last and random."""
    from compactor.cli._params import overrides
    from compactor.evaluation import RunOptions, evaluate, grid_points, load_corpus, summarise

    given = overrides(args)
    budget = given.pop("budget_chars", None)
    if budget is None:
        raise ProblemError(
            [Problem("a corpus report needs a budget: --setting compaction.toml or --budget-chars")]
        )
    items = load_corpus(
        args.file,
        args.format,
        keep_last=getattr(args, "fix_keep_last", None) is not None,
        cut_long=bool(getattr(args, "cut_long", False)),
    )
    rows = evaluate(items, grid_points(given), [budget], RunOptions(workers=1, future=args.future))
    summaries = summarise(rows)
    write_lines([f"summarised {plural(len(items), 'conversation')} at {budget:,} characters"])
    setting = setting_of(args)
    name = None if args.redacted else Path(args.file).name
    return report.corpus_report(summaries, conversations=len(items), setting=setting, name=name)


def _write(path: str, text: str) -> None:
    try:
        Path(path).write_text(text, "utf-8")
    except OSError as error:
        raise ProblemError(
            [Problem(f"cannot write the report: {error.strerror}", path=path)]
        ) from None
