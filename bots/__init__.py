"""The bots bundled with arena, one folder each (a bot.toml and its files).

A package only so that they are installed with arena (as package data, see pyproject.toml);
arena.bundled finds them here. Nothing imports a bot: each runs as its own process."""
