"""The `arena` command line: one module per concern, composed here."""

from __future__ import annotations

import typer

from arena.cli import check, play, results, show
from arena.cli.usage import ArenaCommand, ArenaGroup

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
app.command("check", cls=ArenaCommand)(check.check)


def _add_leagues() -> None:
    # The CLI is the composition root: the one place in arena/ that reaches up into leagues/.
    from leagues.cli import app as league_app
    from leagues.regress_cli import regress

    app.add_typer(league_app, name="league")
    app.command("regress", cls=ArenaCommand)(regress)


_add_leagues()


def main() -> None:
    app()
