"""The command line: ``python -m compactor COMMAND`` (``main``), one module per command."""

from compactor.cli._main import build_parser, main

__all__ = ["build_parser", "main"]
