"""The composition root of the `arena` command line: every command is registered here, and only
the entry points (the `arena` script, `python -m arena`) import this module.

It is the one place in arena/ that reaches up into leagues/; keeping it out of
arena/cli/__init__.py lets leagues.cli import arena.cli.common without a cycle. Importing
leagues.store registers the league tables' migrations: every command that opens a database must
know them, or it would take a league database for a newer arena's. It is named here, in
arena.schema_extensions, and imported when a database is opened: `arena --help` has no use for
SQLite (each command module likewise imports its heavy modules in the command that uses them)."""

from __future__ import annotations

import typer

from arena import schema_extensions
from arena.cli import check, play, rerun, results, show, web
from arena.cli.usage import ArenaCommand, ArenaGroup
from leagues.cli import app as league_app
from leagues.regress_cli import regress

schema_extensions.add("leagues.store")  # the league tables' migrations (see above)

app = typer.Typer(
    name="arena",
    help="Referee, record and rate bots playing hidden-information games.\n\n"
    "Example: arena play corruption --bot bots/corruption-greedy --bot bots/random --bot bots/random --games 10",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain click help, as wide as the terminal, no boxes
    cls=ArenaGroup,
)
app.command("play", cls=ArenaCommand)(play.play)
app.command("ratings", cls=ArenaCommand)(results.ratings)
app.command("games", cls=ArenaCommand)(results.games)
app.command("show", cls=ArenaCommand)(show.show)
app.command("rerun", cls=ArenaCommand)(rerun.rerun)
app.command("check", cls=ArenaCommand)(check.check)
app.command("report", cls=ArenaCommand)(web.report)
app.command("serve", cls=ArenaCommand)(web.serve)
app.add_typer(league_app, name="league")
app.command("regress", cls=ArenaCommand)(regress)


def main() -> None:
    app()
