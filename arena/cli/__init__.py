"""The `arena` command line: one module per command. They are composed in arena.cli.app, which
only the entry point imports, so that every command module (and leagues.cli, which uses
arena.cli.common) can be imported on its own."""
