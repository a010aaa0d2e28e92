"""``python -m compactor serve``: run the HTTP service with uvicorn (the ``service`` extra)."""

from __future__ import annotations

import argparse
import os
import sys

from compactor.cli._commands import help_of
from compactor.cli._io import fail
from compactor.wording import install_command

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8080
INSTALL_HINT = (
    "the HTTP service needs FastAPI and uvicorn, which are not installed ({missing}).\n"
    "Install them with: " + install_command("service") + "   (from the project folder)"
)


def _at_least(minimum: int, what: str):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            message = f"{what} must be a whole number, not {text!r}"
            raise argparse.ArgumentTypeError(message) from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{what} must be at least {minimum}, not {value}")
        return value

    return parse


def _port(text: str) -> int:
    value = _at_least(0, "the port")(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"the port must be at most 65535, not {value}")
    return value


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "serve",
        help=help_of("serve"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=(
            "Serve the engine over HTTP with uvicorn:\n"
            "  POST /v1/memory-compact   the memory-compact response, exactly as `compact` prints\n"
            "  POST /v1/context/trim     the recency trim by token estimate, with its stats\n"
            "  GET  /healthz             liveness check\n"
            "  GET  /docs                interactive API documentation (OpenAPI at /openapi.json)\n"
            "\n"
            'Errors are JSON: {"error": {"status", "title", "problems": [...]}}; each problem has\n'
            'a "message" and a JSON "path" into the request, or a "line" and "column" of the\n'
            "body.\n"
            "Status codes: 400 not JSON, 404 no such path, 405 wrong method, 413 body over the\n"
            "limit, 415 not application/json, 422 breaks the schema, 500 unexpected (no details).\n"
            "\n"
            "The service listens on the loopback interface unless --host says otherwise. It has\n"
            "no authentication: put it behind a gateway before exposing it to a network.\n"
            f"Needs the service extra: {install_command('service')}. Stop it with Ctrl-C."
        ),
    )
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"interface to listen on (default {DEFAULT_HOST}; 0.0.0.0 for every interface)",
    )
    parser.add_argument(
        "--port",
        type=_port,
        default=DEFAULT_PORT,
        metavar="N",
        help=f"TCP port (default {DEFAULT_PORT})",
    )
    parser.add_argument(
        "--workers",
        type=_at_least(1, "workers"),
        default=1,
        metavar="N",
        help="worker processes (default 1); the engine is CPU-bound, so up to one per core",
    )
    parser.add_argument(
        "--processes",
        type=_at_least(0, "processes"),
        default=None,
        metavar="N",
        help="compute processes per worker for bodies of 64 KiB or more, so that the worker "
        "keeps answering (/healthz) while they run (default: one per core; 0 runs everything "
        "in the worker)",
    )
    parser.add_argument(
        "--max-body-bytes",
        type=_at_least(1, "the body limit"),
        default=None,
        metavar="N",
        help="largest request body accepted, in bytes (default 4194304, 4 MiB); "
        "larger ones get 413 before they are read",
    )
    parser.add_argument(
        "--log-level",
        choices=["critical", "error", "warning", "info", "debug"],
        default="info",
        help="uvicorn's log level (default info)",
    )
    parser.add_argument(
        "--no-access-log",
        dest="access_log",
        action="store_false",
        help="do not log one line per request",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    missing = [
        name for name in ("fastapi", "uvicorn", "swagger_ui_bundle") if not _importable(name)
    ]
    if missing:
        print(INSTALL_HINT.format(missing=", ".join(missing)), file=sys.stderr)
        return 2
    import uvicorn

    from compactor import service

    limit = args.max_body_bytes
    if limit is None:
        given = os.environ.get(service.MAX_BODY_ENV)
        try:
            limit = _at_least(1, service.MAX_BODY_ENV)(given) if given else None
        except argparse.ArgumentTypeError as error:
            print(f"python -m compactor serve: {error}", file=sys.stderr)
            return 2
    problems = _providers_problems()
    if problems:
        # Checked here, once: each worker would otherwise fail to build its app, and be
        # started again, behind "Uvicorn running", with a traceback each time.
        return fail(problems)
    # Worker processes build their own app: they read the limit from the environment.
    os.environ[service.MAX_BODY_ENV] = str(limit or service.DEFAULT_MAX_BODY_BYTES)
    if args.processes is not None:
        os.environ[service.PROCESSES_ENV] = str(args.processes)
    uvicorn.run(
        "compactor.service:create_app_from_environment",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level=args.log_level,
        access_log=args.access_log,
        server_header=False,
    )
    return 0


def _providers_problems() -> list[str]:
    """What makes the providers file ``COMPACTOR_PROVIDERS`` names unusable (none: fine, or no
    file), read as each worker's app will read it."""
    from compactor.errors import ProblemError
    from compactor.providers import PROVIDERS_ENV, ProviderRegistry

    try:
        ProviderRegistry.from_environment()
    except ProblemError as error:
        where = os.environ.get(PROVIDERS_ENV, "").strip()
        return [
            f"python -m compactor serve: the providers file {where} ({PROVIDERS_ENV}) cannot be "
            "used; fix it, or unset the variable to serve without providers:",
            *(f"  {problem}" for problem in error.problems),
        ]
    return []


def _importable(name: str) -> bool:
    try:
        __import__(name)
    except ImportError:
        return False
    return True
