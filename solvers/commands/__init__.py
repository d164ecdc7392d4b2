"""One module per game, each with ``register(subparsers)`` adding that game's subcommands."""
