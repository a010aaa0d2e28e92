"""CLI subcommands: each module here has ``register(subparsers)`` and becomes one command."""
